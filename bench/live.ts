// npm run bench:live [-- --quick] [-- --chrome | --firefox] [-- --json]
// What Live capture costs the page it watches (issue: "Live capture that never disturbs the
// page"), in Debian Chromium (dist/chrome-live) and Debian firefox-esr, DevTools open on a page
// of a local server (test/support/live-site.ts) with the Deltascope panel shown in both arms:
// the baseline is the same browser, the same toolbox and panel, with Live off. In one run,
// alternating off and on (so a slow spell of the machine falls on both):
//   1. a 5 MB and a 50 MB SSE body sent as fast as the socket takes it, read by the page's
//      fetch reader: time to its end, Live on against off (target ≤ 1.2×); every byte checked
//      (SHA-256) against the server's;
//   2. a document fetch and an image load, ten of each, during a 5 MB stream paced over about
//      3 s: the median with Live on minus the median with it off (target ≤ 20 ms);
//   3. a service worker registered under a fresh scope: time to `activated` (target ≤ 2× the
//      Live-off time + 100 ms);
//   4. (Chromium) a stream of 2,000 frames a second for 5 s under Live: the panel lists every
//      frame (its row's frame count against the core's merge() of the same body).
// Times are taken in the page (performance.now). Not part of `npm test`: timed checks belong here.

import { join } from 'node:path'
import { CHROME_DIST, ensureExtensionBuilt, launchWithExtension, sleep, type PanelHandle } from '../test/support/browser.js'
import { buildFirefoxForTest, launchFirefox, removeBuild, startProbeServer } from '../test/support/firefox.js'
import { merge } from '../src/library.js'
import { framesBody, inPageRead, inPageServiceWorker, inPageTimeResource, sha256, siteBody, startLiveSite, type LiveSite } from '../test/support/live-site.js'

const args = new Set(process.argv.slice(2))
const quick = args.has('--quick')
const asJson = args.has('--json')
const browsers = args.has('--chrome') ? ['chromium'] : args.has('--firefox') ? ['firefox'] : ['chromium', 'firefox']
const log = (s: string) => { if (!asJson) console.log(s) }

const RUNS = quick ? 1 : 5
const SIZES = quick ? [5e6] : [5e6, 50e6]
const TRIES = 10
const SW_TRIES = quick ? 2 : 5

/**
 * Waits until the panel is done with `url`: its row ended and its frame count unchanged over
 * two readings 400 ms apart (the panel may still be merging a body when the page has read it,
 * and that work must not fall on the next run's clock).
 */
async function settled(d: Driver, url: string): Promise<void> {
  let last = await d.rowFrames(url)
  for (let i = 0; i < 50; i++) {
    await sleep(400)
    const now = await d.rowFrames(url)
    if (now === last) return
    last = now
  }
}

/** One browser with the panel shown: evaluate in the page, turn Live on or off, clear the panel. */
interface Driver {
  name: string
  page<T>(expression: string): Promise<T>
  /** The frame count of the row for `url` once it ended (null: none within 30 s). */
  rowFrames(url: string): Promise<number | null>
  setLive(on: boolean): Promise<void>
  clear(): Promise<void>
  close(): Promise<void>
}

async function chromeDriver(site: LiveSite): Promise<Driver> {
  ensureExtensionBuilt()
  const b = await launchWithExtension({ extensionDir: join(CHROME_DIST, '../chrome-live') })
  await b.page.goto(`${site.url}/`)
  const panel: PanelHandle = await b.openPanel()
  await panel.waitFor(`document.querySelector('[data-testid=live-toggle]')`)
  return {
    name: 'Chromium',
    page: (e) => b.page.evaluate(e),
    async setLive(on) {
      const t = `document.querySelector('[data-testid=live-toggle]')`
      if ((await panel.evaluate<boolean>(`${t}.checked`)) !== on) await panel.evaluate(`${t}.click()`, { userGesture: true })
      await panel.waitFor(`${t}.checked === ${on} && !${t}.disabled`, { message: `Live ${on ? 'on' : 'off'}` })
    },
    clear: () => panel.evaluate(`document.querySelector('[data-testid=clear]').click()`),
    async rowFrames(url) {
      const row = `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${JSON.stringify(url)})`
      try {
        await panel.waitFor(`${row} && ${row}.dataset.state !== 'live'`, { timeout: 30_000 })
      } catch { return null }
      return panel.evaluate<number>(`Number(${row}.querySelector('[data-testid=request-frames]').textContent)`)
    },
    close: () => b.close(),
  }
}

async function firefoxDriver(site: LiveSite): Promise<Driver> {
  const probe = await startProbeServer()
  const dir = buildFirefoxForTest(probe.url)
  const ff = await launchFirefox({ extensionDir: dir })
  await ff.page.goto(`${site.url}/`)
  await ff.showPanel()
  await probe.connected(15_000)
  const toggle = '[data-testid=live-toggle]'
  await probe.waitFor(toggle, (n) => n.length === 1, { timeout: 15_000 })
  return {
    name: 'Firefox',
    page: (e) => ff.page.evaluate(e) as Promise<never>,
    async setLive(on) {
      const [t] = await probe.read(toggle)
      if (t!.checked !== on) await probe.click(toggle)
      await probe.waitFor(toggle, (n) => n[0]?.checked === on && n[0]?.disabled !== true, { message: `Live ${on ? 'on' : 'off'}` })
    },
    async clear() { await probe.click('[data-testid=clear]') },
    async rowFrames(url) {
      try {
        const rows = await probe.waitFor('[data-testid=request-row]', (n) => n.some((r) => r.data['url'] === url && r.data['state'] !== 'live'), { timeout: 30_000 })

        const frames = await probe.read(`[data-testid=request-row][data-url=${JSON.stringify(url)}] [data-testid=request-frames]`)
        return rows.length > 0 && frames[0] ? Number(frames[0].text) : null
      } catch { return null }
    },
    async close() { await ff.close(); await probe.close(); removeBuild(dir) },
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`)

interface Figures {
  browser: string
  reads: Array<{ bytes: number; off: number[]; on: number[]; ratio: number; exact: boolean }>
  others: Array<{ what: string; off: number; on: number; added: number }>
  serviceWorker: { off: number[]; on: number[]; target: number; failures: string[] }
  frameRate: { want: number; listed: number | null }
}

async function measure(d: Driver, site: LiveSite): Promise<Figures> {
  const f: Figures = { browser: d.name, reads: [], others: [], serviceWorker: { off: [], on: [], target: 0, failures: [] }, frameRate: { want: 0, listed: null } }
  let nonce = 0
  // 1. big streams read by the page
  for (const bytes of SIZES) {
    const want = sha256(siteBody('sse', bytes))
    const row = { bytes, off: [] as number[], on: [] as number[], ratio: 0, exact: true }
    // one read of each kind first, not counted: the first read of a size pays for warming up
    for (let r = -1; r < RUNS; r++) {
      for (const on of [false, true]) {
        await d.setLive(on)
        const url = `${site.url}/stream?kind=sse&bytes=${bytes}&n=${++nonce}`
        const got = await d.page<{ ms: number; bytes: number; sha256: string }>(inPageRead(url))
        if (got.sha256 !== want) row.exact = false
        if (r >= 0) (on ? row.on : row.off).push(got.ms)
        await settled(d, url)
        await d.clear()
        await sleep(300)
      }
    }
    row.ratio = median(row.on) / median(row.off)
    f.reads.push(row)
    log(`  ${d.name}: ${bytes / 1e6} MB SSE read by the page: off ${row.off.map(fmt).join(', ')}; on ${row.on.map(fmt).join(', ')}; ratio ${row.ratio.toFixed(2)}× (target ≤ 1.2×) ${row.ratio <= 1.2 ? 'PASS' : 'FAIL'}; bytes ${row.exact ? 'exact' : 'DIFFER'}`)
  }
  // 2. other requests during a paced 5 MB stream
  const times: Record<string, { off: number[]; on: number[] }> = { document: { off: [], on: [] }, image: { off: [], on: [] } }
  for (const on of [false, true]) {
    await d.setLive(on)
    const stream = d.page(inPageRead(`${site.url}/stream?kind=sse&bytes=5000000&pace=10&chunk=16384&n=${++nonce}`))
    await sleep(200)
    for (let i = 0; i < TRIES; i++) {
      times['document']![on ? 'on' : 'off'].push(await d.page<number>(inPageTimeResource(`${site.url}/doc.html?n=${++nonce}`, 'fetch')))
      times['image']![on ? 'on' : 'off'].push(await d.page<number>(inPageTimeResource(`${site.url}/img.png?n=${++nonce}`, 'img')))
    }
    await stream
    await sleep(500)
    await d.clear()
  }
  for (const [what, t] of Object.entries(times)) {
    const added = median(t.on) - median(t.off)
    f.others.push({ what, off: median(t.off), on: median(t.on), added })
    log(`  ${d.name}: a ${what} during a 5 MB stream, median of ${TRIES}: off ${fmt(median(t.off))}, on ${fmt(median(t.on))}; Live adds ${Math.round(added)} ms (target ≤ 20 ms) ${added <= 20 ? 'PASS' : 'FAIL'}`)
  }
  // 3. service workers
  for (let i = 0; i < SW_TRIES; i++) {
    for (const on of [false, true]) {
      await d.setLive(on)
      const r = await d.page<{ ms?: number; error?: string }>(inPageServiceWorker(`/sw-${++nonce}/`, 15_000))
      if (r.ms !== undefined) (on ? f.serviceWorker.on : f.serviceWorker.off).push(r.ms)
      else f.serviceWorker.failures.push(`${on ? 'on' : 'off'}: ${r.error}`)
    }
  }
  const sw = f.serviceWorker
  sw.target = 2 * median(sw.off) + 100
  const swPass = sw.failures.length === 0 && median(sw.on) <= sw.target
  log(`  ${d.name}: a service worker activates: off ${sw.off.map(fmt).join(', ')}; on ${sw.on.map(fmt).join(', ')}${sw.failures.length ? `; FAILED: ${sw.failures.join('; ')}` : ''}; median on ${fmt(median(sw.on))} (target ≤ ${fmt(sw.target)}) ${swPass ? 'PASS' : 'FAIL'}`)
  // 4. every frame of 2,000 a second is listed
  await d.setLive(true)
  await d.clear()
  const url = `${site.url}/frames?rate=2000&seconds=5&n=${++nonce}`
  await d.page(inPageRead(url))
  f.frameRate = { want: merge(framesBody(10_000).join('')).frameCount, listed: await d.rowFrames(url) }
  log(`  ${d.name}: 2,000 frames/s for 5 s under Live: ${f.frameRate.listed ?? 'no row'} of ${f.frameRate.want} frames listed ${f.frameRate.listed === f.frameRate.want ? 'PASS' : 'FAIL'}`)
  await d.clear()
  await d.setLive(false)
  return f
}

const all: Figures[] = []
log(`bench:live ${new Date().toISOString()} (${quick ? 'quick' : `${RUNS} runs each`})`)
for (const name of browsers) {
  const site = await startLiveSite()
  const d = name === 'chromium' ? await chromeDriver(site) : await firefoxDriver(site)
  try {
    all.push(await measure(d, site))
  } finally {
    await d.close()
    await site.close()
  }
}
if (asJson) console.log(JSON.stringify(all, null, 2))
