// Keeps a request captured live from being listed a second time when DevTools reports it
// finished (`devtools.network.onRequestFinished`). Pure: the hub feeds it.
//
// Matching a HAR entry to a live request:
// 1. the CDP requestId, when the HAR entry carries one (`_requestId`); else
// 2. the same method and URL, start times within MATCH_WINDOW_MS (the HAR `startedDateTime`
//    and CDP `wallTime` come from the same clock reading), the nearest unclaimed one.
// Then, by the live request's state:
// - finished or cancelled live → the HAR entry is a duplicate and dropped;
// - still streaming live        → the HAR entry is held: dropped when the live one ends,
//                                 listed if live capture is lost before that;
// - abandoned (live capture detached mid-stream) → the HAR entry is listed: it alone has
//                                 the whole body.

export const MATCH_WINDOW_MS = 1500
const MAX_RECORDS = 1000

export type LiveState = 'open' | 'done' | 'abandoned'

export interface LiveKey {
  id: string
  requestId: string
  method: string
  url: string
  startedAt: number
}

export interface HarKey {
  requestId: string | null
  method: string
  url: string
  startedAt: number
}

interface LiveRecord<E> extends LiveKey {
  state: LiveState
  claimed: boolean
  held: E[]
}

export type ClaimResult = 'duplicate' | 'held' | 'new'

export class LiveLedger<E> {
  private records = new Map<string, LiveRecord<E>>()

  add(key: LiveKey): void {
    this.records.set(key.id, { ...key, state: 'open', claimed: false, held: [] })
    if (this.records.size > MAX_RECORDS) {
      for (const [id, r] of this.records) {
        if (r.state !== 'open') { this.records.delete(id); break }
      }
    }
  }

  has(id: string): boolean {
    return this.records.has(id)
  }

  state(id: string): LiveState | null {
    return this.records.get(id)?.state ?? null
  }

  /** The live request finished or was cancelled by the page: held HAR entries are dropped. */
  finish(id: string): void {
    const r = this.records.get(id)
    if (!r || r.state !== 'open') return
    r.state = 'done'
    r.held = []
  }

  /** Live capture was lost mid-stream: returns the HAR entries held for it, to be listed. */
  abandon(id: string): E[] {
    const r = this.records.get(id)
    if (!r || r.state !== 'open') return []
    r.state = 'abandoned'
    const held = r.held
    r.held = []
    return held
  }

  openIds(): string[] {
    return [...this.records.values()].filter((r) => r.state === 'open').map((r) => r.id)
  }

  claim(har: HarKey, entry: E): ClaimResult {
    const r = this.find(har)
    if (!r) return 'new'
    r.claimed = true
    if (r.state === 'done') return 'duplicate'
    if (r.state === 'open') { r.held.push(entry); return 'held' }
    return 'new'
  }

  clear(): void {
    this.records.clear()
  }

  private find(har: HarKey): LiveRecord<E> | null {
    if (har.requestId) {
      for (const r of this.records.values()) {
        if (!r.claimed && r.requestId === har.requestId && r.url === har.url) return r
      }
    }
    let best: LiveRecord<E> | null = null
    let bestDelta = Infinity
    for (const r of this.records.values()) {
      if (r.claimed || r.method !== har.method || r.url !== har.url) continue
      const delta = Math.abs(r.startedAt - har.startedAt)
      if (delta <= MATCH_WINDOW_MS && delta < bestDelta) { best = r; bestDelta = delta }
    }
    return best
  }
}
