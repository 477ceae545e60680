// Runs the Deltascope panel in Debian firefox-esr, and reads it. How, and why this way:
//
// - puppeteer-core 24 launches firefox-esr (`browser: 'firefox'`, WebDriver BiDi, headless,
//   DevTools opened with `devtools: true`) and installs the unpacked extension as a temporary
//   add-on (BiDi webExtension.install, `browser.installExtension(dir)`).
// - BiDi cannot script extension pages (Mozilla bug 1755014): the panel is not a browsing
//   context it lists. So the extension is built for the test (vite.config.ext.ts with
//   DELTASCOPE_PROBE_URL, into a temporary folder; shipped builds leave the probe out) and its
//   panel reports to a loopback server the test runs (src/capture/test-probe.ts): the test asks
//   `read(selector)` (the matching elements' text, title, dataset, checked / disabled) or
//   `click(selector, title)`, the panel answers over fetch. This is the real panel, in the real
//   toolbox, fed by the real capture; only the way its DOM reaches the test is added.
// - A panel loads when it is first shown, and no WebExtension API selects a DevTools panel. The
//   one privileged step: with `--remote-allow-system-access`, BiDi evaluates in the browser
//   window's chrome scope, where the test does what a click on the Deltascope tab does
//   (`toolbox.selectTool`); the same route withholds and grants the add-on's host permission,
//   as about:addons does. Both use long-standing DevTools / add-on manager interfaces, and
//   everything the test asserts comes through the probe, not through them.
//
//   const probe = await startProbeServer()
//   const dir = buildFirefoxForTest(probe.url)
//   const ff = await launchFirefox({ extensionDir: dir })
//   await ff.page.goto(url); await ff.showPanel(); await probe.connected(10_000)
//   await probe.waitFor((s) => rows(s).length === 2)

import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import type { ProbeNode } from '../../src/capture/test-probe.js'
import { ROOT, sleep } from './browser.js'

export type { ProbeNode }

export const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr'
export const GECKO_ID = 'deltascope@deltascope.dev'
export const PANEL_TITLE = 'Deltascope'

/** Builds the Firefox extension with its panel reporting to `probeUrl`, into a fresh temporary folder. */
export function buildFirefoxForTest(probeUrl: string): string {
  const out = mkdtempSync(join(tmpdir(), 'deltascope-firefox-'))
  // its own output folder: no other build of the project writes there (so Vite's one-build lock may be passed)
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--bypass-lock', '--config', 'vite.config.ext.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DELTASCOPE_BROWSER: 'firefox', DELTASCOPE_PROBE_URL: probeUrl, DELTASCOPE_FIREFOX_OUT: out },
  })
  return out
}

// ---- the loopback server the panel reports to -----------------------------------------------------

export interface Probe {
  url: string
  /** Resolves once a panel has asked for work (it is loaded and running). */
  connected(timeout: number): Promise<void>
  read(selector: string): Promise<ProbeNode[]>
  /** Clicks the first element matching `selector` (whose title is `title`, when given); false when none. */
  click(selector: string, title?: string): Promise<boolean>
  /** Reads `selector` until `test` holds; returns that reading. */
  waitFor(selector: string, test: (nodes: ProbeNode[]) => boolean, options?: { timeout?: number; message?: string }): Promise<ProbeNode[]>
  close(): Promise<void>
}

type Command = { id: number; op: 'read'; selector: string } | { id: number; op: 'click'; selector: string; title?: string }

const IDLE_AFTER_MS = 5_000

export function startProbeServer(): Promise<Probe> {
  const queue: Command[] = []
  const waiting: Array<(cmd: Command | null) => void> = []
  const answers = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let onConnect: (() => void) | null = null
  let isConnected = false

  const body = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let text = ''
      req.on('data', (d: Buffer) => { text += d.toString('utf8') })
      req.on('end', () => resolve(text))
    })

  const server: Server = createServer((req, res) => {
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', 'access-control-allow-origin': '*' }
    const path = new URL(req.url ?? '/', 'http://x').pathname
    void body(req).then((text) => {
      if (path === '/probe/next') {
        isConnected = true
        onConnect?.()
        const reply = (cmd: Command | null): void => { res.writeHead(200, headers).end(JSON.stringify(cmd ?? { id: 0, op: 'idle' })) }
        const queued = queue.shift()
        if (queued) { reply(queued); return }
        const timer = setTimeout(() => {
          const i = waiting.indexOf(take)
          if (i >= 0) waiting.splice(i, 1)
          reply(null)
        }, IDLE_AFTER_MS)
        const take = (cmd: Command | null): void => { clearTimeout(timer); reply(cmd) }
        waiting.push(take)
        res.on('close', () => {
          const i = waiting.indexOf(take)
          if (i >= 0) waiting.splice(i, 1)
        })
        return
      }
      if (path === '/probe/result') {
        const answer = JSON.parse(text) as { id: number; ok: boolean; value?: unknown; error?: string }
        const pending = answers.get(answer.id)
        answers.delete(answer.id)
        if (answer.ok) pending?.resolve(answer.value)
        else pending?.reject(new Error(`the panel failed: ${answer.error}`))
        res.writeHead(204, headers).end()
        return
      }
      res.writeHead(404, headers).end()
    })
  })

  const ask = <T>(cmd: Omit<Command, 'id'>, timeout = 5_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const full = { ...cmd, id: ++nextId } as Command
      const timer = setTimeout(() => {
        answers.delete(full.id)
        const i = queue.indexOf(full)
        if (i >= 0) queue.splice(i, 1)
        reject(new Error(`the panel did not answer ${full.op} ${full.selector} within ${timeout} ms`))
      }, timeout)
      answers.set(full.id, {
        resolve: (v) => { clearTimeout(timer); resolve(v as T) },
        reject: (e) => { clearTimeout(timer); reject(e) },
      })
      const taker = waiting.shift()
      if (taker) taker(full)
      else queue.push(full)
    })

  const probe: Probe = {
    url: '',
    connected(timeout) {
      if (isConnected) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the panel did not report to the probe server within ${timeout} ms`)), timeout)
        onConnect = () => { clearTimeout(timer); onConnect = null; resolve() }
      })
    },
    read: (selector) => ask<ProbeNode[]>({ op: 'read', selector }),
    click: (selector, title) => ask<boolean>({ op: 'click', selector, ...(title !== undefined ? { title } : {}) }),
    async waitFor(selector, test, options = {}) {
      const deadline = Date.now() + (options.timeout ?? 10_000)
      let last: ProbeNode[] = []
      for (;;) {
        last = await probe.read(selector)
        if (test(last)) return last
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.message ?? selector}`)
        await sleep(100)
      }
    },
    close: () => new Promise<void>((resolve) => {
      for (const w of waiting.splice(0)) w(null)
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    probe.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    resolve(probe)
  }))
}

// ---- Firefox --------------------------------------------------------------------------------------------

export interface FirefoxWithExtension {
  browser: Browser
  /** The startup tab, which DevTools was opened for: navigate it, don't open another. */
  page: Page
  /** Shows the Deltascope panel in the tab's toolbox (what a click on its tab does). */
  showPanel(timeout?: number): Promise<void>
  /** Withholds or grants the add-on's host permission, as about:addons → Permissions does. */
  setHostPermission(granted: boolean): Promise<void>
  /** PNG of the whole browser window, the toolbox with the panel included (the chrome scope's context). */
  screenshot(path: string): Promise<void>
  close(): Promise<void>
}

type BidiSend = (method: string, params: object) => Promise<{ result: unknown }>

export async function launchFirefox(options: { extensionDir: string; prefs?: Record<string, unknown> }): Promise<FirefoxWithExtension> {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} not found (apt-get install firefox-esr, or set FIREFOX_PATH)`)
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: process.env['HEADFUL'] !== '1',
    devtools: true,
    args: ['--remote-allow-system-access'],
    // Firefox's first start with a fresh profile takes 7-10 s here, three times that on a busy machine.
    timeout: 90_000,
    extraPrefsFirefox: { 'devtools.toolbox.host': 'bottom', ...options.prefs },
  })
  try {
    const installed = await browser.installExtension(options.extensionDir)
    if (installed !== GECKO_ID) throw new Error(`installed ${installed}, expected ${GECKO_ID}`)
    const send = (browser as unknown as { connection: { send: BidiSend } }).connection.send.bind(
      (browser as unknown as { connection: object }).connection,
    ) as BidiSend
    const tree = (await send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as { contexts: Array<{ context: string; url: string }> }
    const chromeWindow = tree.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml')
    if (!chromeWindow) throw new Error('no browser window in the chrome scope (is --remote-allow-system-access honoured?)')
    /** Evaluates in the browser window's chrome scope; the expression's value must be a string. */
    const chromeEval = async (expression: string): Promise<string> => {
      const r = (await send('script.evaluate', { expression, target: { context: chromeWindow.context }, awaitPromise: true, resultOwnership: 'none' })).result as {
        type: string
        result?: { type: string; value?: unknown }
        exceptionDetails?: { text: string }
      }
      if (r.type === 'exception') throw new Error(`chrome-scope script failed: ${r.exceptionDetails?.text}`)
      return String(r.result?.value)
    }
    const page = (await browser.pages())[0] ?? (await browser.newPage())
    return {
      browser,
      page,
      async showPanel(timeout = 20_000) {
        const deadline = Date.now() + timeout
        let last = ''
        // The devtools page registers the panel asynchronously after the toolbox opens.
        while (Date.now() < deadline) {
          last = await chromeEval(`(async () => {
            const { require } = ChromeUtils.importESModule('resource://devtools/shared/loader/Loader.sys.mjs')
            const { gDevTools } = require('devtools/client/framework/devtools')
            const toolbox = gDevTools.getToolboxForTab(gBrowser.selectedTab)
            if (!toolbox) return 'no toolbox for the tab'
            const tool = toolbox.getAdditionalTools().find((t) => t.label === ${JSON.stringify(PANEL_TITLE)})
            if (!tool) return 'no ${PANEL_TITLE} panel in the toolbox'
            await toolbox.selectTool(tool.id)
            return 'ok'
          })()`)
          if (last === 'ok') return
          await sleep(200)
        }
        throw new Error(`could not show the ${PANEL_TITLE} panel: ${last}`)
      },
      async setHostPermission(granted) {
        const result = await chromeEval(`(async () => {
          const { ExtensionPermissions } = ChromeUtils.importESModule('resource://gre/modules/ExtensionPermissions.sys.mjs')
          const { ExtensionParent } = ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs')
          const extension = ExtensionParent.GlobalManager.getExtension(${JSON.stringify(GECKO_ID)})
          const perms = { permissions: [], origins: ['<all_urls>'] }
          await ExtensionPermissions.${granted ? 'add' : 'remove'}(${JSON.stringify(GECKO_ID)}, perms, extension)
          return String(extension.allowedOrigins.subsumes(new MatchPattern('https://example.com/*')))
        })()`)
        if (result !== String(granted)) throw new Error(`host permission ${granted ? 'not granted' : 'still granted'} (${result})`)
      },
      async screenshot(path) {
        // BiDi's captureScreenshot refuses chrome contexts: the window paints itself, remote
        // frames (the page, the extension's panel) included, as a tab preview does
        const url = await chromeEval(`(async () => {
          const rect = new DOMRect(0, 0, window.innerWidth, window.innerHeight)
          const bitmap = await window.browsingContext.currentWindowGlobal.drawSnapshot(rect, 1, 'white')
          const canvas = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas')
          canvas.width = bitmap.width
          canvas.height = bitmap.height
          canvas.getContext('2d').drawImage(bitmap, 0, 0)
          return canvas.toDataURL('image/png')
        })()`)
        if (!url.startsWith('data:image/png;base64,')) throw new Error(`no screenshot: ${url.slice(0, 80)}`)
        writeFileSync(path, Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'))
      },
      async close() {
        await browser.close().catch(() => undefined)
      },
    }
  } catch (e) {
    await browser.close().catch(() => undefined)
    throw e
  }
}

/** Removes a folder made by buildFirefoxForTest. */
export function removeBuild(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
