// Reply.messages from neutral deltas (docs/architecture.md#messages): the accumulator keeps each
// named message apart, lists them in the order first named, joins their text into the choice,
// credits each frame with the run it wrote both in the choice and in the message part, and
// shows a choice whose deltas name no message as one message.

import { describe, expect, it } from 'vitest'
import { Accumulator } from '../../src/core/accumulator.js'
import { createMerger, type Delta } from '../../src/index.js'

function accumulate(frames: Delta[][]): Accumulator {
  const acc = new Accumulator()
  frames.forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  return acc
}

const text = (messageId: string, t: string, channel: 'content' | 'reasoning' = 'content'): Delta => ({ type: 'text', choice: 0, channel, text: t, messageId })

describe('messages in the accumulator', () => {
  it('keeps interleaved messages apart, in the order first named, and joins their text into the choice', () => {
    const acc = accumulate([
      [{ type: 'message', choice: 0, messageId: 'a', role: 'assistant', name: 'tide' }, text('a', 'Low water ')],
      [text('b', 'Sunny, ')],
      [text('a', 'at 06:42. ')],
      [text('b', '4 °C. ')],
    ])
    const state = acc.state()
    expect(state.messages).toEqual([
      { id: 'a', role: 'assistant', name: 'tide', parts: [{ type: 'text', text: 'Low water at 06:42. ' }] },
      { id: 'b', role: null, parts: [{ type: 'text', text: 'Sunny, 4 °C. ' }] },
    ])
    expect(state.choices[0]!.content).toBe('Low water at 06:42. Sunny, 4 °C. ')
    // each frame is credited where its text stands in the joined content …
    expect(acc.provenanceRecords().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 10], [1, 20, 27], [2, 10, 20], [3, 27, 33]])
    // … and in its message's part
    expect(acc.partProvenance()).toEqual([
      { frame: 0, message: 0, part: 0, start: 0, end: 10 },
      { frame: 1, message: 1, part: 0, start: 0, end: 7 },
      { frame: 2, message: 0, part: 0, start: 10, end: 20 },
      { frame: 3, message: 1, part: 0, start: 7, end: 13 },
    ])
  })

  it('a new part when the channel changes or a part id is new; a part id continues its own part', () => {
    const state = accumulate([
      [text('m', 'think', 'reasoning'), text('m', 'say')],
      [{ type: 'text', choice: 0, channel: 'content', text: 'one', messageId: 'm', partId: 'p1' }],
      [{ type: 'text', choice: 0, channel: 'content', text: '', messageId: 'm', partId: 'p2' }],
      [{ type: 'text', choice: 0, channel: 'content', text: ' more', messageId: 'm', partId: 'p1' }],
    ]).state()
    expect(state.messages[0]!.parts).toEqual([
      { type: 'reasoning', text: 'think' }, { type: 'text', text: 'say' }, { type: 'text', text: 'one more' }, { type: 'text', text: '' },
    ])
    expect([state.choices[0]!.content, state.choices[0]!.reasoning]).toEqual(['sayone more', 'think'])
  })

  it('tool calls are parts of the message that first names them; results, values and errors are parts where they arrive', () => {
    const acc = accumulate([
      [{ type: 'tool-call', choice: 0, key: 0, id: 'c1', name: 'weather', arguments: '{"city":', messageId: 'm' }],
      [{ type: 'tool-call', choice: 0, key: 0, arguments: '"Oslo"}', messageId: 'other' }],
      [{ type: 'tool-result', choice: 0, messageId: 't', toolCallId: 'c1', output: { error: 'down' }, isError: true }],
      [{ type: 'message-part', choice: 0, messageId: 'm', part: 'source', data: { url: 'https://example.com' } }],
      [{ type: 'stream-error', message: 'gave up', payload: null, messageId: 'm' }],
    ])
    const state = acc.state()
    expect(state.messages).toEqual([
      {
        id: 'm', role: null, parts: [
          { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}', parsedArguments: { city: 'Oslo' }, argumentsError: null },
          { type: 'source', data: { url: 'https://example.com' } },
          { type: 'error', message: 'gave up' },
        ],
      },
      { id: 'other', role: null, parts: [] },
      { id: 't', role: null, parts: [{ type: 'tool-result', toolCallId: 'c1', output: { error: 'down' }, isError: true }] },
    ])
    expect(state.choices[0]!.toolCalls.map((t) => t.arguments)).toEqual(['{"city":"Oslo"}'])
    expect(acc.partProvenance()).toEqual([
      { frame: 0, message: 0, part: 0, start: 0, end: 8 },
      { frame: 1, message: 0, part: 0, start: 8, end: 15 },
    ])
  })

  it('a choice whose deltas name no message is one message: reasoning, content, refusal, then its calls', () => {
    const acc = accumulate([
      [{ type: 'choice', choice: 0, role: 'assistant' }, { type: 'text', choice: 0, channel: 'content', text: 'Hi' }],
      [{ type: 'text', choice: 0, channel: 'reasoning', text: 'hm' }, { type: 'tool-call', choice: 0, key: 0, id: 'x', name: 'f', arguments: '{}' }],
      [{ type: 'text', choice: 1, channel: 'refusal', text: 'no' }],
    ])
    expect(acc.state().messages).toEqual([
      {
        id: null, role: 'assistant', parts: [
          { type: 'reasoning', text: 'hm' }, { type: 'text', text: 'Hi' },
          { type: 'tool-call', id: 'x', name: 'f', arguments: '{}', parsedArguments: {}, argumentsError: null },
        ],
      },
      { id: null, role: null, parts: [{ type: 'refusal', text: 'no' }] },
    ])
    expect(acc.partProvenance()).toEqual([
      { frame: 0, message: 0, part: 1, start: 0, end: 2 },
      { frame: 1, message: 0, part: 0, start: 0, end: 2 },
      { frame: 1, message: 0, part: 2, start: 0, end: 2 },
      { frame: 2, message: 1, part: 0, start: 0, end: 2 },
    ])
  })

  it('text without a message id in a choice with messages comes first, as a message of its own', () => {
    const state = accumulate([
      [text('m', 'named')],
      [{ type: 'text', choice: 0, channel: 'reasoning', text: 'loose' }],
    ]).state()
    expect(state.messages).toEqual([
      { id: null, role: null, parts: [{ type: 'reasoning', text: 'loose' }] },
      { id: 'm', role: null, parts: [{ type: 'text', text: 'named' }] },
    ])
    expect([state.choices[0]!.content, state.choices[0]!.reasoning]).toEqual(['named', 'loose'])
  })

  it('a tool result nested deeper than the limit is kept as null, and said', () => {
    let deep: unknown = 1
    for (let i = 0; i < 300; i++) deep = [deep] // past MAX_JSON_DEPTH (256)
    const acc = accumulate([[{ type: 'tool-result', choice: 0, messageId: 't', toolCallId: 'c', output: deep, isError: false }]])
    expect(acc.state().messages[0]!.parts).toEqual([{ type: 'tool-result', toolCallId: 'c', output: null, isError: false }])
    expect(acc.diagnostics.map((d) => [d.code, d.level])).toEqual([['too-deep', 'warning']])
  })
})

describe('messages through the merger', () => {
  it('the Reply after any frame holds the messages as they stood then', () => {
    const m = createMerger()
    m.push('event: messages\ndata: [{"type":"AIMessageChunk","id":"a","content":"A1"},{}]\n\n')
    m.push('event: messages\ndata: [{"type":"AIMessageChunk","id":"b","content":"B1"},{}]\n\n')
    m.push('event: messages\ndata: [{"type":"AIMessageChunk","id":"a","content":"A2"},{}]\n\n')
    const end = m.end()
    expect(end.messages.map((x) => [x.id, x.parts])).toEqual([['a', [{ type: 'text', text: 'A1A2' }]], ['b', [{ type: 'text', text: 'B1' }]]])
    expect(m.replyAt(1).messages.map((x) => [x.id, x.parts])).toEqual([['a', [{ type: 'text', text: 'A1' }]], ['b', [{ type: 'text', text: 'B1' }]]])
    expect(m.partProvenance()).toEqual([
      { frame: 0, message: 0, part: 0, start: 0, end: 2 },
      { frame: 1, message: 1, part: 0, start: 0, end: 2 },
      { frame: 2, message: 0, part: 0, start: 2, end: 4 },
    ])
  })

  it('a message opened `after` another goes right after it and the tool messages already there (AG-UI files a result so)', () => {
    const result = (id: string, call: string, after: string): Delta[] => [
      { type: 'message', choice: 0, messageId: id, role: 'tool', after },
      { type: 'tool-result', choice: 0, messageId: id, toolCallId: call, output: call, isError: false },
    ]
    const acc = accumulate([
      [{ type: 'message', choice: 0, messageId: 'a', role: 'assistant' }, text('a', 'calls')],
      [{ type: 'message', choice: 0, messageId: 'b', role: 'assistant' }, text('b', 'next')],
      result('r1', 'c1', 'a'),
      result('r2', 'c2', 'a'),
      result('r3', 'c3', 'unknown'),
    ])
    expect(acc.state().messages.map((m) => m.id)).toEqual(['a', 'r1', 'r2', 'b', 'r3'])
    // the text is still joined in the order the messages were named
    expect(acc.state().choices[0]!.content).toBe('callsnext')
  })
})
