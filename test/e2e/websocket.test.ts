// WebSockets in Chromium with dist/chrome-live, Live on: a page talks to a local server
// speaking Realtime events (two responses, the second a function call), and a page uses the
// real socket.io-client against a real socket.io server emitting Open WebUI's chat events. The
// panel lists each turn as a row with its exact rebuilt text and calls, while it streams (the
// server holds the rest back until the panel has shown the first part) and after.

import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Server as SocketIoServer } from 'socket.io'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseWsFixture } from '../../src/exchange/index.js'
import type { Reply } from '../../src/index.js'
import { CHROME_DIST, ROOT, ensureExtensionBuilt, launchWithExtension, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'
import { acceptWebSocket } from '../../demo/ws-server.js'
import { webSocketsUnseen } from '../../src/shells/extension/hub-websocket.js'

const fixture = (name: string) => parseWsFixture(readFileSync(join(ROOT, 'test/ws-fixtures', name), 'utf8'))
const realtime = fixture('openai-realtime/transcript-then-function-call.json')
const chat = fixture('socketio-chat/open-webui-two-messages.json')

const PACE_MS = 30
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A gate the server waits at, opened by the test once the panel showed the turn mid-stream. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => { open = r })
  return { open, opened }
}

const TOGGLE = `document.querySelector('[data-testid=live-toggle]')`
const rows = (url: string) => `[...document.querySelectorAll('[data-testid=request-row]')].filter((r) => r.dataset.url.startsWith(${JSON.stringify(url)}))`

interface Shown { id: string; state: string; content: string; tools: Array<{ name: string | null; id: string | null; args: string | null }> }

async function showRow(panel: PanelHandle, url: string, n: number, until: string, message: string): Promise<Shown> {
  const row = `${rows(url)}[${n}]`
  await panel.waitFor(`!!${row}`, { timeout: 20_000, message: `${message}: row ${n + 1}` })
  await panel.evaluate(`${row}.click()`)
  await panel.waitFor(`(() => { const c = document.querySelector('[data-testid=reply-choice] [data-testid=reply-content]'); const t = document.querySelector('[data-testid=tool-call]'); return ${until} })()`, { timeout: 20_000, message })
  return panel.evaluate<Shown>(`(() => {
    const r = ${row}
    const text = (el) => el ? el.textContent : null
    const choice = document.querySelector('[data-testid=reply-choice]')
    return {
      id: r.dataset.id, state: r.dataset.state,
      content: text(choice && choice.querySelector('[data-testid=reply-content]')) ?? '',
      tools: [...document.querySelectorAll('[data-testid=tool-call]')].map((t) => ({ name: text(t.querySelector('[data-testid=tool-name]')), id: text(t.querySelector('[data-testid=tool-id]')), args: text(t.querySelector('[data-testid=tool-arguments]')) })),
    }
  })()`)
}

const replyOf = (n: number, of: typeof realtime): Reply => of.expected![n]!.reply

/** The test site: both pages, the Realtime upgrade (held at `realtimeGate` when given) and a socket.io server. */
function startSite(realtimeGate: { opened: Promise<void> } | null, chatGate: { opened: Promise<void> } | null): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const page = (script: string) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(`<!doctype html><title>ws</title>${script}`) }
    if (req.url === '/realtime.html') {
      page(`<script>
        window.start = () => new Promise((resolve) => {
          const ws = new WebSocket('ws://' + location.host + '/v1/realtime?model=gpt-realtime')
          ws.onopen = () => ws.send(JSON.stringify({ type: 'response.create' }))
          ws.onmessage = (e) => {
            const ev = JSON.parse(e.data)
            if (ev.type === 'response.done' && ev.response.id === 'resp_001') ws.send(JSON.stringify({ type: 'response.create' }))
            if (ev.type === 'response.done' && ev.response.id === 'resp_002') ws.send(JSON.stringify({ event_id: 'event_567', foo: 'bar' }))
          }
          ws.onclose = (e) => resolve(e.code)
        })
      </script>`)
    } else if (req.url === '/chat.html') {
      page(`<script src="/socket.io/socket.io.js"></script><script>
        window.start = () => {
          const socket = io({ transports: ['websocket'], auth: { token: 'test-token' } })
          socket.on('connect', () => socket.emit('user-join', { auth: { token: 'test-token' } }))
        }
      </script>`)
    } else { res.writeHead(404); res.end() }
  })
  // the recorded Realtime connection, played: each received message PACE_MS apart, a recorded send waited for
  server.on('upgrade', (req, socket) => {
    if (!req.url?.startsWith('/v1/realtime')) return
    const ws = acceptWebSocket(req, socket)
    void (async () => {
      for (const [i, m] of realtime.capture.messages.entries()) {
        if (i === 5 && realtimeGate) await realtimeGate.opened // after "Hello, how can I a"
        if (m.direction === 'send') { await ws.next(); continue }
        await sleep(PACE_MS)
        ws.send(m.data)
      }
      await sleep(PACE_MS)
      ws.close(1000)
    })()
  })
  const io = new SocketIoServer(server, { destroyUpgrade: false })
  io.on('connection', (socket) => {
    socket.on('user-join', () => {
      void (async () => {
        const emits = chat.capture.messages.filter((m) => m.direction === 'receive' && typeof m.data === 'string' && m.data.startsWith('42'))
        for (const [i, m] of emits.entries()) {
          if (i === 3 && chatGate) await chatGate.opened // after "The capital"
          await sleep(PACE_MS)
          const [event, payload] = JSON.parse((m.data as string).slice(2)) as [string, unknown]
          socket.emit(event, payload)
        }
      })()
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })))
}

describe('WebSocket turns in the panel (Chromium, Live)', () => {
  let server: Server
  let base: string
  let b: ExtensionBrowser
  let panel: PanelHandle
  const realtimeGate = gate()
  const chatGate = gate()

  beforeAll(async () => {
    ensureExtensionBuilt()
    ;({ server, base } = await startSite(realtimeGate, chatGate))
    b = await launchWithExtension({ extensionDir: join(CHROME_DIST, '../chrome-live') })
    await b.page.goto(`${base}/realtime.html`)
    panel = await b.openPanel()
    await panel.waitFor(TOGGLE, { message: 'the Live toggle' })
    await panel.evaluate(`${TOGGLE}.click()`, { userGesture: true })
    await panel.waitFor(`${TOGGLE}.checked && !${TOGGLE}.disabled`, { message: 'Live on' })
  }, 180_000)

  afterAll(async () => {
    await b?.close()
    await new Promise((r) => server?.close(r))
  })

  it('Realtime over a plain WebSocket: a row per response, its transcript while it streams, then both replies exact', async () => {
    const url = base.replace('http', 'ws') + '/v1/realtime'
    await b.page.evaluate('window.start(), 0') // the socket runs on: the server is held at its gate
    const live = await showRow(panel, url, 0, `c && c.textContent === 'Hello, how can I a'`, 'the first response mid-stream')
    expect(live).toMatchObject({ state: 'live', content: 'Hello, how can I a', tools: [] })
    realtimeGate.open()
    const first = await showRow(panel, url, 0, `c && c.textContent === ${JSON.stringify(replyOf(0, realtime).choices[0]!.content)}`, 'the first response whole')
    expect(first.content).toBe('Hello, how can I assist you today?')
    await showRow(panel, url, 1, `t && t.querySelector('[data-testid=tool-name]')?.textContent === 'get_weather'`, 'the function call')
    // the arguments exactly as sent: the call's raw view
    await panel.waitFor(`(() => { const raw = [...document.querySelectorAll('[data-testid=tool-call] button')].find((x) => x.textContent === 'raw'); if (!raw) return false; raw.click(); return true })()`, { message: 'the call\'s raw button' })
    const second = await showRow(panel, url, 1, `t && t.querySelector('[data-testid=tool-arguments]')?.textContent === '{"location": "San Francisco"}'`, 'the function call\'s raw arguments')
    expect(second.tools).toEqual([{ name: 'get_weather', id: 'call_001', args: '{"location": "San Francisco"}' }])
    await panel.waitFor(`${rows(url)}.length === 2 && ${rows(url)}.every((r) => r.dataset.state === 'finished')`, { timeout: 20_000, message: 'both turns finished after the close' })
    expect(await panel.evaluate(`${rows(url)}.map((r) => r.dataset.id.replace(/^.*-(t\\d+)$/, '$1'))`)).toEqual(['t0', 't1'])
  })

  it('real socket.io-client and socket.io: a row per chat message, its snapshot text while it streams, then both exact', async () => {
    await b.page.goto(`${base}/chat.html`)
    const url = base.replace('http', 'ws') + '/socket.io/'
    await b.page.evaluate('window.start()')
    const live = await showRow(panel, url, 0, `c && c.textContent === 'The capital'`, 'the first message mid-stream')
    expect(live).toMatchObject({ state: 'live', content: 'The capital' })
    chatGate.open()
    const first = await showRow(panel, url, 0, `c && c.textContent === ${JSON.stringify(replyOf(0, chat).choices[0]!.content)}`, 'the first message whole')
    expect(first.content).toBe('The capital of France is Paris.')
    const second = await showRow(panel, url, 1, `c && c.textContent === ${JSON.stringify(replyOf(1, chat).choices[0]!.content)}`, 'the second message')
    expect(second.content).toBe('Lyon is second.')
    // the first row finished once the server's next message went to the second turn
    expect(await panel.evaluate(`${rows(url)}[0].dataset.state`)).toBe('finished')
  })
})

describe('WebSockets without Live (Chromium, dist/chrome: devtools.network only)', () => {
  let server: Server
  let base: string
  let b: ExtensionBrowser
  let panel: PanelHandle

  beforeAll(async () => {
    ensureExtensionBuilt()
    ;({ server, base } = await startSite(null, null))
    b = await launchWithExtension({ extensionDir: CHROME_DIST })
    await b.page.goto(`${base}/realtime.html`)
    panel = await b.openPanel()
  }, 180_000)

  afterAll(async () => {
    await b?.close()
    await new Promise((r) => server?.close(r))
  })

  it('measured: devtools.network hands over no WebSocket entry (a later fetch is there); the panel says so once, with what would show them', async () => {
    const url = base.replace('http', 'ws') + '/v1/realtime'
    expect(await b.page.evaluate('window.start()')).toBe(1000) // the page's socket ran and closed cleanly
    await b.page.evaluate(`fetch('/chat.html').then((r) => r.text())`)
    const hub = await b.attach((await b.targets()).find((t) => t.url.endsWith(`${b.extensionId}/src/shells/extension/devtools.html`))!.targetId)
    await hub.waitFor(`new Promise((r) => chrome.devtools.network.getHAR((h) => r(h.entries.some((e) => e.request.url.endsWith('/chat.html')))))`, { message: 'the fetch in DevTools\' HAR' })
    const har = await hub.evaluate<Array<[string, string]>>(`new Promise((r) => chrome.devtools.network.getHAR((h) => r(h.entries.map((e) => [e.request.url, e._resourceType]))))`)
    expect(har.filter(([u]) => u.startsWith('ws'))).toEqual([])
    expect(await panel.evaluate(`${rows(url)}.length`)).toBe(0)
    expect(await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=note] .ds-note-text')].map((n) => n.textContent)`)).toEqual([webSocketsUnseen('chrome')])
  })
})
