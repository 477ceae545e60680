// Live capture leaves the page as it was, in Chromium: dist/chrome-live, DevTools open with the
// Deltascope panel, Live on (chrome.debugger). The specification is test/support/live-integrity.ts,
// shared with Firefox; here, how Chromium is driven.

import { join } from 'node:path'
import { afterAll, beforeAll, describe } from 'vitest'
import { CHROME_DIST, ensureExtensionBuilt, launchWithExtension, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'
import { liveIntegritySpec, type LiveBrowser } from '../support/live-integrity.js'
import { startLiveSite, type LiveSite } from '../support/live-site.js'

const TOGGLE = `document.querySelector('[data-testid=live-toggle]')`
const rowFor = (url: string) => `[...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.dataset.url === ${JSON.stringify(url)})`

describe('Live capture leaves the page as it was (Chromium)', () => {
  let site: LiveSite
  let b: ExtensionBrowser
  let panel: PanelHandle
  let driver: LiveBrowser

  beforeAll(async () => {
    ensureExtensionBuilt()
    site = await startLiveSite()
    b = await launchWithExtension({ extensionDir: join(CHROME_DIST, '../chrome-live') })
    await b.page.goto(`${site.url}/`)
    panel = await b.openPanel()
    await panel.waitFor(TOGGLE, { message: 'the Live toggle' })
    driver = {
      site,
      page: (expression) => b.page.evaluate(expression),
      async setLive(on) {
        if ((await panel.evaluate<boolean>(`${TOGGLE}.checked`)) !== on) await panel.evaluate(`${TOGGLE}.click()`, { userGesture: true })
        await panel.waitFor(`${TOGGLE}.checked === ${on} && !${TOGGLE}.disabled`, { message: `Live ${on ? 'on' : 'off'}` })
      },
      async row(url, until) {
        const test = until === 'live' ? `${rowFor(url)}?.dataset.state === 'live'` : `${rowFor(url)} && ${rowFor(url)}.dataset.state !== 'live'`
        await panel.waitFor(test, { timeout: 20_000, message: `the row of ${url}, ${until}` })
        return panel.evaluate(`(() => { const r = ${rowFor(url)}; return { id: r.dataset.id, state: r.dataset.state } })()`)
      },
      frames: (url) => panel.evaluate(`Number(${rowFor(url)}.querySelector('[data-testid=request-frames]').textContent)`),
      notes: () => panel.evaluate(`[...document.querySelectorAll('[data-testid=note]')].map((n) => n.textContent)`),
      liveId: /^live:/,
      seesServiceWorkerFetches: true,
      atOnceMayEndFirst: true,
      readToEndStates: ['finished', 'cancelled'],
    }
    await driver.setLive(true)
  }, 120_000)

  afterAll(async () => {
    await b?.close()
    await site?.close()
  })

  liveIntegritySpec(() => driver)
})
