// The AI SDK v4 data stream adapter (src/providers/ai-sdk-v4.ts), one rule per test; the
// framing itself is tested in test/core/data-stream.test.ts.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import { aiSdkV4 } from '../../src/providers/ai-sdk-v4.js'

const yes = (event: string | null, json: unknown) => aiSdkV4.recognizes({ seq: 0, event, json })

function read(body: string) {
  const m = createMerger({})
  m.push(body)
  return { reply: m.end(), m }
}

describe('aiSdkV4.recognizes', () => {
  it('claims a frame whose event is a data-stream code and whose value has the shape that code calls for', () => {
    expect([yes('0', 'Hi'), yes('g', 'x'), yes('9', { toolCallId: 'c', toolName: 'f', args: {} }), yes('d', { finishReason: 'stop' }), yes('2', [1]), yes('3', 'oops')]).toEqual([true, true, true, true, true, true])
  })

  it('leaves frames with no event (the v5 UI message stream), other event names and misshapen values alone', () => {
    expect([yes(null, { type: 'text-delta', id: '0', delta: 'a' }), yes('message', 'x'), yes('0', { text: 'x' }), yes('9', { toolName: 'f' }), yes('2', {})]).toEqual([false, false, false, false, false])
  })
})

describe('reading the data stream', () => {
  it('text of every step is content, g is reasoning, and d gives the finish reason, usage and the end', () => {
    const { reply } = read('f:{"messageId":"m1"}\ng:"think"\n0:"Hel"\ne:{"finishReason":"tool-calls","usage":{"promptTokens":1,"completionTokens":1},"isContinued":false}\n0:"lo"\nd:{"finishReason":"stop","usage":{"promptTokens":2,"completionTokens":3}}\n')
    expect([reply.provider, reply.choices[0]!.content, reply.choices[0]!.reasoning, reply.choices[0]!.finishReason, reply.usage, reply.done]).toEqual([
      'ai-sdk-v4', 'Hello', 'think', 'stop', { promptTokens: 2, completionTokens: 3 }, true,
    ])
  })

  it('b and c build a call keyed by first appearance; a matching 9 afterwards changes nothing', () => {
    const { reply, m } = read('b:{"toolCallId":"call_1","toolName":"weather"}\nc:{"toolCallId":"call_1","argsTextDelta":"{\\"city\\":"}\nc:{"toolCallId":"call_1","argsTextDelta":"\\"Oslo\\"}"}\n9:{"toolCallId":"call_1","toolName":"weather","args":{"city":"Oslo"}}\nd:{"finishReason":"tool-calls"}\n')
    expect(reply.choices[0]!.toolCalls.map((t) => [t.index, t.id, t.name, t.arguments])).toEqual([[0, 'call_1', 'weather', '{"city":"Oslo"}']])
    expect(m.diagnostics().map((d) => d.code)).toEqual([])
  })

  it('a c part with no b before it is read, with a warning', () => {
    const { reply, m } = read('c:{"toolCallId":"x","argsTextDelta":"{}"}\nd:{"finishReason":"stop"}\n')
    expect([reply.choices[0]!.toolCalls[0]!.arguments, m.diagnostics().map((d) => d.message)]).toEqual(['{}', ['tool call delta for "x" with no tool call streaming start (b) before it']])
  })

  it('3 is a stream error carrying its string', () => {
    const { m } = read('0:"a"\n3:"An error occurred."\n')
    expect(m.streamErrors().map((e) => [e.frame, e.message, e.payload])).toEqual([[1, 'An error occurred.', 'An error occurred.']])
  })

  it("an older stream's code (1, 4-7) is noted, not read", () => {
    const { reply, m } = read('0:"a"\n6:{"tool_call":{"id":"t"}}\n')
    expect([reply.choices[0]!.content, m.diagnostics().filter((d) => d.code === 'note').map((d) => d.message)]).toEqual(['a', ['data stream part "6" (an older stream\'s) is not read']])
  })

  it('never takes a v5 UI message stream, and v5 never takes a v4 one', () => {
    expect([merge('data: {"type":"text-delta","id":"0","delta":"a"}\n\n').provider, merge('0:"a"\n').provider]).toEqual(['ai-sdk', 'ai-sdk-v4'])
  })
})
