// ChatGPT web's stream (delta_encoding v1 and the older whole-message snapshots), read in patch
// mode. Wire shapes as in the recorded fixtures (test/fixtures/chatgpt-web/) and the notes in
// /work/shared/CHAT-PROTOCOLS.md; each test builds the few frames its rule needs.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { chatgptWeb } from '../../src/providers/chatgpt-web.js'
import { defaultRegistry } from '../../src/providers/index.js'
import type { Diagnostic, Provenance, Reply } from '../../src/index.js'

type Block = [string | null, unknown]

/** SSE text of [event, data] blocks; data `'[DONE]'` is written bare. */
function sse(blocks: Block[]): string {
  return blocks.map(([event, data]) => `${event === null ? '' : `event: ${event}\n`}data: ${data === '[DONE]' ? data : JSON.stringify(data)}\n\n`).join('')
}

function run(blocks: Block[]): { reply: Reply; diagnostics: Diagnostic[]; provenance: Array<[number, string, number, number]> } {
  const m = createMerger({ contentType: 'text/event-stream' })
  m.push(sse(blocks))
  const reply = m.end()
  const provenance = m.provenance().map((p: Provenance) => [p.frame, p.channel, p.start, p.end] as [number, string, number, number])
  return { reply, diagnostics: m.diagnostics(), provenance }
}

function message(id: string, extra: Record<string, unknown> = {}, content: Record<string, unknown> = { content_type: 'text', parts: [''] }): Record<string, unknown> {
  return { message: { id, author: { role: 'assistant', name: null, metadata: {} }, content, status: 'in_progress', end_turn: null, metadata: {}, recipient: 'all', channel: null, ...extra }, conversation_id: 'c1', error: null }
}

const START: Block[] = [['delta_encoding', 'v1'], ['delta', { p: '', o: 'add', v: message('m1'), c: 0 }]]
const COMPLETE: Block = [null, { type: 'message_stream_complete', conversation_id: 'c1' }]
const content = (r: Reply) => r.choices[0]?.content
const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.level} ${d.message}`)

describe('chatgptWeb.recognizes', () => {
  const yes = (event: string | null, json: unknown) => chatgptWeb.recognizes({ seq: 0, event, json })

  it('claims the delta_encoding announcement and event: delta frames of short keys {p, o, v, c}', () => {
    expect(yes('delta_encoding', 'v1')).toBe(true)
    expect(yes('delta', { v: ' world' })).toBe(true)
    expect(yes('delta', { p: '/message/content/parts/0', o: 'append', v: 'Hi' })).toBe(true)
    expect(yes('delta', { o: 'patch', v: [], c: 3 })).toBe(true)
  })

  it('claims its non-delta frames by their type and conversation_id', () => {
    expect(yes(null, { type: 'message_stream_complete', conversation_id: 'c1' })).toBe(true)
    expect(yes(null, { type: 'title_generation', title: 'T', conversation_id: 'c1' })).toBe(true)
    expect(yes(null, { type: 'message_marker', conversation_id: 'c1', message_id: 'm', marker: 'last_token', event: 'last' })).toBe(true)
  })

  it('claims an operation without an event name only when it names its path and op, and a whole-message frame', () => {
    expect(yes(null, { p: '', o: 'add', v: message('m1'), c: 0 })).toBe(true)
    expect(yes(null, { v: 'text' })).toBe(false)
    expect(yes(null, message('m1'))).toBe(true)
    expect(yes(null, { message: { id: 'm', role: 'assistant', content: { content_type: 'text', parts: ['Pro'] } }, conversation_id: 'c', error: null })).toBe(true)
  })

  it('leaves other shapes alone: other keys beside v, a type without conversation_id, Ollama and OpenAI chunks', () => {
    expect(yes('delta', { text: 'x' })).toBe(false)
    expect(yes('delta', { v: 'x', text: 'y' })).toBe(false)
    expect(yes(null, { type: 'message_marker' })).toBe(false)
    expect(yes(null, { model: 'llama3', message: { role: 'assistant', content: 'Hi' }, done: false })).toBe(false)
    expect(yes(null, { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] })).toBe(false)
  })

  it('the default registry names its frames chatgpt-web and still names an Anthropic frame anthropic', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: 'delta_encoding', json: 'v1' })?.id).toBe('chatgpt-web')
    expect(defaultRegistry.recognize({ seq: 0, event: 'delta', json: { v: 'x' } })?.id).toBe('chatgpt-web')
    expect(defaultRegistry.recognize({ seq: 0, event: 'message_start', json: { type: 'message_start', message: { id: 'msg', role: 'assistant', content: [] } } })?.id).toBe('anthropic')
  })

  it('the request URL of the web app hints chatgpt-web', () => {
    expect(defaultRegistry.hint({ url: 'https://chatgpt.com/backend-api/f/conversation' })).toEqual({ id: 'chatgpt-web', reason: 'url' })
    expect(defaultRegistry.hint({ url: 'https://chatgpt.com/backend-api/conversation' })).toEqual({ id: 'chatgpt-web', reason: 'url' })
  })
})

describe('delta_encoding v1: sticky c, p and o', () => {
  it('a bare {"v": text} appends to the path the last frame named, each frame credited with its own text', () => {
    const { reply, provenance } = run([...START, ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Hel' }], ['delta', { v: 'lo' }], COMPLETE])
    expect(content(reply)).toBe('Hello')
    expect(provenance).toEqual([[2, 'content', 0, 3], [3, 'content', 3, 5]])
  })

  it('a bare {"v": list} after a patch is another patch', () => {
    const { reply } = run([
      ...START,
      ['delta', { o: 'patch', v: [{ p: '/message/content/parts/0', o: 'append', v: 'Hi.' }] }],
      ['delta', { v: [{ p: '/message/content/parts/0', o: 'append', v: ' Bye.' }, { p: '/message/status', o: 'replace', v: 'finished_successfully' }] }],
      COMPLETE,
    ])
    expect(content(reply)).toBe('Hi. Bye.')
    expect(reply.choices[0]?.finishReason).toBe('finished_successfully')
  })

  it('the operations inside a patch do not change the sticky path: a bare string after it is a patch without a list (a warning)', () => {
    const { reply, diagnostics } = run([
      ...START,
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'a' }],
      ['delta', { p: '', o: 'patch', v: [{ p: '/message/content/parts/0', o: 'append', v: 'b' }] }],
      ['delta', { v: 'c' }],
    ])
    expect(content(reply)).toBe('ab')
    expect(codes(diagnostics)).toContain('warning a patch whose value is not a list of operations: "c"')
  })

  it('a bare {"v": message, "c": n} installs a new message on channel n (p "" and o add are sticky)', () => {
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: { ...message('u1'), message: { ...(message('u1')['message'] as object), author: { role: 'user' }, content: { content_type: 'text', parts: ['question'] } } }, c: 0 }],
      ['delta', { v: message('a1', {}, { content_type: 'text', parts: ['Answer'] }), c: 1 }],
    ])
    expect(content(reply)).toBe('Answer')
  })

  it('appends to two channels land in their own messages, in the order they arrive', () => {
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: message('m1', { channel: 'analysis' }), c: 0 }],
      ['delta', { v: message('m2', { channel: 'final' }), c: 1 }],
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'thinking', c: 0 }],
      ['delta', { v: 'Answer', c: 1 }],
    ])
    expect(reply.choices[0]?.reasoning).toBe('thinking')
    expect(content(reply)).toBe('Answer')
  })
})

describe('patch mode: what each operation writes into the reply', () => {
  it('truncate cuts the reply to the kept characters (text-truncate) and later text follows the cut', () => {
    const { reply, provenance } = run([
      ...START,
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Hello world' }],
      ['delta', { o: 'truncate', v: 5 }],
      ['delta', { o: 'append', v: '!' }],
    ])
    expect(content(reply)).toBe('Hello!')
    expect(provenance).toEqual([[2, 'content', 0, 5], [4, 'content', 5, 6]])
  })

  it('replace of the text keeps the common prefix credited to its frames and credits the replacing frame with the rest', () => {
    const { reply, provenance } = run([
      ...START,
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Hello world' }],
      ['delta', { p: '/message/content/parts/0', o: 'replace', v: 'Hello there' }],
    ])
    expect(content(reply)).toBe('Hello there')
    expect(provenance).toEqual([[2, 'content', 0, 6], [3, 'content', 6, 11]])
  })

  it('a root add repeating the same message id rewrites that message instead of adding a second one', () => {
    const { reply } = run([
      ...START,
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Draft' }],
      ['delta', { p: '', o: 'add', v: message('m1', { status: 'finished_successfully' }, { content_type: 'text', parts: ['Draft done'] }) }],
    ])
    expect(content(reply)).toBe('Draft done')
  })

  it('two reply messages of one turn are joined in order', () => {
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: message('m1', {}, { content_type: 'text', parts: ['First. '] }), c: 0 }],
      ['delta', { v: message('m2', {}, { content_type: 'text', parts: ['Second.'] }), c: 1 }],
    ])
    expect(content(reply)).toBe('First. Second.')
  })

  it('thoughts are reasoning, a blank line between two thoughts', () => {
    const thoughts = { content_type: 'thoughts', thoughts: [{ summary: 'Plan', content: 'First', chunks: [], finished: false }] }
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: message('t1', {}, thoughts), c: 0 }],
      ['delta', { p: '/message/content/thoughts/0/content', o: 'append', v: ' idea' }],
      ['delta', { p: '/message/content/thoughts', o: 'append', v: [{ summary: 'Check', content: 'Second', chunks: [], finished: true }] }],
      ['delta', { p: '', o: 'add', v: message('m1', {}, { content_type: 'text', parts: ['Done'] }), c: 1 }],
    ])
    expect(reply.choices[0]?.reasoning).toBe('First idea\n\nSecond')
    expect(content(reply)).toBe('Done')
  })

  it('an assistant message to a tool is a tool call named after its recipient, its text the arguments', () => {
    const call = message('call-1', { recipient: 'python' }, { content_type: 'code', language: 'python', text: '' })
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: call, c: 0 }],
      ['delta', { p: '/message/content/text', o: 'append', v: 'print(' }],
      ['delta', { v: '1)' }],
      ['delta', { p: '', o: 'add', v: { ...message('r1'), message: { id: 'r1', author: { role: 'tool', name: 'python' }, content: { content_type: 'execution_output', text: '1' }, recipient: 'all' } }, c: 1 }],
    ])
    expect(reply.choices[0]?.toolCalls).toMatchObject([{ index: 0, id: 'call-1', name: 'python', type: 'function', arguments: 'print(1)' }])
    expect(content(reply)).toBe('')
  })

  it('each assistant message of the turn is a message of Reply.messages, by its id, in the order it first wrote: a call to a tool, then the answer', () => {
    const call = message('call-1', { recipient: 'python' }, { content_type: 'code', language: 'python', text: '' })
    const { reply } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: call, c: 0 }],
      ['delta', { p: '/message/content/text', o: 'append', v: 'print(1)' }],
      ['delta', { p: '', o: 'add', v: message('m2', {}, { content_type: 'text', parts: ['It printed 1.'] }), c: 1 }],
    ])
    expect(reply.messages).toEqual([
      { id: 'call-1', role: 'assistant', parts: [{ type: 'tool-call', id: 'call-1', name: 'python', arguments: 'print(1)', parsedArguments: null, argumentsError: expect.stringMatching(/^Unexpected/) }] },
      { id: 'm2', role: 'assistant', parts: [{ type: 'text', text: 'It printed 1.' }] },
    ])
  })

  it('a message rewritten after another message wrote is cut in its own message: the reply has its new text, with no warning', () => {
    const { reply, diagnostics, provenance } = run([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: message('m1'), c: 0 }],
      ['delta', { p: '', o: 'add', v: message('m2'), c: 1 }],
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Draft one', c: 0 }],
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Second.', c: 1 }],
      ['delta', { p: '/message/content/parts/0', o: 'replace', v: 'Draft 1. ', c: 0 }],
      COMPLETE,
    ])
    expect(reply.messages.map((m) => [m.id, (m.parts[0] as { text: string }).text])).toEqual([['m1', 'Draft 1. '], ['m2', 'Second.']])
    expect(content(reply)).toBe('Draft 1. Second.')
    expect(diagnostics.filter((d) => d.level !== 'info')).toEqual([])
    // frame 3 keeps "Draft " (its common prefix with the new text), frame 5 wrote "1. "; m2's text follows
    expect(provenance.sort((x, y) => x[2] - y[2])).toEqual([[3, 'content', 0, 6], [5, 'content', 6, 9], [4, 'content', 9, 16]])
  })

  it('user, system and tool messages and messages hidden from the conversation are not the reply, without a note (every turn has them)', () => {
    const hidden = message('h1', { metadata: { is_visually_hidden_from_conversation: true } }, { content_type: 'text', parts: ['secret'] })
    const user = { ...message('u1'), message: { id: 'u1', author: { role: 'user' }, content: { content_type: 'text', parts: ['question'] }, recipient: 'all' } }
    const { reply, diagnostics } = run([['delta_encoding', 'v1'], ['delta', { p: '', o: 'add', v: hidden, c: 0 }], ['delta', { v: user, c: 1 }], [null, { type: 'title_generation', title: 'T', conversation_id: 'c1' }]])
    expect(reply.choices).toEqual([])
    expect(diagnostics.filter((d) => d.code === 'note')).toEqual([])
  })

  it('an assistant message of a content type the reply has no field for is kept out with one info note', () => {
    const recap = message('r1', {}, { content_type: 'reasoning_recap', content: 'Thought for 6 seconds' })
    const { reply, diagnostics } = run([['delta_encoding', 'v1'], ['delta', { p: '', o: 'add', v: recap, c: 0 }], ['delta', { v: { ...recap }, c: 1 }]])
    expect(reply.choices).toEqual([])
    expect(diagnostics.filter((d) => d.code === 'note').map((d) => `${d.level} ${d.message}`)).toEqual(['info assistant messages of content type reasoning_recap are not the reply'])
  })
})

describe('the end of a turn', () => {
  it('the finish reason is metadata.finish_details.type, and message_stream_complete ends the stream', () => {
    const { reply } = run([
      ...START,
      ['delta', { p: '', o: 'patch', v: [{ p: '/message/status', o: 'replace', v: 'finished_successfully' }, { p: '/message/metadata', o: 'append', v: { finish_details: { type: 'max_tokens' } } }] }],
      COMPLETE,
    ])
    expect(reply.choices[0]?.finishReason).toBe('max_tokens')
    expect(reply.done).toBe(true)
  })

  it('a message still in progress when the stream stops has no finish reason and the stream is not done', () => {
    const { reply } = run([...START, ['delta', { p: '/message/content/parts/0', o: 'append', v: 'Cut' }]])
    expect(reply.choices[0]?.finishReason).toBe(null)
    expect(reply.done).toBe(false)
  })

  it('[DONE] without message_stream_complete still gives the finish reason at the end', () => {
    const { reply } = run([...START, ['delta', { o: 'patch', p: '', v: [{ p: '/message/status', o: 'replace', v: 'finished_successfully' }] }], [null, '[DONE]']])
    expect(reply.choices[0]?.finishReason).toBe('finished_successfully')
    expect(reply.done).toBe(true)
  })

  it('an error in the root or in a frame is a stream error', () => {
    const m = createMerger({ contentType: 'text/event-stream' })
    m.push(sse([
      ['delta_encoding', 'v1'],
      ['delta', { p: '', o: 'add', v: { message: null, conversation_id: 'c1', error: 'Something went wrong' }, c: 0 }],
      [null, { type: 'error', conversation_id: 'c1', error: { message: 'Too many requests', code: 'rate_limit' } }],
    ]))
    m.end()
    expect(m.streamErrors().map((e) => [e.frame, e.message, e.code])).toEqual([[1, 'Something went wrong', null], [2, 'Too many requests', 'rate_limit']])
  })

  it('stream_handoff says the rest of the turn went to a WebSocket, a blocked moderation verdict is a warning', () => {
    const { diagnostics } = run([
      ...START,
      [null, { type: 'stream_handoff', conversation_id: 'c1', options: [{ type: 'subscribe_ws_topic', topic_id: 't' }] }],
      [null, { type: 'moderation', conversation_id: 'c1', moderation_response: { flagged: true, blocked: true } }],
    ])
    expect(codes(diagnostics)).toEqual(expect.arrayContaining(['warning stream_handoff: the rest of this turn is sent over a WebSocket, not in this response', 'warning moderation: the reply was blocked']))
  })
})

describe('whole-message snapshots (the format before delta_encoding)', () => {
  const snap = (text: string, status = 'in_progress') => message('m1', { status }, { content_type: 'text', parts: [text] })

  it('each frame installs the whole message again and is credited with what it added', () => {
    const { reply, provenance } = run([[null, snap('Hel')], [null, snap('Hello')], [null, snap('Hello!', 'finished_successfully')], [null, '[DONE]']])
    expect(content(reply)).toBe('Hello!')
    expect(reply.choices[0]?.finishReason).toBe('finished_successfully')
    expect(provenance).toEqual([[0, 'content', 0, 3], [1, 'content', 3, 5], [2, 'content', 5, 6]])
  })

  it('a snapshot that does not extend the previous one is snapshot-rewrote, and the reply is the new text', () => {
    const { reply, diagnostics } = run([[null, snap('Hello world')], [null, snap('Hello there')]])
    expect(content(reply)).toBe('Hello there')
    expect(diagnostics.filter((d) => d.code === 'snapshot-rewrote').map((d) => [d.frame, d.message])).toEqual([[1, "message m1: this snapshot keeps 6 of the previous one's 11 characters and rewrites the rest"]])
  })

  it('the first web client\'s frames with role on the message are read the same way', () => {
    const old = { message: { id: 'x', role: 'assistant', user: null, content: { content_type: 'text', parts: ['Pro'] }, end_turn: null, weight: 1.0, metadata: {}, recipient: 'all' }, conversation_id: 'c', error: null }
    expect(content(run([[null, old]]).reply)).toBe('Pro')
  })
})

describe('hostile operations are warnings, never a throw', () => {
  it('/__proto__/x and /constructor/prototype change nothing and reach no prototype', () => {
    const { reply, diagnostics } = run([
      ...START,
      ['delta', { p: '/__proto__/polluted', o: 'add', v: 1 }],
      ['delta', { p: '/constructor/prototype/polluted', o: 'add', v: 1 }],
      ['delta', { p: '/message/content/parts/0', o: 'append', v: 'ok' }],
    ])
    expect(content(reply)).toBe('ok')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(codes(diagnostics).filter((m) => m.includes('patch operation failed')).map((m) => m.split(':')[0])).toEqual(['warning patch operation failed (forbidden-member)', 'warning patch operation failed (no-target)'])
  })

  it('an index past the end, a path through a string and a too-deep value are each a warning of their frame', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 300; i++) deep = [deep]
    const { reply, diagnostics } = run([
      ...START,
      ['delta', { p: '/message/content/parts/7', o: 'replace', v: 'x' }],
      ['delta', { p: '/message/content/parts/0/x', o: 'add', v: 'x' }],
      ['delta', { p: '/message/metadata/deep', o: 'add', v: deep }],
    ])
    expect(content(reply)).toBe('')
    expect(diagnostics.filter((d) => d.message.startsWith('patch operation failed')).map((d) => [d.frame, d.message.split(':')[0]])).toEqual([
      [2, 'patch operation failed (index-out-of-range)'],
      [3, 'patch operation failed (not-a-container)'],
      [4, 'patch operation failed (too-deep)'],
    ])
  })

  it('a channel that is neither a number nor a string, and a delta that is not an object, are warnings', () => {
    const { diagnostics } = run([...START, ['delta', { c: { x: 1 }, v: 'x' }], ['delta', [1, 2]]])
    expect(codes(diagnostics)).toEqual(expect.arrayContaining(['warning a delta whose channel c is neither a number nor a string: {"x":1}', 'warning a delta that is not a {p, o, v, c} object: [1,2]']))
  })

  // fuzz case 75312 (seed 1): after an append, `p` stays /message/content/parts/0, so each bare {"o": "add", "v": message}
  // inserts a whole message into parts; every frame's text read walked all of them (quadratic) until walks were charged
  it('whole messages inserted into parts by a sticky path are charged to the read budget: the text stays right and the storm stops being followed (one warning)', () => {
    const blocks: Block[] = [['delta_encoding', 'v1'], ['delta', { p: '', o: 'add', v: message('m1', {}, { content_type: 'text', parts: [''] }), c: 0 }]]
    blocks.push(['delta', { p: '/message/content/parts/0', o: 'append', v: 'abc' }])
    for (let i = 0; i < 2000; i++) blocks.push(['delta', { o: 'add', v: message(`t${i}`) }])
    const { reply, diagnostics } = run(blocks)
    expect(content(reply)).toBe('abc')
    expect(diagnostics.filter((d) => d.message.includes('rewritten more often than its frames pay for')).map((d) => d.frame)).toEqual([133])
  })

  // each insert adds an entry to parts, and reading the text walks every entry (ENTRY_READ_COST each): 124 inserts spend the 1 M allowance
  it('a storm of one-character inserts before the text stops being followed once rewrites read past their budget (one warning), instead of costing the text per frame', () => {
    const blocks: Block[] = [['delta_encoding', 'v1'], ['delta', { p: '', o: 'add', v: message('m1', {}, { content_type: 'text', parts: ['abc'] }), c: 0 }]]
    for (let i = 0; i < 5000; i++) blocks.push(['delta', { p: '/message/content/parts/0', o: 'add', v: 'x' }])
    const { reply, diagnostics } = run(blocks)
    expect(content(reply)).toBe('x'.repeat(124) + 'abc')
    expect(diagnostics.filter((d) => d.message.includes('rewritten more often than its frames pay for')).map((d) => d.frame)).toEqual([126])
  })

  it('100,000 appends make a 10 MB reply, every frame credited with its 100 characters', () => {
    const piece = 'y'.repeat(100)
    const blocks: Block[] = [...START, ['delta', { p: '/message/content/parts/0', o: 'append', v: piece }]]
    for (let i = 1; i < 100_000; i++) blocks.push(['delta', { v: piece }])
    const { reply, provenance } = run(blocks)
    expect(content(reply)?.length).toBe(10_000_000)
    expect(provenance.length).toBe(100_000)
    expect(provenance[99_999]).toEqual([100_001, 'content', 9_999_900, 10_000_000])
  })
})
