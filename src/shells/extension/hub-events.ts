// The capture events of one inspected tab, from the hub (the devtools page), for the panel's
// store: wherever it runs, its worker (devtools-worker.ts) or the panel page when no worker
// started (devtools-shell.ts). No browser.* here: a worker has none, and needs none to
// listen on a BroadcastChannel.
//
// On connecting, the store says hello (again every HELLO_RETRY_MS until the hub answers: the
// devtools page may still be starting); the hub answers with every event it kept, numbered;
// events that follow carry the next numbers. Events before the replay are in it, and any
// number seen already is dropped, so a replay and live events never overlap or repeat.

import type { CaptureEvent } from '../../exchange/types.js'
import { hubChannelName, sender, type HubToStore } from './messages.js'

const HELLO_RETRY_MS = 500

/** Where a store takes a tab's capture events from (structured-cloneable: it crosses to the store's worker). */
export interface HubEventsSource {
  tabId: number
}

/** Listens to the hub's events for `source.tabId`, in order, each once; returns a disconnect. */
export function connectHubEvents(source: HubEventsSource, onEvent: (event: CaptureEvent) => void): () => void {
  const storeId = Math.random().toString(36).slice(2) + Date.now().toString(36)
  const channel = new BroadcastChannel(hubChannelName(source.tabId))
  const toHub = sender<'store→hub'>(channel)
  let last = 0
  let replayed = false
  channel.onmessage = (ev: MessageEvent<HubToStore>) => {
    const msg = ev.data
    if (msg.type === 'replay') {
      if (msg.storeId !== storeId || replayed) return
      replayed = true
      for (const { n, event } of msg.events) {
        if (n <= last) continue
        last = n
        onEvent(event)
      }
    } else if (msg.type === 'event') {
      // events before the replay are in the replay; later ones follow it in order
      if (!replayed || msg.n <= last) return
      last = msg.n
      onEvent(msg.event)
    }
  }
  const hello = (): void => toHub({ type: 'hello', storeId })
  hello()
  const retry = setInterval(() => (replayed ? clearInterval(retry) : hello()), HELLO_RETRY_MS)
  return () => {
    clearInterval(retry)
    channel.onmessage = null
    channel.close()
  }
}
