// One request as the store keeps it (the RequestModel): the core merger that reads its body
// (the panel runs the core, never a second parser) and keeps it, once: the model holds only
// where each chunk ended and when it arrived (`reads`), and exports, diagnostics and merging
// again read the bytes back from the merger (chunks()); where the request stands; and the
// caches built from the merger: the replies
// (replies.ts), provenance (provenance-schedule.ts) and the frame list (frame-list.ts). Every
// cache is valid for one merger: forcing a provider or transport restarts the model with a
// new merger and empty caches, and the kept chunks are merged again.

import { checkRules, createMerger, type BodyReader, type LibraryMergeOptions as MergeOptions, type Merger, type Reply } from '../../src/library.js'
import type { ForcedOptions } from '../../src/exchange/types.js'
import { urlHost, urlPath } from '../format.js'
import type { CapturedRequest } from '../shell.js'
import { emptyBacklog, type Backlog } from './backlog.js'
import { DebugCache } from './debug.js'
import { FrameList } from './frame-list.js'
import { ProvenanceSchedule } from './provenance-schedule.js'
import { ReplyCache } from './replies.js'
import { LineEndings } from '../../src/debug/line-endings.js'
import { FrameScan } from './search.js'
import type { ModelState, ProviderReason, RequestCache, RequestRow, RequestState, PageVerdict, StoreEnv } from './types.js'

/** finished or cancelled, as it arrived; applied once what came before it is merged. */
export interface Closing {
  type: 'finished' | 'cancelled'
  t: number | null
  reason: string | null
}

export class RequestModel implements ModelState {
  merger: Merger
  forced: ForcedOptions = {}
  /**
   * The chunks kept (up to the per-request cap), without their bytes: where each ends in the
   * body (UTF-8 bytes; text counts as its UTF-8, as the merger keeps it) and when it arrived.
   */
  readonly reads: { ends: number[]; ts: Array<number | null> } = { ends: [], ts: [] }
  bytes = 0
  /** What is derived from the body, as the memory budget last counted it (recorder.ts enforceBudget). */
  held: { frames: number; problems: number } = { frames: 0, problems: 0 }
  truncated = false
  /** The memory budget, not the per-request cap, cut the body. */
  cutByBudget = false
  /** Pinned by the user: the memory budget never releases it. */
  pinned = false
  /** Its verdict against what the inspected page shows (null: not compared). */
  pageVerdict: PageVerdict | null = null
  /** Its body is being read from a file by the store (body-reader.ts): the file's size. */
  reading: { total: number } | null = null
  /** Its chunks are slices of a file the store read, not a client's network reads (the debugger's rules on reads skip them). */
  fileSlices = false
  /** The line endings of every chunk kept, counted as it arrived: the debugger reads no body again for them. */
  readonly lineEndings = new LineEndings()
  /** Arrival time of the last chunk with one. */
  lastT: number | null = null
  state: RequestState = 'live'
  closing: Closing | null = null
  cancelReason: string | null = null
  endT: number | null = null
  /** The merger's end(): set once the body ended and all of it was merged. */
  final: Reply | null = null
  /** Bumped on every change of this request; caches keyed by it are rebuilt when read. */
  rev = 0
  /** Received, not merged yet: a large chunk (and what followed it), merged in slices. */
  readonly backlog: Backlog = emptyBacklog()
  readonly replies: ReplyCache
  readonly provenance: ProvenanceSchedule
  readonly frameList: FrameList
  /** The frame search (search.ts). */
  readonly search: FrameScan
  /** Diagnostics and timing, computed once the body ended. */
  readonly debug: DebugCache
  /** Every cache above, reset and forgotten as one: a cache added to the model goes here too. */
  private readonly caches: readonly RequestCache[]
  private rowCache: { rev: number; row: RequestRow } | null = null
  private readonly warn: (err: unknown) => void

  /** Where the merger reads its body back from (a file the store reads: file-body.ts); a restart keeps it. */
  private bodyReader: BodyReader | null = null

  constructor(public request: CapturedRequest, env: StoreEnv) {
    this.merger = createMerger(mergeOptions(request, {}))
    this.replies = new ReplyCache(this, env)
    this.provenance = new ProvenanceSchedule(this, env)
    this.frameList = new FrameList(this, env)
    this.search = new FrameScan(this, env)
    this.debug = new DebugCache(this, env)
    this.caches = [this.replies, this.provenance, this.frameList, this.search, this.debug]
    this.warn = (err) => env.warn(`request ${this.request.id}: ${String(err)}`)
  }

  /**
   * The kept chunks, read back from the merger (views of its blocks; text as its UTF-8 bytes),
   * with their arrival times: what exports, diagnostics and merging again read. Only what is
   * merged is there: the caller merges any backlog first.
   */
  chunks(merger: Merger = this.merger): Array<{ data: Uint8Array; t: number | null }> {
    const { ends, ts } = this.reads
    const out: Array<{ data: Uint8Array; t: number | null }> = []
    let start = 0
    for (let i = 0; i < ends.length; i++) {
      out.push({ data: merger.body(start, ends[i]!), t: ts[i]! })
      start = ends[i]!
    }
    return out
  }

  /**
   * Merges a piece of the body; a merger that throws becomes a note, and the panel goes on.
   * `owned`: bytes handed over (a file's pieces), which the merger keeps without a copy.
   */
  push(data: Uint8Array | string, t: number | null, owned = false): void {
    try {
      if (owned && typeof data !== 'string') this.merger.pushOwned(data, t ?? undefined)
      else if (t === null) this.merger.push(data)
      else this.merger.push(data, t)
    } catch (err) {
      this.warn(err)
    }
  }

  /** Ends the merger: the final reply. */
  end(): void {
    try {
      this.final = this.merger.end()
    } catch (err) {
      this.warn(err)
    }
  }

  /** Applies the finished / cancelled that arrived, once everything before it is merged. */
  close(): void {
    const c = this.closing!
    this.state = c.type
    if (c.type === 'cancelled') this.cancelReason = c.reason
    this.endT = c.t ?? this.lastT
    this.end()
  }

  /** Starts over with a new merger for `forced`, every cache empty; the kept chunks stay, for the caller to merge again. */
  restart(forced: ForcedOptions): void {
    this.forget()
    this.forced = {}
    if (forced.provider) this.forced.provider = forced.provider
    if (forced.transport) this.forced.transport = forced.transport
    if (forced.rules) this.forced.rules = forced.rules
    this.merger = this.newMerger()
    this.final = null
    for (const cache of this.caches) cache.reset()
    Object.assign(this.backlog, emptyBacklog())
  }

  /**
   * Before the first byte: the merger keeps none of the body's bytes once merged, and reads
   * them back through `reader` (a file the store reads). False when bytes arrived already.
   */
  readBackThrough(reader: BodyReader): boolean {
    if (this.bytes > 0) return false
    this.bodyReader = reader
    this.merger = this.newMerger()
    return true
  }

  /** The body is read back from a file, not held. */
  get readsBack(): boolean {
    return this.bodyReader !== null
  }

  /** The body's bytes the store holds (the budget's count): none when they are read back from a file. */
  get heldBytes(): number {
    return this.readsBack ? 0 : this.bytes
  }

  private newMerger(): Merger {
    const options = mergeOptions(this.request, this.forced)
    return createMerger(this.bodyReader ? { ...options, bodyReader: this.bodyReader } : options)
  }

  /** Cancels deferred work (the model is dropped, or restarted). */
  forget(): void {
    for (const cache of this.caches) cache.forget()
  }

  /** This request's line in the request list. */
  row(): RequestRow {
    if (this.rowCache && this.rowCache.rev === this.rev) return this.rowCache.row
    const { request } = this
    const reply = this.replies.latest()
    const frames = this.merger.frameCount
    const start = request.startedAt
    const end = this.endT ?? (this.state === 'live' ? this.lastT : null)
    const known = frames > 0 || this.forced.provider !== undefined || this.forced.rules !== undefined
    const partialFrame = this.partialFrame()
    const row: RequestRow = {
      id: request.id,
      method: request.method,
      url: request.url,
      path: urlPath(request.url),
      host: urlHost(request.url),
      status: request.status,
      provider: known ? reply.provider : null,
      transport: reply.transport === 'unknown' && frames === 0 && this.state === 'live' ? null : reply.transport,
      frames,
      broken: reply.errors.length - (partialFrame === null ? 0 : 1),
      streamErrors: this.replies.facts().streamErrors.length,
      bytes: this.bytes,
      duration: end !== null && Number.isFinite(start) ? Math.max(0, end - start) : null,
      startedAt: Number.isFinite(start) ? start : null,
      // a page that closes the stream once it has the terminal event ([DONE], an EventSource
      // closed on it) read every byte that mattered: finished, with what it did on hover
      state: this.state === 'cancelled' && reply.done ? 'finished' : this.state,
      cancelReason: this.state === 'cancelled' && reply.done
        ? `closed by the page after the terminal event${this.cancelReason ? ` (${this.cancelReason})` : ''}`
        : this.cancelReason,
      source: request.source,
      done: reply.done,
      truncated: this.truncated,
      ...(this.cutByBudget ? { cutByBudget: true as const } : {}),
      pinned: this.pinned,
      ...(this.pageVerdict !== null ? { page: this.pageVerdict } : {}),
      forced: this.forced,
      incomplete: null,
      partialFrame,
      ...(request.listedBecause !== undefined ? { listedBecause: request.listedBecause } : {}),
    }
    row.incomplete = incompleteReason(row, reply.transport, withheld(request))
    this.rowCache = { rev: this.rev, row }
    return row
  }

  /**
   * The last frame, when the page cancelled the stream while it arrived: the core dispatched
   * what there was (unterminated) and its JSON is cut short. That is the cancel, not a
   * malformed frame, so it is shown as incomplete rather than broken.
   */
  partialFrame(): number | null {
    const n = this.merger.frameCount
    if (this.state !== 'cancelled' || n === 0) return null
    const info = this.merger.frameInfo(n - 1)
    return info.unterminated && info.kind === 'invalid' ? n - 1 : null
  }

  /** How the core chose the provider (forced, frames, URL, Content-Type, default): the merger says. */
  providerReason(): ProviderReason | null {
    if (this.forced.provider || this.forced.rules) return 'forced'
    if (this.merger.frameCount === 0) return null
    return this.merger.providerChoice().reason
  }
}

export function mergeOptions(request: CapturedRequest, forced: ForcedOptions): MergeOptions {
  const o: MergeOptions = { url: request.url }
  if (request.contentType) o.contentType = request.contentType
  if (forced.provider) o.provider = forced.provider
  if (forced.transport) o.transport = forced.transport
  // rules are checked where they are made; rules that are not usable are not applied (createMerger would throw)
  if (forced.rules && checkRules(forced.rules).ok) o.rules = forced.rules
  return o
}

export const NO_STORE_NO_BODY = 'the server sent Cache-Control: no-store; Chrome kept no body: turn on Live and reload'

/**
 * Why a capture came without its body, as the hub said (`bodyWithheld`: DevTools handed over
 * none, or it went to a panel opened earlier); for a finished capture without it, a no-store
 * response is the likely reason.
 */
function withheld(request: CapturedRequest): string | null {
  if (request.bodyWithheld !== undefined) return request.bodyWithheld
  if (request.source !== 'har') return null
  const noStore = request.responseHeaders.some((h) => h.name.toLowerCase() === 'cache-control' && /(^|[\s,])no-store($|[\s,;=])/i.test(h.value))
  return noStore ? NO_STORE_NO_BODY : null
}

/** Why a stream that ended is not whole, in words (the request list's mark, on hover); null when it is whole, or still running. */
export function incompleteReason(row: RequestRow, transport: string, withheld: string | null = null): string | null {
  if (row.cutByBudget) return 'cut: this request alone reached the memory budget; the rest was not kept'
  if (row.truncated) return 'cut: the body went over the size kept per request; the rest was not kept'
  if (row.state === 'live' || row.done) return null
  if (row.state === 'cancelled') {
    const why = row.cancelReason ? ` (${row.cancelReason})` : ''
    const partial = row.partialFrame === null ? '' : `; frame ${row.partialFrame} is cut short`
    return `cancelled${why} before the stream's terminal event${partial}`
  }
  // a body that is not a stream at all is not an incomplete stream: the panel shows its raw text
  if (row.frames === 0 && row.bytes > 0 && transport === 'unknown') return null
  // DevTools handed over no body (a no-store response, one over Chrome's 10 MB: the hub says
  // which); live capture reads the bytes as they arrive
  if (row.frames === 0 && row.bytes === 0 && withheld !== null) return `no body: ${withheld.replace(/\.$/, '')}`
  if (row.frames === 0) return 'no frames: the body ended empty'
  return "no terminal event: the body ended before the provider's end marker ([DONE], message_stop, response.completed, done:true, a finish reason); it may have been cut"
}
