// The hub's WebSockets: a connection becomes one row per turn (src/exchange/ws-turns.ts), from
// live capture's messages as they arrive (live-websocket.ts) or, without Live, from the entry
// DevTools hands over when the socket has closed (Chrome's HAR entry keeps its messages as
// `_webSocketMessages`). A socket followed live is not listed again from its finished entry.

import { TurnStreams } from '../../exchange/ws-turns.js'
import { wsCaptureFromHarEntry } from '../../exchange/websocket.js'
import type { CaptureEvent } from '../../exchange/types.js'
import type { LiveCaptureMessage } from './messages.js'

/** A socket's messages kept, at most, before it is no longer followed (the panel's own bound is its memory budget). */
const MAX_OPEN_SOCKETS = 200

interface Followed {
  streams: TurnStreams
  url: string
}

/**
 * What a panel without Live sees of WebSockets: nothing. Measured (test/e2e/websocket.test.ts,
 * Chromium with dist/chrome): devtools.network hands over no WebSocket entry, neither to
 * onRequestFinished nor in getHAR(), although DevTools' own Network panel has the messages and
 * its Export HAR keeps them. Firefox has no extension API that reads WebSocket messages
 * (webRequest sees the handshake only; Live there filters HTTP responses). Said once, in the
 * panel, with what would show them; null where Live shows them.
 */
export function webSocketsUnseen(where: 'chrome' | 'chrome-live-off' | 'firefox'): string {
  const har = 'or save a HAR from DevTools\' Network panel (Export HAR keeps the messages) and drop it on this panel'
  if (where === 'firefox') return `WebSockets: Firefox gives extensions no way to read WebSocket messages, so Deltascope lists none here. Firefox's Network panel shows them (select the socket, Response); for their turns, open the page in Chrome with Deltascope's Live, ${har}.`
  if (where === 'chrome') return `WebSockets: Chrome hands extensions no WebSocket messages without the debugger, so this build lists none. Deltascope's Live build (chrome-live) shows each turn as it arrives, ${har}.`
  return 'WebSocket messages are seen with Live on only: Chrome hands extensions none otherwise.'
}

export class HubSockets {
  private readonly open = new Map<string, Followed>()
  /** CDP requestIds of sockets followed live: DevTools' finished entry for them is not listed again. */
  private readonly live = new Set<string>()
  private harCounter = 0
  private saidNoMessages = false

  constructor(private readonly emit: (event: CaptureEvent) => void) {}

  /** Handles live capture's WebSocket messages (and a shed socket); false for any other message. */
  onCaptured(msg: LiveCaptureMessage): boolean {
    switch (msg.type) {
      case 'live-ws-created': {
        if (this.open.size >= MAX_OPEN_SOCKETS) return true
        const { id, url, startedAt, requestId } = msg.socket
        this.live.add(requestId)
        this.open.set(id, { url, streams: new TurnStreams({ id, url, startedAt, source: 'live', requestHeaders: [], responseHeaders: [] }) })
        return true
      }
      case 'live-ws-handshake': {
        const f = this.open.get(msg.id)
        // the rows are announced at their turn's first frame, after the handshake: they carry its headers
        if (f === undefined) return true
        if (msg.requestHeaders) f.streams.options.requestHeaders = msg.requestHeaders
        if (msg.responseHeaders) f.streams.options.responseHeaders = msg.responseHeaders
        return true
      }
      case 'live-ws-frame': {
        const f = this.open.get(msg.id)
        if (f === undefined) return true
        for (const e of f.streams.push({ direction: msg.direction, opcode: msg.opcode, data: msg.data, time: msg.t })) this.emit(e)
        return true
      }
      case 'live-ws-error': {
        const f = this.open.get(msg.id)
        if (f !== undefined) this.emit({ type: 'note', level: 'warning', message: `WebSocket ${f.url}: the browser could not read a frame (${msg.message}).` })
        return true
      }
      case 'live-ws-closed':
        this.end(msg.id, { code: null, reason: 'closed; the browser does not say with which code', time: msg.t })
        return true
      case 'live-shed': {
        const f = this.open.get(msg.id)
        if (f === undefined) return false
        this.end(msg.id, { code: null, reason: 'Deltascope stopped copying its messages', time: msg.t })
        this.emit({ type: 'note', level: 'warning', message: `${msg.reason}.` })
        return true
      }
      default:
        return false
    }
  }

  /** Live capture stopped: the sockets it followed end here. */
  abandon(reason: string): void {
    for (const id of [...this.open.keys()]) this.end(id, { code: null, reason, time: Date.now() })
  }

  /**
   * A WebSocket entry DevTools handed over finished (the socket closed): its turns are listed
   * from the messages it keeps, unless Live followed it. True when the entry was a WebSocket.
   */
  onHarEntry(entry: Record<string, unknown>): boolean {
    if (entry['_resourceType'] !== 'websocket') return false
    const requestId = typeof entry['_requestId'] === 'string' ? entry['_requestId'] : null
    if (requestId !== null && this.live.has(requestId)) return true
    const capture = wsCaptureFromHarEntry(entry)
    if (capture === null || capture.messages.length === 0) {
      if (!this.saidNoMessages) {
        this.saidNoMessages = true
        const url = typeof (entry['request'] as { url?: unknown } | undefined)?.url === 'string' ? (entry['request'] as { url: string }).url : 'a WebSocket'
        this.emit({ type: 'note', level: 'info', message: `WebSocket ${url}: DevTools handed over the connection without its messages, so its turns cannot be listed. Turn on Live (Chrome) to see them as they arrive.` })
      }
      return true
    }
    const id = `har-ws-${++this.harCounter}`
    const streams = new TurnStreams({ id, url: capture.url, startedAt: capture.startedAt, source: 'har', requestHeaders: capture.requestHeaders, responseHeaders: capture.responseHeaders })
    for (const m of capture.messages) for (const e of streams.push(m)) this.emit(e)
    for (const e of streams.close({ code: null, reason: 'closed; DevTools does not say with which code', time: capture.messages.at(-1)!.time })) this.emit(e)
    return true
  }

  private end(id: string, close: { code: null; reason: string; time: number }): void {
    const f = this.open.get(id)
    if (f === undefined) return
    this.open.delete(id)
    for (const e of f.streams.close(close)) this.emit(e)
  }
}
