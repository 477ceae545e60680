// Launches Debian Chromium with the built extension, DevTools open on the startup tab, and
// reaches the Deltascope panel's DOM through CDP (docs/architecture.md#testing). Reusable by any browser test.
//
//   const ext = await ensureExtensionBuilt()
//   const b = await launchWithExtension({ extensionDir: ext })
//   await b.page.goto(url)
//   const panel = await b.openPanel()
//   await panel.waitFor(`document.querySelectorAll('[data-testid=request-row]').length === 2`)
//   await b.close()
//
// Playwright's CDPSession cannot address a flattened child session, so the DevTools window
// and the panel iframe are reached through a browser-level session with
// Target.attachToTarget({flatten: false}) + Target.sendMessageToTarget.

import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
export const CHROME_DIST = join(ROOT, 'dist/chrome')
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
export const PANEL_TITLE = 'Deltascope'

const SOURCES = ['manifest.json', 'package.json', 'vite.config.ext.ts', 'src', 'panel', 'extension']

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/**
 * True when dist/chrome exists, is newer than every source it is built from, and was built as
 * shipped (without source maps: `npm run package -- --sourcemaps` leaves a build with them).
 */
export function extensionIsFresh(): boolean {
  const manifest = join(CHROME_DIST, 'manifest.json')
  if (!existsSync(manifest)) return false
  if (existsSync(join(CHROME_DIST, 'assets')) && readdirSync(join(CHROME_DIST, 'assets')).some((f) => f.endsWith('.map'))) return false
  const built = statSync(manifest).mtimeMs
  return SOURCES.every((s) => newestMtime(join(ROOT, s)) <= built)
}

// ---- builds on demand ------------------------------------------------------------------------------
// The page and the extension are built by the first test that needs them (ensure…Built), not
// before every run: a unit run starts without a build. Test files run two at a time, in two
// processes, and two vite builds of this project must not run at once (both would write the
// same folders, and Vite refuses a second build of one config): a build holds a lock, a folder
// made with mkdir (atomic) under dist/, and the other process waits for it, then finds the
// build fresh. A lock whose process is gone is taken over.
// DELTASCOPE_REBUILD=1 rebuilds once: in a vitest run the global setup (builds.ts) marks the
// builds stale; elsewhere the first call of each process rebuilds.

const BUILD_LOCK = join(ROOT, 'dist', '.build-lock')
const LOCK_WAIT_MS = 10 * 60_000

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function lockOwnerGone(): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(BUILD_LOCK, 'pid'), 'utf8'))
  } catch {
    // made, its pid not written yet (or just removed): gone only if it stays so
    try {
      return Date.now() - statSync(BUILD_LOCK).mtimeMs > 30_000
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Runs `build` unless `fresh()` holds, one build at a time across the test processes. */
export function buildLocked(fresh: () => boolean, build: () => void): boolean {
  if (fresh()) return false
  mkdirSync(join(ROOT, 'dist'), { recursive: true })
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      if (lockOwnerGone()) rmSync(BUILD_LOCK, { recursive: true, force: true })
      else if (Date.now() > deadline) throw new Error(`another build held ${BUILD_LOCK} for ${LOCK_WAIT_MS / 60_000} minutes`)
      else sleepSync(200)
    }
  }
  try {
    writeFileSync(join(BUILD_LOCK, 'pid'), String(process.pid))
    if (fresh()) return false // built by the process we waited for
    build()
    return true
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true })
  }
}

const rebuiltHere = new Set<string>()
/** DELTASCOPE_REBUILD=1 outside vitest: the first call of this process for `what` rebuilds. */
function forcedOnce(what: string): boolean {
  if (process.env['DELTASCOPE_REBUILD'] !== '1' || process.env['VITEST'] || rebuiltHere.has(what)) return false
  rebuiltHere.add(what)
  return true
}

function viteBuild(config: string, quiet = false): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', config, '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
  })
}

/** Builds dist/chrome, dist/chrome-live and dist/firefox (vite.config.ext.ts) unless fresh; returns dist/chrome. */
export function ensureExtensionBuilt(options: { force?: boolean } = {}): string {
  const force = options.force === true || forcedOnce('extension')
  buildLocked(() => !force && extensionIsFresh(), () => viteBuild('vite.config.ext.ts'))
  return CHROME_DIST
}

export const PAGE_DIST = join(ROOT, 'dist/page')
const PAGE_SOURCES = ['panel', 'src', 'samples', 'vite.config.page.ts']

function pageIsFresh(): boolean {
  const index = join(PAGE_DIST, 'index.html')
  return existsSync(index) && PAGE_SOURCES.every((s) => newestMtime(join(ROOT, s)) <= statSync(index).mtimeMs)
}

/** Builds dist/page (the standalone page) unless it is newer than its sources; true when it built. */
export function ensurePageBuilt(options: { quiet?: boolean } = {}): boolean {
  const force = forcedOnce('page')
  return buildLocked(() => !force && pageIsFresh(), () => viteBuild('vite.config.page.ts', options.quiet))
}

/** What DELTASCOPE_REBUILD=1 does to a vitest run (builds.ts): the builds made stale, so the first test needing one rebuilds it. */
export function markBuildsStale(): void {
  rmSync(join(CHROME_DIST, 'manifest.json'), { force: true })
  rmSync(join(PAGE_DIST, 'index.html'), { force: true })
}

export interface ServedRequest { method: string; url: string; body: string }

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' }

/** Serves dist/page on 127.0.0.1 (a free port); `onRequest` sees every request, its body read whole. */
export function servePage(onRequest?: (r: ServedRequest) => void): Promise<Server> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => { body += d.toString('utf8') })
    req.on('end', () => {
      onRequest?.({ method: req.method ?? '', url: req.url ?? '', body })
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const file = join(PAGE_DIST, path === '/' ? 'index.html' : path)
      if (!file.startsWith(PAGE_DIST) || !existsSync(file) || statSync(file).isDirectory()) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file))
    })
  })
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)))
}

export interface TargetInfo {
  targetId: string
  type: string
  url: string
  title: string
}

/** A CDP session on one target, over the browser session (non-flat). */
export interface TargetSession {
  send<T = unknown>(method: string, params?: object): Promise<T>
  /**
   * Evaluates an expression (awaiting promises) and returns its JSON value; throws on
   * exceptions. `userGesture` runs it as if the user acted (needed by permissions.request).
   */
  evaluate<T = unknown>(expression: string, options?: { userGesture?: boolean }): Promise<T>
  /** Polls a boolean expression until true. */
  waitFor(expression: string, options?: { timeout?: number; interval?: number; message?: string }): Promise<void>
  detach(): Promise<void>
}

export interface ExtensionBrowser {
  context: BrowserContext
  /** The startup tab: DevTools was opened for it. Navigate it, don't open another (that opens a second DevTools). */
  page: Page
  browserSession: CDPSession
  extensionId: string
  userDataDir: string
  targets(): Promise<TargetInfo[]>
  attach(targetId: string): Promise<TargetSession>
  /** Shows the Deltascope panel and attaches to its iframe. */
  openPanel(options?: { timeout?: number }): Promise<PanelHandle>
  close(): Promise<void>
}

export interface PanelHandle extends TargetSession {
  devtools: TargetSession
  target: TargetInfo
  /** PNG of the DevTools window (the panel shown in it), laid out at `size` for the shot. */
  screenshot(path: string, size?: { width: number; height: number }): Promise<void>
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--auto-open-devtools-for-tabs',
]

export async function launchWithExtension(options: {
  extensionDir: string
  headless?: boolean
  args?: string[]
  /** Where DevTools opens: 'undocked' (default), 'right', 'bottom'. */
  dock?: 'undocked' | 'right' | 'bottom' | 'left'
}): Promise<ExtensionBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'deltascope-profile-'))
  // DevTools undocked: its own window, so the panel gets the whole width (and screenshots show it alone).
  mkdirSync(join(userDataDir, 'Default'), { recursive: true })
  writeFileSync(
    join(userDataDir, 'Default/Preferences'),
    JSON.stringify({ devtools: { preferences: { currentDockState: JSON.stringify(options.dock ?? 'undocked') } } }),
  )
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    // Playwright's "--headless" is Chromium's new headless, which loads extensions.
    headless: options.headless ?? process.env['HEADFUL'] !== '1',
    ignoreDefaultArgs: ['--disable-extensions'],
    viewport: null,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${options.extensionDir}`,
      `--load-extension=${options.extensionDir}`,
      ...(options.args ?? []),
    ],
  })
  const browser = context.browser()
  if (!browser) throw new Error('no browser for the persistent context')
  const browserSession = await browser.newBrowserCDPSession()

  // Non-flat child sessions: replies arrive as Target.receivedMessageFromTarget.
  let nextId = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }>()
  browserSession.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } }
    if (msg.id === undefined) return
    const p = pending.get(msg.id)
    if (!p) return
    pending.delete(msg.id)
    if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`))
    else p.resolve(msg.result)
  })

  const targets = async (): Promise<TargetInfo[]> =>
    ((await browserSession.send('Target.getTargets')).targetInfos as TargetInfo[])

  const attach = async (targetId: string): Promise<TargetSession> => {
    const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId, flatten: false })
    const send = <T>(method: string, params: object = {}): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method })
        browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch((e: Error) => {
          pending.delete(id)
          reject(e)
        })
      })
    const evaluate = async <T>(expression: string, options: { userGesture?: boolean } = {}): Promise<T> => {
      const r = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true, userGesture: options.userGesture ?? false },
      )
      if (r.exceptionDetails) throw new Error(`evaluate failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}\n${expression}`)
      return r.result.value as T
    }
    const waitFor = async (expression: string, o: { timeout?: number; interval?: number; message?: string } = {}): Promise<void> => {
      const deadline = Date.now() + (o.timeout ?? 10_000)
      let last: unknown = null
      for (;;) {
        try {
          if ((await evaluate<boolean>(`Boolean(${expression})`)) === true) return
        } catch (e) {
          last = e
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${o.message ?? expression}${last ? ` (last error: ${String(last)})` : ''}`)
        await sleep(o.interval ?? 100)
      }
    }
    return {
      send,
      evaluate,
      waitFor,
      detach: async () => {
        await browserSession.send('Target.detachFromTarget', { sessionId }).catch(() => undefined)
      },
    }
  }

  // The extension id, from its service worker.
  let extensionId = ''
  for (const deadline = Date.now() + 20_000; !extensionId; await sleep(100)) {
    const sw = (await targets()).find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'))
    if (sw) extensionId = new URL(sw.url).host
    else if (Date.now() > deadline) throw new Error('the extension did not load (no service worker target)')
  }

  const page = context.pages()[0] ?? (await context.waitForEvent('page'))

  const openPanel = async (o: { timeout?: number } = {}): Promise<PanelHandle> => {
    const deadline = Date.now() + (o.timeout ?? 45_000)
    let devtoolsTarget: TargetInfo | undefined
    while (!devtoolsTarget) {
      devtoolsTarget = (await targets()).find((t) => t.url.startsWith('devtools://devtools/bundled/devtools_app.html'))
      if (!devtoolsTarget) {
        if (Date.now() > deadline) throw new Error('no DevTools window (is --auto-open-devtools-for-tabs set?)')
        await sleep(200)
      }
    }
    const devtools = await attach(devtoolsTarget.targetId)
    // Panels register asynchronously: retry showPanel until the panel's iframe target exists.
    const panelKey = `chrome-extension://${extensionId}${PANEL_TITLE.replace(/\s+/g, '')}`
    let panelTarget: TargetInfo | undefined
    while (!panelTarget) {
      await devtools.evaluate(`(() => { try { DevToolsAPI.showPanel(${JSON.stringify(panelKey)}) } catch (e) {} })()`).catch(() => undefined)
      panelTarget = (await targets()).find((t) => t.type === 'iframe' && t.url.startsWith(`chrome-extension://${extensionId}/src/shells/extension/panel.html`))
      if (!panelTarget) {
        if (Date.now() > deadline) throw new Error(`the ${PANEL_TITLE} panel did not appear`)
        await sleep(250)
      }
    }
    const session = await attach(panelTarget.targetId)
    await session.waitFor(`document.readyState === 'complete'`)
    return {
      ...session,
      devtools,
      target: panelTarget,
      async screenshot(path: string, size = { width: 1280, height: 760 }) {
        // The DevTools window is small (docked beside the page): lay it out larger for the shot.
        await devtools.send('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false })
        try {
          await sleep(600)
          const shot = await devtools.send<{ data: string }>('Page.captureScreenshot', { format: 'png' })
          writeFileSync(path, Buffer.from(shot.data, 'base64'))
        } finally {
          await devtools.send('Emulation.clearDeviceMetricsOverride').catch(() => undefined)
        }
      },
    }
  }

  return {
    context,
    page,
    browserSession,
    extensionId,
    userDataDir,
    targets,
    attach,
    openPanel,
    async close() {
      await context.close().catch(() => undefined)
      rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** The standalone page opened in a fresh headless Chromium (the page suites' common start). */
export interface OpenedPage {
  browser: Browser
  page: Page
  /** Where the page is served (`http://127.0.0.1:<port>`), to open it again at another path or size. */
  origin: string
  /** Page errors and console errors seen so far: a suite ends expecting none. */
  problems: string[]
  close(): Promise<void>
}

/** Builds the page if stale, serves it on 127.0.0.1, opens it (`path`, e.g. "/?deltascope-test") and waits for its first row. */
export async function openPage(options: { path?: string; viewport?: { width: number; height: number }; clipboard?: boolean } = {}): Promise<OpenedPage> {
  ensurePageBuilt()
  const server = await servePage()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS.filter((a) => a !== '--auto-open-devtools-for-tabs') })
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 860 } })
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await page.goto(`${origin}${options.path ?? '/'}`)
  await page.locator('[data-testid="request-row"]').first().waitFor()
  return {
    browser, page, origin, problems,
    async close() {
      await browser.close()
      await new Promise((ok) => server.close(ok))
    },
  }
}

/**
 * The JS heap (MB) of every dedicated worker of the page's browser after a full garbage
 * collection (the panel's store runs in one and holds the bodies). Playwright opens no CDP
 * session on a worker, so the browser's session attaches to each worker target and talks to
 * it through Target.sendMessageToTarget.
 */
export async function workerHeapsMB(page: Page): Promise<number> {
  const cdp = await page.context().browser()!.newBrowserCDPSession()
  try {
    const { targetInfos } = await cdp.send('Target.getTargets') as { targetInfos: Array<{ targetId: string; type: string }> }
    let total = 0
    for (const t of targetInfos.filter((t) => t.type === 'worker')) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false }) as { sessionId: string }
      const replies = new Map<number, (result: Record<string, unknown>) => void>()
      const onMessage = (e: { sessionId: string; message: string }) => {
        const m = JSON.parse(e.message) as { id?: number; result?: Record<string, unknown> }
        if (e.sessionId === sessionId && m.id !== undefined) replies.get(m.id)?.(m.result ?? {})
      }
      cdp.on('Target.receivedMessageFromTarget', onMessage)
      const call = (id: number, method: string) => new Promise<Record<string, unknown>>((resolve) => {
        replies.set(id, resolve)
        void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) })
      })
      await call(1, 'HeapProfiler.enable')
      await call(2, 'HeapProfiler.collectGarbage')
      await call(3, 'HeapProfiler.collectGarbage')
      total += Number((await call(4, 'Runtime.getHeapUsage')).usedSize) / 2 ** 20
      cdp.off('Target.receivedMessageFromTarget', onMessage)
      await cdp.send('Target.detachFromTarget', { sessionId })
    }
    return total
  } finally {
    await cdp.detach()
  }
}
