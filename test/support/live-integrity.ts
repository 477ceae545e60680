// The Live-integrity specification, once for both browsers (test/e2e/live-integrity.test.ts in
// Chromium, firefox-live-integrity.test.ts in Firefox): with Live on, the page's service
// worker starts, a worker started by a worker and an iframe run, and every byte the page reads
// is the byte the server sent, for every kind of stream (live-site.ts), each captured live
// where the browser lets Live see it. A browser is driven through `LiveBrowser`; how fast is
// for `npm run bench:live`, not here: the waits only tell "never" from "done".

import { expect, it } from 'vitest'
import {
  inPageAbortAfter,
  inPageConcurrent,
  inPageIframeFetch,
  inPageNestedWorkerFetch,
  inPageRead,
  inPageServiceWorker,
  inPageServiceWorkerFetch,
  integrityCases,
  sha256,
  siteBody,
  type LiveSite,
} from './live-site.js'

/** One browser with the Deltascope panel shown on a page of the live site. */
export interface LiveBrowser {
  site: LiveSite
  /** Evaluates a page expression (awaiting its promise). */
  page<T>(expression: string): Promise<T>
  setLive(on: boolean): Promise<void>
  /** Waits for the row of `url` (null: it ended; 'live': while it still streams); its id and state. */
  row(url: string, until: 'ended' | 'live'): Promise<{ id: string; state: string }>
  /** The frame count the row of `url` shows. */
  frames(url: string): Promise<number>
  /** The panel's notes, as the user reads them. */
  notes(): Promise<string[]>
  /** How a live capture's row id starts in this browser. */
  liveId: RegExp
  /**
   * Whether the service worker's own fetch is captured live: Chrome attaches to it as one of
   * the tab's targets; Firefox's webRequest gives a service worker's requests no tab.
   */
  seesServiceWorkerFetches: boolean
  /**
   * Whether a body sent at once may end before Live follows it (then captured on completion):
   * Chrome answers Live's Network.streamResourceContent after the first reads, and a short
   * body may be over by then; Firefox's stream filter is in place before the first byte.
   */
  atOnceMayEndFirst: boolean
  /**
   * The states a row may end in for a fetch the page read to its end through a reader:
   * Chromium reports such a fetch as net::ERR_ABORTED (canceled) when the reader saw the end
   * before the network's completion reached the loader (seen with Chromium 150 and plain CDP,
   * no extension), so its row may say cancelled.
   */
  readToEndStates: string[]
}

interface Read { bytes: number; sha256: string }

const exact = (body: Buffer): Read => ({ bytes: body.byteLength, sha256: sha256(body) })

/** Declares the specification's tests; `browser()` is the driver once the suite's beforeAll made it. */
export function liveIntegritySpec(browser: () => LiveBrowser): void {
  let copy = 0

  it('a service worker registered under Live activates, and its own fetch reaches it whole', async () => {
    const b = browser()
    const sw = await b.page<{ state?: string; error?: string }>(inPageServiceWorker('/sw-scope/', 10_000))
    expect(sw.error).toBeUndefined()
    expect(sw.state).toBe('activated')
    const path = '/stream?kind=sse&bytes=30000&pace=5&chunk=2048&from=sw'
    expect(await b.page(inPageServiceWorkerFetch('/sw-scope/', path))).toBe(siteBody('sse', 30_000).byteLength)
    if (b.seesServiceWorkerFetches) expect(await b.row(`${b.site.url}${path}`, 'ended')).toEqual({ id: expect.stringMatching(b.liveId), state: 'finished' })
    // no debugger command failed on the way (each would be a "Live: …" note)
    expect((await b.notes()).filter((n) => n.startsWith('Live:'))).toEqual([])
  })

  it('a worker started by a worker and an out-of-process iframe run, and their streams are captured live with exact bytes', async () => {
    const b = browser()
    const nestedPath = '/stream?kind=sse&bytes=20000&pace=5&chunk=1500&from=nested'
    expect(await b.page(inPageNestedWorkerFetch(nestedPath))).toBe(siteBody('sse', 20_000).byteLength)
    expect(await b.row(`${b.site.url}${nestedPath}`, 'ended')).toEqual({ id: expect.stringMatching(b.liveId), state: 'finished' })

    const framePath = '/stream?kind=ndjson&bytes=20000&pace=5&chunk=1500&from=iframe'
    expect(await b.page<Read>(inPageIframeFetch(b.site.otherSiteUrl, framePath))).toEqual(exact(siteBody('ndjson', 20_000)))
    expect(await b.row(`${b.site.otherSiteUrl}${framePath}`, 'ended')).toEqual({ id: expect.stringMatching(b.liveId), state: 'finished' })
    expect((await b.notes()).filter((n) => n.startsWith('Live:'))).toEqual([])
  })

  for (const c of integrityCases()) {
    it(`the page reads exactly what the server sent: ${c.label}`, async () => {
      const b = browser()
      const url = `${b.site.url}${c.path}&copy=${++copy}`
      const got = await b.page<Read>(inPageRead(url))
      expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual(exact(c.want))
      const row = await b.row(url, 'ended')
      if (c.atOnce && b.atOnceMayEndFirst && row.id.startsWith('har-')) expect(row.state).toBe('finished')
      else {
        expect(row.id).toMatch(b.liveId)
        expect(b.readToEndStates).toContain(row.state)
      }
      // and the capture has its body: the row lists its frames (the binary one is one broken frame)
      expect(await b.frames(url)).toBeGreaterThan(0)
    }, 60_000)
  }

  it('twenty streams at once each reach the page exactly', async () => {
    const b = browser()
    const got = await b.page<Read[]>(inPageConcurrent(`${b.site.url}/stream?kind=sse&bytes=60000&pace=3&chunk=3000&batch=${++copy}`, 20))
    expect(got.map((g) => ({ bytes: g.bytes, sha256: g.sha256 }))).toEqual(Array.from({ length: 20 }, () => exact(siteBody('sse', 60_000))))
  }, 60_000)

  it('a stream the page aborts gives the page what arrived before its abort, and the row says cancelled', async () => {
    const b = browser()
    const url = `${b.site.url}/stream?kind=sse&bytes=200000&pace=10&chunk=1000&copy=${++copy}`
    const got = await b.page<Read>(inPageAbortAfter(url, 20_000))
    expect(got.bytes).toBeGreaterThanOrEqual(20_000)
    expect(got.bytes).toBeLessThan(200_000)
    expect(got.sha256).toBe(sha256(siteBody('sse', 200_000).subarray(0, got.bytes)))
    expect((await b.row(url, 'ended')).state).toBe('cancelled')
  }, 60_000)

  it('Live switched off while a stream runs: the page still gets every byte', async () => {
    const b = browser()
    const url = `${b.site.url}/stream?kind=sse&bytes=100000&pace=10&chunk=2000&copy=${++copy}`
    const reading = b.page<Read>(inPageRead(url))
    await b.row(url, 'live')
    await b.setLive(false)
    const got = await reading
    expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual(exact(siteBody('sse', 100_000)))
    await b.setLive(true)
  }, 60_000)
}
