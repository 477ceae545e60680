// Request recording: the capture events that carry a request and its body, applied to the
// request models. Every chunk is kept, up to a cap per request, for the exports and for
// merging again when a provider or transport is forced: kept once, by the merger (request-model.ts
// reads it back), the model noting only where each chunk ended and when; a small chunk is
// merged where it arrives, a large one (and what follows it) in slices, batch by batch
// (backlog.ts).

import { utf8Length, type Reply } from '../../src/library.js'
import type { CaptureEvent, ForcedOptions } from '../../src/exchange/types.js'
import { sizeOf } from '../../src/exchange/slices.js'
import { repairWindows1252 } from '../../src/exchange/windows-1252.js'
import { urlPath } from '../format.js'
import type { CapturedRequest } from '../shell.js'
import { LARGE_CHUNK, type Backlogs } from './backlog.js'
import { fileBodyReader } from './file-body.js'
import { RequestModel } from './request-model.js'
import { costOf, formatBudget, mayGrow, releasedNote, toRelease, type Holding } from './budget.js'
import type { BodySource, HeldSource, PageVerdict, StoreEnv } from './types.js'

export class Recorder {
  readonly models = new Map<string, RequestModel>()
  /** Request ids in arrival order; a new array on every change. */
  order: readonly string[] = []

  constructor(
    private readonly env: StoreEnv,
    private readonly backlogs: Backlogs,
    /** Body bytes kept per request. */
    private readonly maxBytes: number,
    /** The memory budget for every request together (budget.ts); read when it applies, so it may change. */
    private readonly budget: () => number,
  ) {}

  /** Before a file's first byte: its body is read back from the file, not kept, where the file can be read synchronously (file-body.ts). */
  readBackFrom(m: RequestModel, source: BodySource): void {
    const read = this.env.readSync
    if (!read) return
    const lost = (err: unknown) => this.env.warn(`${urlPath(m.request.url)}: the file can no longer be read (${String(err)}); it changed or went away since it was opened, so frames read from it now show "?" for its bytes: open it again`)
    m.readBackThrough(fileBodyReader(source, read, lost))
  }

  /** A large body of this request is being merged in slices. */
  merging(m: RequestModel): boolean {
    return this.backlogs.merging(m)
  }

  /** A request began, or the shell says more about one it sent (its status, …). */
  request(request: CapturedRequest): void {
    const existing = this.models.get(request.id)
    if (existing) {
      existing.request = { ...existing.request, ...request }
      this.touch(existing)
      return
    }
    const m = new RequestModel(request, this.env)
    this.models.set(request.id, m)
    this.order = [...this.order, request.id]
    this.touch(m)
  }

  /**
   * The next piece of a body; ignored once the request ended. `owned`: bytes handed over (a
   * file's pieces as the store reads them), kept by the merger without a copy. `continues`:
   * the rest of the read before it (a paste cut in slices), kept as part of that read.
   */
  chunk(id: string, data: Uint8Array | string, t: number | null, how: { owned?: boolean; continues?: boolean } = {}): void {
    const m = this.models.get(id)
    if (!m || m.state !== 'live' || m.closing) return
    // the text Chrome decoded as windows-1252 back to the UTF-8 bytes it was (here, not in the devtools page: it is linear in the body)
    if (typeof data === 'string' && m.request.bodyDecodedAs === 'windows-1252') data = repairWindows1252(data) ?? data
    const owned = how.owned === true
    if (this.keep(m, data, t, how.continues === true)) {
      // a large chunk (a whole body from the HAR path) is merged in slices, and what follows waits for it
      if (m.backlog.ops.length === 0 && sizeOf(data) <= LARGE_CHUNK) m.push(data, t, owned)
      else this.backlogs.enqueue(m, { data, t, at: 0 })
    }
    this.touch(m)
  }

  /** The body ended (finished) or the page gave up on it (cancelled); anything after it is ignored. */
  close(event: Extract<CaptureEvent, { type: 'finished' | 'cancelled' }>): void {
    const m = this.models.get(event.id)
    if (!m || m.state !== 'live' || m.closing) return
    if (event.type === 'finished' && event.status !== undefined) m.request = { ...m.request, status: event.status }
    m.closing = { type: event.type, t: event.t ?? null, reason: event.type === 'cancelled' ? event.reason ?? null : null }
    if (m.backlog.ops.length === 0) m.close()
    else this.backlogs.enqueue(m, 'end')
    this.touch(m)
  }

  /** Drops one request; false when there was none. */
  remove(id: string): boolean {
    const m = this.models.get(id)
    if (!m) return false
    this.forget(m)
    this.models.delete(id)
    this.order = this.order.filter((o) => o !== id)
    this.env.changed()
    return true
  }

  clear(): void {
    for (const m of this.models.values()) this.forget(m)
    this.models.clear()
    this.order = []
    this.env.changed()
  }

  /** Pins a request (the memory budget keeps it) or unpins it; false when there is no such request. */
  pin(id: string, on: boolean): boolean {
    const m = this.models.get(id)
    if (!m) return false
    if (m.pinned === on) return true
    m.pinned = on
    this.touch(m)
    return true
  }

  /** Sets the verdict of the stream against the page (shown on its row); false when there is no such request. */
  setPageVerdict(id: string, verdict: PageVerdict): boolean {
    const m = this.models.get(id)
    if (!m) return false
    m.pageVerdict = verdict
    this.touch(m)
    return true
  }

  /** What the memory budget counts, request by request, oldest first. `selected` counts as pinned. */
  holdings(selected: string | null): Holding[] {
    const out: Holding[] = []
    for (const id of this.order) {
      const m = this.models.get(id)!
      const { frames, problems } = m.held
      out.push({ id, bytes: m.heldBytes, frames, problems, ended: m.state !== 'live' && !this.backlogs.merging(m), pinned: id === selected || m.pinned })
    }
    return out
  }

  /**
   * Keeps every request within the memory budget (once per batch): what derived structures
   * cost is brought up to date from each request's row, then the oldest ended, unpinned
   * requests go until the rest fits, and a note says which. Returns the ids released.
   */
  enforceBudget(selected: string | null): string[] {
    for (const m of this.models.values()) {
      const row = m.row()
      m.held = { frames: row.frames, problems: row.broken + row.streamErrors }
    }
    const budget = this.budget()
    const released = toRelease(this.holdings(selected), budget)
    if (released.length === 0) return released
    const paths = released.map((id) => urlPath(this.models.get(id)!.request.url))
    for (const id of released) this.remove(id)
    this.env.warn(releasedNote(paths, budget))
    return released
  }


  /** Cancels all deferred work (the store is disposed). */
  forgetAll(): void {
    for (const m of this.models.values()) this.forget(m)
  }

  /** Reads the kept chunks again with a provider or transport forced ({} for the core's choice); false when there is no such request. */
  force(id: string, forced: ForcedOptions): boolean {
    const m = this.models.get(id)
    if (!m) return false
    this.backlogs.mergeNow(m)
    // the body as the old merger kept it: views of its blocks, merged again by the new one
    const chunks = m.chunks()
    this.backlogs.forget(m)
    m.restart(forced)
    // merge the kept chunks again: at once when small, else in slices like a large body
    if (m.bytes <= LARGE_CHUNK) {
      for (const c of chunks) m.push(c.data, c.t)
      if (m.state !== 'live') m.end()
      else if (m.closing) m.close()
    } else {
      for (const c of chunks) this.backlogs.enqueue(m, { data: c.data, t: c.t, at: 0 })
      if (m.state !== 'live' || m.closing) this.backlogs.enqueue(m, 'end')
    }
    this.touch(m)
    return true
  }

  /** One request as the exporters need it, with what it still holds merged first. */
  get(id: string): HeldSource | null {
    const m = this.models.get(id)
    if (!m) return null
    this.backlogs.mergeNow(m)
    const expected = m.replies.fresh()
    const merger = m.merger
    const source: HeldSource = {
      request: m.request,
      chunks: m.chunks(),
      expected,
      state: m.state,
      transport: expected.transport,
      truncated: m.truncated,
      frames: () => merger.frames(),
    }
    if (m.forced.provider || m.forced.transport || m.forced.rules) source.forced = { ...m.forced }
    return source
  }

  /** The first `maxBytes` bytes of a request's body as the merger keeps it (what is still queued merged first). */
  head(id: string, maxBytes: number): Uint8Array | null {
    const m = this.models.get(id)
    if (!m) return null
    this.backlogs.mergeNow(m)
    return m.merger.body(0, Math.min(maxBytes, m.merger.byteLength))
  }

  /** The reply rebuilt from a request, what is still queued merged first (Recordings.rebuilt). */
  rebuilt(id: string): Reply | null {
    const m = this.models.get(id)
    if (!m) return null
    this.backlogs.mergeNow(m)
    return m.replies.fresh()
  }

  /** The end of a request's body, whole frames (Recordings.tail); what is still queued merged first. */
  tail(id: string, frames: number, maxBytes: number): Uint8Array | null {
    const m = this.models.get(id)
    if (!m) return null
    this.backlogs.mergeNow(m)
    const merger = m.merger
    const end = merger.byteLength
    let start = end
    // frame facts only (no text read, nor JSON parsed): the earliest of the last frames that fits
    for (let seq = Math.max(0, merger.frameCount - frames); seq < merger.frameCount; seq++) {
      const at = merger.frameInfo(seq).byteStart
      if (end - at <= maxBytes) { start = at; break }
    }
    return merger.body(start, end)
  }

  /**
   * Notes a chunk (the merger keeps its bytes, for exports and merging again); false when it
   * went over the cap or the budget. A chunk that `continues` the last read ends it later.
   */
  private keep(m: RequestModel, data: Uint8Array | string, t: number | null, continues: boolean): boolean {
    if (m.truncated) return false
    const size = typeof data === 'string' ? utf8Length(data) : data.byteLength
    if (m.bytes + size > this.maxBytes) {
      m.truncated = true
      this.env.warn(`${urlPath(m.request.url)}: the body went over ${Math.round(this.maxBytes / 1048576)} MB; the rest was not kept`)
      return false
    }
    const budget = this.budget()
    if (!mayGrow({ bytes: m.heldBytes, ...m.held }, m.readsBack ? 0 : size, budget)) {
      m.truncated = true
      m.cutByBudget = true
      this.env.warn(`${urlPath(m.request.url)}: this request alone reached the memory budget (${formatBudget(budget)}, its body and what is derived from it, about ${formatBudget(costOf({ bytes: m.heldBytes, ...m.held }))}); the rest of its body was not kept`)
      return false
    }
    m.bytes += size
    m.lineEndings.add(data)
    if (continues && m.reads.ends.length > 0) {
      m.reads.ends[m.reads.ends.length - 1] = m.bytes
      return true
    }
    m.reads.ends.push(m.bytes)
    m.reads.ts.push(t)
    if (t !== null) m.lastT = t
    return true
  }

  private touch(m: RequestModel): void {
    m.rev++
    this.env.changed()
  }

  private forget(m: RequestModel): void {
    m.forget()
    this.backlogs.forget(m)
  }
}
