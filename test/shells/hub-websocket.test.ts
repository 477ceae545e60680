// WebSockets in the extension: CDP's Network.webSocket* events become the live channel's
// messages (live-websocket.ts), and the hub turns a connection into one row per turn, from live
// messages as they arrive or from the entry DevTools hands over once the socket closed
// (hub-websocket.ts).

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HubSockets } from '../../src/shells/extension/hub-websocket.js'
import { LiveOutbox } from '../../src/shells/extension/live-outbox.js'
import { onWebSocketEvent } from '../../src/shells/chrome/live-websocket.js'
import type { LiveCaptureMessage, LiveChannelMessage } from '../../src/shells/extension/messages.js'
import { merge } from '../../src/index.js'
import { parseWsFixture } from '../../src/exchange/index.js'
import type { CaptureEvent } from '../../src/exchange/types.js'
import { chromeHar } from '../support/websocket.js'

const realtime = parseWsFixture(readFileSync(join(import.meta.dirname, '../ws-fixtures/openai-realtime/transcript-then-function-call.json'), 'utf8'))

function cdp() {
  const posted: LiveChannelMessage[] = []
  const channel = { postMessage: (m: unknown) => posted.push(m as LiveChannelMessage), onmessage: null }
  const session = { outbox: new LiveOutbox(channel), sockets: new Map() }
  const toHeaders = (h: Record<string, unknown> | undefined) => Object.entries(h ?? {}).map(([name, value]) => ({ name, value: String(value) }))
  const fromBase64 = (t: string) => new Uint8Array(Buffer.from(t, 'base64'))
  const on = (method: string, p: Record<string, unknown>, sessionId?: string) => onWebSocketEvent(session, sessionId, method, p, toHeaders, fromBase64)
  const messages = () => { session.outbox.flush(); return posted.flatMap((b) => (b.type === 'live-batch' ? b.events : [])) }
  return { on, messages }
}

describe('CDP WebSocket events to live messages', () => {
  it('created, handshake, text and binary frames with their wall-clock time, a frame error and the close; other methods are not its', () => {
    const { on, messages } = cdp()
    expect(on('Network.requestWillBeSent', {})).toBe(false)
    on('Network.webSocketCreated', { requestId: '7', url: 'ws://127.0.0.1:9/rt' }, 'worker-1')
    on('Network.webSocketWillSendHandshakeRequest', { requestId: '7', timestamp: 100, wallTime: 1_700_000_000, request: { headers: { Upgrade: 'websocket' } } }, 'worker-1')
    on('Network.webSocketHandshakeResponseReceived', { requestId: '7', timestamp: 100.01, response: { status: 101, headers: { Connection: 'Upgrade' } } }, 'worker-1')
    on('Network.webSocketFrameSent', { requestId: '7', timestamp: 100.5, response: { opcode: 1, mask: true, payloadData: '{"type":"response.create"}' } }, 'worker-1')
    on('Network.webSocketFrameReceived', { requestId: '7', timestamp: 101.25, response: { opcode: 2, mask: false, payloadData: 'AQL/' } }, 'worker-1')
    on('Network.webSocketFrameReceived', { requestId: '7', timestamp: 101.3, response: { opcode: 9, mask: false, payloadData: '' } }, 'worker-1')
    on('Network.webSocketFrameError', { requestId: '7', timestamp: 101.5, errorMessage: 'Invalid frame header' }, 'worker-1')
    on('Network.webSocketClosed', { requestId: '7', timestamp: 102 }, 'worker-1')
    on('Network.webSocketFrameReceived', { requestId: '7', timestamp: 103, response: { opcode: 1, payloadData: 'after the close' } }, 'worker-1')
    const got = messages()
    expect(got[0]).toMatchObject({ type: 'live-ws-created', socket: { id: 'live:ws:worker-1:7', requestId: '7', url: 'ws://127.0.0.1:9/rt' } })
    expect(got.slice(1)).toEqual<LiveCaptureMessage[]>([
      { type: 'live-ws-handshake', id: 'live:ws:worker-1:7', requestHeaders: [{ name: 'Upgrade', value: 'websocket' }] },
      { type: 'live-ws-handshake', id: 'live:ws:worker-1:7', status: 101, responseHeaders: [{ name: 'Connection', value: 'Upgrade' }] },
      { type: 'live-ws-frame', id: 'live:ws:worker-1:7', direction: 'send', opcode: 1, data: '{"type":"response.create"}', t: 1_700_000_000_500 },
      { type: 'live-ws-frame', id: 'live:ws:worker-1:7', direction: 'receive', opcode: 2, data: new Uint8Array([1, 2, 255]), t: 1_700_000_001_250 },
      { type: 'live-ws-error', id: 'live:ws:worker-1:7', t: 1_700_000_001_500, message: 'Invalid frame header' },
      { type: 'live-ws-closed', id: 'live:ws:worker-1:7', t: 1_700_000_002_000 },
    ])
  })
})

function hub() {
  const events: CaptureEvent[] = []
  return { events, sockets: new HubSockets((e) => events.push(e)) }
}

const bodyOf = (events: CaptureEvent[], id: string) => events.flatMap((e) => (e.type === 'chunk' && e.id === id ? [e.data as string] : [])).join('')

describe('the hub\'s WebSocket rows', () => {
  it('live: a row per turn, announced at its first frame with the handshake\'s headers, growing frame by frame, finished at its end', () => {
    const { events, sockets } = hub()
    const id = 'live:ws:tab:1'
    sockets.onCaptured({ type: 'live-ws-created', socket: { id, requestId: '1', url: realtime.capture.url, startedAt: 5 } })
    sockets.onCaptured({ type: 'live-ws-handshake', id, status: 101, responseHeaders: [{ name: 'Upgrade', value: 'websocket' }] })
    const after: string[] = []
    for (const m of realtime.capture.messages) {
      sockets.onCaptured({ type: 'live-ws-frame', id, direction: m.direction, opcode: m.opcode, data: m.data, t: m.time! })
      after.push(events.map((e) => (e.type === 'request' ? `request ${e.request.id}` : e.type === 'chunk' ? 'chunk' : `${e.type} ${'id' in e ? e.id : ''}`)).filter((x) => x !== 'chunk').join(', '))
    }
    expect(after[1]).toBe('') // session.created and the sent response.create wait for a turn
    expect(after[2]).toBe(`request ${id}-t0`)
    expect(after[9]).toBe(`request ${id}-t0, finished ${id}-t0, request ${id}-t1`)
    sockets.onCaptured({ type: 'live-ws-closed', id, t: 999 })
    const rows = events.filter((e) => e.type === 'request').map((e) => (e as Extract<CaptureEvent, { type: 'request' }>).request)
    expect(rows.map((r) => [r.id, r.source, r.status, r.responseHeaders, r.websocket])).toEqual([
      [`${id}-t0`, 'live', 101, [{ name: 'Upgrade', value: 'websocket' }], { connection: id, turn: 0, key: 'resp_001' }],
      [`${id}-t1`, 'live', 101, [{ name: 'Upgrade', value: 'websocket' }], { connection: id, turn: 1, key: 'resp_002' }],
    ])
    expect(events.at(-1)).toEqual({ type: 'finished', id: `${id}-t1`, t: realtime.capture.messages.at(-1)!.time, status: 101 })
    const replies = [0, 1].map((n) => merge(bodyOf(events, `${id}-t${n}`), { contentType: 'text/event-stream' }))
    expect(replies.map((r) => r.choices)).toEqual(realtime.expected!.map((t) => t.reply.choices))
  })

  it('a socket that closes mid-turn cancels that row, saying the code is not known; live stopping ends the sockets it followed', () => {
    const { events, sockets } = hub()
    sockets.onCaptured({ type: 'live-ws-created', socket: { id: 'a', requestId: 'ra', url: 'ws://x', startedAt: 0 } })
    sockets.onCaptured({ type: 'live-ws-frame', id: 'a', direction: 'receive', opcode: 1, data: '{"event_id":"e","type":"response.created","response":{"id":"r1"}}', t: 1 })
    sockets.onCaptured({ type: 'live-ws-closed', id: 'a', t: 2 })
    expect(events.at(-1)).toEqual({ type: 'cancelled', id: 'a-t0', t: 2, reason: 'the WebSocket connection closed (closed; the browser does not say with which code) before this turn\'s end' })
    sockets.onCaptured({ type: 'live-ws-created', socket: { id: 'b', requestId: 'rb', url: 'ws://x', startedAt: 0 } })
    sockets.onCaptured({ type: 'live-ws-frame', id: 'b', direction: 'receive', opcode: 1, data: '{"serverContent":{"modelTurn":{"parts":[{"text":"Hi"}]}}}', t: 3 })
    sockets.abandon('live capture turned off')
    expect(events.at(-1)).toMatchObject({ type: 'cancelled', id: 'b-t0', reason: 'the WebSocket connection closed (live capture turned off) before this turn\'s end' })
  })

  it('without Live: the entry DevTools hands over lists its turns, unless Live followed that socket; one without messages is said once', () => {
    const { events, sockets } = hub()
    const entry = chromeHar(realtime.capture).log.entries[0] as Record<string, unknown>
    expect(sockets.onHarEntry({ _resourceType: 'fetch' })).toBe(false)
    expect(sockets.onHarEntry(entry)).toBe(true)
    const rows = events.flatMap((e) => (e.type === 'request' ? [e.request] : []))
    expect(rows.map((r) => [r.id, r.source, r.websocket?.key])).toEqual([['har-ws-1-t0', 'har', 'resp_001'], ['har-ws-1-t1', 'har', 'resp_002']])
    expect(merge(bodyOf(events, 'har-ws-1-t1'), { contentType: 'text/event-stream' }).choices).toEqual(realtime.expected![1]!.reply.choices)

    const followed = hub()
    followed.sockets.onCaptured({ type: 'live-ws-created', socket: { id: 'x', requestId: '42', url: 'ws://x', startedAt: 0 } })
    expect(followed.sockets.onHarEntry({ ...entry, _requestId: '42' })).toBe(true)
    expect(followed.events).toEqual([])

    const bare = hub()
    const noMessages = { ...entry, _webSocketMessages: undefined }
    bare.sockets.onHarEntry(noMessages)
    bare.sockets.onHarEntry(noMessages)
    expect(bare.events).toEqual([{ type: 'note', level: 'info', message: `WebSocket ${realtime.capture.url}: DevTools handed over the connection without its messages, so its turns cannot be listed. Turn on Live (Chrome) to see them as they arrive.` }])
  })
})
