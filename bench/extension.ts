// e. A capture through the DevTools extension itself, on its HAR path (Chromium, the shipped
// dist/chrome package, DevTools open on a page of a local server): the page fetches one large
// OpenAI stream; when it finishes, DevTools hands its body to the hub (the devtools page:
// onRequestFinished, getContent), which sends it to the panel's store in its worker. Chrome
// hands over no body much past 10 MB this way (src/shells/extension/hub.ts withheldReason), so the
// stream is 9.5 MB: section a's 27 MB arrive in the extension only through live capture.
// Measured in the panel (Date.now(), the same clock as the page's): from the page's fetch
// finished to the request listed, to its first frame rows once selected (the click is part of
// what is measured), and to every frame merged with the final reply shown; the panel's
// longest task meanwhile ('longtask' entries) and its longest gap between animation frames
// (the extension's pages share one thread: the devtools page's work stalls the panel too,
// and is not the panel's task). Served with charset=utf-8, as OpenAI and Anthropic send it
// (without one, Chrome hands the body over decoded as windows-1252, repaired in the hub).

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { merge } from '../src/library.js'
import { CHROME_DIST, ensureExtensionBuilt, launchWithExtension } from '../test/support/browser.js'
import { generateStream } from './generate.js'

export interface ExtensionFigures {
  bytes: number
  frames: number
  /** ms after the page's fetch finished (null: never within the time allowed). */
  listed: number | null
  firstRows: number | null
  complete: number | null
  /** The panel's longest task and longest gap between animation frames (ms), and when that gap ended (after the fetch). */
  longestTask: number
  longestGap: number
  gapEndedAt: number | null
}

/** One run of the capture: `body` served as SSE at /v1/chat/completions; `want` as the core rebuilt it. */
export async function extensionCapture(body: string, want: { frames: number; finish: string }, log: (s: string) => void): Promise<ExtensionFigures> {
  ensureExtensionBuilt()
  const server: Server = createServer((req, res) => {
    if (req.url === '/v1/chat/completions') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
      res.end(body)
      return
    }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>bench</title><p>bench</p>')
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const b = await launchWithExtension({ extensionDir: CHROME_DIST })
  try {
    await b.page.goto(`${origin}/`)
    const panel = await b.openPanel()
    await panel.waitFor(`document.querySelector('[data-testid=request-list]') !== null`, { timeout: 20_000 })
    // the panel watches from now: the row, a click on it, its rows, the final reply
    await panel.evaluate(`(() => {
      const s = window.__benchE = { listed: null, firstRows: null, complete: null, longestTask: 0, longestGap: 0, gapEndedAt: null }
      new PerformanceObserver((l) => { for (const e of l.getEntries()) s.longestTask = Math.max(s.longestTask, e.duration) }).observe({ type: 'longtask' })
      const q = (sel) => document.querySelector(sel)
      let last = performance.now()
      const tick = () => {
        const now = performance.now()
        if (now - last > s.longestGap) { s.longestGap = now - last; s.gapEndedAt = Date.now() }
        last = now
        const row = [...document.querySelectorAll('[data-testid=request-row]')].find((r) => (r.textContent ?? '').includes('/v1/chat/completions'))
        if (row && s.listed === null) { s.listed = Date.now(); row.click() }
        const selected = row && row.getAttribute('aria-selected') === 'true'
        if (selected && s.firstRows === null && q('[data-testid=frame-row]')) s.firstRows = Date.now()
        if (selected && s.complete === null && q('[data-testid=frame-count]')?.textContent === ${JSON.stringify(String(want.frames))} &&
          q('[data-testid=request-state]')?.textContent === 'finished' && q('[data-testid=finish-reason]')?.textContent === ${JSON.stringify(want.finish)}) s.complete = Date.now()
        if (s.complete === null) requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    })()`)
    const fetched = await b.page.evaluate(async () => {
      const r = await fetch('/v1/chat/completions', { method: 'POST', body: '{}' })
      await r.text()
      return Date.now()
    })
    try {
      await panel.waitFor('window.__benchE.complete !== null', { timeout: 60_000, interval: 100, message: 'the capture merged and shown in the panel' })
    } catch (e) {
      // what the panel showed instead (a body DevTools did not hand over: its row says why)
      const shown = await panel.evaluate<string>(`JSON.stringify([...document.querySelectorAll('[data-testid=request-row], [data-testid=note]')].map((e) => e.textContent))`)
      throw new Error(`${String(e)}; the panel showed ${shown}`)
    }
    const s = await panel.evaluate<{ listed: number | null; firstRows: number | null; complete: number | null; longestTask: number; longestGap: number; gapEndedAt: number | null }>('window.__benchE')
    const after = (t: number | null) => (t === null ? null : t - fetched)
    const figures = {
      bytes: Buffer.byteLength(body), frames: want.frames,
      listed: after(s.listed), firstRows: after(s.firstRows), complete: after(s.complete), longestTask: s.longestTask, longestGap: s.longestGap, gapEndedAt: after(s.gapEndedAt),
    }
    log(`  listed ${figures.listed} ms after the page's fetch finished, first rows ${figures.firstRows} ms, every frame merged and the final reply shown ${figures.complete} ms; the panel's longest task ${figures.longestTask.toFixed(0)} ms, longest gap between frames ${figures.longestGap.toFixed(0)} ms (ended ${figures.gapEndedAt} ms after the fetch: the extension's pages share one thread, and the devtools page receiving the body from DevTools holds it)`)
    return figures
  } finally {
    await b.close()
    await new Promise((ok) => server.close(ok))
  }
}

/** Section e of bench:ui: a stream of `bytes` captured once; its figures, and its targets. */
export async function extensionSection(bytes: number, figures: Record<string, unknown>, log: (s: string) => void): Promise<Array<{ name: string; value: string; pass: boolean }>> {
  const body = generateStream('openai', bytes, 5)
  const reply = merge(body, { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' })
  const want = { frames: reply.frameCount, finish: reply.choices[0]?.finishReason ?? '' }
  log(`\ne. a ${want.frames.toLocaleString('en')}-frame stream (${(body.length / 1e6).toFixed(1)} MB) captured by the extension when it finishes (DevTools, dist/chrome)`)
  const e = await extensionCapture(body, want, log)
  figures['e'] = e
  const ms = (x: number | null) => (x === null ? 'never' : `${Math.round(x)} ms`)
  const afterListed = e.firstRows === null || e.listed === null ? null : e.firstRows - e.listed
  return [
    { name: 'e. extension: first rows ≤ 1 s after the request is listed', value: ms(afterListed), pass: afterListed !== null && afterListed <= 1000 },
    { name: 'e. extension: the panel\'s longest task ≤ 200 ms', value: ms(e.longestTask), pass: e.longestTask <= 200 },
  ]
}
