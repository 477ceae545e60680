// Live capture of WebSockets in Chrome's service worker (live.ts hands it the Network.webSocket*
// events of the tab and of every target it attached: workers, iframes). Each message is handed
// to the hub through the outbox with its time; the hub splits the connection into turns
// (hub-websocket.ts). CDP's times are monotonic seconds: the handshake's wallTime dates them.
// A binary message's payloadData is base64 (opcode 2), a text message's its text.

import type { Header } from '../../exchange/types.js'
import type { LiveOutbox } from '../extension/live-outbox.js'

interface Socket {
  id: string
  /** wall-clock ms minus monotonic ms, once the handshake told; 0 until then. */
  clockOffset: number
}

export interface SocketSession {
  outbox: LiveOutbox
  sockets: Map<string, Socket>
}

/** Sockets remembered at once (a page opening sockets in a loop stops being followed past this). */
const MAX_SOCKETS = 500

/** Handles one Network.webSocket* event; false for any other method. */
export function onWebSocketEvent(
  s: SocketSession, sessionId: string | undefined, method: string, p: Record<string, unknown>,
  toHeaders: (h: Record<string, unknown> | undefined) => Header[], fromBase64: (text: string) => Uint8Array,
): boolean {
  if (!method.startsWith('Network.webSocket')) return false
  const requestId = String(p['requestId'] ?? '')
  const k = `${sessionId ?? 'tab'}:${requestId}`
  if (method === 'Network.webSocketCreated') {
    if (s.sockets.size >= MAX_SOCKETS) return true
    const id = `live:ws:${k}`
    s.sockets.set(k, { id, clockOffset: 0 })
    s.outbox.push({ type: 'live-ws-created', socket: { id, requestId, url: String(p['url'] ?? ''), startedAt: Date.now() } })
    return true
  }
  const socket = s.sockets.get(k)
  if (socket === undefined) return true
  const t = stamp(socket, p['timestamp'])
  switch (method) {
    case 'Network.webSocketWillSendHandshakeRequest': {
      const wall = (p['wallTime'] as number) * 1000
      const ts = (p['timestamp'] as number) * 1000
      if (Number.isFinite(wall) && Number.isFinite(ts)) socket.clockOffset = wall - ts
      const request = (p['request'] ?? {}) as { headers?: Record<string, unknown> }
      s.outbox.push({ type: 'live-ws-handshake', id: socket.id, requestHeaders: toHeaders(request.headers) })
      return true
    }
    case 'Network.webSocketHandshakeResponseReceived': {
      const response = (p['response'] ?? {}) as { status?: number; headers?: Record<string, unknown> }
      s.outbox.push({ type: 'live-ws-handshake', id: socket.id, ...(typeof response.status === 'number' ? { status: response.status } : {}), responseHeaders: toHeaders(response.headers) })
      return true
    }
    case 'Network.webSocketFrameReceived':
    case 'Network.webSocketFrameSent': {
      const frame = (p['response'] ?? {}) as { opcode?: number; payloadData?: string }
      const opcode = typeof frame.opcode === 'number' ? frame.opcode : 1
      const payload = frame.payloadData ?? ''
      let data: string | Uint8Array = payload
      if (opcode === 2) {
        try { data = fromBase64(payload) } catch { data = payload }
      }
      // close, ping and pong frames (8–10) carry no message
      if (opcode !== 1 && opcode !== 2) return true
      s.outbox.pushFrame({ type: 'live-ws-frame', id: socket.id, direction: method === 'Network.webSocketFrameSent' ? 'send' : 'receive', opcode, data, t })
      return true
    }
    case 'Network.webSocketFrameError':
      s.outbox.push({ type: 'live-ws-error', id: socket.id, t, message: String(p['errorMessage'] ?? 'frame error') })
      return true
    case 'Network.webSocketClosed':
      s.sockets.delete(k)
      s.outbox.push({ type: 'live-ws-closed', id: socket.id, t })
      return true
    default:
      return true
  }
}

function stamp(socket: Socket, ts: unknown): number {
  if (typeof ts === 'number' && socket.clockOffset !== 0) return Math.round(ts * 1000 + socket.clockOffset)
  return Date.now()
}
