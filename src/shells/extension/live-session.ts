// What a live capture session of one tab holds, in either browser (chrome/live.ts through the
// debugger, firefox/live.ts through webRequest): how it speaks to the hub, and the requests it
// follows. Each browser adds what only it needs.

import type { LiveOutbox } from './live-outbox.js'
import type { WorkerToHub } from './messages.js'

export interface LiveSession<Sent, Tracked> {
  tabId: number
  /** Live capture's own state, to the hub (the Port). */
  post: (msg: WorkerToHub) => void
  /** What was captured, to the hub (the live channel), batched off the page's path. */
  outbox: LiveOutbox
  channel: BroadcastChannel
  /** Requests seen leaving, by the browser's request id, until their response (or none) comes. */
  sent: Map<string, Sent>
  /** Responses followed, by the browser's request id. */
  tracked: Map<string, Tracked>
}
