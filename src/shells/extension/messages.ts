// Every message the extension's pages exchange, in one typed map.
//
//   store  ⇄  hub (the devtools page)   BroadcastChannel `deltascope:<tabId>` (structured clone):
//             the capture events, bodies included, to whichever side runs the panel's store
//             (its worker; the panel page itself when no worker could start)
//   panel  ⇄  hub                        BroadcastChannel `deltascope:<tabId>:control`: the Live
//             toggle and DevTools' search bar, small messages the panel's UI thread handles
//   hub    ⇄  background                runtime Port named `deltascope-live` (JSON in Chrome): the
//             Live toggle and what happens to live capture itself
//   background → hub                     BroadcastChannel `deltascope:<tabId>:live` (structured
//             clone): the captured requests and their bytes, in batches (live-outbox.ts), each
//             acknowledged by the hub
//
// Two channels, because a BroadcastChannel hands every message to every listener: with one,
// the panel's UI thread would receive (and copy) every body its store's worker receives.
// The hub runs for as long as DevTools is open on the tab, so it sees every request from the
// moment DevTools opened, also before the panel is first shown; it keeps the events and
// replays them to the store. Only the background holds the live capture API (Chrome's
// `debugger` in its service worker, Firefox's webRequest.filterResponseData in its background
// script). Bytes never cross the Port: Chrome's runtime messaging is JSON, so they would cross
// as base64, encoded and decoded once more, through the browser process, one message a read.

import type { CaptureEvent, CapturedRequest, Header } from '../../exchange/types.js'

/** A capture event with the hub's running number, so a replay and live events never overlap. */
export interface NumberedEvent {
  n: number
  event: CaptureEvent
}

export type StoreToHub =
  /** The store (re)connected: send everything kept so far. */
  { type: 'hello'; storeId: string }

export type HubToStore =
  | { type: 'replay'; storeId: string; events: NumberedEvent[] }
  | { type: 'event'; n: number; event: CaptureEvent }

export type PanelToHub =
  /** Turn live mode on or off; answered by `live-result` with the same `call`. */
  { type: 'live'; panelId: string; call: number; enabled: boolean }

export type HubToPanel =
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

/** A WebSocket seen by live capture. */
export interface LiveSocketInfo {
  /** `live:ws:<sessionId or "tab">:<requestId>`. */
  id: string
  /** The CDP requestId (DevTools' HAR entry for the socket has it as `_requestId`). */
  requestId: string
  url: string
  startedAt: number
}

export type WorkerToHub =
  | { type: 'live-result'; ok: boolean; enabled: boolean; message?: string }
  /** A debugger command failed (a target's network not watched, a target not released): said in the panel. */
  | { type: 'live-problem'; level: 'info' | 'warning'; message: string }
  /** Live capture went away (the user pressed Cancel on Chrome's debugging bar, the tab closed…). */
  | { type: 'live-detached'; reason: string }

/** What live capture saw, in the order it saw it: a batch of these crosses the live channel. */
export type LiveCaptureMessage =
  | { type: 'live-request'; request: LiveRequestInfo }
  /** The bytes as they arrived (one network read). */
  | { type: 'live-chunk'; id: string; data: Uint8Array; t: number }
  | { type: 'live-finished'; id: string; t: number }
  | { type: 'live-failed'; id: string; t: number; canceled: boolean; reason: string }
  /** Deltascope stopped copying this request's bytes (live-outbox.ts): the capture is incomplete. */
  | { type: 'live-shed'; id: string; t: number; reason: string }
  // WebSockets (live-websocket.ts → hub-websocket.ts): each message with its time; the hub splits the connection into turns
  /** A WebSocket was created (Network.webSocketCreated). */
  | { type: 'live-ws-created'; socket: LiveSocketInfo }
  /** Its handshake: the request's headers, then the response's status and headers. */
  | { type: 'live-ws-handshake'; id: string; requestHeaders?: Header[]; status?: number; responseHeaders?: Header[] }
  /** One message, sent or received: text as it is, binary as its bytes. */
  | { type: 'live-ws-frame'; id: string; direction: 'send' | 'receive'; opcode: number; data: string | Uint8Array; t: number }
  /** A frame the browser could not read (Network.webSocketFrameError). */
  | { type: 'live-ws-error'; id: string; t: number; message: string }
  | { type: 'live-ws-closed'; id: string; t: number }

export type LiveChannelMessage =
  | { type: 'live-batch'; seq: number; events: LiveCaptureMessage[] }
  /** The hub took batch `seq` (the background's shedding counts what is not yet taken). */
  | { type: 'live-ack'; seq: number }

/** The one map: route → message type. */
export interface MessageMap {
  'store→hub': StoreToHub
  'hub→store': HubToStore
  'panel→hub': PanelToHub
  'hub→panel': HubToPanel
  'hub→worker': HubToWorker
  'worker→hub': WorkerToHub
  'live channel': LiveChannelMessage
}

export const LIVE_PORT_NAME = 'deltascope-live'

/** The capture events' channel (store ⇄ hub). */
export function hubChannelName(tabId: number): string {
  return `deltascope:${tabId}`
}

/** Live capture's channel (background → hub, and the hub's acknowledgements back). */
export function liveChannelName(tabId: number): string {
  return `deltascope:${tabId}:live`
}

/** The panel's controls' channel (panel ⇄ hub): no bodies cross it. */
export function controlChannelName(tabId: number): string {
  return `deltascope:${tabId}:control`
}

/** A typed sender for one route over anything with `postMessage`. */
export function sender<R extends keyof MessageMap>(target: { postMessage(message: unknown): void }): (message: MessageMap[R]) => void {
  return (message) => target.postMessage(message)
}
