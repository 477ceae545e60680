// Live capture leaves the page as it was, in firefox-esr: the extension's test build, the
// toolbox open on the Deltascope panel, Live on (webRequest.filterResponseData), the panel
// read through the probe (test/support/firefox.ts). The specification is
// test/support/live-integrity.ts, shared with Chromium; here, how Firefox is driven.

import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { buildFirefoxForTest, FIREFOX, launchFirefox, removeBuild, startProbeServer, type FirefoxWithExtension, type Probe } from '../support/firefox.js'
import { liveIntegritySpec, type LiveBrowser } from '../support/live-integrity.js'
import { startLiveSite, type LiveSite } from '../support/live-site.js'

const TOGGLE = '[data-testid=live-toggle]'
const ROWS = '[data-testid=request-row]'

describe('Live capture leaves the page as it was (Firefox)', () => {
  let site: LiveSite
  let probe: Probe
  let dir = ''
  let ff: FirefoxWithExtension
  let driver: LiveBrowser

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
    driver = {
      site,
      page: (expression) => ff.page.evaluate(expression) as Promise<never>,
      async setLive(on) {
        const [t] = await probe.read(TOGGLE)
        if (t!.checked !== on) expect(await probe.click(TOGGLE)).toBe(true)
        await probe.waitFor(TOGGLE, (n) => n[0]?.checked === on && n[0]?.disabled !== true, { message: `Live ${on ? 'on' : 'off'}` })
      },
      async row(url, until) {
        const matches = (r: { data: Record<string, string> }) => r.data['url'] === url && (until === 'live' ? r.data['state'] === 'live' : r.data['state'] !== 'live')
        const rows = await probe.waitFor(ROWS, (n) => n.some(matches), { timeout: 20_000, message: `the row of ${url}, ${until}` })
        const r = rows.find(matches)!
        return { id: r.data['id']!, state: r.data['state']! }
      },
      frames: async (url) => Number((await probe.read(`${ROWS}[data-url=${JSON.stringify(url)}] [data-testid=request-frames]`))[0]?.text),
      notes: async () => (await probe.read('[data-testid=note]')).map((n) => n.text),
      liveId: /^live:ff:/,
      seesServiceWorkerFetches: false,
      atOnceMayEndFirst: false,
      readToEndStates: ['finished'],
    }
    await driver.setLive(true)
  }, 120_000)

  afterAll(async () => {
    await ff?.close()
    await probe?.close()
    await site?.close()
    if (dir) removeBuild(dir)
  })

  liveIntegritySpec(() => driver)
})
