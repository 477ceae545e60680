// What Firefox hands Deltascope of a WebSocket, measured: a page's socket to the demo's
// Realtime endpoint runs and closes, then a fetch of a stream finishes; the panel lists the
// fetch (so finished requests did reach it) and no row for the socket, and says once that
// Firefox gives extensions no WebSocket messages.

import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoServer, type DemoServer } from '../../demo/server.js'
import { webSocketsUnseen } from '../../src/shells/extension/hub-websocket.js'
import { FIREFOX, buildFirefoxForTest, launchFirefox, removeBuild, startProbeServer, type FirefoxWithExtension, type Probe } from '../support/firefox.js'

const PANEL = '[data-testid]'

describe.skipIf(process.env['DELTASCOPE_SKIP_FIREFOX'] === '1')('WebSockets in Firefox (baseline, measured)', () => {
  let demo: DemoServer
  let probe: Probe
  let dir = ''
  let ff: FirefoxWithExtension

  beforeAll(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is not installed (DELTASCOPE_SKIP_FIREFOX=1 skips this test)`)
    demo = await startDemoServer({ port: 0 })
    probe = await startProbeServer()
    dir = buildFirefoxForTest(probe.url)
    ff = await launchFirefox({ extensionDir: dir })
    await ff.page.goto(`${demo.url}/`)
    await ff.showPanel()
    await probe.connected(15_000)
  }, 180_000)

  afterAll(async () => {
    await ff?.close()
    await probe?.close()
    await demo?.close()
    if (dir) removeBuild(dir)
  })

  it('a closed socket gives no row (a stream fetched after it does); the panel says so once', async () => {
    const code = await ff.page.evaluate((base) => new Promise<number>((resolve) => {
      const ws = new WebSocket(base.replace('http', 'ws') + '/ws/realtime?pace=0')
      ws.onmessage = (e) => {
        const ev = JSON.parse(e.data as string)
        if (ev.type === 'session.created' || ev.type === 'response.done') ws.send(JSON.stringify({ type: 'response.create' }))
      }
      ws.onclose = (e) => resolve(e.code)
    }), demo.url)
    expect(code).toBe(1000)
    const sse = `${demo.url}/v1/chat/completions?pace=0`
    await ff.page.evaluate((u) => fetch(u, { method: 'POST', body: '{}' }).then((r) => r.text()), sse)
    const nodes = await probe.waitFor(PANEL, (n) => n.some((x) => x.data['testid'] === 'request-row' && x.data['url'] === sse), { timeout: 20_000, message: 'the fetched stream listed' })
    const rows = nodes.filter((x) => x.data['testid'] === 'request-row').map((x) => x.data['url'] ?? '')
    expect(rows.filter((u) => u.startsWith('ws'))).toEqual([])
    const notes = nodes.filter((x) => x.data['testid'] === 'note').map((x) => x.text)
    expect(notes.filter((n) => n.includes(webSocketsUnseen('firefox')))).toHaveLength(1)
  })
})
