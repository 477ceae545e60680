// A connection carries many replies: each received frame goes to the turn its adapter names,
// each turn has its own Reply built by the usual merge rules, sent messages are listed and
// never merged, and a connection that closes mid-turn marks that turn cut.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createConnection, type WsMessage } from '../../src/index.js'
import { parseWsFixture } from '../../src/exchange/index.js'

const fixture = (name: string) => parseWsFixture(readFileSync(join(import.meta.dirname, '../ws-fixtures', name), 'utf8')).capture
const rx = (o: unknown): WsMessage => ({ direction: 'receive', opcode: 1, data: typeof o === 'string' ? o : JSON.stringify(o), time: null })

describe('turns of a Realtime connection', () => {
  const capture = fixture('openai-realtime/transcript-then-function-call.json')

  it('one turn per response, live from response.created until its response.done', () => {
    const c = createConnection({ url: capture.url })
    const states: string[] = []
    for (const m of capture.messages) {
      c.push(m)
      states.push(c.turns().map((t) => `${t.key}:${t.state}`).join(' '))
    }
    expect(states).toEqual([
      '', '', // session.created is the connection's own; the sent response.create is not merged
      'resp_001:live', 'resp_001:live', 'resp_001:live', 'resp_001:live', 'resp_001:live',
      'resp_001:done', 'resp_001:done',
      'resp_001:done resp_002:live', 'resp_001:done resp_002:live', 'resp_001:done resp_002:live', 'resp_001:done resp_002:live', 'resp_001:done resp_002:live',
      'resp_001:done resp_002:done', 'resp_001:done resp_002:done',
      'resp_001:done resp_002:done', // the error joins the latest turn, which stays done
    ])
    c.close({ code: 1000, reason: '' })
    const [first, second] = c.turns()
    expect(first!.frames).toEqual([2, 3, 4, 5, 6, 7])
    expect(second!.frames).toEqual([9, 10, 11, 12, 13, 14, 16])
    expect(first!.reply.choices[0]!.content).toBe('Hello, how can I assist you today?')
    expect(second!.reply.choices[0]!.toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([['call_001', 'get_weather', '{"location": "San Francisco"}']])
  })

  it('sent frames are listed in order with no turn; the connection\'s own events have none either', () => {
    const c = createConnection()
    for (const m of capture.messages) c.push(m)
    expect(c.frames().filter((f) => f.turn === null).map((f) => [f.seq, f.direction, (f.json as { type?: string }).type ?? null])).toEqual([
      [0, 'receive', 'session.created'], [1, 'send', 'response.create'], [8, 'send', 'response.create'], [15, 'send', null],
    ])
  })

  it('a transcript is the content, with a note that it is one; the error event is a stream error at its frame', () => {
    const c = createConnection()
    for (const m of capture.messages) c.push(m)
    expect(c.diagnostics().filter((d) => d.code === 'note').map((d) => [d.frame, d.message])).toEqual([
      [4, 'the content is the transcript of the reply\'s audio (response.audio_transcript.delta): what the voice said, as the server transcribed it; the audio itself is not rebuilt'],
    ])
    expect(c.streamErrors().map((e) => [e.frame, e.message, e.code, e.type])).toEqual([[16, 'The \'type\' field is missing.', 'invalid_event', 'invalid_request_error']])
  })

  it('a part\'s .done that differs from its deltas is a final-mismatch at that frame', () => {
    const c = createConnection()
    c.push(rx({ event_id: 'e1', type: 'response.created', response: { id: 'r' } }))
    c.push(rx({ event_id: 'e2', type: 'response.output_text.delta', response_id: 'r', item_id: 'i', output_index: 0, content_index: 0, delta: 'Hel' }))
    c.push(rx({ event_id: 'e3', type: 'response.output_text.done', response_id: 'r', item_id: 'i', output_index: 0, content_index: 0, text: 'Hello' }))
    expect(c.diagnostics().map((d) => [d.frame, d.code])).toEqual([[2, 'final-mismatch']])
    expect(c.turns()[0]!.reply.choices[0]!.content).toBe('Hel')
  })

  it('a connection that closes mid-response cuts that turn, and says so at its last frame', () => {
    const cut = fixture('openai-realtime/closed-mid-response.json')
    const c = createConnection()
    for (const m of cut.messages) c.push(m)
    expect(c.turns()[0]!.state).toBe('live')
    c.close(cut.close!)
    expect(c.turns()[0]!.state).toBe('cut')
    expect(c.turns()[0]!.reply.choices[0]!.content).toBe('Sure, I')
    expect(c.diagnostics().map((d) => [d.frame, d.code, d.message])).toEqual([
      [2, 'no-terminal-event', 'the connection ended without a close frame in the middle of turn 1 ("resp_001"): its reply is cut'],
    ])
    expect(() => c.push(rx('{}'))).toThrow('push() after close(): the connection is over')
  })
})

describe('turns without ids, held frames, unknown streams', () => {
  it('Gemini Live: a turn runs to turnComplete; usage sent after it joins it', () => {
    const c = createConnection()
    c.push(rx({ setupComplete: {} }))
    c.push(rx({ serverContent: { modelTurn: { parts: [{ text: 'Hi' }] } } }))
    c.push(rx({ serverContent: { turnComplete: true } }))
    c.push(rx({ usageMetadata: { promptTokenCount: 3, responseTokenCount: 1, totalTokenCount: 4 } }))
    c.push(rx({ serverContent: { modelTurn: { parts: [{ text: 'thinking', thought: true }, { text: 'Again' }] } } }))
    c.close({ code: 1011, reason: 'Internal error' })
    expect(c.turns().map((t) => [t.state, t.frames, t.reply.choices[0]!.content, t.reply.choices[0]!.reasoning, t.reply.usage])).toEqual([
      ['done', [1, 2, 3], 'Hi', '', { promptTokenCount: 3, responseTokenCount: 1, totalTokenCount: 4 }],
      ['cut', [4], 'Again', 'thinking', null],
    ])
    expect(c.diagnostics().at(-1)!.message).toBe('the connection closed (code 1011, "Internal error") in the middle of turn 2: its reply is cut')
  })

  it('frames before the first one an adapter recognises are held, then routed (here: the connection\'s own)', () => {
    const c = createConnection()
    c.push(rx('0{"sid":"a"}'))
    c.push(rx('42["usage",{"n":1}]'))
    c.push(rx('42["chat-events",{"chat_id":"c","message_id":"m","data":{"type":"chat:message:delta","data":{"content":"Hi"}}}]'))
    expect(c.providerChoice()).toEqual({ id: 'socketio-chat', reason: 'frames' })
    expect(c.frames().map((f) => f.turn)).toEqual([null, null, 0])
  })

  it('a frame that does not parse inside a live turn is that turn\'s error, its line the message\'s number', () => {
    const c = createConnection()
    c.push(rx({ event_id: 'e1', type: 'response.created', response: { id: 'r' } }))
    c.push(rx('{"event_id":"e2","type":"response.output_text.delta",'))
    expect(c.turns()[0]!.reply.errors).toEqual([{ frame: 1, offset: 53, line: 2, raw: '{"event_id":"e2","type":"response.output_text.delta",', message: 'Unexpected end of JSON input at position 53 (expected a property name)' }])
  })

  it('JSON no adapter knows: the fallback lists it in one turn and rebuilds nothing; a URL hint can name the provider', () => {
    const c = createConnection()
    c.push(rx({ kind: 'token', value: 'a' }))
    c.close({ code: 1000 })
    expect(c.providerChoice()).toEqual({ id: 'generic', reason: 'default' })
    expect(c.turns().map((t) => [t.state, t.frames, t.reply.choices])).toEqual([['cut', [0], []]])
    expect(c.diagnostics().map((d) => d.code)).toEqual(['unknown-provider', 'no-terminal-event'])
    const hinted = createConnection({ url: 'wss://api.openai.com/v1/realtime?model=gpt-realtime' })
    expect(hinted.providerChoice()).toEqual({ id: 'openai-realtime', reason: 'url' })
  })
})

describe('rules read WebSocket frames too', () => {
  it('a SignalR chat read with rules: the invocation\'s target is the event, its argument the frame; a turn ends at the rules\' done', () => {
    const c = createConnection({ rules: { version: 1, mode: 'append', events: ['ReceiveToken'], text: 'token', done: { path: 'final', equals: true } } })
    c.push({ direction: 'send', opcode: 1, data: '{"protocol":"json","version":1}\x1e', time: null })
    c.push(rx('{}\x1e'))
    c.push(rx('{"type":1,"target":"ReceiveToken","arguments":[{"token":"Hel"}]}\x1e{"type":1,"target":"ReceiveToken","arguments":[{"token":"lo"}]}\x1e'))
    c.push(rx('{"type":1,"target":"Typing","arguments":[{"user":"bot"}]}\x1e{"type":1,"target":"ReceiveToken","arguments":[{"token":"!","final":true}]}\x1e'))
    expect(c.providerChoice()).toEqual({ id: 'rules', reason: 'forced' })
    c.push(rx('{"type":1,"target":"ReceiveToken","arguments":[{"token":"Bye"}]}\x1e'))
    expect(c.turns().map((t) => [t.state, t.reply.done, t.reply.choices[0]!.content])).toEqual([['done', true, 'Hello!'], ['live', false, 'Bye']])
  })
})
