// Every message the extension's pages exchange, in one typed map.
//
//   panel  ⇄  hub (the devtools page)   BroadcastChannel `deltascope:<tabId>` (structured clone)
//   hub    ⇄  service worker            runtime Port named `deltascope-live` (JSON in Chrome)
//
// The hub runs for as long as DevTools is open on the tab, so it sees every request from the
// moment DevTools opened, also before the panel is first shown; it keeps the events and
// replays them to the panel. Only the background holds the live capture API (Chrome's
// `debugger` in its service worker, Firefox's webRequest.filterResponseData in its background
// script). Bytes cross the Port as base64 from Chrome (its runtime messaging is JSON) and as
// the ArrayBuffer itself from Firefox (structured clone); the hub turns them into Uint8Array
// before they reach the panel.

import type { CaptureEvent, CapturedRequest } from '../exchange/types.js'

/** A capture event with the hub's running number, so a replay and live events never overlap. */
export interface NumberedEvent {
  n: number
  event: CaptureEvent
}

export type PanelToHub =
  /** The panel (re)connected: send everything kept so far. */
  | { type: 'hello'; panelId: string }
  /** Turn live mode on or off; answered by `live-result` with the same `call`. */
  | { type: 'live'; panelId: string; call: number; enabled: boolean }

export type HubToPanel =
  | { type: 'replay'; panelId: string; events: NumberedEvent[] }
  | { type: 'event'; n: number; event: CaptureEvent }
  | { type: 'live-result'; panelId: string; call: number; ok: boolean; message?: string }
  /** DevTools' own search bar, on the Deltascope panel (ExtensionPanel.onSearch fires in the devtools page). */
  | { type: 'search'; action: 'performSearch' | 'nextSearchResult' | 'previousSearchResult' | 'cancelSearch'; query?: string }

export type HubToWorker =
  | { type: 'live-start'; tabId: number }
  | { type: 'live-stop'; tabId: number }

/** A streaming response seen by live capture, before its first byte is forwarded. */
export type LiveRequestInfo = Omit<CapturedRequest, 'source'> & {
  /**
   * The browser's own request id, for matching against the HAR entry: the CDP requestId (the
   * `id` is `live:<sessionId or "tab">:<requestId>`), or Firefox's webRequest requestId (the
   * `id` is `live:ff:<requestId>`).
   */
  requestId: string
}

export type WorkerToHub =
  | { type: 'live-result'; ok: boolean; enabled: boolean; message?: string }
  | { type: 'live-request'; request: LiveRequestInfo }
  /** The bytes as they arrived: base64 (Chrome), or the ArrayBuffer itself (Firefox). */
  | { type: 'live-chunk'; id: string; data: string | ArrayBuffer; t: number }
  | { type: 'live-finished'; id: string; t: number }
  | { type: 'live-failed'; id: string; t: number; canceled: boolean; reason: string }
  /** Live capture went away (the user pressed Cancel on Chrome's debugging bar, the tab closed…). */
  | { type: 'live-detached'; reason: string }

/** The one map: route → message type. */
export interface MessageMap {
  'panel→hub': PanelToHub
  'hub→panel': HubToPanel
  'hub→worker': HubToWorker
  'worker→hub': WorkerToHub
}

export const LIVE_PORT_NAME = 'deltascope-live'

export function hubChannelName(tabId: number): string {
  return `deltascope:${tabId}`
}

/** A typed sender for one route over anything with `postMessage`. */
export function sender<R extends keyof MessageMap>(target: { postMessage(message: unknown): void }): (message: MessageMap[R]) => void {
  return (message) => target.postMessage(message)
}
