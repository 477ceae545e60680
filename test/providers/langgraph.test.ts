// LangGraph Server (src/providers/langgraph.ts): one rule per test. Messages are shaped like
// the recorded ones (langchain-ai/langgraph libs/sdk-py/tests/fixtures/response.txt for
// messages/partial; a langgraph-api 0.4.28 recording for messages tuples; tool_call_chunks as
// in vercel/ai packages/langchain/src/__fixtures__/langgraph.ts), cut to the fields read.

import { describe, expect, it } from 'vitest'
import { createMerger, merge, type Reply } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { langgraph } from '../../src/providers/langgraph.js'

type Frame = [event: string, data: unknown]

const sse = (frames: Frame[]) => frames.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join('')

function read(frames: Frame[]) {
  const m = createMerger()
  m.push(sse(frames))
  const reply = m.end()
  return { reply, diagnostics: m.diagnostics().filter((d) => d.code !== 'no-terminal-event').map((d) => [d.frame, d.code]), provenance: m.provenance() }
}

const choice = (r: Reply) => r.choices[0]!
const META = { langgraph_node: 'agent', langgraph_step: 1 }
const chunk = (id: string, fields: Record<string, unknown>) => ['messages', [{ content: '', type: 'AIMessageChunk', id, tool_call_chunks: [], ...fields }, META]] as Frame
const partial = (id: string, fields: Record<string, unknown>) => ['messages/partial', [{ content: '', type: 'ai', id, tool_calls: [], ...fields }]] as Frame

describe('recognition', () => {
  const claims = (event: string, json: unknown) => langgraph.recognizes({ seq: 0, event, json })

  it('its stream modes with their data shapes name it, namespaced or not', () => {
    expect([
      claims('metadata', { run_id: 'r', attempt: 1 }),
      claims('messages', [{ type: 'AIMessageChunk', content: 'x' }, {}]),
      claims('messages|sub:1', [{ type: 'AIMessageChunk', content: 'x' }, {}]),
      claims('messages/partial', [{ type: 'ai', content: 'x' }]),
      claims('messages/complete', []),
      claims('values', { messages: [] }),
      claims('debug|conduct_research:1', { type: 'checkpoint', step: 0 }),
    ]).toEqual([true, true, true, true, true, true, true])
  })

  it('LangServe\'s metadata (no attempt), a bare end or error, and another shape of `messages` do not', () => {
    expect([
      claims('metadata', { run_id: 'r' }),
      claims('end', null),
      claims('error', { error: 'E', message: 'm' }),
      claims('messages', { type: 'x' }),
      claims('message', [{ type: 'AIMessageChunk' }, {}]),
    ]).toEqual([false, false, false, false, false])
  })

  it('a stream whose first frames are a bare end is still named by its later frames', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: 'messages/partial', json: [] })?.id).toBe('langgraph')
  })
})

describe('messages tuples (append)', () => {
  it('tool_call_chunks build calls keyed per message by index; continuations without id or name join them', () => {
    const { reply } = read([
      chunk('run-1', { tool_call_chunks: [{ name: 'get_weather', args: '', id: 'call_1', index: 0, type: 'tool_call_chunk' }] }),
      chunk('run-1', { tool_call_chunks: [{ name: null, args: '{"city":', id: null, index: 0, type: 'tool_call_chunk' }] }),
      chunk('run-1', { tool_call_chunks: [{ name: null, args: '"Tokyo"}', id: null, index: 0, type: 'tool_call_chunk' }] }),
      chunk('run-2', { tool_call_chunks: [{ name: 'get_time', args: '{}', id: 'call_2', index: 0, type: 'tool_call_chunk' }] }),
    ])
    expect(choice(reply).toolCalls.map((t) => [t.index, t.id, t.name, t.arguments])).toEqual([
      [0, 'call_1', 'get_weather', '{"city":"Tokyo"}'], [1, 'call_2', 'get_time', '{}'],
    ])
  })

  it('the JS server\'s chunks (type ai, with tool_call_chunks) append like AIMessageChunks: continuations without tool_calls keep their arguments', () => {
    const js = (fields: Record<string, unknown>): Frame => ['messages', [{ content: '', type: 'ai', id: 'run-js', tool_calls: [], ...fields }, META]]
    const { reply } = read([
      js({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'calc', input: '', index: 1 }], tool_calls: [{ name: 'calc', args: {}, id: 'toolu_1' }], tool_call_chunks: [{ name: 'calc', args: '', id: 'toolu_1', index: 1 }] }),
      js({ content: [{ type: 'input_json_delta', input: '{"x":', index: 1 }], tool_call_chunks: [{ args: '{"x":', index: 1 }] }),
      js({ content: [{ type: 'input_json_delta', input: '2}', index: 1 }], tool_call_chunks: [{ args: '2}', index: 1 }] }),
    ])
    expect(choice(reply).toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([['toolu_1', 'calc', '{"x":2}']])
  })

  it('content blocks: text is content, thinking and reasoning blocks and reasoning_content are reasoning; tool_use blocks are not read twice', () => {
    const { reply } = read([
      chunk('run-1', { content: [{ type: 'thinking', thinking: 'Let me ', index: 0 }] }),
      chunk('run-1', { content: [{ type: 'reasoning', reasoning: 'think.', index: 0 }] }),
      chunk('run-1', { content: [{ type: 'text', text: 'Hi', index: 1 }, { type: 'tool_use', id: 't', name: 'f', input: {}, index: 2 }] }),
      chunk('run-2', { content: ' there', additional_kwargs: { reasoning_content: ' More.' } }),
    ])
    expect([choice(reply).content, choice(reply).reasoning, choice(reply).toolCalls]).toEqual(['Hi there', 'Let me think. More.', []])
  })

  it('tool and human messages are not the reply', () => {
    const { reply } = read([
      ['messages', [{ content: 'tool output', type: 'tool', id: 't1', tool_call_id: 'call_1' }, META]],
      ['messages', [{ content: 'hi', type: 'human', id: 'h1' }, META]],
      chunk('run-1', { content: 'Answer' }),
    ])
    expect(choice(reply).content).toBe('Answer')
  })

  it('a whole ai message in the tuples (a node\'s own) appends its text and its parsed calls', () => {
    const { reply } = read([
      ['messages|tools:1', [{ content: 'Checking.', type: 'ai', id: 'ai-1', tool_calls: [{ name: 'f', args: { a: 1 }, id: 'call_9', type: 'tool_call' }] }, META]],
    ])
    expect([choice(reply).content, choice(reply).toolCalls.map((t) => [t.id, t.name, t.arguments])]).toEqual(['Checking.', [['call_9', 'f', '{"a":1}']]])
  })

  it('usage_metadata is the usage', () => {
    const { reply } = read([chunk('run-1', { content: 'x', usage_metadata: { input_tokens: 10, output_tokens: 6, total_tokens: 16 } })])
    expect(reply.usage).toEqual({ input_tokens: 10, output_tokens: 6, total_tokens: 16 })
  })
})

describe('finish, error, end', () => {
  it('the finish reason is the last AI message\'s, given at end: an agent\'s tool_use then end_turn is no duplicate and no content after a finish', () => {
    const { reply, diagnostics } = read([
      chunk('run-1', { tool_call_chunks: [{ name: 'f', args: '{}', id: 'c', index: 0 }], response_metadata: { stop_reason: 'tool_use' } }),
      ['messages', [{ content: '42', type: 'tool', id: 't' }, META]],
      chunk('run-2', { content: 'Done.', response_metadata: { finish_reason: 'stop' } }),
      ['end', null],
    ])
    expect([choice(reply).finishReason, reply.done, diagnostics]).toEqual(['stop', true, []])
  })

  it('without end, the finish reason is given at the end of the body', () => {
    expect(choice(read([chunk('run-1', { content: 'x', response_metadata: { stop_reason: 'end_turn' } })]).reply).finishReason).toBe('end_turn')
  })

  it('an error event is a stream error with its message and error type', () => {
    const m = createMerger()
    m.push(sse([chunk('run-1', { content: 'x' }), ['error', { error: 'ValueError', message: 'bad input' }]]))
    m.end()
    expect(m.streamErrors()).toEqual([{ frame: 1, message: 'bad input', code: null, type: 'ValueError', payload: { error: 'ValueError', message: 'bad input' } }])
  })

  it('an event it does not know is one info note, once per name; values, updates, debug and metadata are quiet', () => {
    const { diagnostics } = read([
      ['metadata', { run_id: 'r', attempt: 1 }], ['values', { messages: [] }], ['updates', { agent: {} }],
      ['surprise', {}], ['surprise', {}], chunk('run-1', { content: 'x' }),
    ])
    expect(diagnostics).toEqual([[3, 'note']])
  })
})

describe('messages/partial and messages/complete (snapshots)', () => {
  it('each snapshot is credited with what it added', () => {
    const { reply, provenance } = read([partial('run-1', { content: 'Hel' }), partial('run-1', { content: 'Hello' }), partial('run-1', { content: 'Hello!' })])
    expect([choice(reply).content, provenance.map((p) => [p.frame, p.start, p.end])]).toEqual(['Hello!', [[0, 0, 3], [1, 3, 5], [2, 5, 6]]])
  })

  it('two messages snapshot one after the other into one content; a rewrite of the second keeps the first', () => {
    const { reply, diagnostics } = read([
      partial('run-1', { content: 'First. ' }),
      partial('run-2', { content: 'Secnd' }),
      partial('run-2', { content: 'Second.' }),
    ])
    expect([choice(reply).content, diagnostics]).toEqual(['First. Second.', [[2, 'snapshot-rewrote']]])
  })

  it('a rewrite of a message another message wrote after is applied in its own message (and said); the choice joins the messages in order', () => {
    const { reply, diagnostics } = read([
      partial('run-1', { content: 'Alpha' }),
      partial('run-2', { content: 'Beta' }),
      partial('run-1', { content: 'Alpine' }),
      partial('run-1', { content: 'Alphabet' }),
    ])
    expect(reply.messages.map((m) => [m.id, m.parts])).toEqual([['run-1', [{ type: 'text', text: 'Alphabet' }]], ['run-2', [{ type: 'text', text: 'Beta' }]]])
    // "Alpine" rewrote "Alpha", and "Alphabet" rewrote "Alpine"
    expect([choice(reply).content, diagnostics]).toEqual(['AlphabetBeta', [[2, 'snapshot-rewrote'], [3, 'snapshot-rewrote']]])
  })

  it('tool_use partial_json is the argument text so far: each frame adds its part', () => {
    const use = (json: string) => ({ content: [{ id: 'toolu_1', input: {}, name: 'Plan', type: 'tool_use', index: 0, partial_json: json }] })
    const { reply, provenance } = read([partial('run-1', use('')), partial('run-1', use('{"steps": [')), partial('run-1', use('{"steps": ["a"]}'))])
    expect(choice(reply).toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([['toolu_1', 'Plan', '{"steps": ["a"]}']])
    expect(provenance.map((p) => [p.frame, p.channel, p.start, p.end])).toEqual([[1, 'arguments', 0, 11], [2, 'arguments', 11, 16]])
  })

  it('argument text that does not extend the last is said, and the earlier text is kept (arguments that then do not parse, said at the end)', () => {
    const use = (json: string) => ({ content: [{ id: 'toolu_1', name: 'Plan', type: 'tool_use', partial_json: json }] })
    const { reply, diagnostics } = read([partial('run-1', use('{"a": 1')), partial('run-1', use('{"b": 2}'))])
    expect([choice(reply).toolCalls[0]!.arguments, diagnostics]).toEqual(['{"a": 1', [[0, 'arguments-invalid'], [1, 'snapshot-rewrote']]])
  })

  it('a call with only parsed args takes them when its message finishes', () => {
    const call = (args: object) => ({ tool_calls: [{ name: 'search', args, id: 'call_1', type: 'tool_call' }] })
    const { reply, provenance } = read([
      partial('run-1', call({})),
      partial('run-1', call({ q: 'lang' })),
      partial('run-1', { ...call({ q: 'langgraph' }), response_metadata: { finish_reason: 'tool_calls' } }),
    ])
    expect(choice(reply).toolCalls.map((t) => [t.id, t.name, t.arguments, t.parsedArguments])).toEqual([['call_1', 'search', '{"q":"langgraph"}', { q: 'langgraph' }]])
    expect(provenance.map((p) => [p.frame, p.channel])).toEqual([[2, 'arguments']])
  })

  it('messages/complete before any model streamed is the run\'s input (the thread\'s history), not the reply', () => {
    const { reply } = read([
      ['messages/complete', [{ content: 'hi', type: 'human', id: 'h' }, { content: 'An old answer.', type: 'ai', id: 'old' }]],
      ['messages/metadata', { 'run-1': { metadata: {} } }],
      partial('run-1', { content: 'New.' }),
      ['messages/complete', [{ content: 'New.', type: 'ai', id: 'run-1' }, { content: 'A node\'s own.', type: 'ai', id: 'n-1' }]],
    ])
    expect(choice(reply).content).toBe('New.A node\'s own.')
  })

  it('a 10 MB snapshot and its extension merge to the exact text with one run per frame, nothing thrown', () => {
    const big = 'x'.repeat(10 * 1024 * 1024)
    const m = createMerger()
    m.push(sse([partial('run-1', { content: big }), partial('run-1', { content: big + ' end' }), ['end', null]]))
    const reply = m.end()
    expect([choice(reply).content.length, choice(reply).content.endsWith('x end'), reply.done]).toEqual([big.length + 4, true, true])
    expect(m.provenance().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, big.length], [1, big.length, big.length + 4]])
  })

  it('a snapshot that is not a list is a warning note, nothing else', () => {
    const r = merge(sse([partial('run-1', { content: 'ok' }), ['messages/partial', { content: 'x' }]]))
    expect(choice(r).content).toBe('ok')
  })
})

describe('the end of a run without event: end', () => {
  const ends = (body: string) => {
    const m = createMerger()
    m.push(body)
    m.end()
    return m.diagnostics().filter((d) => d.code === 'no-terminal-event' || d.code === 'unterminated-frame').map((d) => [d.code, d.level])
  }
  const body = sse([chunk('run-1', { content: 'Hi' })])

  it('a body that ends at a frame\'s end is said once, as info (the JS server never sends end)', () => {
    expect(ends(body)).toEqual([['no-terminal-event', 'info']])
    expect(ends(body + sse([['end', null]]))).toEqual([])
  })

  it('a body cut inside its last frame is still a possible cut', () => {
    expect(ends(body + 'event: messages\ndata: [{"content":"more","type":"AIMessageChunk","id":"run-1"},{}]')).toEqual([
      ['no-terminal-event', 'warning'], ['unterminated-frame', 'warning'],
    ])
  })

  it('the event protocol ends with its lifecycle: without it, a possible cut', () => {
    const event = `event: messages\ndata: ${JSON.stringify({ type: 'event', event_id: '1', seq: 1, method: 'messages', params: { namespace: [], timestamp: 0, data: { event: 'message-start', role: 'ai', message_id: 'm1' } } })}\n\n`
    expect(ends(event)).toEqual([['no-terminal-event', 'warning']])
  })
})
