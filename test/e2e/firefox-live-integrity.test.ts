// Live capture leaves the page as it was (firefox-esr, the extension's test build, the toolbox
// open on the Deltascope panel, Live on: webRequest.filterResponseData): the page's service
// worker starts, a worker started by a worker and an iframe run, and every byte the page reads
// is the byte the server sent, for every kind of stream (test/support/live-site.ts), each
// captured live. The panel is read through the probe (test/support/firefox.ts). How fast is
// for `npm run bench:live`, not here.

import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFirefoxForTest, FIREFOX, launchFirefox, removeBuild, startProbeServer, type FirefoxWithExtension, type Probe } from '../support/firefox.js'
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

const TOGGLE = '[data-testid=live-toggle]'
const ROWS = '[data-testid=request-row]'

interface Read { bytes: number; sha256: string }

describe('Live capture leaves the page as it was (Firefox)', () => {
  let site: LiveSite
  let probe: Probe
  let dir = ''
  let ff: FirefoxWithExtension
  let copy = 0

  const page = <T>(expression: string) => ff.page.evaluate(expression) as Promise<T>
  const read = (path: string) => page<Read & { ms: number }>(inPageRead(`${site.url}${path}&copy=${++copy}`))
  const setLive = async (on: boolean) => {
    const [t] = await probe.read(TOGGLE)
    if (t!.checked !== on) expect(await probe.click(TOGGLE)).toBe(true)
    await probe.waitFor(TOGGLE, (n) => n[0]?.checked === on && n[0]?.disabled !== true, { message: `Live ${on ? 'on' : 'off'}` })
  }
  /** The row of `url` once it ends: its id and state. */
  const endedRow = async (url: string) => {
    const rows = await probe.waitFor(ROWS, (n) => n.some((r) => r.data['url'] === url && r.data['state'] !== 'live'), { timeout: 20_000, message: `the row of ${url}, ended` })
    const r = rows.find((n) => n.data['url'] === url)!
    return { id: r.data['id'], state: r.data['state'] }
  }

  beforeAll(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is not installed (apt-get install firefox-esr; CI's .ci/run does)`)
    site = await startLiveSite()
    probe = await startProbeServer()
    dir = buildFirefoxForTest(probe.url)
    ff = await launchFirefox({ extensionDir: dir })
    await ff.page.goto(`${site.url}/`)
    await ff.showPanel()
    await probe.connected(15_000)
    await probe.waitFor(TOGGLE, (n) => n.length === 1, { timeout: 15_000, message: 'the Live toggle' })
    await setLive(true)
  }, 120_000)

  afterAll(async () => {
    await ff?.close()
    await probe?.close()
    await site?.close()
    if (dir) removeBuild(dir)
  })

  it('a service worker registered under Live activates, and its fetch reaches it whole', async () => {
    const sw = await page<{ ms?: number; state?: string; error?: string }>(inPageServiceWorker('/sw-scope/', 10_000))
    expect(sw.error).toBeUndefined()
    expect(sw.state).toBe('activated')
    const path = '/stream?kind=sse&bytes=30000&pace=5&chunk=2048&from=sw'
    expect(await page(inPageServiceWorkerFetch('/sw-scope/', path))).toBe(siteBody('sse', 30_000).byteLength)
  })

  it('a worker started by a worker and an iframe run, and their streams are captured live with exact bytes', async () => {
    const nestedPath = '/stream?kind=sse&bytes=20000&pace=5&chunk=1500&from=nested'
    expect(await page(inPageNestedWorkerFetch(nestedPath))).toBe(siteBody('sse', 20_000).byteLength)
    expect(await endedRow(`${site.url}${nestedPath}`)).toEqual({ id: expect.stringMatching(/^live:ff:/), state: 'finished' })

    const framePath = '/stream?kind=ndjson&bytes=20000&pace=5&chunk=1500&from=iframe'
    const inFrame = await page<Read>(inPageIframeFetch(site.otherSiteUrl, framePath))
    expect(inFrame).toEqual({ bytes: siteBody('ndjson', 20_000).byteLength, sha256: sha256(siteBody('ndjson', 20_000)) })
    expect(await endedRow(`${site.otherSiteUrl}${framePath}`)).toEqual({ id: expect.stringMatching(/^live:ff:/), state: 'finished' })
  })

  for (const c of integrityCases()) {
    it(`the page reads exactly what the server sent: ${c.label}`, async () => {
      const got = await read(c.path)
      expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual({ bytes: c.want.byteLength, sha256: sha256(c.want) })
      expect(await endedRow(`${site.url}${c.path}&copy=${copy}`)).toEqual({ id: expect.stringMatching(/^live:ff:/), state: 'finished' })
    }, 60_000)
  }

  it('twenty streams at once each reach the page exactly', async () => {
    const got = await page<Read[]>(inPageConcurrent(`${site.url}/stream?kind=sse&bytes=60000&pace=3&chunk=3000&batch=${++copy}`, 20))
    const want = { bytes: siteBody('sse', 60_000).byteLength, sha256: sha256(siteBody('sse', 60_000)) }
    expect(got.map((g) => ({ bytes: g.bytes, sha256: g.sha256 }))).toEqual(Array.from({ length: 20 }, () => want))
  }, 60_000)

  it('a stream the page aborts gives the page what arrived before its abort, and the row says cancelled', async () => {
    const path = `/stream?kind=sse&bytes=200000&pace=10&chunk=1000&copy=${++copy}`
    const got = await page<Read>(inPageAbortAfter(`${site.url}${path}`, 20_000))
    expect(got.bytes).toBeGreaterThanOrEqual(20_000)
    expect(got.bytes).toBeLessThan(200_000)
    expect(got.sha256).toBe(sha256(siteBody('sse', 200_000).subarray(0, got.bytes)))
    expect((await endedRow(`${site.url}${path}`)).state).toBe('cancelled')
  }, 60_000)

  it('Live switched off while a stream runs: the page still gets every byte', async () => {
    const path = `/stream?kind=sse&bytes=100000&pace=10&chunk=2000&copy=${++copy}`
    const reading = page<Read>(inPageRead(`${site.url}${path}`))
    await probe.waitFor(ROWS, (n) => n.some((r) => r.data['url'] === `${site.url}${path}` && r.data['state'] === 'live'), { message: 'the stream listed live' })
    await setLive(false)
    const got = await reading
    expect({ bytes: got.bytes, sha256: got.sha256 }).toEqual({ bytes: siteBody('sse', 100_000).byteLength, sha256: sha256(siteBody('sse', 100_000)) })
    await setLive(true)
  }, 60_000)
})
