// End to end: the built extension in Debian Chromium, DevTools open on the demo chat app, the
// Deltascope panel's DOM read through CDP. The page streams through fetch (SSE and NDJSON, five
// providers, broken frames, a charset-less body Chrome decodes as windows-1252, a text/plain
// stream found by sniffing); the panel must list each stream once, with exactly the Reply the
// core computes from the same bytes, its frame count and its broken frame. Then live mode
// (chrome.debugger) must show frames while a slow stream is still running, a stream the page
// aborts as cancelled, and nothing twice.
//
// Two packages (least privilege, vite.config.ext.ts): these runs load dist/chrome-live, whose
// manifest declares `debugger` as required, because Chromium does not allow it as an optional
// permission (it drops it from optional_permissions, and permissions.request then fails with
// "Only permissions specified in the manifest may be requested"): it cannot be asked for when
// Live is turned on, so no prompt is driven here, and live mode stays off until the panel's
// toggle. The toggle's click is sent with Runtime.evaluate({userGesture: true}) because
// chrome.permissions.request, which the toggle still calls (it resolves true for a granted
// permission), demands a user gesture. A Cache-Control: no-store stream under Live is captured
// whole and ends finished. The last suite loads dist/chrome, which asks for no permission: its
// Live toggle says where live capture is, it captures on completion (a no-store body too, in
// Chromium 156), and a HAR dropped on the panel is imported beside the captured requests.
//
// Env: CHROMIUM_PATH (default /usr/bin/chromium), HEADFUL=1, DELTASCOPE_REBUILD=1,
// DELTASCOPE_SCREENSHOTS (where panel.png goes: test/support/screenshots.ts; `npm run screenshots`).

import { webSocketsUnseen } from '../../src/shells/extension/hub-websocket.js'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoServer } from '../../demo/server.js'
import { createMerger, merge } from '../../src/index.js'
import {
  CHROMIUM,
  CHROME_DIST,
  ensureExtensionBuilt,
  launchWithExtension,
  sleep,
  type ExtensionBrowser,
  type PanelHandle,
} from '../support/browser.js'
import { expectedReply, expectPanelShows, type ShownReply } from '../support/panel-checks.js'
import { screenshotPath } from '../support/screenshots.js'
import { DONE, openaiChunk } from '../support/streams.js'

const SCREENSHOT = screenshotPath('panel.png')
const SCREENSHOT_NARROW = screenshotPath('panel-narrow.png')
/** The Live package: the same build as dist/chrome, its manifest adding `debugger`. */
const CHROME_LIVE_DIST = join(CHROME_DIST, '../chrome-live')

// ---- a second origin for what the demo does not serve ---------------------------------------------

const UNICODE_TEXT = 'Prix : 5 € — naïve 中文 😀 “ok”'
const chunk = (content: string, finish: string | null = null): string => openaiChunk({ content }, finish, { id: 'c1' })
const EXTRA_BODIES: Record<string, { type: string; body: string; hold?: boolean; whole?: boolean }> = {
  // No charset: Chrome hands the body to extensions decoded as windows-1252.
  '/charsetless.sse': {
    type: 'text/event-stream',
    body: chunk('Prix : 5 € — ') + chunk('naïve 中文 ') + chunk('😀 “ok”', 'stop') + DONE,
  },
  // A chat backend answering text/plain: listed because the body sniffs as SSE.
  '/backend/stream.txt': {
    type: 'text/plain; charset=utf-8',
    body: chunk('Hello') + chunk(' from a text/plain backend', 'stop') + DONE,
  },
  // Cache-Control: no-store (every route here sends it; this one is named for the test that is about it)
  '/nostore.sse': {
    type: 'text/event-stream; charset=utf-8',
    body: chunk('No') + chunk('-store') + chunk(', whole', 'stop') + DONE,
  },
  // The connection held open after [DONE] (a server that keeps it alive): the page closes it.
  '/held.sse': {
    type: 'text/event-stream; charset=utf-8',
    body: chunk('Closed') + chunk(' by the page', 'stop') + DONE,
    hold: true,
  },
  // Larger than Chrome's DevTools keeps of a finished response (23 MB; 10.5 MB of ASCII is kept): sent at once
  '/big.sse': {
    type: 'text/event-stream; charset=utf-8',
    body: Array.from({ length: 23_000 }, (_, i) => chunk(`${String(i).padStart(5, '0')} ${'x'.repeat(900)}`)).join('') + DONE,
    whole: true,
  },
  // Not streams: one JSON document, and plain text.
  '/api/config.json': { type: 'application/json', body: '{"model":"gpt-4o","stream":true}\n' },
  '/hello.txt': { type: 'text/plain', body: 'Hello, world\n' },
}

function startExtraServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const entry = EXTRA_BODIES[path]
    req.resume()
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': '*' })
      res.end()
      return
    }
    if (!entry) { res.writeHead(404, { 'access-control-allow-origin': '*' }); res.end(); return }
    res.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store', 'access-control-allow-origin': '*' })
    if (entry.whole) { res.end(entry.body); return }
    // Streamed a frame at a time, 40 ms apart: slow enough for live capture to pick it up.
    const parts = entry.body.split(/(?<=\n\n)/)
    const next = (): void => {
      const part = parts.shift()
      if (part === undefined) { if (!entry.hold) res.end(); return }
      res.write(Buffer.from(part, 'utf8'))
      setTimeout(next, 40)
    }
    next()
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })))
}

// ---- the panel's DOM --------------------------------------------------------------------------------

const sel = (s: string): string => JSON.stringify(s)

/** Clicks the request row for `url` and waits until the selection shows it. */
async function selectRequest(panel: PanelHandle, url: string): Promise<void> {
  const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})`
  await panel.waitFor(row, { message: `a request row for ${url}` })
  await panel.evaluate(`${row}.click()`)
  await panel.waitFor(`document.querySelector('.ds-sel-title')?.title === ${sel(url)}`, { message: `the selection to show ${url}` })
}

function readSelection(panel: PanelHandle, url: string): Promise<ShownReply> {
  return panel.evaluate<ShownReply>(`(() => {
    const q = (root, id) => root.querySelector('[data-testid="' + id + '"]')
    const text = (el) => el ? el.textContent : null
    const row = [...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})
    return {
      state: row ? row.dataset.state : null,
      frameCount: Number(text(q(document, 'frame-count'))),
      rowFrames: Number(text(row && q(row, 'request-frames'))),
      rowBroken: row && q(row, 'request-broken') ? parseInt(text(q(row, 'request-broken')), 10) : 0,
      choices: [...document.querySelectorAll('[data-testid=reply-choice]')].map((c) => ({
        index: Number(c.dataset.index),
        content: text(q(c, 'reply-content')) ?? '',
        reasoning: text(q(c, 'reply-reasoning')) ?? '',
        finishReason: text(q(c, 'finish-reason')) ?? '',
        tools: [...c.querySelectorAll('[data-testid=tool-call]')].map((t) => ({
          name: text(q(t, 'tool-name')),
          id: text(q(t, 'tool-id')),
          args: text(q(t, 'tool-arguments')),
          pretty: text(q(t, 'tool-arguments-pretty')),
        })),
      })),
      frameErrors: [...document.querySelectorAll('[data-testid=frame-error]')].map((e) => Number(e.dataset.frame)),
    }
  })()`)
}

/** The frame row for `seq`, brought into view by the problem list's link, is marked broken. */
async function expectBrokenRow(panel: PanelHandle, seq: number): Promise<void> {
  await panel.evaluate(`document.querySelector('[data-testid=frame-error][data-frame="${seq}"] button').click()`)
  await panel.waitFor(`document.querySelector('[data-testid=frame-row][data-seq="${seq}"]')`, { message: `frame row ${seq}` })
  const row = await panel.evaluate<{ broken: string | null; kind: string | null; title: string }>(`(() => {
    const r = document.querySelector('[data-testid=frame-row][data-seq="${seq}"]')
    return { broken: r.getAttribute('data-broken'), kind: r.getAttribute('data-kind'), title: r.title }
  })()`)
  expect(row.broken).toBe('true')
  expect(row.kind).toBe('invalid')
  expect(row.title).toMatch(/line \d+, position \d+: /)
}


/** Fetches in the page and reads the whole body, as a chat client would. */
function pageFetch(b: ExtensionBrowser, url: string, method = 'POST'): Promise<number> {
  return b.page.evaluate(async ([u, m]) => {
    const res = await fetch(u!, m === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true}' } : {})
    return (await res.arrayBuffer()).byteLength
  }, [url, method])
}

// ---- the run ------------------------------------------------------------------------------------------

const available = existsSync(CHROMIUM)

describe.skipIf(!available)('Deltascope extension in Chromium', () => {
  let demo: { url: string; close(): Promise<void> }
  let extra: { url: string; server: Server }
  let b: ExtensionBrowser
  let panel: PanelHandle
  const t0 = Date.now()
  const timings: Record<string, number> = {}

  beforeAll(async () => {
    ensureExtensionBuilt()
    const dist = CHROME_LIVE_DIST
    timings['build'] = Date.now() - t0
    demo = await startDemoServer({ port: 0 })
    extra = await startExtraServer()
    b = await launchWithExtension({ extensionDir: dist })
    timings['launch'] = Date.now() - t0
    await b.page.goto(`${demo.url}/`)
    panel = await b.openPanel()
    timings['panel'] = Date.now() - t0
  }, 90_000)

  afterAll(async () => {
    await b?.close()
    await demo?.close()
    extra?.server.closeAllConnections()
    await new Promise((r) => extra?.server.close(r))
    // eslint-disable-next-line no-console
    console.log(`e2e timings (ms since start): ${JSON.stringify({ ...timings, total: Date.now() - t0 })}`)
  })

  it('lists every finished stream once, with exactly the reconstructed reply, frame count and broken frame', async () => {
    const d = demo.url
    const streams: Array<{ label: string; url: string; contentType: string; broken?: boolean }> = [
      { label: 'OpenAI chat SSE', url: `${d}/v1/chat/completions?pace=0`, contentType: 'text/event-stream; charset=utf-8' },
      { label: 'Anthropic SSE, broken frame', url: `${d}/v1/messages?pace=0&broken=1`, contentType: 'text/event-stream; charset=utf-8', broken: true },
      { label: 'Gemini SSE', url: `${d}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&pace=0`, contentType: 'text/event-stream; charset=utf-8' },
      { label: 'OpenAI Responses SSE', url: `${d}/v1/responses?pace=0`, contentType: 'text/event-stream; charset=utf-8' },
      { label: 'Ollama NDJSON', url: `${d}/api/chat?pace=0`, contentType: 'application/x-ndjson' },
      { label: 'Ollama NDJSON, broken line', url: `${d}/api/chat?pace=0&broken=1&seed=3`, contentType: 'application/x-ndjson', broken: true },
      { label: 'charset-less SSE (windows-1252 repair)', url: `${extra.url}/charsetless.sse`, contentType: 'text/event-stream' },
      { label: 'text/plain SSE (sniffed)', url: `${extra.url}/backend/stream.txt`, contentType: 'text/plain; charset=utf-8' },
    ]
    const notStreams = [`${extra.url}/api/config.json`, `${extra.url}/hello.txt`, `${d}/scenarios.json`]

    for (const s of streams) expect(await pageFetch(b, s.url), s.label).toBeGreaterThan(0)
    for (const u of notStreams) await pageFetch(b, u, 'GET')
    const expected = await Promise.all(streams.map((s) => expectedReply(s.url, s.contentType)))

    await panel.waitFor(`document.querySelectorAll('[data-testid=request-row]').length >= ${streams.length}`, {
      timeout: 15_000,
      message: `${streams.length} request rows`,
    })
    await sleep(300) // a stray extra row would show up by now
    const titles = await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=request-row]')].map((r) => r.dataset.url)`)
    expect(titles.sort()).toEqual(streams.map((s) => s.url).sort())

    for (let i = 0; i < streams.length; i++) {
      const s = streams[i]!
      const want = expected[i]!
      // The fixtures' own checks: these streams are not trivial.
      expect(want.frameCount, s.label).toBeGreaterThan(1)
      expect(want.errors.length > 0, `${s.label}: has a broken frame`).toBe(s.broken === true)
      await selectRequest(panel, s.url)
      await panel.waitFor(`document.querySelector('[data-testid=frame-count]')?.textContent === ${sel(String(want.frameCount))}`, {
        message: `${s.label}: frame count ${want.frameCount}`,
      })
      expectPanelShows(await readSelection(panel, s.url), want, s.label)
      for (const e of want.errors) await expectBrokenRow(panel, e.frame)
    }
    // The repaired body is the text that was sent, not its windows-1252 mojibake.
    expect(expected[6]!.choices[0]!.content).toBe(UNICODE_TEXT)

    // A finished capture gets its body whole, after the end: the timing strip says so.
    await panel.waitFor(`document.querySelector('[data-testid=timing]')?.dataset.unknown === 'true'`, { message: 'times unknown on a baseline capture' })
    expect(await panel.evaluate<string>(`document.querySelector('[data-testid=timing]').textContent`))
      .toBe('times unknown: turn on Live (without it the body arrives whole once the stream ended)')

    // The screenshot: the Anthropic stream (thinking, text, tool use) with its broken frame open.
    await selectRequest(panel, streams[1]!.url)
    await expectBrokenRow(panel, expected[1]!.errors[0]!.frame)
    await panel.screenshot(SCREENSHOT)
    // DevTools docked narrow: the list above the selection, its columns lined up under their headers
    await panel.screenshot(SCREENSHOT_NARROW, { width: 560, height: 760 })

    // DevTools' own search bar (Ctrl+F over the panel) drives the frame search, through onSearch.
    const key = (type: string, extra: object = {}) => panel.devtools.send('Input.dispatchKeyEvent', {
      type, key: 'f', code: 'KeyF', windowsVirtualKeyCode: 70, modifiers: 2, ...extra,
    })
    await key('rawKeyDown')
    await key('keyUp')
    await panel.devtools.send('Input.insertText', { text: 'thinking' })
    await panel.waitFor(`document.querySelector('[data-testid=frame-search]')?.value === 'thinking'`, { message: 'the search query relayed from DevTools' })
    await panel.waitFor(`document.querySelector('[data-testid=search-count]')?.dataset.done === 'true'`, { message: 'the search done' })
    const searched = await panel.evaluate<{ count: string; rows: number }>(`({
      count: document.querySelector('[data-testid=search-count]').textContent,
      rows: document.querySelectorAll('[data-testid=frame-row]').length,
    })`)
    const body = new Uint8Array(await (await fetch(streams[1]!.url, { method: 'POST', body: '{}' })).arrayBuffer())
    const merger = createMerger({ contentType: streams[1]!.contentType, url: streams[1]!.url })
    merger.push(body)
    merger.end()
    const thinking = merger.frames().filter((f) => /thinking/i.test(f.data) || (f.event !== null && /thinking/i.test(f.event))).length
    expect(thinking).toBeGreaterThan(0)
    expect(searched.count).toBe(`${thinking} of ${expected[1]!.frameCount}`)
    expect(searched.rows).toBe(thinking)
    await panel.devtools.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 })
    await panel.waitFor(`document.querySelector('[data-testid=frame-search]')?.value === ''`, { message: 'cancelSearch empties the search' })
    timings['baseline'] = Date.now() - t0
  }, 60_000)

  it('live mode: frames reach the panel while the stream runs; a cancelled stream shows as cancelled; a no-store stream ends finished and whole, and so does one the page closes after [DONE]; nothing listed twice', async () => {
    const rowsBefore = await panel.evaluate<number>(`document.querySelectorAll('[data-testid=request-row]').length`)

    // The toggle asks for the `debugger` permission (declared in the manifest: granted, no prompt).
    await panel.waitFor(`document.querySelector('[data-testid=live-toggle]')`, { message: 'the live toggle' })
    await panel.evaluate(`document.querySelector('[data-testid=live-toggle]').click()`, { userGesture: true })
    await panel.waitFor(`document.querySelector('[data-testid=live-toggle]').checked && !document.querySelector('[data-testid=live-toggle]').disabled`, {
      message: 'live mode on',
    })

    // ~2.3 kB in chunks of 1-96 bytes, 60 ms apart: about 3 s of streaming.
    const slowUrl = `${demo.url}/v1/messages?pace=60&seed=11`
    await b.page.evaluate((u) => {
      const w = window as unknown as { slow: { done: number | null; bytes: number } }
      w.slow = { done: null, bytes: 0 }
      void fetch(u, { method: 'POST', body: '{}' }).then(async (res) => {
        const reader = res.body!.getReader()
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          w.slow.bytes += value.byteLength
        }
        w.slow.done = Date.now()
      })
    }, slowUrl)

    // While the page is still reading, the panel already shows frames of it, live.
    const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(slowUrl)})`
    let seenLive: { frames: number; pageBytes: number } | null = null
    const frameCounts: number[] = []
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      const s = await panel.evaluate<{ state: string; frames: number } | null>(
        `(() => { const r = ${row}; return r ? { state: r.dataset.state, frames: Number(r.querySelector('[data-testid=request-frames]').textContent) } : null })()`,
      )
      const page = await b.page.evaluate(() => (window as unknown as { slow: { done: number | null; bytes: number } }).slow)
      if (s) frameCounts.push(s.frames)
      if (s && s.state === 'live' && s.frames > 0 && page.done === null) seenLive ??= { frames: s.frames, pageBytes: page.bytes }
      if (page.done !== null && s?.state === 'finished') break
      await sleep(150)
    }
    expect(seenLive, 'a live row with frames before the stream ended').not.toBeNull()
    const want = await expectedReply(slowUrl, 'text/event-stream; charset=utf-8')
    expect(seenLive!.frames).toBeLessThan(want.frameCount)
    // It grew while streaming: several distinct counts were seen.
    expect(new Set(frameCounts).size).toBeGreaterThan(2)

    await selectRequest(panel, slowUrl)
    await panel.waitFor(`document.querySelector('[data-testid=request-state]')?.textContent === 'finished'`)
    expectPanelShows(await readSelection(panel, slowUrl), want, 'live Anthropic SSE')
    const id = await panel.evaluate<string>(`${row}.dataset.id`)
    expect(id.startsWith('live:')).toBe(true)

    // The timing strip of a live capture: first byte, end, and a bar for each gap between frames.
    await panel.waitFor(`document.querySelector('[data-testid=timing-ttfb]') !== null`, { message: 'the timing strip' })
    const timing = await panel.evaluate<{ ttfb: string; end: string; bars: number; unknown: boolean }>(`(() => ({
      ttfb: document.querySelector('[data-testid=timing-ttfb]').textContent,
      end: document.querySelector('[data-testid=timing-end]')?.textContent ?? '',
      bars: document.querySelectorAll('[data-testid=gap-chart] rect').length,
      unknown: document.querySelector('[data-testid=timing]').dataset.unknown === 'true',
    }))()`)
    expect(timing.unknown).toBe(false)
    expect(timing.ttfb).toMatch(/^first byte \d+ ms$/)
    expect(timing.end).toMatch(/^end (\d+ ms|\d+\.\d\d s)$/)
    expect(timing.bars).toBe(Math.min(want.frameCount - 1, 240))

    // A stream the page aborts mid-way is shown as cancelled.
    const abortUrl = `${demo.url}/api/chat?pace=80&seed=5`
    await b.page.evaluate((u) => {
      const ctl = new AbortController()
      void fetch(u, { method: 'POST', body: '{}', signal: ctl.signal }).then(async (res) => {
        const reader = res.body!.getReader()
        for (;;) { const { done } = await reader.read(); if (done) break }
      }).catch(() => undefined)
      setTimeout(() => ctl.abort(), 700)
    }, abortUrl)
    const abortRow = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(abortUrl)})`
    await panel.waitFor(`${abortRow}?.dataset.state === 'cancelled'`, { timeout: 10_000, message: 'the aborted stream shown as cancelled' })

    // A worker's fetch is captured live too (Target.setAutoAttach).
    const workerUrl = `${demo.url}/api/chat?pace=20&seed=9`
    await b.page.evaluate(async (u) => {
      const src = `fetch(${JSON.stringify(u)}, { method: 'POST', body: '{}' }).then((r) => r.text()).then((t) => postMessage(t.length))`
      const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })))
      await new Promise((resolve) => { worker.onmessage = resolve })
      worker.terminate()
    }, workerUrl)
    const workerRow = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(workerUrl)})`
    await panel.waitFor(`${workerRow}?.dataset.state === 'finished'`, { timeout: 10_000, message: 'the worker stream, finished' })
    expect(await panel.evaluate<string>(`${workerRow}.dataset.id`)).toMatch(/^live:/)

    // Live bytes: a charset-less body needs no repair (the core decodes the bytes as UTF-8), a
    // text/plain stream is held until its first lines sniff as SSE, plain text is never listed.
    const liveCharsetless = `${extra.url}/charsetless.sse?live=1`
    const livePlain = `${extra.url}/backend/stream.txt?live=1`
    await pageFetch(b, liveCharsetless)
    await pageFetch(b, livePlain)
    await pageFetch(b, `${extra.url}/hello.txt?live=1`)
    for (const [u, type] of [[liveCharsetless, 'text/event-stream'], [livePlain, 'text/plain; charset=utf-8']] as const) {
      const r = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(u)})`
      await panel.waitFor(`${r}?.dataset.state === 'finished'`, { timeout: 10_000, message: `${u} finished` })
      expect(await panel.evaluate<string>(`${r}.dataset.id`), u).toMatch(/^live:/)
      await selectRequest(panel, u)
      expectPanelShows(await readSelection(panel, u), await expectedReply(u, type), `live ${u}`)
    }

    // Cache-Control: no-store under Live: read from the bytes as they arrived, whole, finished (not cancelled)
    const noStoreUrl = `${extra.url}/nostore.sse?live=1`
    const sent = await b.page.evaluate(async (u) => {
      const res = await fetch(u, { method: 'POST', body: '{}' })
      await res.arrayBuffer()
      return res.headers.get('cache-control')
    }, noStoreUrl)
    expect(sent).toBe('no-store')
    const noStoreRow = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(noStoreUrl)})`
    await panel.waitFor(`${noStoreRow}?.dataset.state === 'finished'`, { timeout: 10_000, message: 'the no-store stream, finished' })
    expect(await panel.evaluate<string>(`${noStoreRow}.dataset.id`)).toMatch(/^live:/)
    expect(await panel.evaluate<boolean>(`${noStoreRow}.querySelector('[data-testid=request-incomplete]') === null`)).toBe(true)
    await selectRequest(panel, noStoreUrl)
    const noStoreReply = await expectedReply(noStoreUrl, 'text/event-stream; charset=utf-8')
    expect(noStoreReply.choices[0]!.content).toBe('No-store, whole')
    expectPanelShows(await readSelection(panel, noStoreUrl), noStoreReply, 'live no-store SSE')

    // The page closes the stream once it has [DONE] (the server holds it open): Chrome reports
    // a cancelled load, but the page read every byte that mattered: finished, whole.
    const heldUrl = `${extra.url}/held.sse?live=1`
    const heldText = await b.page.evaluate(async (u) => {
      const res = await fetch(u, { method: 'POST', body: '{}' })
      const reader = res.body!.getReader()
      const decoder = new TextDecoder()
      let text = ''
      while (!text.includes('[DONE]')) text += decoder.decode((await reader.read()).value, { stream: true })
      await reader.cancel()
      return text
    }, heldUrl)
    const heldRow = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(heldUrl)})`
    await panel.waitFor(`${heldRow}?.dataset.state === 'finished'`, { timeout: 10_000, message: 'the stream closed after [DONE], finished' })
    expect(await panel.evaluate<string>(`${heldRow}.dataset.id`)).toMatch(/^live:/)
    expect(await panel.evaluate<string>(`${heldRow}.querySelector('.ds-state-finished').title`)).toBe('closed by the page after the terminal event (cancelled by the page)')
    await selectRequest(panel, heldUrl)
    expectPanelShows(await readSelection(panel, heldUrl), merge(heldText, { contentType: 'text/event-stream; charset=utf-8', url: heldUrl }), 'closed after [DONE]')

    // onRequestFinished fired for all of them too: none is listed a second time.
    await sleep(1200)
    const titles = await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=request-row]')].map((r) => r.dataset.url)`)
    expect(titles.length).toBe(rowsBefore + 7)
    for (const u of [slowUrl, abortUrl, workerUrl, liveCharsetless, livePlain, noStoreUrl, heldUrl]) expect(titles.filter((t) => t === u).length, u).toBe(1)
    timings['live'] = Date.now() - t0
  }, 60_000)

  it('live capture lost (debugger detached): a visible note, and capture falls back to finished requests', async () => {
    // Extensions may not debug chrome:// pages: Chromium detaches the debugger (target_closed),
    // as it does when the user presses Cancel on the "started debugging" bar.
    await b.page.goto('chrome://version').catch(() => undefined)
    await panel.waitFor(
      `[...document.querySelectorAll('[data-testid=note]')].some((n) => n.textContent.includes('Live capture stopped'))`,
      { timeout: 10_000, message: 'the "live capture stopped" note' },
    )
    // the Live checkbox says so too: unticked, enabled again, its tooltip saying why
    await panel.waitFor(`document.querySelector('[data-testid=live-toggle]').checked === false`, { message: 'the live toggle unticked' })
    const toggle = await panel.evaluate<{ checked: boolean; disabled: boolean; title: string }>(`(() => {
      const t = document.querySelector('[data-testid=live-toggle]')
      return { checked: t.checked, disabled: t.disabled, title: t.closest('label').title }
    })()`)
    expect(toggle).toMatchObject({ checked: false, disabled: false })
    expect(toggle.title).toMatch(/Last change: /)
    await b.page.goto(`${demo.url}/`)
    const url = `${demo.url}/v1/chat/completions?pace=0&seed=21`
    await pageFetch(b, url)
    const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})`
    await panel.waitFor(`${row}?.dataset.state === 'finished'`, { timeout: 10_000, message: 'the stream, listed on completion' })
    expect(await panel.evaluate<string>(`${row}.dataset.id`)).toMatch(/^har-/)
    await selectRequest(panel, url)
    expectPanelShows(await readSelection(panel, url), await expectedReply(url, 'text/event-stream; charset=utf-8'), 'after detach')
    timings['detach'] = Date.now() - t0
  }, 30_000)
})

describe.skipIf(!available)('the baseline package (dist/chrome): no permission', () => {
  let extra: { url: string; server: Server }
  let b: ExtensionBrowser
  let panel: PanelHandle
  const dir = mkdtempSync(join(tmpdir(), 'deltascope-drop-'))

  beforeAll(async () => {
    ensureExtensionBuilt()
    extra = await startExtraServer()
    b = await launchWithExtension({ extensionDir: CHROME_DIST })
    await b.page.goto(`${extra.url}/hello.txt`)
    panel = await b.openPanel()
  }, 90_000)

  afterAll(async () => {
    await b?.close()
    extra?.server.closeAllConnections()
    await new Promise((r) => extra?.server.close(r))
    rmSync(dir, { recursive: true, force: true })
  })

  it('declares no permission, and its Live toggle says where live capture is', async () => {
    expect(await panel.evaluate(`chrome.runtime.getManifest().permissions ?? null`)).toBe(null)
    expect(await panel.evaluate(`chrome.runtime.getManifest().optional_permissions ?? null`)).toBe(null)
    // what Chrome granted: only what a devtools_page implies
    expect(await panel.evaluate(`chrome.permissions.getAll()`)).toEqual({ origins: [], permissions: ['devtools'] })
    await panel.waitFor(`document.querySelector('[data-testid=live-toggle]')`, { message: 'the live toggle' })
    await panel.evaluate(`document.querySelector('[data-testid=live-toggle]').click()`, { userGesture: true })
    await panel.waitFor(`[...document.querySelectorAll('[data-testid=note]')].some((n) => n.textContent.includes('Deltascope Live'))`, { message: 'the note on live capture' })
    // the note on WebSockets comes from the devtools page, the one on Live from the panel: either may come first
    await panel.waitFor(`document.querySelectorAll('[data-testid=note] .ds-note-text').length >= 2`, { message: 'both notes' })
    expect((await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=note] .ds-note-text')].map((n) => n.textContent)`)).sort()).toEqual([
      webSocketsUnseen('chrome'),
      'Live capture needs the "debugger" permission, which this package does not ask for: install the Deltascope Live package (dist/chrome-live) for it. Streams are still captured when they finish.',
    ].sort())
    expect(await panel.evaluate<boolean>(`document.querySelector('[data-testid=live-toggle]').checked`)).toBe(false)
  })

  it('captures a Cache-Control: no-store stream when it finishes, whole (Chromium 156 keeps its body)', async () => {
    const url = `${extra.url}/nostore.sse`
    await pageFetch(b, url)
    const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})`
    await panel.waitFor(`${row}?.dataset.state === 'finished'`, { timeout: 10_000, message: 'the no-store stream, listed on completion' })
    expect(await panel.evaluate<string>(`${row}.dataset.id`)).toMatch(/^har-/)
    await selectRequest(panel, url)
    expectPanelShows(await readSelection(panel, url), await expectedReply(url, 'text/event-stream; charset=utf-8'), 'no-store on completion')
  })

  it('imports a HAR dropped on the panel beside the captured requests, marked imported', async () => {
    // a HAR 1.2 file as DevTools' Network panel saves it: one streaming entry, one JSON entry (not a stream)
    const body = chunk('Dropped') + chunk(' in', 'stop') + DONE
    const url = 'https://api.openai.com/v1/chat/completions?from=har'
    const har = {
      log: {
        version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [],
        entries: [
          {
            startedDateTime: '2026-12-03T10:00:00.000Z', time: 120,
            request: { method: 'POST', url, httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], queryString: [], cookies: [], headersSize: -1, bodySize: 15, postData: { mimeType: 'application/json', text: '{"stream":true}' } },
            response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'text/event-stream' }], cookies: [], content: { size: body.length, mimeType: 'text/event-stream', text: body }, redirectURL: '', headersSize: -1, bodySize: -1 },
            cache: {}, timings: { send: 0, wait: 100, receive: 20 },
          },
          {
            startedDateTime: '2026-12-03T10:00:01.000Z', time: 5,
            request: { method: 'GET', url: 'https://api.openai.com/v1/models', httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
            response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], cookies: [], content: { size: 12, mimeType: 'application/json', text: '{"data":[]}\n' }, redirectURL: '', headersSize: -1, bodySize: -1 },
            cache: {}, timings: { send: 0, wait: 4, receive: 1 },
          },
        ],
      },
    }
    const path = join(dir, 'session.har')
    writeFileSync(path, JSON.stringify(har))
    const before = await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=request-row]')].map((r) => r.dataset.id)`)
    expect(before.length).toBe(1)

    // a real drag of the file onto the DevTools window, over the panel
    const { w, h } = await panel.devtools.evaluate<{ w: number; h: number }>(`({ w: innerWidth, h: innerHeight })`)
    const at = { x: Math.round(w / 2), y: Math.round(h / 2) }
    const data = { items: [], files: [path], dragOperationsMask: 1 }
    for (const type of ['dragEnter', 'dragOver', 'drop']) await panel.devtools.send('Input.dispatchDragEvent', { type, ...at, data })

    const imported = `[...document.querySelectorAll('[data-testid=request-row][data-source=import]')]`
    // both rows: the list's row groups may lay the captured row out again a frame after the imported one
    await panel.waitFor(`${imported}.length === 1 && ${imported}[0].dataset.state === 'finished' && document.querySelectorAll('[data-testid=request-row]').length === 2`, { timeout: 10_000, message: 'the imported request beside the captured one' })
    const rows = await panel.evaluate<Array<{ id: string; title: string; source: string; mark: string | null }>>(`[...document.querySelectorAll('[data-testid=request-row]')].map((r) => ({
      id: r.dataset.id, title: r.dataset.url, source: r.dataset.source, mark: r.querySelector('[data-testid=request-imported]')?.textContent ?? null,
    }))`)
    // the captured request stays; the imported one is listed beside it, by start time (it started earlier), marked
    expect(rows.map((r) => [r.title, r.source, r.mark])).toEqual([
      [url, 'import', 'imported'],
      [`${extra.url}/nostore.sse`, 'har', null],
    ])
    expect(rows[1]!.id).toBe(before[0])
    // it is the selected request, with exactly the reply its body rebuilds
    await panel.waitFor(`document.querySelector('.ds-sel-title')?.title === ${sel(url)}`, { message: 'the imported request selected' })
    expectPanelShows(await readSelection(panel, url), merge(body, { contentType: 'text/event-stream', url }), 'imported from a HAR')
    expect(await panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=note] .ds-note-text')].map((n) => n.textContent)`))
      .toContain('Imported 1 request from session.har, marked "imported" in the list.')
  }, 30_000)

  it('a finished body larger than Chrome keeps arrives with none: the row and a note say so, and to turn on Live', async () => {
    const url = `${extra.url}/big.sse`
    expect(await pageFetch(b, url)).toBeGreaterThan(10_000_000)
    const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${sel(url)})`
    await panel.waitFor(`${row}?.dataset.state === 'finished'`, { timeout: 20_000, message: 'the big stream, listed on completion' })
    const why = `DevTools handed over none of its ${(Buffer.byteLength(EXTRA_BODIES['/big.sse']!.body) / 1e6).toFixed(1)} MB: Chrome keeps no body this large for extensions once the request has finished. Turn on Live and reload`
    expect(await panel.evaluate<string>(`${row}.querySelector('[data-testid=request-incomplete]').title`)).toBe(`Incomplete: no body: ${why}`)
    await panel.waitFor(`[...document.querySelectorAll('[data-testid=note] .ds-note-text')].some((n) => n.textContent === ${sel(`No body for POST ${url}: ${why}.`)})`, { message: 'the note on the missing body' })
  })
})
