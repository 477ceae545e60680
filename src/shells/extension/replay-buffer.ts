// What the hub keeps of a tab's capture events for the panel's store, which may connect after
// they happened (DevTools was open before the Deltascope panel was). Bounded: past `maxBytes`
// of bodies, the oldest requests go whole. Once a store has taken the events (its replay was
// sent), the store's merger holds the bodies, so the buffer drops their bytes and keeps none
// of the bodies that follow: each byte is held once. A store that connects later still hears
// of every request, each with the reason it comes without its body. No browser API here.

import type { CaptureEvent } from '../../exchange/types.js'
import type { NumberedEvent } from './messages.js'

/** Why a request replayed to a later store has no body (the row says "no body: …"). */
export const HANDED_OVER =
  'its body went to the Deltascope panel opened before this one in this DevTools session, and Deltascope keeps one copy of a body: reload the page to capture it again'

const bytesOf = (event: CaptureEvent): number =>
  event.type !== 'chunk' ? 0 : typeof event.data === 'string' ? event.data.length * 2 : event.data.byteLength

export class ReplayBuffer {
  private kept: NumberedEvent[] = []
  private keptBytes = 0
  /** A store has taken the events: bodies are no longer kept. */
  private handedOver = false
  /** Requests whose body bytes (some or all) went to a store and are not kept. */
  private readonly handed = new Set<string>()

  constructor(private readonly maxBytes: number) {}

  /** Keeps one event; true when older requests were dropped to stay within `maxBytes`. */
  add(numbered: NumberedEvent): boolean {
    const { event } = numbered
    if (event.type === 'chunk' && this.handedOver) {
      this.handed.add(event.id)
      return false
    }
    this.kept.push(numbered)
    this.keptBytes += bytesOf(event)
    if (this.keptBytes <= this.maxBytes) return false
    this.trim()
    return true
  }

  /** The events for a store that said hello: every one kept, a request whose body went to an earlier store marked so. */
  replay(): NumberedEvent[] {
    if (this.handed.size === 0) return this.kept.slice()
    return this.kept.map((numbered) => {
      const { event } = numbered
      if (event.type !== 'request' || !this.handed.has(event.request.id)) return numbered
      return { n: numbered.n, event: { type: 'request', request: { ...event.request, bodyWithheld: HANDED_OVER } } }
    })
  }

  /** A store took the replay: from now on its merger holds the bodies, and the buffer keeps none. */
  handOver(): void {
    this.handedOver = true
    for (const { event } of this.kept) if (event.type === 'chunk') this.handed.add(event.id)
    this.kept = this.kept.filter(({ event }) => event.type !== 'chunk')
    this.keptBytes = 0
  }

  /** Bytes of body kept now. */
  get bytes(): number {
    return this.keptBytes
  }

  /** Drops whole requests, oldest first, until the bodies kept are half the budget. */
  private trim(): void {
    const dropped = new Set<string>()
    let bytes = this.keptBytes
    for (const { event } of this.kept) {
      if (bytes <= this.maxBytes / 2) break
      if (event.type === 'request') dropped.add(event.request.id)
      if (event.type === 'chunk' && dropped.has(event.id)) bytes -= bytesOf(event)
    }
    this.kept = this.kept.filter(({ event }) => !('id' in event && dropped.has(event.id)) && !(event.type === 'request' && dropped.has(event.request.id)))
    this.keptBytes = bytes
  }
}
