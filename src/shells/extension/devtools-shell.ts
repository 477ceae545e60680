// The PanelShell for the DevTools panel: capture events come from the hub (the devtools page)
// over a BroadcastChannel (hub-events.ts), to the store's worker itself where it runs in one;
// live mode asks the hub (in Chrome's Live package after confirming the `debugger`
// permission; in Firefox the background checks its host permission and says what is missing),
// the theme follows DevTools.

import browser from 'webextension-polyfill'
import type { PanelShell, SearchAction } from '../../../panel/shell.js'
import { connectHubEvents, type HubEventsSource } from './hub-events.js'
import { createInspectedPage } from './inspected-page.js'
import { controlChannelName, sender, type HubToPanel } from './messages.js'

type Theme = 'light' | 'dark'

const REDACTION_KEY = 'deltascope.redaction'
const RULES_KEY = 'deltascope.rules'

export function createDevtoolsShell(): PanelShell {
  const tabId = browser.devtools.inspectedWindow.tabId
  const panelId = Math.random().toString(36).slice(2) + Date.now().toString(36)
  // the Live toggle and DevTools' search bar; the capture events have a channel of their own
  const control = new BroadcastChannel(controlChannelName(tabId))
  const toHub = sender<'panel→hub'>(control)

  let callCounter = 0
  const calls = new Map<number, (r: { ok: boolean; message?: string }) => void>()
  const searchCallbacks = new Set<(action: SearchAction, query?: string) => void>()

  control.onmessage = (ev: MessageEvent<HubToPanel>) => {
    const msg = ev.data
    switch (msg.type) {
      case 'search':
        for (const cb of searchCallbacks) cb(msg.action, msg.query)
        return
      case 'live-result': {
        if (msg.panelId !== panelId) return
        const resolve = calls.get(msg.call)
        calls.delete(msg.call)
        resolve?.({ ok: msg.ok, ...(msg.message !== undefined ? { message: msg.message } : {}) })
        return
      }
    }
  }

  const shell: PanelShell = {
    kind: 'devtools',
    // a store in its worker connects to the hub itself (devtools-worker.ts): bodies never reach this thread
    workerEvents: { tabId } satisfies HubEventsSource,
    connect: (onEvent) => connectHubEvents({ tabId }, onEvent),
    theme: currentTheme,
    onSearch(callback) {
      searchCallbacks.add(callback)
      return () => searchCallbacks.delete(callback)
    },
    // the panel page is the extension's own origin: its localStorage outlives the panel
    storage: {
      get: (key) => localStorage.getItem(key),
      set: (key, value) => localStorage.setItem(key, value),
    },
    redactionStore: redactionStore(),
    rulesStore: keptString(RULES_KEY),
    // "Compare with the page": a fixed script through devtools.inspectedWindow.eval
    inspectedPage: createInspectedPage(),
    onThemeChange(callback) {
      themeCallbacks.add(callback)
      installThemeWatch()
      return () => themeCallbacks.delete(callback)
    },
    save(filename, mime, content) {
      const url = URL.createObjectURL(new Blob([content], { type: mime }))
      const a = document.createElement('a')
      a.href = url
      a.download = filename
      a.style.display = 'none'
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 60_000)
    },
    async copy(text) {
      try {
        await navigator.clipboard.writeText(text)
        return
      } catch {
        // DevTools' extension frames usually lack clipboard-write: the old way still works.
      }
      const ta = document.createElement('textarea')
      ta.value = text
      ta.style.position = 'fixed'
      ta.style.opacity = '0'
      document.body.append(ta)
      ta.select()
      const ok = document.execCommand('copy')
      ta.remove()
      if (!ok) throw new Error('copy failed')
    },
  }

  const live = liveApi()
  if (live === null) {
    // Chrome's baseline package: the toggle is there, and says where live capture is
    shell.live = {
      mechanism: 'Chrome\'s debugger API, in the Deltascope Live package',
      enabled: () => false,
      setEnabled: (enabled) => Promise.resolve(enabled ? { ok: false, message: NO_LIVE_IN_THIS_PACKAGE } : { ok: true }),
    }
  } else {
    // whether live capture is on comes with the hub's replay (its `live` events), not from here
    shell.live = {
      mechanism: live === 'debugger' ? 'Chrome\'s debugger API' : 'Firefox\'s webRequest stream filter, filterResponseData',
      setEnabled(enabled) {
        // permissions.request needs the click's user gesture: call it before anything awaits.
        const permitted = enabled && live === 'debugger' ? requestDebuggerPermission() : Promise.resolve<string | null>(null)
        return permitted.then((refusal) => {
          if (refusal !== null) return { ok: false, message: refusal }
          return new Promise<{ ok: boolean; message?: string }>((resolve) => {
            const call = ++callCounter
            calls.set(call, resolve)
            toHub({ type: 'live', panelId, call, enabled })
            setTimeout(() => {
              if (calls.delete(call)) resolve({ ok: false, message: 'The DevTools page did not answer.' })
            }, 10_000)
          })
        })
      },
    }
  }
  return shell
}

/**
 * The user's redaction list: the extension's storage.local (kept across DevTools sessions, not
 * synced) when the manifest grants `storage`; else the panel page's localStorage, which is the
 * extension's own origin and outlives the panel too.
 */
function redactionStore(): NonNullable<PanelShell['redactionStore']> {
  return keptString(REDACTION_KEY)
}

/** One string kept under `key`, where redactionStore keeps its list (the stream rules use it too). */
function keptString(key: string): NonNullable<PanelShell['rulesStore']> {
  const local = (browser as { storage?: { local?: typeof browser.storage.local } }).storage?.local
  if (local) {
    return {
      load: async () => {
        const got = await local.get(key)
        const value = got[key]
        return typeof value === 'string' ? value : null
      },
      save: (value) => local.set({ [key]: value }),
    }
  }
  return {
    load: async () => localStorage.getItem(key),
    save: async (value) => localStorage.setItem(key, value),
  }
}

/** What the Live toggle says in Chrome's baseline package, which asks for no permission. */
export const NO_LIVE_IN_THIS_PACKAGE =
  'Live capture needs the "debugger" permission, which this package does not ask for: install the Deltascope Live package (dist/chrome-live) for it. Streams are still captured when they finish.'

/**
 * Which live capture the build's manifest grants, if any: `debugger` (Chrome's Live package) or
 * `webRequestFilterResponse` (the Firefox build); null in Chrome's baseline package, which
 * declares no permission. Chromium refuses `debugger` in optional_permissions, so the Live
 * package declares it as required; the toggle still goes through permissions.request, which
 * resolves true for it at once. Firefox gives a DevTools panel no permissions API: its
 * background checks the host permission when live capture starts.
 */
function liveApi(): 'debugger' | 'filterResponseData' | null {
  const m = browser.runtime.getManifest()
  const all = [...(m.permissions ?? []), ...(m.optional_permissions ?? [])] as string[]
  if (all.includes('debugger')) return 'debugger'
  if (all.includes('webRequestFilterResponse')) return 'filterResponseData'
  return null
}

/** null when granted, else why not. */
function requestDebuggerPermission(): Promise<string | null> {
  try {
    return browser.permissions.request({ permissions: ['debugger' as never] }).then(
      (granted) => (granted ? null : 'The "debugger" permission was declined; captures continue when requests finish.'),
      (e: unknown) => `Could not ask for the "debugger" permission: ${(e as Error).message ?? String(e)}`,
    )
  } catch (e) {
    return Promise.resolve(`Could not ask for the "debugger" permission: ${(e as Error).message ?? String(e)}`)
  }
}

// ---- theme ---------------------------------------------------------------------------------

const themeCallbacks = new Set<(theme: Theme) => void>()
let themeOverride: Theme | null = null
let themeWatching = false

function toTheme(name: string | undefined): Theme {
  return name === 'dark' ? 'dark' : 'light'
}

function currentTheme(): Theme {
  return themeOverride ?? toTheme(browser.devtools.panels.themeName)
}

function installThemeWatch(): void {
  if (themeWatching) return
  themeWatching = true
  const changed = (name: string): void => {
    themeOverride = toTheme(name)
    for (const cb of themeCallbacks) cb(themeOverride)
  }
  // Chrome: setThemeChangeHandler; Firefox: onThemeChanged.
  const panels = browser.devtools.panels as Partial<typeof browser.devtools.panels> & {
    setThemeChangeHandler?: (cb: (theme: unknown) => void) => void
  }
  if (typeof panels.setThemeChangeHandler === 'function') panels.setThemeChangeHandler((theme) => changed(String(theme)))
  else panels.onThemeChanged?.addListener(changed)
}
