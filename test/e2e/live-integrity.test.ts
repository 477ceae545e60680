// Live capture leaves the page as it was (Chromium, dist/chrome-live, DevTools open with the
// Deltascope panel, Live on): the page's service worker starts, its workers and iframes run,
// and every byte the page reads is the byte the server sent, for every kind of stream
// (test/support/live-site.ts). Each stream is captured live where the page's own code, a
// worker's or an iframe's, fetched it. How fast is for `npm run bench:live`, not here: these
// waits are only long enough to tell "never" from "done".

import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROME_DIST, ensureExtensionBuilt, launchWithExtension, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'
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
  startLiveSite,
  type LiveSite,
} from '../support/live-site.js'

const TOGGLE = `document.querySelector('[data-testid=live-toggle]')`
const rowFor = (url: string) => `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${JSON.stringify(url)})`

interface Read { bytes: number; sha256: string }

describe('Live capture leaves the page as it was (Chromium)', () => {
  let site: LiveSite
  let b: ExtensionBrowser
  let panel: PanelHandle
  let copy = 0

  const read = (path: string) => b.page.evaluate(inPageRead(`${site.url}${path}&copy=${++copy}`)) as Promise<Read & { ms: number }>
  const setLive = async (on: boolean) => {
    if ((await panel.evaluate<boolean>(`${TOGGLE}.checked`)) !== on) await panel.evaluate(`${TOGGLE}.click()`, { userGesture: true })
    await panel.waitFor(`${TOGGLE}.checked === ${on} && !${TOGGLE}.disabled`, { message: `Live ${on ? 'on' : 'off'}` })
  }
  /** The row of `url` once it ends; its id and state. */
  const endedRow = async (url: string) => {
    await panel.waitFor(`${rowFor(url)} && ${rowFor(url)}.dataset.state !== 'live'`, { timeout: 20_000, message: `the row of ${url}, ended` })
    return panel.evaluate<{ id: string; state: string }>(`(() => { const r = ${rowFor(url)}; return { id: r.dataset.id, state: r.dataset.state } })()`)
  }
  const warnings = () => panel.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=note]')].map((n) => n.textContent).filter((t) => t.startsWith('Live:'))`)

  beforeAll(async () => {
    ensureExtensionBuilt()
    site = await startLiveSite()
    b = await launchWithExtension({ extensionDir: join(CHROME_DIST, '../chrome-live') })
    await b.page.goto(`${site.url}/`)
    panel = await b.openPanel()
    await panel.waitFor(TOGGLE, { message: 'the Live toggle' })
    await setLive(true)
  }, 120_000)

  afterAll(async () => {
    await b?.close()
    await site?.close()
  })

  it('a service worker registered under Live activates, and its own fetch is captured live with exact bytes', async () => {
    const sw = await b.page.evaluate(inPageServiceWorker('/sw-scope/', 10_000)) as { ms?: number; state?: string; error?: string }
    expect(sw.error).toBeUndefined()
    expect(sw.state).toBe('activated')
    const path = '/stream?kind=sse&bytes=30000&pace=5&chunk=2048&from=sw'
    expect(await b.page.evaluate(inPageServiceWorkerFetch('/sw-scope/', path))).toBe(siteBody('sse', 30_000).byteLength)
    const row = await endedRow(`${site.url}${path}`)
    expect(row.state).toBe('finished')
    expect(row.id).toMatch(/^live:/)
    expect(await warnings()).toEqual([])
  })

  it('a worker started by a worker and an out-of-process iframe run, and their streams are captured live with exact bytes', async () => {
    const nestedPath = '/stream?kind=sse&bytes=20000&pace=5&chunk=1500&from=nested'
    expect(await b.page.evaluate(inPageNestedWorkerFetch(nestedPath))).toBe(siteBody('sse', 20_000).byteLength)
    const nested = await endedRow(`${site.url}${nestedPath}`)
    expect(nested).toEqual({ id: expect.stringMatching(/^live:/), state: 'finished' })

    const framePath = '/stream?kind=ndjson&bytes=20000&pace=5&chunk=1500&from=iframe'
    const inFrame = await b.page.evaluate(inPageIframeFetch(site.otherSiteUrl, framePath)) as Read
    expect(inFrame).toEqual({ bytes: siteBody('ndjson', 20_000).byteLength, sha256: sha256(siteBody('ndjson', 20_000)) })
    const frame = await endedRow(`${site.otherSiteUrl}${framePath}`)
    expect(frame).toEqual({ id: expect.stringMatching(/^live:/), state: 'finished' })
    expect(await warnings()).toEqual([])
  })

  for (const c of integrityCases()) {
    it(`the page reads exactly what the server sent: ${c.label}`, async () => {
      const got = await read(c.path)
      expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual({ bytes: c.want.byteLength, sha256: sha256(c.want) })
      const row = await endedRow(`${site.url}${c.path}&copy=${copy}`)
      expect(row.id).toMatch(/^live:/)
      // Chromium reports a fetch read to its end through a reader as net::ERR_ABORTED
      // (canceled) when the reader saw the end before the network's completion reached the
      // loader (seen with Chromium 150 and plain CDP, no extension): the row may say so.
      expect(['finished', 'cancelled']).toContain(row.state)
    }, 60_000)
  }

  it('twenty streams at once each reach the page exactly', async () => {
    const path = `/stream?kind=sse&bytes=60000&pace=3&chunk=3000&batch=${++copy}`
    const got = await b.page.evaluate(inPageConcurrent(`${site.url}${path}`, 20)) as Read[]
    const want = { bytes: siteBody('sse', 60_000).byteLength, sha256: sha256(siteBody('sse', 60_000)) }
    expect(got.map((g) => ({ bytes: g.bytes, sha256: g.sha256 }))).toEqual(Array.from({ length: 20 }, () => want))
  }, 60_000)

  it('a stream the page aborts gives the page what arrived before its abort, and the row says cancelled', async () => {
    const path = `/stream?kind=sse&bytes=200000&pace=10&chunk=1000&copy=${++copy}`
    const got = await b.page.evaluate(inPageAbortAfter(`${site.url}${path}`, 20_000)) as Read
    expect(got.bytes).toBeGreaterThanOrEqual(20_000)
    expect(got.bytes).toBeLessThan(200_000)
    expect(got.sha256).toBe(sha256(siteBody('sse', 200_000).subarray(0, got.bytes)))
    expect((await endedRow(`${site.url}${path}`)).state).toBe('cancelled')
  }, 60_000)

  it('Live switched off while a stream runs: the page still gets every byte', async () => {
    const path = `/stream?kind=sse&bytes=100000&pace=10&chunk=2000&copy=${++copy}`
    const reading = b.page.evaluate(inPageRead(`${site.url}${path}`)) as Promise<Read>
    await panel.waitFor(`${rowFor(`${site.url}${path}`)}?.dataset.state === 'live'`, { message: 'the stream listed live' })
    await setLive(false)
    const got = await reading
    expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual({ bytes: siteBody('sse', 100_000).byteLength, sha256: sha256(siteBody('sse', 100_000)) })
    await setLive(true)
  }, 60_000)
})
