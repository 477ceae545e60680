// Bedrock ConverseStream (src/providers/bedrock.ts), one rule per test: events by name (the
// event-stream message's :event-type), exceptions as stream errors, and the same events
// re-sent as SSE or in the SDK's union shape.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import { bedrock } from '../../src/providers/bedrock.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { bedrockEvent, bedrockException, concat } from '../support/eventstream.js'

const yes = (event: string | null, json: unknown) => bedrock.recognizes({ seq: 0, event, json })
const delta = (d: unknown, i = 0) => ({ contentBlockIndex: i, delta: d, p: 'abcd' })

describe('bedrock.recognizes', () => {
  it('claims a ConverseStream event that carries its own field', () => {
    expect([
      yes('messageStart', { role: 'assistant', p: 'a' }), yes('contentBlockDelta', delta({ text: 'a' })), yes('contentBlockStop', { contentBlockIndex: 0 }),
      yes('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't', name: 'f' } } }), yes('messageStop', { stopReason: 'end_turn' }),
      yes('metadata', { usage: { inputTokens: 1 } }), yes('exception:throttlingException', { message: 'slow down' }),
    ]).toEqual([true, true, true, true, true, true, true])
  })

  it("leaves an event without its field, other providers' events and unnamed frames alone", () => {
    expect([
      yes('messageStart', {}), yes('contentBlockDelta', { delta: { text: 'a' } }), yes('message_start', { message: {} }),
      yes('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'a' } }), yes(null, { role: 'assistant' }), yes('messageStop', 'end_turn'),
    ]).toEqual([false, false, false, false, false, false])
  })

  it('claims the SDK union shape ({"contentBlockDelta": {...}}) of a frame without an event name', () => {
    expect([yes(null, { contentBlockDelta: delta({ text: 'a' }) }), yes(null, { contentBlockDelta: delta({ text: 'a' }), other: 1 })]).toEqual([true, false])
  })

  it('is registered, and a bedrock-runtime converse-stream URL names it', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: 'messageStart', json: { role: 'assistant' } })?.id).toBe('bedrock')
    expect(defaultRegistry.hint({ url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream' })?.id).toBe('bedrock')
  })
})

describe('reading ConverseStream', () => {
  const stream = concat(
    bedrockEvent('messageStart', { role: 'assistant', p: 'ab' }),
    bedrockEvent('contentBlockDelta', delta({ reasoningContent: { text: 'think' } })),
    bedrockEvent('contentBlockDelta', delta({ reasoningContent: { signature: 'sig' } })),
    bedrockEvent('contentBlockStop', { contentBlockIndex: 0 }),
    bedrockEvent('contentBlockDelta', delta({ text: 'Hi' }, 1)),
    bedrockEvent('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } } }),
    bedrockEvent('contentBlockDelta', delta({ toolUse: { input: '{"city":' } }, 2)),
    bedrockEvent('contentBlockDelta', delta({ toolUse: { input: '"Oslo"}' } }, 2)),
    bedrockEvent('messageStop', { stopReason: 'tool_use', p: 'a' }),
    bedrockEvent('metadata', { usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 }, metrics: { latencyMs: 80 }, p: 'abc' }),
  )

  it('text is content, reasoningContent.text reasoning (the signature is not), toolUse input builds the call keyed by its block', () => {
    const r = merge(stream)
    expect([r.provider, r.done, r.choices[0]!.content, r.choices[0]!.reasoning, r.choices[0]!.finishReason, r.usage]).toEqual([
      'bedrock', true, 'Hi', 'think', 'tool_use', { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
    ])
    expect(r.choices[0]!.toolCalls).toEqual([{ index: 2, id: 'tooluse_1', type: 'function', name: 'get_weather', arguments: '{"city":"Oslo"}', parsedArguments: { city: 'Oslo' }, argumentsError: null }])
  })

  it('metadata is the terminal marker: without it the stream was cut', () => {
    const m = createMerger({})
    m.push(stream.subarray(0, stream.length - bedrockEvent('metadata', { usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 }, metrics: { latencyMs: 80 }, p: 'abc' }).length))
    expect([m.end().done, m.diagnostics().some((d) => d.code === 'no-terminal-event')]).toEqual([false, true])
  })

  it('an exception keeps the partial reply and is a stream error carrying its type', () => {
    const m = createMerger({})
    m.push(concat(bedrockEvent('messageStart', { role: 'assistant' }), bedrockEvent('contentBlockDelta', delta({ text: 'Hal' })), bedrockException('modelStreamErrorException', 'The model stream failed.')))
    expect(m.end().choices[0]!.content).toBe('Hal')
    expect(m.streamErrors().map((e) => [e.frame, e.message, e.type])).toEqual([[2, 'The model stream failed.', 'modelStreamErrorException']])
  })

  it('the same events as SSE (a proxy) are read the same way', () => {
    const sse = [
      'event: messageStart\ndata: {"role":"assistant"}\n\n',
      'event: contentBlockDelta\ndata: {"contentBlockIndex":0,"delta":{"text":"Hel"}}\n\n',
      'event: contentBlockDelta\ndata: {"contentBlockIndex":0,"delta":{"text":"lo"}}\n\n',
      'event: messageStop\ndata: {"stopReason":"end_turn"}\n\n',
      'event: metadata\ndata: {"usage":{"inputTokens":1,"outputTokens":2,"totalTokens":3}}\n\n',
    ].join('')
    const r = merge(sse)
    expect([r.transport, r.provider, r.choices[0]!.content, r.choices[0]!.finishReason, r.done]).toEqual(['sse', 'bedrock', 'Hello', 'end_turn', true])
  })

  it('redacted reasoning is kept out with one note, and a delta with no messageStart before it still makes the choice', () => {
    const m = createMerger({})
    m.push(concat(bedrockEvent('contentBlockDelta', delta({ reasoningContent: { redactedContent: 'b3BhcXVl' } })), bedrockEvent('contentBlockDelta', delta({ reasoningContent: { redactedContent: 'cXVl' } }))))
    const r = m.end()
    expect([r.choices[0]!.reasoning, m.diagnostics().filter((d) => d.code === 'note').map((d) => d.message)]).toEqual([
      '', ['redacted reasoning (reasoningContent.redactedContent, opaque) is not reasoning text: kept out of the reply'],
    ])
  })
})
