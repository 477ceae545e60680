// Kimi on the web (src/providers/kimi.ts, src/providers/kimi-sse.ts), one rule per test: the
// Connect stream's state-sync operations (blocks of text, thinking and search), its end, and
// the older {"event": …} SSE stream.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { kimi } from '../../src/providers/kimi.js'
import { concatBytes, endStream, envelope } from '../support/connect.js'

const CONNECT = { contentType: 'application/connect+json' }
const yes = (json: unknown, event: string | null = null) => kimi.recognizes({ seq: 0, event, json })
const text = (id: string, content: string, op = 'append') => JSON.stringify({ op, mask: op === 'append' ? 'block.text.content' : 'block.text', eventOffset: 1, block: { id, text: { content } } })
const think = (id: string, content: string, op = 'append') => JSON.stringify({ op, mask: op === 'append' ? 'block.think.content' : 'block.think', eventOffset: 1, block: { id, think: { content } } })
const assistant = '{"op":"set","mask":"message","eventOffset":2,"message":{"id":"m1","role":"assistant","status":"MESSAGE_STATUS_GENERATING"}}'
const completed = '{"op":"set","mask":"message.status","eventOffset":9,"message":{"id":"m1","status":"MESSAGE_STATUS_COMPLETED"}}'
const connect = (...payloads: string[]) => concatBytes(...payloads.map((p) => envelope(p)))

function read(body: Uint8Array | string, options: { contentType?: string; url?: string } = CONNECT) {
  const m = createMerger(options)
  m.push(typeof body === 'string' ? new TextEncoder().encode(body) : body)
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('kimi.recognizes', () => {
  it('claims Connect operations on a block, a message or the chat, and the stream\'s own done', () => {
    expect([
      yes(JSON.parse(text('0_0', 'a'))), yes(JSON.parse(assistant)), yes({ op: 'set', eventOffset: 1, chat: { id: 'c' } }),
      yes({ eventOffset: 13, done: {} }), yes({ eventOffset: 4, heartbeat: {} }),
    ]).toEqual([true, true, true, true, true])
  })

  it('claims the older stream\'s own events, each with its field', () => {
    expect([
      yes({ event: 'cmpl', text: 'a' }), yes({ event: 'k1', text: 'a' }), yes({ event: 'search_plus', msg: { type: 'start' } }),
      yes({ event: 'all_done' }), yes({ event: 'resp', group_id: 'g', id: 'i' }),
    ]).toEqual([true, true, true, true, true])
  })

  it("leaves other formats' frames alone: a bare heartbeat, an op without its object, events without their field, any end-stream envelope", () => {
    expect([
      yes({ heartbeat: {} }), yes({ op: 'add', path: '/a', value: 1 }), yes({ op: 'append', mask: 'x' }), yes({ event: 'cmpl' }),
      yes({ event: 'done' }), yes({ event: 'all_done', data: 1 }), yes({}, 'end-stream'), yes({ type: 'text', op: 'set' }),
    ]).toEqual([false, false, false, false, false, false, false, false])
  })

  it('is registered, and its URLs name it: the Connect Chat method and the older completion stream', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: JSON.parse(text('0_0', 'a')) })?.id).toBe('kimi')
    expect([
      defaultRegistry.hint({ url: 'https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/Chat' })?.id,
      defaultRegistry.hint({ url: 'https://kimi.moonshot.cn/api/chat/cljdett0tc12f8jcpc7g/completion/stream' })?.id,
      defaultRegistry.hint({ url: 'https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/ListChats' })?.id,
    ]).toEqual(['kimi', 'kimi', undefined])
  })
})

describe('reading the Connect stream', () => {
  it('text blocks are content and thinking blocks reasoning; set gives a block its first text, append adds to it', () => {
    const { reply, choice } = read(connect(assistant, think('0', '想'), think('0', '一想'), text('1', 'An', 'set'), text('1', 'swer'), completed, '{"eventOffset":10,"done":{}}'))
    expect([choice.role, choice.reasoning, choice.content, choice.finishReason, reply.done]).toEqual(['assistant', '想一想', 'Answer', 'MESSAGE_STATUS_COMPLETED', true])
  })

  it('a set that rewrites the latest block replaces its text (a snapshot), with a warning', () => {
    const { choice, diagnostics } = read(connect(assistant, text('1', 'Hello wrld', 'set'), text('1', 'Hello world', 'set'), text('1', '!')))
    expect(choice.content).toBe('Hello world!')
    expect(diagnostics.filter((d) => d[2] === 'snapshot-rewrote').map((d) => d[0])).toEqual([2])
  })

  it('an empty set ({"text": {}}) opens a block with no text', () => {
    const { choice } = read(connect('{"op":"set","mask":"block.text.content","block":{"id":"0_1","text":{}}}', text('0_1', 'x')))
    expect([choice.content, choice.role]).toEqual(['x', null])
  })

  it('the search block is the tool call web_search, its keywords the queries and its pages the results, closed by the next text', () => {
    const { choice } = read(connect(
      assistant,
      '{"op":"append","mask":"block.search.keywords","block":{"id":"0_0","search":{"keywords":["q1","q2"]}}}',
      '{"op":"append","mask":"block.search.webPages","block":{"id":"0_0","search":{"webPages":[{"url":"https://a","title":"A"}]}}}',
      text('0_1', 'see [^1^]'),
    ))
    expect(choice.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments])).toEqual([[0, 'search:0_0', 'web_search', '{"queries":["q1","q2"],"results":[{"url":"https://a","title":"A"}]}']])
    expect(choice.content).toBe('see [^1^]')
  })

  it('message.refs citations join a search still open; after it closed, they are noted', () => {
    const refs = '{"op":"append","mask":"message.refs.searchChunks","message":{"refs":{"searchChunks":[{"id":"1","base":{"url":"https://b"}}]}}}'
    const open = read(connect('{"op":"append","mask":"block.search.keywords","block":{"id":"s","search":{"keywords":["q"]}}}', refs, completed))
    expect(open.choice.toolCalls.map((c) => c.arguments)).toEqual(['{"queries":["q"],"results":[{"id":"1","base":{"url":"https://b"}}]}'])
    const late = read(connect('{"op":"append","mask":"block.search.keywords","block":{"id":"s","search":{"keywords":["q"]}}}', text('t', 'a'), refs))
    expect(late.diagnostics.filter((d) => d[2] === 'note').map((d) => [d[0], d[3]])).toEqual([[2, 'message.refs.searchChunks (1 citation) arrived after the search it cites was closed: not in the reply']])
  })

  it("the user's message, chat metadata and heartbeats are not the reply", () => {
    const { reply } = read(connect(
      '{"op":"set","mask":"message","message":{"id":"u","role":"user","blocks":[{"id":"text_0_0","text":{"content":"hi"}}]}}',
      '{"op":"set","mask":"chat.name","chat":{"name":"hi"}}', '{"heartbeat":{}}',
    ))
    expect([reply.provider, reply.choices]).toEqual(['kimi', []])
  })

  it("the end-of-stream envelope ends the stream, and its Connect error is a provider error", () => {
    const { reply, diagnostics } = read(concatBytes(connect(assistant, text('0', 'a')), endStream('{"error":{"code":"unavailable","message":"busy"}}')))
    expect(reply.done).toBe(true)
    expect(diagnostics.filter((d) => d[2] === 'provider-error')).toEqual([[2, 'error', 'provider-error', 'the provider sent an error (code "unavailable"): "busy"']])
  })

  it('a stream cut before its end has no done; a search still open is closed at the end', () => {
    const { reply, choice } = read(connect('{"op":"append","mask":"block.search.keywords","block":{"id":"s","search":{"keywords":["q"]}}}'))
    expect([reply.done, choice.toolCalls.map((c) => c.arguments)]).toEqual([false, ['{"queries":["q"],"results":[]}']])
  })

  it("a tool block the app runs itself (ipython) is noted once, not part of the reply", () => {
    const tool = '{"op":"set","block":{"id":"t","tool":{"toolCallId":"ipython:1","name":"ipython","status":"STATUS_PENDING"}}}'
    const { choice, diagnostics } = read(connect(tool, tool, text('0', 'x')))
    expect([choice.toolCalls, diagnostics.filter((d) => d[2] === 'note').map((d) => d[0])]).toEqual([[], [0]])
  })
})

describe('reading the older SSE stream', () => {
  const sse = (...frames: object[]) => frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')

  it('cmpl is content, k1 reasoning; done ends a segment and all_done the stream', () => {
    const { reply, choice } = read(sse({ event: 'resp', group_id: 'g', id: 'r' }, { event: 'k1', text: '想' }, { event: 'cmpl', text: 'A' }, { event: 'done' }, { event: 'cmpl', text: 'B' }, { event: 'all_done' }), { contentType: 'text/event-stream' })
    expect([choice.role, choice.reasoning, choice.content, choice.finishReason, reply.done]).toEqual(['assistant', '想', 'AB', 'all_done', true])
  })

  it('a length event makes the finish reason length', () => {
    expect(read(sse({ event: 'cmpl', text: 'A' }, { event: 'length' }, { event: 'all_done' }), { contentType: 'text/event-stream' }).choice.finishReason).toBe('length')
  })

  it("k1's search_results join the search, and an error event is a provider error", () => {
    const { choice, diagnostics } = read(sse(
      { event: 'search_plus', msg: { type: 'start_res' } }, { event: 'k1', search_results: [{ title: 'T', url: 'https://t' }] },
      { event: 'cmpl', text: 'A' }, { event: 'error', error: { message: '限流了' } },
    ), { contentType: 'text/event-stream' })
    expect(choice.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['web_search', '{"queries":[],"results":[{"title":"T","url":"https://t"}]}']])
    expect(diagnostics.filter((d) => d[2] === 'provider-error').map((d) => [d[0], d[3]])).toEqual([[3, 'the provider sent an error: "限流了"']])
  })
})

describe('fixtures read whole', () => {
  it('merge and a merger agree on a Connect body', () => {
    const body = connect(assistant, text('0', 'x'), completed)
    expect(merge(body, CONNECT)).toEqual(read(body).reply)
  })
})
