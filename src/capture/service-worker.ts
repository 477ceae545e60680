// The extension's service worker: only live capture (chrome.debugger) lives here. The hub in
// each DevTools window connects a Port; when that Port closes (DevTools closed), the debugger
// is detached from its tab.

import { LIVE_PORT_NAME, sender, type HubToWorker } from './messages.js'
import { handleHubMessage, installLiveCapture, stopLive } from './live.js'

installLiveCapture()

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== LIVE_PORT_NAME) return
  const post = sender<'worker→hub'>(port)
  const tabs = new Set<number>()
  port.onMessage.addListener((msg: HubToWorker) => {
    tabs.add(msg.tabId)
    void handleHubMessage(msg, (m) => {
      try { post(m) } catch { /* the port closed */ }
    })
  })
  port.onDisconnect.addListener(() => {
    for (const tabId of tabs) void stopLive(tabId)
  })
})
