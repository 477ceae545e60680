// WebSocket captures as files: the WebSocket fixture out and in, a HAR's WebSocket entries as
// Chrome exports them (`_webSocketMessages`), and each turn as a row whose body is its frames
// written as SSE: merged like any stream, it gives the connection's own Reply for the turn.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createConnection, merge, type Reply } from '../../src/index.js'
import { FixtureError, harWebSockets, importText, parseWsFixture, toWsFixture, type WsCapture } from '../../src/exchange/index.js'
import { chromeHar } from '../support/websocket.js'

const read = (name: string) => readFileSync(join(import.meta.dirname, '../ws-fixtures', name), 'utf8')
const realtime = parseWsFixture(read('openai-realtime/transcript-then-function-call.json'))

/** The turn-dependent fields of a Reply (the row reads the turn as SSE, so its transport says so). */
const body = (r: Reply) => ({ done: r.done, frameCount: r.frameCount, provider: r.provider, choices: r.choices, usage: r.usage, errors: r.errors })

describe('the WebSocket fixture', () => {
  it('writes back what it read: messages with direction, opcode and time, binary as base64, the close, the expected turns', () => {
    const file = JSON.parse(read('socketio-chat/open-webui-two-messages.json'))
    const { capture } = parseWsFixture(file)
    expect(toWsFixture(capture, { exportedAt: file.meta.exportedAt, note: file.meta.note })).toEqual(file)
    const binary: WsCapture = { ...capture, messages: [{ direction: 'receive', opcode: 2, data: new Uint8Array([0, 1, 254, 255]), time: capture.startedAt + 7 }], close: null }
    const written = toWsFixture(binary, { exportedAt: 'x' })
    expect(written.messages).toEqual([{ direction: 'receive', opcode: 2, t: 7, base64: 'AAH+/w==' }])
    expect(parseWsFixture(JSON.stringify(written)).capture.messages).toEqual(binary.messages)
  })

  it('what is wrong is said with its path', () => {
    const bad = (patch: object) => () => parseWsFixture({ ...JSON.parse(read('gemini-live/sdk-test-messages.json')), ...patch })
    expect(bad({ version: 2 })).toThrow(new FixtureError('WebSocket fixture version 2 is not supported (this Deltascope reads version 1)'))
    expect(bad({ messages: [{ direction: 'up', opcode: 1, t: 0, text: '' }] })).toThrow('messages[0].direction must be "send" or "receive"')
    expect(bad({ messages: [{ direction: 'send', opcode: 1, t: 0 }] })).toThrow('messages[0] has neither "text" nor "base64"')
    expect(bad({ messages: [{ direction: 'send', opcode: 1, t: 'soon', text: '' }] })).toThrow('messages[0].t must be a number of ms or null')
  })

  it('imports as one row per turn, each merging to the Reply the connection rebuilt', () => {
    const result = importText(read('openai-realtime/transcript-then-function-call.json'), 'rt.json', { idPrefix: 'x' })
    if (result.kind !== 'websocket') throw new Error(result.kind)
    expect(result.items.map((i) => [i.request.id, i.request.websocket, i.request.status])).toEqual([
      ['x-0-t0', { connection: 'x-0', turn: 0, key: 'resp_001' }, 101],
      ['x-0-t1', { connection: 'x-0', turn: 1, key: 'resp_002' }, 101],
    ])
    const replies = result.items.map((i) => merge(i.chunks.map((c) => c.data).join(''), { contentType: 'text/event-stream' }))
    expect(replies.map(body)).toEqual(realtime.expected!.map((t) => body(t.reply)))
  })

  it('a turn\'s body: received frames as events, the rest as comments saying what they are', () => {
    const result = importText(read('socketio-chat/open-webui-two-messages.json'), 'c.json', { idPrefix: 'y' })
    if (result.kind === 'error') throw new Error(result.message)
    // a ping between turns, and its pong, stay with the turn before: only the server's next frame ends that row
    expect(result.items[0]!.chunks.slice(-2).map((c) => c.data)).toEqual([': [received, Engine.IO ping]\n: 2\n\n', ': [sent, Engine.IO pong]\n: 3\n\n'])
    const text = result.items[1]!.chunks.map((c) => c.data).join('')
    expect(text.split('\n\n').slice(0, 1)).toEqual([
      'event: chat-events\ndata: {"chat_id":"b1f7c0a2-5e0e-4d7c-9a51-6f0b1d3c2e11","message_id":"m-2","data":{"type":"chat:message:delta","data":{"content":"Lyon is "}}}',
    ])
    // the first turn holds what came before it: the open, the connect, the user-join emit
    expect(result.items[0]!.chunks.slice(0, 4).map((c) => (c.data as string).split('\n')[0])).toEqual([
      ': [received, Engine.IO open]', ': [sent, Socket.IO connect]', ': [received, Socket.IO connect]', ': [sent]',
    ])
  })
})

describe('a HAR\'s WebSocket entries (Chrome\'s _webSocketMessages)', () => {
  const sse = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/openai-chat/crlf-line-endings.expected.json'), 'utf8'))
  const sseEntry = {
    startedDateTime: '2026-01-01T00:00:00.000Z', time: 10,
    request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', headers: [] },
    response: { status: 200, headers: [{ name: 'Content-Type', value: 'text/event-stream' }], content: { mimeType: 'text/event-stream', text: readFileSync(join(import.meta.dirname, '../fixtures/openai-chat/crlf-line-endings.sse'), 'utf8') } },
  }

  it('reads each message with its direction, opcode and time (seconds → ms), binary from base64', () => {
    const capture = { ...realtime.capture, messages: [...realtime.capture.messages, { direction: 'receive' as const, opcode: 2, data: new Uint8Array([9, 8]), time: realtime.capture.startedAt + 999 }] }
    const [found] = harWebSockets(chromeHar(capture))
    expect(found!.index).toBe(0)
    expect(found!.capture.messages).toEqual(capture.messages)
    expect(found!.capture.url).toBe(capture.url)
    expect(found!.capture.status).toBe(101)
  })

  it('imports its turns in the HAR\'s order beside the HTTP streams, each turn merging to the connection\'s Reply', () => {
    const result = importText(JSON.stringify(chromeHar(realtime.capture, [sseEntry])), 'x.har', { idPrefix: 'h' })
    if (result.kind !== 'har') throw new Error(result.kind)
    expect(result.items.map((i) => i.request.id)).toEqual(['h-0', 'h-1-t0', 'h-1-t1'])
    expect(merge(result.items[0]!.chunks.map((c) => c.data).join(''), { contentType: 'text/event-stream' }).choices).toEqual(sse.reply.choices)
    const c = createConnection()
    for (const m of realtime.capture.messages) c.push(m)
    const turns = result.items.slice(1).map((i) => merge(i.chunks.map((ch) => ch.data).join(''), { contentType: 'text/event-stream' }))
    expect(turns.map(body)).toEqual(c.turns().map((t) => body(t.reply)))
    // every chunk keeps its message's time
    expect(result.items[1]!.chunks.map((ch) => ch.t)).toEqual(realtime.capture.messages.slice(0, 9).map((m) => m.time))
  })

  it('a HAR with only WebSocket entries imports; one without messages is said', () => {
    const empty = { ...realtime.capture, messages: [] }
    const result = importText(JSON.stringify(chromeHar(empty)), 'e.har', { idPrefix: 'e' })
    expect(result).toEqual({ kind: 'har', items: [], warnings: [`entry 0 (WebSocket ${realtime.capture.url}): no messages in the HAR, skipped`] })
  })
})
