// The live outbox: what live capture hands the hub, batched off the page's path, shed when the
// hub falls behind (src/shells/extension/live-outbox.ts).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FLUSH_MS, LiveOutbox, MAX_UNACKED_BYTES } from '../../src/shells/extension/live-outbox.js'
import type { LiveCaptureMessage, LiveChannelMessage, LiveRequestInfo } from '../../src/shells/extension/messages.js'

/** A channel that records what is posted and lets the test answer as the hub does. */
function fakeChannel() {
  const posted: Array<Extract<LiveChannelMessage, { type: 'live-batch' }>> = []
  const channel = {
    onmessage: null as ((ev: MessageEvent<LiveChannelMessage>) => void) | null,
    postMessage(m: unknown) { posted.push(m as Extract<LiveChannelMessage, { type: 'live-batch' }>) },
  }
  const ack = (seq: number) => channel.onmessage!({ data: { type: 'live-ack', seq } } as MessageEvent<LiveChannelMessage>)
  return { channel, posted, ack }
}

const info = (id: string): LiveRequestInfo => ({
  id, requestId: id, method: 'POST', url: `http://127.0.0.1/${id}`, status: 200,
  requestHeaders: [], responseHeaders: [], requestBody: null, contentType: 'text/event-stream', startedAt: 0,
})
const types = (events: LiveCaptureMessage[]) => events.map((e) => (e.type === 'live-chunk' ? `chunk ${e.id} ${e.data.byteLength}` : `${e.type} ${e.type === 'live-request' ? e.request.id : e.type === 'live-ws-created' ? e.socket.id : e.id}`))

describe('LiveOutbox', () => {
  beforeEach(() => { vi.useFakeTimers() })
  afterEach(() => { vi.useRealTimers() })

  it('posts nothing while a read is handled: what is queued goes out together FLUSH_MS later, in order', () => {
    const { channel, posted } = fakeChannel()
    const out = new LiveOutbox(channel)
    out.push({ type: 'live-request', request: info('a') })
    out.pushChunk('a', new Uint8Array(3), 10)
    out.pushChunk('a', new Uint8Array(5), 11)
    out.push({ type: 'live-finished', id: 'a', t: 12 })
    expect(posted).toEqual([])
    vi.advanceTimersByTime(FLUSH_MS)
    expect(posted.length).toBe(1)
    expect(posted[0]!.seq).toBe(1)
    expect(types(posted[0]!.events)).toEqual(['live-request a', 'chunk a 3', 'chunk a 5', 'live-finished a'])
  })

  it('keeps each read as it arrived: its bytes and its time', () => {
    const { channel, posted } = fakeChannel()
    const out = new LiveOutbox(channel)
    const bytes = new Uint8Array([0, 255, 10])
    out.pushChunk('a', bytes, 42)
    out.flush()
    expect(posted[0]!.events).toEqual([{ type: 'live-chunk', id: 'a', data: new Uint8Array([0, 255, 10]), t: 42 }])
  })

  it('flush posts at once and cancels the pending timer; an empty flush posts nothing', () => {
    const { channel, posted } = fakeChannel()
    const out = new LiveOutbox(channel)
    out.flush()
    expect(posted).toEqual([])
    out.push({ type: 'live-finished', id: 'a', t: 1 })
    out.flush()
    vi.advanceTimersByTime(FLUSH_MS * 2)
    expect(posted.length).toBe(1)
  })

  it('sheds a request once the bytes the hub has not taken pass the limit: one live-shed, later reads not copied, its end still said', () => {
    const { channel, posted } = fakeChannel()
    const out = new LiveOutbox(channel)
    const big = new Uint8Array(MAX_UNACKED_BYTES / 4)
    out.push({ type: 'live-request', request: info('a') })
    for (let i = 0; i < 4; i++) { out.pushChunk('a', big, i); out.flush() } // posted, never acknowledged
    out.pushChunk('a', new Uint8Array(1), 5)
    out.pushChunk('a', new Uint8Array(1), 6)
    out.push({ type: 'live-finished', id: 'a', t: 7 })
    out.flush()
    const last = posted.at(-1)!.events
    expect(types(last)).toEqual(['live-shed a', 'live-finished a'])
    const shed = last[0] as Extract<LiveCaptureMessage, { type: 'live-shed' }>
    expect(shed.t).toBe(5)
    expect(shed.reason).toBe(`Deltascope stopped copying this body after 100.7 MB: its panel had not yet taken the 100.7 MB before it. The page received every byte; the capture is incomplete`)
  })

  it('a WebSocket\'s messages are queued in order with their time and counted like reads: past the limit the socket is shed, its close still said', () => {
    const { channel, posted } = fakeChannel()
    const out = new LiveOutbox(channel)
    out.push({ type: 'live-ws-created', socket: { id: 'w', requestId: 'r', url: 'ws://x', startedAt: 0 } })
    out.pushFrame({ type: 'live-ws-frame', id: 'w', direction: 'send', opcode: 1, data: 'hi', t: 1 })
    out.pushFrame({ type: 'live-ws-frame', id: 'w', direction: 'receive', opcode: 2, data: new Uint8Array(3), t: 2 })
    out.flush()
    expect(types(posted[0]!.events)).toEqual(['live-ws-created w', 'live-ws-frame w', 'live-ws-frame w'])
    for (let i = 0; i < 4; i++) { out.pushFrame({ type: 'live-ws-frame', id: 'w', direction: 'receive', opcode: 2, data: new Uint8Array(MAX_UNACKED_BYTES / 4), t: 3 }); out.flush() }
    out.pushFrame({ type: 'live-ws-frame', id: 'w', direction: 'receive', opcode: 1, data: 'late', t: 9 })
    out.push({ type: 'live-ws-closed', id: 'w', t: 10 })
    out.flush()
    // the fourth big message passes the limit: shed there; the later one is not copied
    const last = [...posted.at(-2)!.events, ...posted.at(-1)!.events]
    expect(types(last)).toEqual(['live-shed w', 'live-ws-closed w'])
    expect((last[0] as Extract<LiveCaptureMessage, { type: 'live-shed' }>).reason).toMatch(/^Deltascope stopped copying this socket's messages after 75\.5 MB/)
  })

  it('copies again once the hub has taken what was posted', () => {
    const { channel, posted, ack } = fakeChannel()
    const out = new LiveOutbox(channel)
    const big = new Uint8Array(MAX_UNACKED_BYTES / 2)
    out.pushChunk('a', big, 0)
    out.flush()
    out.pushChunk('a', big, 1)
    out.flush()
    for (const b of posted) ack(b.seq)
    out.pushChunk('b', new Uint8Array(7), 2)
    out.flush()
    expect(types(posted.at(-1)!.events)).toEqual(['chunk b 7'])
  })

  it('an acknowledgement of an unknown batch changes nothing', () => {
    const { channel, posted, ack } = fakeChannel()
    const out = new LiveOutbox(channel)
    ack(99)
    out.pushChunk('a', new Uint8Array(2), 0)
    out.flush()
    expect(types(posted[0]!.events)).toEqual(['chunk a 2'])
  })
})
