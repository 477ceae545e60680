// What live capture hands the hub, off the path the page waits on (both browsers' backgrounds).
//
// The page's bytes are handed on first (Firefox: StreamFilter.write in ondata; Chrome never
// holds them), then the capture's messages are queued here and posted together every
// FLUSH_MS, in order, as one `live-batch` on the tab's live BroadcastChannel (bytes as
// Uint8Array, structured clone: no JSON, no base64 on the way). One post per flush instead of
// one per network read keeps the background's thread free for the next read (Firefox's
// ondata, its blocking onHeadersReceived for the tab's other requests).
//
// Shedding: the hub acknowledges each batch it has taken. When the bytes posted and not yet
// acknowledged pass MAX_UNACKED_BYTES (the panel is busy, or a stream runs faster than it can
// take), the open requests stop being copied: each gets one `live-shed` saying how much of it
// was captured, and its later bytes reach the page as before but not Deltascope. Requests
// that start after the hub caught up are captured again.

import type { LiveCaptureMessage, LiveChannelMessage } from './messages.js'

export const FLUSH_MS = 16
/** Posted and not yet taken by the hub, before Deltascope sheds its own copy. */
export const MAX_UNACKED_BYTES = 96 * 1024 * 1024

interface Poster {
  postMessage(message: unknown): void
}

export class LiveOutbox {
  private queue: LiveCaptureMessage[] = []
  private queuedBytes = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private seq = 0
  private unacked = 0
  private readonly inFlight = new Map<number, number>()
  /** Requests no longer copied (shed), with the bytes of each that were. */
  private readonly shed = new Set<string>()
  private readonly copied = new Map<string, number>()

  constructor(private readonly channel: Poster & { onmessage: ((ev: MessageEvent<LiveChannelMessage>) => void) | null }) {
    channel.onmessage = (ev) => {
      const msg = ev.data
      if (msg.type !== 'live-ack') return
      const bytes = this.inFlight.get(msg.seq)
      if (bytes === undefined) return
      this.inFlight.delete(msg.seq)
      this.unacked -= bytes
    }
  }

  /** A request's start, end or failure: always sent (a shed request still ends). */
  push(message: Exclude<LiveCaptureMessage, { type: 'live-chunk' | 'live-shed' | 'live-ws-frame' }>): void {
    if (message.type === 'live-finished' || message.type === 'live-failed' || message.type === 'live-ws-closed') {
      this.shed.delete(message.id)
      this.copied.delete(message.id)
    }
    this.enqueue(message)
  }

  /** A WebSocket message: copied unless Deltascope is shedding its socket, its bytes counted as a read's are. */
  pushFrame(message: Extract<LiveCaptureMessage, { type: 'live-ws-frame' }>): void {
    const bytes = typeof message.data === 'string' ? message.data.length * 2 : message.data.byteLength
    if (this.admit(message.id, bytes, message.t, 'socket\'s messages')) this.enqueue(message)
  }

  /** A read of a followed request: copied unless Deltascope is shedding it. */
  pushChunk(id: string, data: Uint8Array, t: number): void {
    if (this.admit(id, data.byteLength, t, 'body')) this.enqueue({ type: 'live-chunk', id, data, t })
  }

  /** Whether `bytes` more of `id` may be queued; past the budget the request is shed, once, with the reason. */
  private admit(id: string, bytes: number, t: number, what: string): boolean {
    if (this.shed.has(id)) return false
    if (this.unacked + this.queuedBytes + bytes > MAX_UNACKED_BYTES) {
      this.shed.add(id)
      const copied = this.copied.get(id) ?? 0
      this.enqueue({
        type: 'live-shed',
        id,
        t,
        reason: `Deltascope stopped copying this ${what} after ${formatBytes(copied)}: its panel had not yet taken the ${formatBytes(this.unacked + this.queuedBytes)} before it. The page received every byte; the capture is incomplete`,
      })
      return false
    }
    this.copied.set(id, (this.copied.get(id) ?? 0) + bytes)
    this.queuedBytes += bytes
    return true
  }

  /** Posts what is queued now (live capture stopping). */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.queue.length === 0) return
    const seq = ++this.seq
    const batch: LiveChannelMessage = { type: 'live-batch', seq, events: this.queue }
    this.inFlight.set(seq, this.queuedBytes)
    this.unacked += this.queuedBytes
    this.queue = []
    this.queuedBytes = 0
    this.channel.postMessage(batch)
  }

  private enqueue(message: LiveCaptureMessage): void {
    this.queue.push(message)
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS)
  }
}

function formatBytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} KB`
}
