// The demo's WebSocket endpoints: recorded connections (test/ws-fixtures/) played to the page
// at a network-like pace (the recorded times, else `pace` ms apart), waiting where the recording
// has the client sending.
//
//   ws://…/ws/realtime?fixture=<name>&pace=MS    an OpenAI Realtime connection (openai-realtime/)
//   ws://…/ws/live?fixture=<name>&pace=MS        a Gemini Live connection (gemini-live/)
//   Socket.IO at /socket.io/ (the real socket.io server): after the client's `user-join`, the
//   chat events of socketio-chat/<fixture> (default open-webui-two-messages), `pace` ms apart

import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Server as SocketIoServer } from 'socket.io'
import { parseWsFixture, type WsCapture } from '../src/exchange/websocket.js'
import { acceptWebSocket } from './ws-server.js'

const FIXTURES = fileURLToPath(new URL('../test/ws-fixtures/', import.meta.url))

export const WS_ENDPOINTS = [
  { path: '/ws/realtime', dir: 'openai-realtime', fixture: 'transcript-then-function-call' },
  { path: '/ws/live', dir: 'gemini-live', fixture: 'sdk-test-messages' },
] as const

export const SOCKET_IO_FIXTURE = 'open-webui-two-messages'

/** A recorded connection by directory and name; null for a name that is not one (no path outside the folder). */
export function loadWsFixture(dir: string, name: string): WsCapture | null {
  if (!/^[a-z0-9-]+$/.test(name)) return null
  const file = `${FIXTURES}${dir}/${name}.json`
  return existsSync(file) ? parseWsFixture(readFileSync(file, 'utf8')).capture : null
}

/** Adds the WebSocket endpoints and Socket.IO to the demo's HTTP server. */
export function attachWebSockets(server: Server): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const url = new URL(req.url ?? '/', 'http://demo')
    const endpoint = WS_ENDPOINTS.find((e) => e.path === url.pathname)
    // Socket.IO's own upgrades are its server's
    if (endpoint === undefined) {
      if (!url.pathname.startsWith('/socket.io/')) socket.destroy()
      return
    }
    const capture = loadWsFixture(endpoint.dir, url.searchParams.get('fixture') ?? endpoint.fixture)
    if (capture === null) { socket.end('HTTP/1.1 404 Not Found\r\n\r\n'); return }
    void play(acceptWebSocket(req, socket), capture, Number(url.searchParams.get('pace') ?? NaN))
  })
  const io = new SocketIoServer(server, { destroyUpgrade: false, cors: { origin: '*' } })
  io.on('connection', (socket) => {
    const name = typeof socket.handshake.query['fixture'] === 'string' ? socket.handshake.query['fixture'] : SOCKET_IO_FIXTURE
    const pace = Number(socket.handshake.query['pace'] ?? 40)
    socket.on('user-join', () => {
      const capture = loadWsFixture('socketio-chat', name)
      if (capture === null) return
      void (async () => {
        for (const m of capture.messages) {
          // the recording's Socket.IO events, emitted again by the real server (it writes the packets)
          if (m.direction !== 'receive' || typeof m.data !== 'string' || !m.data.startsWith('42')) continue
          await sleep(pace)
          if (socket.disconnected) return
          const [event, payload] = JSON.parse(m.data.slice(2)) as [string, unknown]
          socket.emit(event, payload)
        }
      })()
    })
  })
}

async function play(ws: ReturnType<typeof acceptWebSocket>, capture: WsCapture, pace: number): Promise<void> {
  let last: number | null = null
  for (const m of capture.messages) {
    if (m.direction === 'send') { await ws.next(); continue }
    const wait = Number.isFinite(pace) ? pace : m.time !== null && last !== null ? m.time - last : 40
    if (m.time !== null) last = m.time
    await sleep(Math.max(0, wait))
    ws.send(m.data)
  }
  if (capture.close !== null) {
    await sleep(Number.isFinite(pace) ? pace : 40)
    if (capture.close.code === null) ws.close(1011, 'the recording ended without a close frame')
    else ws.close(capture.close.code, capture.close.reason)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
