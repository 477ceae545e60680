// Runs the Deltascope panel in Debian firefox-esr, and reads it. How, and why this way:
//
// - puppeteer-core 24 launches firefox-esr (`browser: 'firefox'`, WebDriver BiDi, headless,
//   DevTools opened with `devtools: true`) and installs the unpacked extension as a temporary
//   add-on (BiDi webExtension.install, `browser.installExtension(dir)`).
// - BiDi cannot script extension pages (Mozilla bug 1755014): the panel is not a browsing
//   context it lists. So the extension is built for the test (vite.config.ext.ts with
//   DELTASCOPE_PROBE_URL, into a temporary folder; shipped builds leave the probe out) and its
//   panel reports to a loopback server the test runs (src/shells/extension/test-probe.ts): the test asks
//   `read(selector)` (the matching elements' text, title, dataset, checked / disabled) or
//   `click(selector, title)`, the panel answers over fetch. This is the real panel, in the real
//   toolbox, fed by the real capture; only the way its DOM reaches the test is added.
// - A panel loads when it is first shown, and no WebExtension API selects a DevTools panel. The
//   one privileged step: script in the browser window's chrome scope, where the test does what
//   a click on the Deltascope tab does (`toolbox.selectTool`); the same route withholds and
//   grants the add-on's host permission, as about:addons does, and paints the window for
//   `screenshot`. These use long-standing DevTools / add-on manager interfaces, and everything
//   the test asserts comes through the probe, not through them.
// - Two ways into the chrome scope (`chromeEval`), the first the browser offers:
//   1. BiDi: with `--remote-allow-system-access`, newer Firefox (153, which this was first written for)
//      lists the browser window under `browsingContext.getTree({'moz:scope': 'chrome'})` and
//      `script.evaluate` runs there.
//   2. Firefox 140 ESR (Debian's firefox-esr, 140.12.0esr measured here) has no BiDi chrome
//      scope: it ignores 'moz:scope' and lists the content tab only, and its BiDi skips
//      parent-process contexts altogether (bug 1713440), privileged about: pages included.
//      Marionette does not help alongside puppeteer: with BiDi active, Marionette shares
//      puppeteer's BiDi-only session (a second `WebDriver:NewSession` is refused, "Maximum number
//      of active sessions"), and its execute commands read that session's `timeouts`, which a
//      BiDi session does not have ("this.currentSession.timeouts is undefined"). So the test
//      starts Firefox's DevTools server as well (`--start-debugger-server <unix socket>`, the
//      protocol web-ext and the Browser Toolbox use) and, when BiDi offers no chrome window,
//      evaluates in the parent process's console (`getProcess 0` → `getTarget` →
//      `evaluateJSAsync`), whose global is the browser window, `gBrowser` and all.
//
//   const probe = await startProbeServer()
//   const dir = buildFirefoxForTest(probe.url)
//   const ff = await launchFirefox({ extensionDir: dir })
//   await ff.page.goto(url); await ff.showPanel(); await probe.connected(10_000)
//   await probe.waitFor((s) => rows(s).length === 2)

import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import type { ProbeNode } from '../../src/shells/extension/test-probe.js'
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
  /** Evaluates in the browser window's chrome scope (privileged); the value comes back as a string. */
  chromeEval(expression: string): Promise<string>
  close(): Promise<void>
}

type BidiSend = (method: string, params: object) => Promise<{ result: unknown }>

/** Evaluates in the browser window's chrome scope; the expression's value is returned as a string. */
type ChromeEval = (expression: string) => Promise<string>

export async function launchFirefox(options: { extensionDir: string; prefs?: Record<string, unknown> }): Promise<FirefoxWithExtension> {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} not found (apt-get install firefox-esr, or set FIREFOX_PATH)`)
  // the DevTools server's Unix socket (no port to pick); used only when BiDi has no chrome scope
  const socketDir = mkdtempSync(join(tmpdir(), 'deltascope-ff-rdp-'))
  const devtoolsSocket = join(socketDir, 'devtools.sock')
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: process.env['HEADFUL'] !== '1',
    devtools: true,
    args: ['--remote-allow-system-access', '--start-debugger-server', devtoolsSocket],
    // Firefox's first start with a fresh profile takes 7-10 s here, three times that on a busy machine.
    timeout: 90_000,
    extraPrefsFirefox: {
      'devtools.toolbox.host': 'bottom',
      // what --start-debugger-server requires, and no prompt to accept the connection
      'devtools.debugger.remote-enabled': true,
      'devtools.chrome.enabled': true,
      'devtools.debugger.prompt-connection': false,
      ...options.prefs,
    },
  }).catch((e: unknown) => {
    rmSync(socketDir, { recursive: true, force: true })
    throw e
  })
  let devtools: DevToolsConsole | null = null
  const closeAll = async (): Promise<void> => {
    devtools?.close()
    await browser.close().catch(() => undefined)
    rmSync(socketDir, { recursive: true, force: true })
  }
  try {
    const installed = await browser.installExtension(options.extensionDir)
    if (installed !== GECKO_ID) throw new Error(`installed ${installed}, expected ${GECKO_ID}`)
    const send = (browser as unknown as { connection: { send: BidiSend } }).connection.send.bind(
      (browser as unknown as { connection: object }).connection,
    ) as BidiSend
    const tree = (await send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as { contexts: Array<{ context: string; url: string }> }
    const chromeWindow = tree.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml')
    let chromeEval: ChromeEval
    if (chromeWindow) {
      chromeEval = async (expression) => {
        const r = (await send('script.evaluate', { expression, target: { context: chromeWindow.context }, awaitPromise: true, resultOwnership: 'none' })).result as {
          type: string
          result?: { type: string; value?: unknown }
          exceptionDetails?: { text: string }
        }
        if (r.type === 'exception') throw new Error(`chrome-scope script failed: ${r.exceptionDetails?.text}`)
        return String(r.result?.value)
      }
    } else {
      // Firefox 140 ESR: no BiDi chrome scope (see the header)
      devtools = await openDevToolsConsole(devtoolsSocket, 30_000)
      const url = await devtools.evaluate('location.href')
      if (url !== 'chrome://browser/content/browser.xhtml') throw new Error(`the DevTools server's parent process console evaluates in ${url}, not the browser window`)
      chromeEval = devtools.evaluate
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
      chromeEval: (expression) => chromeEval(expression),
      close: closeAll,
    }
  } catch (e) {
    await closeAll()
    throw e
  }
}

// ---- Firefox's DevTools server (remote debugging protocol), the chrome scope on Firefox 140 ----------

interface DevToolsConsole {
  /** Evaluates in the parent process's console (the browser window); the expression's value is returned as a string. */
  evaluate: ChromeEval
  close(): void
}

type Packet = { from: string; type?: string; error?: string; message?: string } & Record<string, unknown>
type Grip = string | { type: 'longString'; actor: string; length: number; initial: string } | { type: string } | undefined

/**
 * Connects to the DevTools server Firefox listens with on `socketPath` (`--start-debugger-server`).
 * Packets are `length:JSON` both ways; the server greets first; a request `{to: actor, type, ...}`
 * is answered by a packet from that actor without a `type` (requests to one actor are answered in
 * order), packets with a `type` are events. `evaluateJSAsync` answers `{resultID}` at once and
 * sends the value later as an `evaluationResult` event; strings over 10,000 characters come as a
 * `longString` grip, read with `substring`.
 */
async function openDevToolsConsole(socketPath: string, timeout: number): Promise<DevToolsConsole> {
  const deadline = Date.now() + timeout
  while (!existsSync(socketPath)) {
    if (Date.now() > deadline) throw new Error(`Firefox's DevTools server did not open ${socketPath} within ${timeout} ms (is --start-debugger-server honoured?)`)
    await sleep(50)
  }
  const socket = connect(socketPath)
  type Waiter = { resolve: (p: Packet) => void; reject: (e: Error) => void }
  const replies = new Map<string, Waiter[]>()
  const results = new Map<string, Waiter>()
  const earlyResults = new Map<string, Packet>()
  let greeting: Waiter | null = null
  let failure: Error | null = null
  const fail = (e: Error): void => {
    if (failure) return
    failure = e
    greeting?.reject(e)
    for (const queue of replies.values()) for (const w of queue.splice(0)) w.reject(e)
    for (const w of results.values()) w.reject(e)
    results.clear()
  }
  const dispatch = (packet: Packet): void => {
    if (packet.from === 'root' && 'applicationType' in packet) {
      greeting?.resolve(packet)
      return
    }
    if (packet.type === 'evaluationResult') {
      const id = String(packet['resultID'])
      const waiter = results.get(id)
      results.delete(id)
      if (waiter) waiter.resolve(packet)
      else earlyResults.set(id, packet)
      return
    }
    if (packet.type !== undefined) return // another event (frameUpdate, …)
    const waiter = replies.get(packet.from)?.shift()
    if (!waiter) return
    if (packet.error) waiter.reject(new Error(`DevTools server: ${packet.error}: ${packet.message ?? ''}`))
    else waiter.resolve(packet)
  }
  let buffered = Buffer.alloc(0)
  socket.on('data', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data])
    for (;;) {
      const colon = buffered.indexOf(0x3a)
      if (colon < 0) return
      const header = buffered.subarray(0, colon).toString('latin1')
      if (!/^\d+$/.test(header)) {
        fail(new Error(`DevTools server: unexpected packet header ${JSON.stringify(header.slice(0, 40))}`))
        socket.destroy()
        return
      }
      const end = colon + 1 + Number(header)
      if (buffered.length < end) return
      const packet = JSON.parse(buffered.subarray(colon + 1, end).toString('utf8')) as Packet
      buffered = buffered.subarray(end)
      dispatch(packet)
    }
  })
  socket.on('error', (e) => fail(new Error(`DevTools server connection: ${e.message}`)))
  socket.on('close', () => fail(new Error('DevTools server connection closed')))

  const request = (to: string, type: string, params: object = {}): Promise<Packet> =>
    new Promise<Packet>((resolve, reject) => {
      if (failure) { reject(failure); return }
      const queue = replies.get(to) ?? []
      replies.set(to, queue)
      queue.push({ resolve, reject })
      const text = JSON.stringify({ to, type, ...params })
      socket.write(`${Buffer.byteLength(text)}:${text}`)
    })
  const withTimeout = <T>(what: string, promise: Promise<T>, ms: number): Promise<T> => {
    let timer: NodeJS.Timeout | undefined
    return Promise.race([
      promise,
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`DevTools server: no ${what} within ${ms} ms`)), ms) }),
    ]).finally(() => clearTimeout(timer))
  }
  const readString = async (grip: Grip): Promise<string> => {
    if (typeof grip === 'string') return grip
    if (grip && grip.type === 'longString' && 'actor' in grip) {
      const reply = await request(grip.actor, 'substring', { start: 0, end: grip.length })
      return String(reply['substring'])
    }
    return JSON.stringify(grip)
  }

  try {
    await withTimeout('greeting', new Promise<Packet>((resolve, reject) => { greeting = { resolve, reject } }), Math.max(1_000, deadline - Date.now()))
    const descriptor = (await withTimeout('parent process', request('root', 'getProcess', { id: 0 }), 10_000))['processDescriptor'] as { actor: string }
    const target = (await withTimeout('parent process target', request(descriptor.actor, 'getTarget'), 10_000))['process'] as { consoleActor: string }
    const consoleActor = target.consoleActor
    const evaluate: ChromeEval = async (expression) => {
      // settles to a JSON string either way, so a rejection's reason is read too (the console
      // reports only that an awaited promise was rejected)
      const text = `Promise.resolve().then(() => (\n${expression}\n)).then((v) => JSON.stringify({ value: String(v) }), (e) => JSON.stringify({ error: String(e) }))`
      const { resultID } = (await request(consoleActor, 'evaluateJSAsync', { text, mapped: { await: true } })) as Packet & { resultID: string }
      const early = earlyResults.get(resultID)
      earlyResults.delete(resultID)
      const result = early ?? (await new Promise<Packet>((resolve, reject) => {
        if (failure) reject(failure)
        else results.set(resultID, { resolve, reject })
      }))
      if (result['hasException']) throw new Error(`chrome-scope script failed: ${await readString(result['exceptionMessage'] as Grip)}`)
      if (result['topLevelAwaitRejected']) throw new Error('chrome-scope script failed: its promise was rejected')
      const settled = JSON.parse(await readString(result['result'] as Grip)) as { value?: string; error?: string }
      if (settled.error !== undefined) throw new Error(`chrome-scope script failed: ${settled.error}`)
      return String(settled.value)
    }
    return {
      evaluate,
      close() {
        socket.removeAllListeners('close')
        socket.destroy()
      },
    }
  } catch (e) {
    socket.destroy()
    throw e
  }
}

/** Removes a folder made by buildFirefoxForTest. */
export function removeBuild(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
