// The panel's state, without a DOM: one typed `apply(event)` for everything the shell
// reports, one core Merger per request (the panel runs the core, never a second parser),
// and signals the components render. Updates are batched: `apply` only marks what changed,
// and an injected scheduler (requestAnimationFrame in a browser) bumps `version` once per
// batch. Captured data is untrusted: it is only ever handled as data.
//
// Scale (100,000+ frames, a 20 MB body in one chunk): nothing here costs time per frame on
// every batch. The store reads the core's cheap accessors (frameCount, frameInfo, entries,
// streamErrors, diagnostics, snapshot) and never asks for every frame at once; frame rows are
// built only for the rows in view (one frame re-read each, cached); a large body is merged in
// slices across animation frames; provenance (the one O(frames) read) is rebuilt at most
// every few times its own cost while a stream grows, and right after the first paint once
// it is complete.

import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import {
  createMerger, utf8Length, type Diagnostic, type Frame, type FrameEntry, type FrameKind, type Inspection, type Merger,
  type MergeOptions, type ProviderId, type Provenance, type Reply, type StreamError, type Transport,
} from '../src/library.js'
import { urlHost, urlPath } from './format.js'
import { ProvenanceIndex, type FieldRef } from './provenance.js'
import type { CaptureEvent, CapturedRequest, PanelShell } from './shell.js'
import { isKeepalive, isKeepaliveEvent, summarizeFrame } from './summary.js'

export type RequestState = 'live' | 'finished' | 'cancelled'

/** One line of the request list. */
export interface RequestRow {
  id: string
  method: string
  url: string
  /** Path and query. */
  path: string
  host: string
  status: number | null
  /** The provider the core chose (or was forced to); null before the first frame. */
  provider: ProviderId | null
  transport: Transport | null
  frames: number
  /** Frames whose data failed to parse. */
  broken: number
  /** Stream errors the provider sent. */
  streamErrors: number
  /** Body bytes received so far. */
  bytes: number
  /** ms from the request's start to its end (or to the last chunk while live); null when unknown. */
  duration: number | null
  state: RequestState
  cancelReason: string | null
  source: CapturedRequest['source']
  /** A terminal marker was seen. */
  done: boolean
  /** The body went over the per-request cap: the rest was not kept. */
  truncated: boolean
  forced: Force
}

/** Overrides of the core's detection for one request. */
export interface Force {
  provider?: ProviderId
  transport?: Transport
}

export interface BrokenInfo {
  message: string
  /** 1-based line of the frame's first line in the body. */
  line: number
  /** Character position inside the frame's data. */
  position: number
  /** Character offset of the frame in the decoded body. */
  offset: number
}

/** One row of the frame list: a frame, or a block the SSE spec throws away (comment, event-only). */
export type FrameItem =
  | {
      type: 'frame'
      seq: number
      kind: FrameKind
      /** SSE event name, else the JSON `type` / `object`. */
      event: string | null
      label: string
      time: number | null
      sinceStart: number | null
      /** Bytes on the wire. */
      size: number
      summary: string
      broken: BrokenInfo | null
      /** [DONE], pings and keep-alives. */
      dimmed: boolean
      unterminated: boolean
      /** A provider error payload carried by this frame. */
      streamError: string | null
      /** Characters this frame added to the reply. */
      contributed: number
    }
  | {
      type: 'entry'
      /** Index among the stream's entries. */
      index: number
      kind: 'comment' | 'empty'
      raw: string
      line: number
      beforeFrame: number
      size: number
      dimmed: true
    }

/** A highlighted range, in the coordinates of the reply being shown. */
export interface Highlight {
  field: FieldRef
  start: number
  end: number
}

export interface Note {
  level: 'info' | 'warning'
  message: string
}

/** What the components render for the selected request. */
export interface SelectionView {
  id: string
  request: CapturedRequest
  row: RequestRow
  /** The reply shown: after frame `scrub`, or the latest. */
  reply: Reply
  /** The reply as it stands now (final once the body ended). */
  latest: Reply
  /** Reply after frame N; null: the latest. */
  scrub: number | null
  frameCount: number
  /** The frame list: frame seqs (>= 0) and entries (-(index + 1)), in body order. */
  items: Int32Array
  /** The selected frame, and its position in `items` (-1 when hidden). */
  frame: number | null
  frameIndex: number
  highlight: Highlight[]
  streamErrors: StreamError[]
  diagnostics: Diagnostic[]
  providerReason: ProviderReason | null
  /**
   * Provenance (frame ↔ reply text) covers every frame: 'ready'; else 'pending' (rebuilt
   * soon: a long stream that grows, or one that just arrived). Everything else is always current.
   */
  index: 'ready' | 'pending'
  /** A large body being merged in slices: bytes (or characters) merged of those received. */
  loading: { done: number; total: number } | null
  /** Selecting a frame also rewinds the reply (off for very long streams, where it is slow). */
  autoScrub: boolean
}

export type ProviderReason = Inspection['providerReason']

/** Live capture, as the shell last reported it. */
export interface LiveState {
  enabled: boolean
  /** Why it changed, when the shell said (the debugger was detached, …). */
  message: string | null
}

/** Everything the exporters need for one request (structurally src/exchange's Recording, and more). */
export interface ExportSource {
  request: CapturedRequest
  /** The body as it arrived, with arrival times (ms since epoch) when known. */
  chunks: ReadonlyArray<{ data: Uint8Array | string; t: number | null }>
  /** The Reply the panel shows as the latest (final once the body ended). */
  expected: Reply
  /** Provider / transport forced in the panel. */
  forced?: Force
  state: RequestState
  transport: Transport
  truncated: boolean
  /** The frames, built on demand (JSON Lines export). */
  frames(): Frame[]
}

export interface StoreOptions {
  /** Runs `flush` once per batch; requestAnimationFrame in a browser. */
  schedule?: (flush: () => void) => void
  /** Runs work later (provenance of long streams, frame classification); setTimeout by default. Returns a canceller. */
  defer?: (work: () => void, ms: number) => () => void
  now?: () => number
  /** Body bytes kept per request; beyond it the rest is dropped, and that is said. */
  maxBytesPerRequest?: number
  /** Above this many frames, selecting a frame does not rewind the reply by itself. */
  autoScrubMaxFrames?: number
  /** Merging work per batch when a large body is merged in slices (ms). */
  sliceBudgetMs?: number
}

export interface PanelStore {
  apply(event: CaptureEvent): void
  /** Applies the pending batch now (the scheduler calls it). */
  flush(): void
  /** Bumped once per batch. */
  readonly version: ReadonlySignal<number>
  /** Every request, in arrival order. */
  readonly requests: ReadonlySignal<RequestRow[]>
  /** The request list after the filter. */
  readonly rows: ReadonlySignal<RequestRow[]>
  readonly filter: Signal<string>
  /** Hide comments, pings and [DONE]. */
  readonly hideDimmed: Signal<boolean>
  readonly preserveLog: Signal<boolean>
  readonly notes: ReadonlySignal<Note[]>
  /** Live capture as the shell reports it (off where the shell has none). */
  readonly live: ReadonlySignal<LiveState>
  readonly selectedId: ReadonlySignal<string | null>
  readonly selectedFrame: ReadonlySignal<number | null>
  readonly selection: ReadonlySignal<SelectionView | null>
  select(id: string | null): void
  /** Selects a frame; `scrub` rewinds the reply to it (default: autoScrub). */
  selectFrame(seq: number | null, options?: { scrub?: boolean }): void
  /** Moves the frame selection over visible frames (arrow keys); Infinity = last. */
  moveFrame(delta: number): void
  moveRequest(delta: number): void
  /** Shows the reply as it stood after frame `seq`; null shows the latest. */
  scrubTo(seq: number | null): void
  /** The frame list rows [from, to) of the selected request (built for these rows only). */
  frameItems(from: number, to: number): FrameItem[]
  /** One frame of the selected request, in full. */
  frame(seq: number): Frame | null
  /** The frame that produced a position of the shown reply. */
  frameAt(field: FieldRef, offset: number): number | null
  /** The ranges a frame contributed, in the shown reply. */
  rangesFor(seq: number): Highlight[]
  force(id: string, force: Force): void
  clear(): void
  dismissNote(index: number): void
  exportSource(id: string): ExportSource | null
  dispose(): void
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
const MAX_NOTES = 50
/** A chunk longer than this (characters or bytes) is merged in slices across batches. */
const LARGE_CHUNK = 1024 * 1024
/** Characters (or bytes) per push when merging in slices. */
const SLICE = 256 * 1024
/** Merging work per batch (ms) while a large body is merged in slices (twice that when it is complete). */
const SLICE_BUDGET_MS = 50
/** Provenance cost per frame before one has been measured (ms). */
const COST_PER_FRAME = 0.001
const MIN_COST_PER_FRAME = 0.0002
/** Provenance cheaper than this is rebuilt at once (ms)... */
const CHEAP_MS = 12
/** ...or this while the stream grows: a batch per animation frame must stay short. */
const LIVE_CHEAP_MS = 2
/** While a stream grows, provenance is rebuilt at most every max(this, 8 × its cost) ms. */
const LIVE_INTERVAL_MS = 100
/** A complete long stream: provenance right after the first paint. */
const AFTER_PAINT_MS = 30
/** A snapshot cheaper than this (ms) is taken on every batch; a dearer one... */
const SNAPSHOT_CHEAP_MS = 4
/** ...at most every this many times its cost while the stream grows... */
const SNAPSHOT_RATIO = 5
/** ...or this often (ms) while a large body is merged in slices (its progress is shown meanwhile). */
const SNAPSHOT_LOADING_MS = 1000
/** Frames classified (dimmed or not) at once when hiding pings; more go in slices. */
const FLAG_SYNC = 1000
const FLAG_BUDGET_MS = 8
/** Frame rows kept built (the rows in view, and some around). */
const ROW_CACHE = 2000

type Op = { data: Uint8Array | string; t: number | null; at: number } | 'end'

interface Index {
  merger: Merger
  /** entry.rev it was read at, frames it covers, and whether the body had ended. */
  rev: number
  frames: number
  ended: boolean
  provenance: ProvenanceIndex
}

interface Facts {
  rev: number
  entries: FrameEntry[]
  streamErrors: StreamError[]
  streamErrorByFrame: Map<number, string>
  diagnostics: Diagnostic[]
}

/** What a row needs beyond frameInfo: read from the frame itself, for rows in view only. */
interface Described {
  label: string
  summary: string
  broken: BrokenInfo | null
  dimmed: boolean
  contributed: number
}

interface Entry {
  request: CapturedRequest
  chunks: Array<{ data: Uint8Array | string; t: number | null }>
  merger: Merger
  forced: Force
  state: RequestState
  /** finished / cancelled arrived (applied once the backlog is merged). */
  closing: { type: 'finished' | 'cancelled'; t: number | null; reason: string | null } | null
  cancelReason: string | null
  bytes: number
  firstT: number | null
  lastT: number | null
  endT: number | null
  truncated: boolean
  final: Reply | null
  /** Bumped on every change of this request. */
  rev: number
  /** Received, not merged yet: a large chunk (and what followed it), merged in slices. */
  backlog: Op[]
  backlogTotal: number
  backlogDone: number
  /** The latest snapshot: when it was taken (clock) and what it cost. */
  latest: { rev: number; reply: Reply; merger: Merger; at: number } | null
  snapshotCost: number
  snapshotTimer: (() => void) | null
  row: { rev: number; row: RequestRow } | null
  facts: Facts | null
  index: Index | null
  indexAt: number
  costPerFrame: number
  indexTimer: (() => void) | null
  replyAt: Map<number, Reply>
  items: { key: string; items: Int32Array } | null
  /** Per frame: bit 0 dimmed ([DONE], keep-alive), bit 1 broken; valid for frames < flagged. */
  flags: Uint8Array
  flagged: number
  flagTimer: (() => void) | null
  /** Rows built for the frame list, valid for one merger and one provenance index. */
  described: { merger: Merger; index: Index | null; map: Map<number, Described> } | null
  /** How the provider was chosen, read from the first frames (cached once settled). */
}

function defaultSchedule(flush: () => void): void {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number }
  if (typeof g.requestAnimationFrame === 'function') g.requestAnimationFrame(flush)
  else setTimeout(flush, 16)
}

function defaultDefer(work: () => void, ms: number): () => void {
  const timer = setTimeout(work, ms)
  return () => clearTimeout(timer)
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now())

const lengthOf = (d: Uint8Array | string): number => (typeof d === 'string' ? d.length : d.byteLength)

export function createPanelStore(shell?: Pick<PanelShell, 'kind' | 'live'> | null, options: StoreOptions = {}): PanelStore {
  const schedule = options.schedule ?? defaultSchedule
  const defer = options.defer ?? defaultDefer
  const clock = options.now ?? now
  const maxBytes = options.maxBytesPerRequest ?? DEFAULT_MAX_BYTES
  const autoScrubMax = options.autoScrubMaxFrames ?? 5000
  const sliceBudget = options.sliceBudgetMs ?? SLICE_BUDGET_MS

  const entries = new Map<string, Entry>()
  /** Entries with a backlog to merge. */
  const busy = new Set<Entry>()
  let order: string[] = []
  let dirty = false
  let scheduled = false
  let disposed = false

  const version = signal(0)
  const filter = signal('')
  const hideDimmed = signal(false)
  const preserveLog = signal(false)
  const notes = signal<Note[]>([])
  const live = signal<LiveState>({ enabled: initialLive(shell), message: null })
  const selectedId = signal<string | null>(null)
  const selectedFrame = signal<number | null>(null)
  const scrub = signal<number | null>(null)
  /** Bumped by UI actions that change derived caches outside signals (force). */
  const local = signal(0)

  function markDirty(): void {
    dirty = true
    if (scheduled || disposed) return
    scheduled = true
    schedule(flush)
  }

  function flush(): void {
    scheduled = false
    if (disposed) return
    if (busy.size > 0) {
      // one slice first, so the first rows and the reply paint at once; then a body known to be
      // complete (its end queued behind it) takes longer turns: fewer repaints on the way
      const started = [...busy].every((b) => b.backlogDone > 0)
      const complete = [...busy].every((b) => b.closing !== null)
      drain(clock() + (!started ? 0 : complete ? sliceBudget * 2 : sliceBudget))
      // the rest next batch: the list and the reply repaint in between
      if (busy.size > 0) {
        scheduled = true
        schedule(flush)
      }
    }
    if (!dirty) return
    dirty = false
    version.value++
  }

  function touch(e: Entry): void {
    e.rev++
    markDirty()
  }

  function addNote(level: Note['level'], message: string): void {
    const list = [...notes.value, { level, message }]
    notes.value = list.length > MAX_NOTES ? list.slice(-MAX_NOTES) : list
  }

  function mergeOptions(request: CapturedRequest, forced: Force): MergeOptions {
    const o: MergeOptions = { url: request.url }
    if (request.contentType) o.contentType = request.contentType
    if (forced.provider) o.provider = forced.provider
    if (forced.transport) o.transport = forced.transport
    return o
  }

  function newEntry(request: CapturedRequest): Entry {
    return {
      request, chunks: [], merger: createMerger(mergeOptions(request, {})), forced: {}, state: 'live', closing: null,
      cancelReason: null, bytes: 0, firstT: null, lastT: null, endT: null, truncated: false, final: null, rev: 0,
      backlog: [], backlogTotal: 0, backlogDone: 0, latest: null, snapshotCost: 0, snapshotTimer: null, row: null, facts: null,
      index: null, indexAt: -Infinity, costPerFrame: COST_PER_FRAME, indexTimer: null, replyAt: new Map(), items: null,
      flags: new Uint8Array(64), flagged: 0, flagTimer: null, described: null,
    }
  }

  function forget(e: Entry): void {
    e.indexTimer?.()
    e.indexTimer = null
    e.snapshotTimer?.()
    e.snapshotTimer = null
    e.flagTimer?.()
    e.flagTimer = null
    busy.delete(e)
  }

  // ---------------------------------------------------------------- merging

  function endMerger(e: Entry): void {
    try {
      e.final = e.merger.end()
    } catch (err) {
      addNote('warning', `request ${e.request.id}: ${String(err)}`)
    }
  }

  function push(e: Entry, data: Uint8Array | string, t: number | null): void {
    try {
      if (t === null) e.merger.push(data)
      else e.merger.push(data, t)
    } catch (err) {
      addNote('warning', `request ${e.request.id}: ${String(err)}`)
    }
  }

  /** Keeps a chunk (for exports and re-merging); false when it went over the cap. */
  function keep(e: Entry, data: Uint8Array | string, t: number | null): boolean {
    if (e.truncated) return false
    const size = typeof data === 'string' ? utf8Length(data) : data.byteLength
    if (e.bytes + size > maxBytes) {
      e.truncated = true
      addNote('warning', `${urlPath(e.request.url)}: the body went over ${Math.round(maxBytes / 1048576)} MB; the rest was not kept`)
      return false
    }
    e.bytes += size
    e.chunks.push({ data, t })
    if (t !== null) {
      e.firstT ??= t
      e.lastT = t
    }
    return true
  }

  function enqueue(e: Entry, op: Op): void {
    e.backlog.push(op)
    if (op !== 'end') e.backlogTotal += lengthOf(op.data)
    busy.add(e)
  }

  function close(e: Entry): void {
    const c = e.closing!
    e.state = c.type
    if (c.type === 'cancelled') e.cancelReason = c.reason
    e.endT = c.t ?? e.lastT
    endMerger(e)
  }

  /** Merges backlogs until `deadline` (clock), slice by slice. */
  function drain(deadline: number): void {
    let first = true
    for (const e of busy) {
      while (e.backlog.length > 0) {
        const op = e.backlog[0]!
        // at least one slice per batch, however short the budget (the end costs nothing)
        if (op !== 'end') {
          if (!first && clock() >= deadline) return
          first = false
        }
        e.rev++
        dirty = true
        if (op === 'end') {
          e.backlog.shift()
          if (e.state === 'live') close(e)
          else endMerger(e) // merged again after force()
          continue
        }
        const length = lengthOf(op.data)
        const end = Math.min(length, op.at + SLICE)
        const piece = op.at === 0 && end === length
          ? op.data
          : typeof op.data === 'string' ? op.data.slice(op.at, end) : op.data.subarray(op.at, end)
        push(e, piece, op.t)
        e.backlogDone += end - op.at
        op.at = end
        if (end === length) e.backlog.shift()
      }
      busy.delete(e)
      e.backlogTotal = 0
      e.backlogDone = 0
    }
  }

  /** Merges what an entry still holds, now (before an export). */
  function settle(e: Entry): void {
    if (!busy.has(e)) return
    const others = [...busy].filter((b) => b !== e)
    busy.clear()
    busy.add(e)
    drain(Infinity)
    for (const b of others) busy.add(b)
  }

  function apply(event: CaptureEvent): void {
    if (disposed) return
    switch (event.type) {
      case 'request': {
        const existing = entries.get(event.request.id)
        if (existing) {
          existing.request = { ...existing.request, ...event.request }
          touch(existing)
          return
        }
        const e = newEntry(event.request)
        entries.set(event.request.id, e)
        order = [...order, event.request.id]
        touch(e)
        return
      }
      case 'chunk': {
        const e = entries.get(event.id)
        if (!e || e.state !== 'live' || e.closing) return
        if (keep(e, event.data, event.t)) {
          // a large chunk (a whole body from the HAR path) is merged in slices, and what follows waits for it
          if (e.backlog.length === 0 && lengthOf(event.data) <= LARGE_CHUNK) push(e, event.data, event.t)
          else enqueue(e, { data: event.data, t: event.t, at: 0 })
        }
        touch(e)
        return
      }
      case 'finished':
      case 'cancelled': {
        const e = entries.get(event.id)
        if (!e || e.state !== 'live' || e.closing) return
        if (event.type === 'finished' && event.status !== undefined) e.request = { ...e.request, status: event.status }
        e.closing = { type: event.type, t: event.t ?? null, reason: event.type === 'cancelled' ? event.reason ?? null : null }
        if (e.backlog.length === 0) close(e)
        else enqueue(e, 'end')
        touch(e)
        return
      }
      case 'navigated':
        if (!preserveLog.value) clear()
        return
      case 'note':
        addNote(event.level, event.message)
        return
      case 'live':
        live.value = { enabled: event.enabled, message: event.message ?? null }
        return
      case 'select':
        if (entries.has(event.id)) select(event.id)
        return
      case 'removed': {
        const e = entries.get(event.id)
        if (!e) return
        forget(e)
        entries.delete(event.id)
        order = order.filter((id) => id !== event.id)
        if (selectedId.value === event.id) select(null)
        markDirty()
        return
      }
    }
  }

  // ---------------------------------------------------------------- derived, per request

  /**
   * The reply as it stands. A snapshot costs the core time per tool call and per character
   * (arguments parsed, text joined): while a stream grows, a dear one is taken again at most
   * every SNAPSHOT_RATIO times its cost, and the one before is shown meanwhile.
   */
  function latestReply(e: Entry): Reply {
    if (e.final) return e.final
    const cur = e.latest && e.latest.merger === e.merger ? e.latest : null
    if (cur && cur.rev === e.rev) return cur.reply
    if (cur && cur.reply.frameCount > 0 && (e.snapshotCost > SNAPSHOT_CHEAP_MS || busy.has(e))) {
      const every = Math.max(e.snapshotCost * SNAPSHOT_RATIO, busy.has(e) ? SNAPSHOT_LOADING_MS : 0)
      const wait = every - (clock() - cur.at)
      if (wait > 0) {
        // and a batch then, even if nothing else arrives by that time
        e.snapshotTimer ??= defer(() => { e.snapshotTimer = null; markDirty() }, wait)
        return cur.reply
      }
    }
    return takeSnapshot(e)
  }

  function takeSnapshot(e: Entry): Reply {
    if (e.final) return e.final
    const started = clock()
    const reply = e.merger.snapshot()
    const at = clock()
    e.snapshotCost = at - started
    e.latest = { rev: e.rev, reply, merger: e.merger, at }
    return reply
  }

  /** The reply as it stands now, whatever it costs (exports). */
  function freshReply(e: Entry): Reply {
    if (e.final) return e.final
    const cur = e.latest && e.latest.merger === e.merger ? e.latest : null
    return cur && cur.rev === e.rev ? cur.reply : takeSnapshot(e)
  }

  function replyAfter(e: Entry, seq: number): Reply {
    const count = e.merger.frameCount
    if (count === 0) return latestReply(e)
    if (seq >= count - 1 && e.final) return e.final
    const key = Math.min(seq, count - 1)
    let reply = e.replyAt.get(key)
    if (!reply) {
      // the core continues its last replay when moving forward: stepping through frames is cheap
      reply = e.merger.replyAt(key)
      if (e.replyAt.size >= 16) e.replyAt.delete(e.replyAt.keys().next().value!)
      e.replyAt.set(key, reply)
    }
    return reply
  }

  /** Entries, stream errors and diagnostics: the core keeps them as it goes, reading them is cheap. */
  function factsOf(e: Entry): Facts {
    if (e.facts && e.facts.rev === e.rev) return e.facts
    const streamErrors = e.merger.streamErrors()
    const streamErrorByFrame = new Map<number, string>()
    for (const s of streamErrors) if (!streamErrorByFrame.has(s.frame)) streamErrorByFrame.set(s.frame, s.message)
    e.facts = { rev: e.rev, entries: e.merger.entries(), streamErrors, streamErrorByFrame, diagnostics: e.merger.diagnostics() }
    return e.facts
  }

  function rowOf(e: Entry): RequestRow {
    if (e.row && e.row.rev === e.rev) return e.row.row
    const reply = latestReply(e)
    const frames = e.merger.frameCount
    const start = e.request.startedAt
    const end = e.endT ?? (e.state === 'live' ? e.lastT : null)
    const known = frames > 0 || e.forced.provider !== undefined
    const row: RequestRow = {
      id: e.request.id,
      method: e.request.method,
      url: e.request.url,
      path: urlPath(e.request.url),
      host: urlHost(e.request.url),
      status: e.request.status,
      provider: known ? reply.provider : null,
      transport: reply.transport === 'unknown' && frames === 0 && e.state === 'live' ? null : reply.transport,
      frames,
      broken: reply.errors.length,
      streamErrors: factsOf(e).streamErrors.length,
      bytes: e.bytes,
      duration: end !== null && Number.isFinite(start) ? Math.max(0, end - start) : null,
      state: e.state,
      cancelReason: e.cancelReason,
      source: e.request.source,
      done: reply.done,
      truncated: e.truncated,
      forced: e.forced,
    }
    e.row = { rev: e.rev, row }
    return row
  }

  /** How the core chose the provider (forced, frames, URL, Content-Type, default): the merger says. */
  function providerReasonOf(e: Entry): ProviderReason | null {
    if (e.forced.provider) return 'forced'
    if (e.merger.frameCount === 0) return null
    return e.merger.providerChoice().reason
  }

  // ---------------------------------------------------------------- provenance

  function currentIndex(e: Entry): Index | null {
    return e.index && e.index.merger === e.merger ? e.index : null
  }

  function isFresh(e: Entry, index: Index | null): index is Index {
    if (!index) return false
    if (index.rev === e.rev) return true
    // nothing that provenance depends on changed (bytes of a frame not complete yet)
    if (index.frames === e.merger.frameCount && index.ended === (e.final !== null)) {
      index.rev = e.rev
      return true
    }
    return false
  }

  function buildIndex(e: Entry): Index {
    e.indexTimer?.()
    e.indexTimer = null
    const started = clock()
    const frames = e.merger.frameCount
    const index: Index = { merger: e.merger, rev: e.rev, frames, ended: e.final !== null, provenance: new ProvenanceIndex(e.merger.provenance()) }
    const spent = clock() - started
    e.indexAt = clock()
    if (frames > 0) e.costPerFrame = Math.max(spent / frames, MIN_COST_PER_FRAME)
    e.index = index
    return index
  }

  /** The provenance index now if it is cheap, else the one there is (stale or null) and a rebuild later. */
  function indexOf(e: Entry): Index | null {
    const cur = currentIndex(e)
    if (isFresh(e, cur)) return cur
    const estimate = e.merger.frameCount * e.costPerFrame
    const growing = e.state === 'live' || busy.has(e)
    if (estimate <= (growing ? LIVE_CHEAP_MS : CHEAP_MS)) return buildIndex(e)
    scheduleIndex(e)
    return cur
  }

  /** Fresh now, whatever it costs: a click on the reply needs it. */
  function ensureIndex(e: Entry): Index {
    const cur = currentIndex(e)
    return isFresh(e, cur) ? cur : buildIndex(e)
  }

  function scheduleIndex(e: Entry): void {
    if (e.indexTimer) return
    const estimate = e.merger.frameCount * e.costPerFrame
    const wait = busy.has(e)
      ? LIVE_INTERVAL_MS
      : e.state === 'live'
        ? Math.max(0, Math.max(LIVE_INTERVAL_MS, estimate * 8) - (clock() - e.indexAt))
        : AFTER_PAINT_MS
    e.indexTimer = defer(() => {
      e.indexTimer = null
      if (disposed || entries.get(e.request.id) !== e) return
      if (busy.has(e)) { scheduleIndex(e); return } // a large body is still being merged: after it
      if (isFresh(e, currentIndex(e))) return
      buildIndex(e)
      markDirty()
    }, wait)
  }

  // ---------------------------------------------------------------- the frame list

  function classify(m: Merger, seq: number): number {
    const info = m.frameInfo(seq)
    if (info.kind === 'done') return 1
    if (info.kind === 'invalid') return 2
    if (isKeepaliveEvent(info.event)) return 1
    // a JSON {"type":"ping"}: only the frame's data says
    return isKeepalive(m.frame(seq)) ? 1 : 0
  }

  function growFlags(e: Entry, n: number): void {
    if (e.flags.length >= n) return
    let size = e.flags.length
    while (size < n) size *= 2
    const flags = new Uint8Array(size)
    flags.set(e.flags.subarray(0, e.flagged))
    e.flags = flags
  }

  /** Classifies frames up to `until` (clock) or the last one. */
  function flagFrames(e: Entry, until: number): void {
    const n = e.merger.frameCount
    growFlags(e, n)
    let i = e.flagged
    while (i < n) {
      e.flags[i] = classify(e.merger, i)
      i++
      if ((i & 255) === 0 && clock() > until) break
    }
    e.flagged = i
  }

  /** Classifies frames (dimmed or not) in slices, for hiding pings in a long stream. */
  function flagLater(e: Entry): void {
    if (e.flagTimer) return
    e.flagTimer = defer(() => {
      e.flagTimer = null
      if (disposed || entries.get(e.request.id) !== e) return
      flagFrames(e, clock() + FLAG_BUDGET_MS)
      markDirty()
      if (e.flagged < e.merger.frameCount) flagLater(e)
    }, 0)
  }

  function itemsOf(e: Entry, list: readonly FrameEntry[], hide: boolean): Int32Array {
    const n = e.merger.frameCount
    if (hide && e.flagged < n) {
      if (n - e.flagged <= FLAG_SYNC) flagFrames(e, Infinity)
      else flagLater(e)
    }
    const key = `${n}:${list.length}:${hide}:${hide ? e.flagged : 0}`
    if (e.items && e.items.key === key) return e.items.items
    const flags = e.flags
    const flagged = e.flagged
    const out = new Int32Array(n + (hide ? 0 : list.length))
    let k = 0
    let j = 0
    for (let seq = 0; seq < n; seq++) {
      while (j < list.length && list[j]!.beforeFrame <= seq) {
        if (!hide) out[k++] = -(j + 1)
        j++
      }
      if (hide && seq < flagged && (flags[seq]! & 1) !== 0) continue
      out[k++] = seq
    }
    while (j < list.length) {
      if (!hide) out[k++] = -(j + 1)
      j++
    }
    const items = k === out.length ? out : out.slice(0, k)
    e.items = { key, items }
    return items
  }

  /** The part of a row read from the frame itself (its data re-parsed): rows in view only, cached. */
  function describe(e: Entry, seq: number, latest: Reply): Described {
    const index = currentIndex(e)
    let cache = e.described
    if (!cache || cache.merger !== e.merger || cache.index !== index || cache.map.size > ROW_CACHE) {
      cache = e.described = { merger: e.merger, index, map: new Map() }
    }
    const hit = cache.map.get(seq)
    if (hit) return hit
    const f = e.merger.frame(seq)
    // frames past the index or the reply shown (a growing stream between rebuilds) are
    // described by their JSON until the next one, and not kept
    const known = index !== null && seq < index.frames && seq < latest.frameCount
    const contributed = known ? index.provenance.forFrame(seq) : []
    const d: Described = {
      label: f.event ?? labelOf(f),
      summary: summarizeFrame(f, contributed, latest),
      broken: f.kind === 'invalid' && f.error
        ? { message: f.error.message, line: f.line, position: f.error.position, offset: f.start }
        : null,
      dimmed: f.kind === 'done' || isKeepalive(f),
      contributed: contributed.reduce((n, p) => n + (p.end - p.start), 0),
    }
    if (known || e.final !== null) cache.map.set(seq, d)
    return d
  }

  // ---------------------------------------------------------------- tool-call positions

  /** Position of a tool call of reply `from` in reply `to` (same wire index and id). */
  function mapToolCall(from: Reply, to: Reply, choice: number, pos: number): number | null {
    if (from === to) return pos
    const call = from.choices.find((c) => c.index === choice)?.toolCalls[pos]
    if (!call) return null
    const calls = to.choices.find((c) => c.index === choice)?.toolCalls ?? []
    const i = calls.findIndex((c) => c.index === call.index && c.id === call.id)
    return i < 0 ? null : i
  }

  function toShown(ranges: readonly Provenance[], latest: Reply, shown: Reply): Highlight[] {
    const out: Highlight[] = []
    for (const r of ranges) {
      let toolCall: number | null = null
      if (r.channel === 'arguments') {
        if (r.toolCall === null) continue
        toolCall = mapToolCall(latest, shown, r.choice, r.toolCall)
        if (toolCall === null) continue
      }
      out.push({ field: { choice: r.choice, channel: r.channel, toolCall }, start: r.start, end: r.end })
    }
    return out
  }

  // ---------------------------------------------------------------- signals

  const requests = computed<RequestRow[]>(() => {
    version.value
    local.value
    return order.map((id) => rowOf(entries.get(id)!))
  })

  const rows = computed<RequestRow[]>(() => {
    const all = requests.value
    const terms = filter.value.toLowerCase().split(/\s+/).filter((t) => t.length > 0)
    if (terms.length === 0) return all
    return all.filter((r) => {
      const hay = `${r.method} ${r.url} ${r.status ?? ''} ${r.provider ?? ''} ${r.transport ?? ''} ${r.state} ${r.source}`.toLowerCase()
      return terms.every((t) => (t.startsWith('-') && t.length > 1 ? !hay.includes(t.slice(1)) : hay.includes(t)))
    })
  })

  const selection = computed<SelectionView | null>(() => {
    version.value
    local.value
    const id = selectedId.value
    const e = id === null ? undefined : entries.get(id)
    if (!e) return null
    const frameCount = e.merger.frameCount
    const autoScrub = frameCount <= autoScrubMax
    const latest = latestReply(e)
    const at = scrub.value
    const scrubbed = at !== null && at < frameCount ? at : null
    const reply = scrubbed === null ? latest : replyAfter(e, scrubbed)
    const facts = factsOf(e)
    const index = indexOf(e)
    const items = itemsOf(e, facts.entries, hideDimmed.value)
    const frame = selectedFrame.value !== null && selectedFrame.value < frameCount ? selectedFrame.value : null
    const frameIndex = frame === null ? -1 : items.indexOf(frame)
    const highlight = frame === null || !index ? [] : toShown(index.provenance.forFrame(frame), latest, reply)
    const upTo = (f: number | null) => scrubbed === null || (f !== null && f <= scrubbed)
    return {
      id: e.request.id,
      request: e.request,
      row: rowOf(e),
      reply,
      latest,
      scrub: scrubbed,
      frameCount,
      items,
      frame,
      frameIndex,
      highlight,
      streamErrors: facts.streamErrors.filter((s) => upTo(s.frame)),
      diagnostics: facts.diagnostics.filter((d) => upTo(d.frame)),
      providerReason: providerReasonOf(e),
      index: isFresh(e, index) ? 'ready' : 'pending',
      loading: busy.has(e) ? { done: e.backlogDone, total: e.backlogTotal } : null,
      autoScrub,
    }
  })

  // ---------------------------------------------------------------- actions

  function select(id: string | null): void {
    if (id !== null && !entries.has(id)) return
    if (id === selectedId.value) return
    batch(() => {
      selectedId.value = id
      selectedFrame.value = null
      scrub.value = null
    })
  }

  function selectFrame(seq: number | null, opts: { scrub?: boolean } = {}): void {
    const e = selectedId.value === null ? undefined : entries.get(selectedId.value)
    if (!e) return
    if (seq !== null && (seq < 0 || seq >= e.merger.frameCount)) return
    const rewind = opts.scrub ?? e.merger.frameCount <= autoScrubMax
    batch(() => {
      selectedFrame.value = seq
      if (rewind) scrub.value = seq
    })
  }

  function moveFrame(delta: number): void {
    const view = selection.peek()
    if (!view) return
    const items = view.items
    if (items.length === 0) return
    let i = view.frameIndex
    if (i < 0) {
      // nothing selected (or it is hidden): start from an end
      i = delta >= 0 ? -1 : items.length
      if (view.frame !== null) {
        // the selected frame is hidden: start from its place
        let k = 0
        while (k < items.length && (items[k]! < 0 || items[k]! < view.frame)) k++
        i = delta >= 0 ? k - 1 : k
      }
    }
    const step = delta >= 0 ? 1 : -1
    let target = -1
    if (!Number.isFinite(delta)) {
      // Home / End: the first or last frame, without walking 100,000 rows
      for (let k = step > 0 ? items.length - 1 : 0; k >= 0 && k < items.length; k -= step) {
        if (items[k]! >= 0) { target = k; break }
      }
      if (target === i) return
    } else {
      let remaining = Math.abs(delta)
      let k = i
      while (remaining > 0) {
        k += step
        if (k < 0 || k >= items.length) break
        if (items[k]! >= 0) {
          target = k
          remaining--
        }
      }
    }
    if (target < 0) return
    selectFrame(items[target]!)
  }

  function moveRequest(delta: number): void {
    const list = rows.peek()
    if (list.length === 0) return
    const i = list.findIndex((r) => r.id === selectedId.peek())
    const j = i < 0 ? (delta >= 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, i + delta))
    select(list[j]!.id)
  }

  function scrubTo(seq: number | null): void {
    scrub.value = seq
  }

  function selected(): Entry | undefined {
    const id = selectedId.peek()
    return id === null ? undefined : entries.get(id)
  }

  function frameItems(from: number, to: number): FrameItem[] {
    const view = selection.peek()
    const e = selected()
    if (!view || !e) return []
    const facts = factsOf(e)
    const out: FrameItem[] = []
    const start = e.request.startedAt
    for (let i = Math.max(0, from); i < Math.min(to, view.items.length); i++) {
      const code = view.items[i]!
      if (code < 0) {
        const entry = facts.entries[-code - 1]
        if (!entry) continue
        out.push({
          type: 'entry', index: -code - 1, kind: entry.kind, raw: entry.raw, line: entry.line,
          beforeFrame: entry.beforeFrame, size: utf8Length(entry.raw), dimmed: true,
        })
        continue
      }
      // position, kind, event and time from the frame table; the rest from the frame, for this row only
      const info = e.merger.frameInfo(code)
      const d = describe(e, code, view.latest)
      out.push({
        type: 'frame',
        seq: code,
        kind: info.kind,
        event: info.event,
        label: d.label,
        time: info.time,
        sinceStart: info.time !== null && Number.isFinite(start) ? info.time - start : null,
        size: info.byteEnd - info.byteStart,
        summary: d.summary,
        broken: d.broken,
        dimmed: d.dimmed,
        unterminated: info.unterminated,
        streamError: facts.streamErrorByFrame.get(code) ?? null,
        contributed: d.contributed,
      })
    }
    return out
  }

  function frame(seq: number): Frame | null {
    const e = selected()
    if (!e || seq < 0 || seq >= e.merger.frameCount) return null
    return e.merger.frame(seq)
  }

  function frameAt(field: FieldRef, offset: number): number | null {
    const view = selection.peek()
    const e = selected()
    if (!view || !e) return null
    let ref = field
    if (field.channel === 'arguments' && field.toolCall !== null) {
      const pos = mapToolCall(view.reply, view.latest, field.choice, field.toolCall)
      if (pos === null) return null
      ref = { ...field, toolCall: pos }
    }
    return ensureIndex(e).provenance.frameAt(ref, offset)
  }

  function rangesFor(seq: number): Highlight[] {
    const view = selection.peek()
    const e = selected()
    if (!view || !e) return []
    return toShown(ensureIndex(e).provenance.forFrame(seq), view.latest, view.reply)
  }

  function force(id: string, forced: Force): void {
    const e = entries.get(id)
    if (!e) return
    forget(e)
    e.forced = {}
    if (forced.provider) e.forced.provider = forced.provider
    if (forced.transport) e.forced.transport = forced.transport
    e.merger = createMerger(mergeOptions(e.request, e.forced))
    e.final = null
    e.latest = null
    e.snapshotCost = 0
    e.facts = null
    e.index = null
    e.items = null
    e.described = null
    e.flagged = 0
    e.replyAt.clear()
    // merge the kept chunks again: at once when small, else in slices like a large body
    e.backlog = []
    e.backlogTotal = 0
    e.backlogDone = 0
    const total = e.chunks.reduce((n, c) => n + lengthOf(c.data), 0)
    if (total <= LARGE_CHUNK) {
      for (const c of e.chunks) push(e, c.data, c.t)
      if (e.state !== 'live') endMerger(e)
      else if (e.closing) close(e)
    } else {
      for (const c of e.chunks) enqueue(e, { data: c.data, t: c.t, at: 0 })
      if (e.state !== 'live' || e.closing) enqueue(e, 'end')
    }
    touch(e)
    batch(() => {
      if (selectedId.peek() === id) {
        selectedFrame.value = null
        scrub.value = null
      }
      local.value++
    })
  }

  function clear(): void {
    for (const e of entries.values()) forget(e)
    entries.clear()
    order = []
    batch(() => {
      selectedId.value = null
      selectedFrame.value = null
      scrub.value = null
      local.value++
    })
    markDirty()
  }

  function dismissNote(index: number): void {
    notes.value = notes.value.filter((_, i) => i !== index)
  }

  function exportSource(id: string): ExportSource | null {
    const e = entries.get(id)
    if (!e) return null
    settle(e)
    const expected = freshReply(e)
    const merger = e.merger
    const source: ExportSource = {
      request: e.request,
      chunks: e.chunks,
      expected,
      state: e.state,
      transport: expected.transport,
      truncated: e.truncated,
      frames: () => merger.frames(),
    }
    if (e.forced.provider || e.forced.transport) source.forced = { ...e.forced }
    return source
  }

  function dispose(): void {
    disposed = true
    for (const e of entries.values()) forget(e)
  }

  return {
    apply, flush, version, requests, rows, filter, hideDimmed, preserveLog, notes, live,
    selectedId, selectedFrame, selection,
    select, selectFrame, moveFrame, moveRequest, scrubTo, frameItems, frame, frameAt, rangesFor,
    force, clear, dismissNote, exportSource, dispose,
  }
}

function initialLive(shell: Pick<PanelShell, 'kind' | 'live'> | null | undefined): boolean {
  try {
    return shell?.live?.enabled?.() ?? false
  } catch {
    return false
  }
}

/** The frame's own name when the SSE event line gives none: its JSON `type`. */
function labelOf(f: Frame): string {
  const json = f.json
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const t = (json as Record<string, unknown>)['type']
    if (typeof t === 'string') return t
  }
  return ''
}
