// The extension's background, either browser's: serves the hubs (one per DevTools window) that
// connect a Port to turn live capture on or off. When a hub's Port closes (DevTools closed), live
// capture stops on its tab. The live backend is the browser's own: live.ts (chrome.debugger) in
// the Chrome build's service worker, live-firefox.ts (webRequest.filterResponseData) in the
// Firefox build's background script; each build bundles only its own.

import browser from 'webextension-polyfill'
import { LIVE_PORT_NAME, sender, type HubToWorker, type WorkerToHub } from './messages.js'

export interface LiveBackend {
  /** Handles one hub message; `post` answers on the hub's Port (and carries the live events). */
  handle(msg: HubToWorker, post: (m: WorkerToHub) => void): Promise<void>
  /** Stops live capture on the tab (its hub went away). */
  stop(tabId: number): Promise<void>
}

/** Call at the top level of the background script, so a hub's connect wakes it. */
export function serveHubs(backend: LiveBackend): void {
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== LIVE_PORT_NAME) return
    const post = sender<'worker→hub'>(port)
    const tabs = new Set<number>()
    port.onMessage.addListener((message: unknown) => {
      const msg = message as HubToWorker
      tabs.add(msg.tabId)
      void backend.handle(msg, (m) => {
        try { post(m) } catch { /* the port closed */ }
      })
    })
    port.onDisconnect.addListener(() => {
      for (const tabId of tabs) void backend.stop(tabId)
    })
  })
}
