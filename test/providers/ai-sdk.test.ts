import { describe, it, expect } from 'vitest'
import { aiSdk } from '../../src/providers/ai-sdk.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { Accumulator } from '../../src/core/accumulator.js'
import type { Delta, FrameMapper } from '../../src/index.js'

type Part = Record<string, unknown>

/** Feeds UI message stream parts (SSE data frames, no event name) through one mapper. */
function mapAll(parts: unknown[], mapper: FrameMapper = aiSdk.createMapper()): Delta[][] {
  return parts.map((json, seq) => mapper.map({ seq, event: null, json }))
}

function accumulate(parts: Part[]): { acc: Accumulator; state: ReturnType<Accumulator['state']> } {
  const acc = new Accumulator()
  mapAll(parts).forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  return { acc, state: acc.state() }
}

const start: Part = { type: 'start', messageId: 'msg_1' }
const ASSISTANT: Delta = { type: 'choice', choice: 0, role: 'assistant' }
/** The one message, as `start` names it (msg_1), or '' before a start named it. */
const MESSAGE: Delta = { type: 'message', choice: 0, messageId: 'msg_1', role: 'assistant' }
const text = (channel: 'content' | 'reasoning', t: string, partId?: string, messageId = 'msg_1'): Delta =>
  ({ type: 'text', choice: 0, channel, text: t, messageId, ...(partId === undefined ? {} : { partId }) })

describe('aiSdk.recognizes', () => {
  const yes = (json: unknown) => aiSdk.recognizes({ seq: 0, event: null, json })

  it('claims the UI stream part types no other wire format uses', () => {
    for (const type of ['text-start', 'text-delta', 'text-end', 'reasoning-start', 'reasoning-delta', 'reasoning-end']) {
      expect(yes({ type, id: 'x', delta: 'a' })).toBe(true)
    }
    for (const type of ['tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-input-error', 'tool-output-available', 'tool-output-error']) {
      expect(yes({ type, toolCallId: 'c' })).toBe(true)
    }
    expect(yes({ type: 'start-step' })).toBe(true)
    expect(yes({ type: 'finish-step' })).toBe(true)
  })

  it('claims error only with the SDK\'s own errorText field', () => {
    expect(yes({ type: 'error', errorText: 'Unauthorized' })).toBe(true)
    expect(yes({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toBe(false)
    expect(yes({ type: 'error', code: 'server_error', message: 'x', sequence_number: 3 })).toBe(false)
    expect(yes({ type: 'error', errorText: 7 })).toBe(false)
  })

  it('needs the field the part type carries', () => {
    expect(yes({ type: 'text-delta', delta: 'a' })).toBe(false)
    expect(yes({ type: 'text-delta', id: 0, delta: 'a' })).toBe(false)
    expect(yes({ type: 'tool-input-delta', inputTextDelta: '{' })).toBe(false)
  })

  it('leaves generic words and other formats alone', () => {
    for (const type of ['start', 'finish', 'abort', 'message-metadata', 'data-weather', 'text', 'ping']) {
      expect(yes({ type, messageId: 'm', errorText: 'e', id: 'x' })).toBe(false)
    }
    expect(yes({ type: 'content_block_delta', index: 0 })).toBe(false)
    expect(yes({ type: 'response.output_text.delta', delta: 'a' })).toBe(false)
    expect(yes({ type: 'content-delta', index: 0 })).toBe(false) // Cohere v2
    expect(yes({ object: 'chat.completion.chunk', choices: [] })).toBe(false)
    expect(yes({ candidates: [] })).toBe(false)
    expect(yes({ model: 'llama3', created_at: 't', done: false, message: {} })).toBe(false)
    expect(yes(['text-delta'])).toBe(false)
    expect(yes('text-delta')).toBe(false)
    expect(yes({ type: 7 })).toBe(false)
  })

  it('is registered, and wins only on its own frames', () => {
    expect(defaultRegistry.adapter('ai-sdk')).toBe(aiSdk)
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { type: 'text-delta', id: '0', delta: 'a' } })?.id).toBe('ai-sdk')
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { type: 'start-step' } })?.id).toBe('ai-sdk')
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: start })).toBeNull()
    expect(defaultRegistry.recognize({ seq: 0, event: 'message_start', json: { type: 'message_start', message: {} } })?.id).toBe('anthropic')
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { object: 'chat.completion.chunk', choices: [] } })?.id).toBe('openai-chat')
  })
})

describe('aiSdk mapper: text and reasoning', () => {
  it('start names the assistant once; text and reasoning deltas go to their channels', () => {
    expect(mapAll([
      start,
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Need weather.' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Let me ' },
      { type: 'text-delta', id: 't', delta: '' },
      { type: 'text-end', id: 't' },
      { type: 'finish-step' },
    ])).toEqual([
      [ASSISTANT, MESSAGE],
      [],
      [text('reasoning', '', 'r#1')],
      [text('reasoning', 'Need weather.', 'r#1')],
      [],
      [text('content', '', 't#1')],
      [text('content', 'Let me ', 't#1')],
      [text('content', '', 't#1')],
      [],
      [],
    ])
  })

  it('without a start part, the first part that touches the reply names the assistant', () => {
    expect(mapAll([
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
    ])).toEqual([
      [],
      [ASSISTANT, text('content', '', 't#1', '')],
      [text('content', 'Hi', 't#1', '')],
    ])
  })

  it('keeps a delta whose part was never started (or whose step finished), with a warning', () => {
    expect(mapAll([
      start,
      { type: 'text-delta', id: 'a', delta: 'x' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'finish-step' },
      { type: 'reasoning-delta', id: 'r', delta: 'y' },
      { type: 'text-end', id: 'a' },
    ])).toEqual([
      [ASSISTANT, MESSAGE],
      [
        { type: 'note', level: 'warning', message: 'text-delta for part "a" with no open text-start in this step (the AI SDK client throws here)' },
        text('content', 'x', 'a#0'),
      ],
      [text('reasoning', '', 'r#1')],
      [],
      [
        { type: 'note', level: 'warning', message: 'reasoning-delta for part "r" with no open reasoning-start in this step (the AI SDK client throws here)' },
        text('reasoning', 'y', 'r#1'),
      ],
      [{ type: 'note', level: 'warning', message: 'text-end for part "a" with no open text-start in this step (the AI SDK client throws here)' }],
    ])
  })

  it('a delta that is not a string adds nothing', () => {
    expect(mapAll([start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: null }, { type: 'text-delta', id: 't' }]))
      .toEqual([[ASSISTANT, MESSAGE], [text('content', '', 't#1')], [], []])
  })
})

describe('aiSdk mapper: tool calls', () => {
  it('keys calls by first appearance of the toolCallId; fragments are the arguments', () => {
    expect(mapAll([
      start,
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'getWeather' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"city"' },
      { type: 'tool-input-start', toolCallId: 'call_2', toolName: 'getTime' },
      { type: 'tool-input-delta', toolCallId: 'call_2', inputTextDelta: '{}' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: ':"SF"}' },
    ])).toEqual([
      [ASSISTANT, MESSAGE],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'call_1', name: 'getWeather', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'call_1', arguments: '{"city"', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'call_2', name: 'getTime', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'call_2', arguments: '{}', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'call_1', arguments: ':"SF"}', messageId: 'msg_1' }],
    ])
  })

  it('tool-input-available without fragments brings the arguments as JSON text', () => {
    expect(mapAll([
      start,
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'getTime', input: { timezone: 'Europe/Paris' } },
      { type: 'tool-input-start', toolCallId: 'b', toolName: 'listFiles' },
      { type: 'tool-input-available', toolCallId: 'b', toolName: 'listFiles', input: {} },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'noInput' },
    ])).toEqual([
      [ASSISTANT, MESSAGE],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'a', name: 'getTime', arguments: '{"timezone":"Europe/Paris"}', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'b', name: 'listFiles', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'b', name: 'listFiles', arguments: '{}', messageId: 'msg_1' }],
      [{ type: 'tool-call', choice: 0, key: 2, id: 'c', name: 'noInput', arguments: null, messageId: 'msg_1' }],
    ])
  })

  it('after fragments, tool-input-available is a final to compare: no arguments when the JSON values agree', () => {
    const deltas = mapAll([
      start,
      { type: 'tool-input-start', toolCallId: 'x', toolName: 'f' },
      { type: 'tool-input-delta', toolCallId: 'x', inputTextDelta: '{"city": ' },
      { type: 'tool-input-delta', toolCallId: 'x', inputTextDelta: '"SF"}' },
      { type: 'tool-input-available', toolCallId: 'x', toolName: 'f', input: { city: 'SF' } },
    ])
    expect(deltas[4]).toEqual([
      { type: 'final-tool-call', choice: 0, key: 0, id: 'x', name: 'f', arguments: null, source: 'tool-input-available' },
    ])
  })

  it('a final input that differs from the fragments is sent whole; the accumulator keeps the fragments and warns', () => {
    const parts: Part[] = [
      start,
      { type: 'tool-input-start', toolCallId: 'x', toolName: 'f' },
      { type: 'tool-input-delta', toolCallId: 'x', inputTextDelta: '{"city":"S' },
      { type: 'tool-input-available', toolCallId: 'x', toolName: 'f', input: { city: 'SF' } },
    ]
    expect(mapAll(parts)[3]).toEqual([
      { type: 'final-tool-call', choice: 0, key: 0, id: 'x', name: 'f', arguments: '{"city":"SF"}', source: 'tool-input-available' },
    ])
    const { acc, state } = accumulate(parts)
    expect(state.choices[0]!.toolCalls).toEqual([{
      index: 0, id: 'x', type: 'function', name: 'f', arguments: '{"city":"S',
      parsedArguments: null, argumentsError: expect.any(String),
    }])
    expect(acc.diagnostics).toEqual([expect.objectContaining({ frame: 3, level: 'warning', code: 'final-mismatch' })])
  })

  it('a tool-input-delta with no tool-input-start is kept, with a warning', () => {
    expect(mapAll([start, { type: 'tool-input-delta', toolCallId: 'z', inputTextDelta: '{}' }])[1]).toEqual([
      { type: 'note', level: 'warning', message: 'tool-input-delta for tool call "z" with no tool-input-start (the AI SDK client throws here)' },
      { type: 'tool-call', choice: 0, key: 0, id: 'z', arguments: '{}', messageId: 'msg_1' },
    ])
  })

  it('tool-input-error: the raw input is the arguments, with a warning', () => {
    expect(mapAll([
      start,
      { type: 'tool-input-error', toolCallId: 'e', toolName: 'f', input: '{"a":', errorText: 'Invalid JSON' },
    ])[1]).toEqual([
      { type: 'tool-call', choice: 0, key: 0, id: 'e', name: 'f', arguments: '{"a":', messageId: 'msg_1' },
      { type: 'note', level: 'warning', message: 'tool call "e": input error: Invalid JSON' },
    ])
  })

  it('the reply shows type function, since the wire never names one', () => {
    const { state } = accumulate([
      start,
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'getWeather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"SF"}' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'getWeather', input: { city: 'SF' } },
    ])
    expect(state.choices).toEqual([{
      index: 0, role: 'assistant', content: '', reasoning: '', refusal: '',
      toolCalls: [{
        index: 0, id: 'c1', type: 'function', name: 'getWeather', arguments: '{"city":"SF"}',
        parsedArguments: { city: 'SF' }, argumentsError: null,
      }],
      finishReason: null,
    }])
  })

  it('tool outputs, output errors and approval requests are parts of the message, not reply text; output errors and denials are noted', () => {
    expect(mapAll([
      start,
      { type: 'tool-output-available', toolCallId: 'c', output: { ok: true } },
      { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'c' },
      { type: 'tool-output-error', toolCallId: 'c', errorText: 'boom' },
      { type: 'tool-output-denied', toolCallId: 'c' },
    ])).toEqual([
      [ASSISTANT, MESSAGE],
      [{ type: 'tool-result', choice: 0, messageId: 'msg_1', toolCallId: 'c', output: { ok: true }, isError: false }],
      [{ type: 'message-part', choice: 0, messageId: 'msg_1', part: 'data', data: { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'c' } }],
      [
        { type: 'tool-result', choice: 0, messageId: 'msg_1', toolCallId: 'c', output: 'boom', isError: true },
        { type: 'note', level: 'info', message: 'tool call "c": output error: boom' },
      ],
      [{ type: 'note', level: 'info', message: 'tool call "c": output denied' }],
    ])
  })
})

describe('aiSdk mapper: ends, errors and other parts', () => {
  it('finish carries the finish reason and is a terminal marker', () => {
    expect(mapAll([start, { type: 'finish', finishReason: 'tool-calls' }, { type: 'finish' }, { type: 'finish', finishReason: '' }])).toEqual([
      [ASSISTANT, MESSAGE],
      [{ type: 'finish', choice: 0, reason: 'tool-calls' }, { type: 'done' }],
      [{ type: 'done' }],
      [{ type: 'done' }],
    ])
  })

  it('finish as the first part still names the assistant', () => {
    expect(mapAll([{ type: 'finish', finishReason: 'stop' }])).toEqual([
      [ASSISTANT, { type: 'finish', choice: 0, reason: 'stop' }, { type: 'done' }],
    ])
  })

  it('error is a stream error carrying errorText', () => {
    const error = { type: 'error', errorText: 'Rate limit exceeded' }
    expect(mapAll([error, { type: 'error' }])).toEqual([
      [{ type: 'stream-error', message: 'Rate limit exceeded', payload: error, messageId: '' }],
      [{ type: 'stream-error', message: 'error part without errorText', payload: { type: 'error' }, messageId: '' }],
    ])
  })

  it('abort ends the message with a warning and no invented finish reason', () => {
    expect(mapAll([{ type: 'abort', reason: 'user stopped' }, { type: 'abort' }])).toEqual([
      [{ type: 'note', level: 'warning', message: 'the stream was aborted: user stopped' }, { type: 'done' }],
      [{ type: 'note', level: 'warning', message: 'the stream was aborted' }, { type: 'done' }],
    ])
  })

  it('metadata is silent; data, sources and files are parts of the message as given (transient data is not); unknown types are noted', () => {
    const data = { type: 'data-weather', id: 'w', data: { city: 'SF' } }
    const source = { type: 'source-url', sourceId: 's', url: 'https://example.com' }
    const file = { type: 'file', url: 'data:image/png;base64,AAAA', mediaType: 'image/png' }
    expect(mapAll([
      { type: 'message-metadata', messageMetadata: { model: 'x' } },
      data,
      { type: 'data-progress', data: 1, transient: true },
      source,
      file,
      { type: 'reset-step' },
      { nothing: true },
      [1, 2],
    ])).toEqual([
      [],
      [{ type: 'message-part', choice: 0, messageId: '', part: 'data', data }],
      [],
      [{ type: 'message-part', choice: 0, messageId: '', part: 'source', data: source }],
      [{ type: 'message-part', choice: 0, messageId: '', part: 'file', data: file }],
      [{ type: 'note', level: 'info', message: 'ignored AI SDK part type "reset-step"' }],
      [{ type: 'note', level: 'info', message: 'ignored AI SDK part type null' }],
      [],
    ])
  })

  it('a hostile toolCallId is just a key', () => {
    expect(mapAll([
      { type: 'tool-input-start', toolCallId: '__proto__', toolName: 'f' },
      { type: 'tool-input-start', toolCallId: 'constructor', toolName: 'g' },
    ])).toEqual([
      [ASSISTANT, { type: 'tool-call', choice: 0, key: 0, id: '__proto__', name: 'f', messageId: '' }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'constructor', name: 'g', messageId: '' }],
    ])
  })

  it('each mapper has its own state', () => {
    const a = aiSdk.createMapper()
    a.map({ seq: 0, event: null, json: { type: 'tool-input-start', toolCallId: 'c', toolName: 'f' } })
    const b = aiSdk.createMapper()
    expect(b.map({ seq: 0, event: null, json: { type: 'tool-input-start', toolCallId: 'd', toolName: 'f' } })).toEqual([
      ASSISTANT, { type: 'tool-call', choice: 0, key: 0, id: 'd', name: 'f', messageId: '' },
    ])
  })
})
