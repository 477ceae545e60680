// The release packages install and work: `npm run package`'s step (scripts/package.ts, into a
// temporary folder, so the run leaves the repository as it was) from the built dist/, then
// - the store-ready zips and the .xpi: package.json's version, the strict extension-pages CSP,
//   no source map, no test probe (src/shells/extension/test-probe.ts is in test builds only);
// - Chromium: deltascope-chrome-<v>.zip unzipped and loaded, DevTools open, the panel lists a
//   stream the page fetched, with no CSP violation of its own; the CSP refuses the panel a
//   fetch and an image from another origin (the violations reported, the server never asked);
// - Firefox: deltascope-firefox-<v>.xpi installed as it is (a temporary add-on: it is unsigned),
//   the panel lists the stream. This package has no probe, so the panel is read from the
//   browser's chrome scope through a frame script loaded into the panel's <browser> (it runs in
//   the extension process, beside the panel's document; BiDi cannot script extension pages).
//
// Env: DELTASCOPE_SKIP_FIREFOX=1 skips the Firefox part; CHROMIUM_PATH, FIREFOX_PATH.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROBE_MARKER, packageRelease, type Packaged } from '../../scripts/package.js'
import { readZip } from '../../scripts/zip.js'
import { CHROMIUM, ROOT, ensureExtensionBuilt, launchWithExtension, sleep, type ExtensionBrowser, type PanelHandle } from '../support/browser.js'
import { FIREFOX, launchFirefox, type FirefoxWithExtension } from '../support/firefox.js'

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const STREAM = 'data: {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

let out = ''
let packaged: Packaged
let server: Server
let origin = ''
const asked: string[] = []

beforeAll(async () => {
  ensureExtensionBuilt()
  out = mkdtempSync(join(tmpdir(), 'deltascope-release-'))
  packaged = packageRelease({ out, sourcemaps: false, build: false, npm: false, quiet: true })
  server = createServer((req, res) => {
    asked.push(req.url ?? '')
    if (req.url === '/stream.sse') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(STREAM)
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>packaged</p>')
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 180_000)

afterAll(async () => {
  await new Promise((ok) => server?.close(ok))
  if (out) rmSync(out, { recursive: true, force: true })
})

const unzipTo = (zip: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'deltascope-unzipped-'))
  for (const e of readZip(readFileSync(zip))) {
    mkdirSync(dirname(join(dir, e.name)), { recursive: true })
    writeFileSync(join(dir, e.name), e.data)
  }
  return dir
}

describe('the packages', () => {
  it('are named with package.json\'s version', () => {
    expect([packaged.chrome, packaged.chromeLive, packaged.firefox].map((p) => basename(p))).toEqual([
      `deltascope-chrome-${VERSION}.zip`,
      `deltascope-chrome-live-${VERSION}.zip`,
      `deltascope-firefox-${VERSION}.xpi`,
    ])
  })

  it('are store-ready: the version, the CSP, no source map, no test probe; the Live zip differs by its manifest alone', () => {
    const contents = [packaged.chrome, packaged.chromeLive, packaged.firefox].map((p) => readZip(readFileSync(p)))
    for (const entries of contents) {
      const names = entries.map((e) => e.name)
      expect(names).toContain('manifest.json')
      expect(names).toContain('src/shells/extension/panel.html')
      expect(names.filter((n) => n.endsWith('.map'))).toEqual([])
      expect(entries.filter((e) => Buffer.from(e.data).includes(PROBE_MARKER) || Buffer.from(e.data).includes('sourceMappingURL')).map((e) => e.name)).toEqual([])
      const manifest = JSON.parse(Buffer.from(entries.find((e) => e.name === 'manifest.json')!.data).toString('utf8')) as Record<string, unknown>
      expect(manifest['version']).toBe(VERSION)
      expect((manifest['content_security_policy'] as { extension_pages: string }).extension_pages).toContain("connect-src 'self';")
    }
    const [chrome, live] = contents as [typeof contents[0], typeof contents[0]]
    const rest = (entries: typeof chrome) => entries.filter((e) => e.name !== 'manifest.json').map((e) => [e.name, Buffer.from(e.data).toString('base64')])
    expect(rest(live)).toEqual(rest(chrome))
  })
})

describe.skipIf(!existsSync(CHROMIUM))('deltascope-chrome-<v>.zip in Chromium', () => {
  let dir = ''
  let b: ExtensionBrowser
  let panel: PanelHandle

  beforeAll(async () => {
    dir = unzipTo(packaged.chrome)
    b = await launchWithExtension({ extensionDir: dir })
    await b.page.goto(`${origin}/`)
    panel = await b.openPanel()
  }, 120_000)

  afterAll(async () => {
    await b?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('the panel lists a stream the page fetched, with no CSP violation of its own', async () => {
    await b.page.evaluate(() => fetch('/stream.sse').then((r) => r.text()))
    await panel.waitFor(`document.querySelectorAll('[data-testid="request-row"]').length === 1`, { timeout: 30_000 })
    // the panel loaded again with a listener in place before its own scripts run: every
    // violation of its load, its replayed request and the open row is collected
    await panel.send('Page.enable').catch(() => undefined)
    await panel.send('Page.addScriptToEvaluateOnNewDocument', {
      source: `window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective + ' ' + e.blockedURI), true)`,
    })
    await panel.evaluate(`location.reload()`).catch(() => undefined)
    await panel.waitFor(`Array.isArray(window.__violations) && document.querySelectorAll('[data-testid="request-row"]').length === 1`, { timeout: 30_000 })
    await panel.evaluate(`document.querySelector('[data-testid="request-row"]').click()`)
    await sleep(500)
    expect(await panel.evaluate(`window.__violations`)).toEqual([])
  }, 60_000)

  it('its CSP refuses the panel a fetch and an image from another origin', async () => {
    const result = await panel.evaluate<{ fetched: string; image: string; violations: string[] }>(`(async () => {
      const violations = []
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective + ' ' + e.blockedURI))
      const fetched = await fetch(${JSON.stringify(`${origin}/csp-fetch`)}).then(() => 'fetched', (e) => 'refused: ' + e.name)
      const image = await new Promise((resolve) => {
        const img = new Image()
        img.onload = () => resolve('loaded')
        img.onerror = () => resolve('blocked')
        img.src = ${JSON.stringify(`${origin}/csp-image.png`)}
      })
      await new Promise((r) => setTimeout(r, 200))
      return { fetched, image, violations }
    })()`)
    expect(result).toEqual({
      fetched: 'refused: TypeError',
      image: 'blocked',
      violations: [`connect-src ${origin}/csp-fetch`, `img-src ${origin}/csp-image.png`],
    })
    expect(asked.filter((u) => u.startsWith('/csp-'))).toEqual([])
    // the listener the previous test's empty list is read from sees these two
    expect(await panel.evaluate(`window.__violations`)).toEqual([`connect-src ${origin}/csp-fetch`, `img-src ${origin}/csp-image.png`])
  }, 30_000)
})

/** The text of the panel's elements matching `selector`, read by a frame script in the panel's own process. */
const panelTexts = (ff: FirefoxWithExtension, selector: string): Promise<string> => ff.chromeEval(`(async () => {
  const { require } = ChromeUtils.importESModule('resource://devtools/shared/loader/Loader.sys.mjs')
  const { gDevTools } = require('devtools/client/framework/devtools')
  const toolbox = gDevTools.getToolboxForTab(gBrowser.selectedTab)
  const browser = [...toolbox.doc.querySelectorAll('iframe')]
    .map((f) => f.contentDocument?.querySelector('browser'))
    .find((b) => b?.currentURI?.spec.endsWith('/src/shells/extension/panel.html'))
  if (!browser) return JSON.stringify({ error: 'no panel' })
  const mm = browser.messageManager
  return await new Promise((resolve) => {
    const timer = setTimeout(() => { mm.removeMessageListener('deltascope:read', take); resolve(JSON.stringify({ error: 'no answer' })) }, 5000)
    function take(m) { clearTimeout(timer); mm.removeMessageListener('deltascope:read', take); resolve(JSON.stringify(m.data)) }
    mm.addMessageListener('deltascope:read', take)
    mm.loadFrameScript('data:,' + encodeURIComponent(${JSON.stringify(
      `sendAsyncMessage('deltascope:read', { url: content.location.href, texts: [...content.document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.textContent) })`,
    )}), false)
  })
})()`)

describe.skipIf(process.env['DELTASCOPE_SKIP_FIREFOX'] === '1')('deltascope-firefox-<v>.xpi in Firefox', () => {
  let ff: FirefoxWithExtension

  beforeAll(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is not installed (DELTASCOPE_SKIP_FIREFOX=1 skips this test)`)
    ff = await launchFirefox({ extensionDir: packaged.firefox })
    await ff.page.goto(`${origin}/`)
    await ff.showPanel()
  }, 180_000)

  afterAll(async () => {
    await ff?.close()
  })

  it('installs as it is, and its panel lists a stream the page fetched', async () => {
    await ff.page.evaluate(() => fetch('/stream.sse').then((r) => r.text()))
    let last = ''
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(250)) {
      last = await panelTexts(ff, '[data-testid="request-row"]')
      const read = JSON.parse(last) as { url?: string; texts?: string[] }
      if (read.texts?.length === 1) {
        expect(read.url).toMatch(/^moz-extension:\/\/[^/]+\/src\/shells\/extension\/panel\.html$/)
        expect(read.texts[0]).toContain('/stream.sse')
        return
      }
    }
    throw new Error(`the panel did not list the stream: ${last}`)
  }, 60_000)
})
