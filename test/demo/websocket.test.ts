// The demo's WebSocket endpoints play recorded connections: a client that talks as the
// recorded one did receives every recorded message in order, and reading them as Deltascope
// does gives each turn the fixture expects. Socket.IO's endpoint is the real socket.io server,
// heard here through the real socket.io-client.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { io } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoServer, type DemoServer } from '../../demo/server.js'
import { parseWsFixture } from '../../src/exchange/index.js'
import { createConnection } from '../../src/index.js'
import { connectWebSocket } from '../support/ws-client.js'

let server: DemoServer
beforeAll(async () => { server = await startDemoServer() })
afterAll(async () => { await server.close() })

const fixture = (name: string) => parseWsFixture(readFileSync(join(import.meta.dirname, '../ws-fixtures', name), 'utf8'))

describe('the demo\'s WebSocket endpoints', () => {
  for (const [path, name] of [['/ws/realtime', 'openai-realtime/transcript-then-function-call.json'], ['/ws/live', 'gemini-live/sdk-test-messages.json']] as const) {
    it(`${path} plays ${name}, waiting for the client where it sent: the turns read from it are the fixture's`, async () => {
      const { capture, expected } = fixture(name)
      const client = await connectWebSocket(server.url.replace('http', 'ws') + `${path}?pace=0`)
      const c = createConnection({ url: capture.url })
      let heard = 0
      for (const m of capture.messages) {
        if (m.direction === 'send') { client.send(m.data as string); c.push(m); continue }
        const text = await client.next()
        heard++
        c.push({ ...m, data: text })
      }
      expect(heard).toBe(capture.messages.filter((m) => m.direction === 'receive').length)
      expect(await client.closed).toEqual({ code: 1000, reason: '' })
      c.close(capture.close!)
      expect(c.turns().map((t) => ({ key: t.key, state: t.state, reply: t.reply }))).toEqual(expected)
    })
  }

  it('an unknown fixture is a 404 at the handshake', async () => {
    await expect(connectWebSocket(server.url.replace('http', 'ws') + '/ws/realtime?fixture=nope')).rejects.toThrow('HTTP/1.1 404 Not Found')
  })

  it('Socket.IO: after user-join, the chat events of the recording, in order, from the real server to the real client', async () => {
    const { capture } = fixture('socketio-chat/open-webui-two-messages.json')
    const want = capture.messages.filter((m) => m.direction === 'receive' && (m.data as string).startsWith('42')).map((m) => JSON.parse((m.data as string).slice(2))[1])
    const socket = io(server.url, { transports: ['websocket'], query: { pace: '0' } })
    const got: unknown[] = []
    await new Promise<void>((resolve) => {
      socket.on('connect', () => socket.emit('user-join', { auth: { token: 'x' } }))
      socket.on('chat-events', (payload: unknown) => { got.push(payload); if (got.length === want.length) resolve() })
    })
    socket.close()
    expect(got).toEqual(want)
  })
})
