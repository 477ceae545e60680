// The panel's state, without a DOM: one typed `apply(event)` for everything the shell
// reports, one core Merger per request (the panel runs the core, never a second parser),
// and signals the components render. Updates are batched: `apply` only marks what changed,
// and an injected scheduler (requestAnimationFrame in a browser) bumps `version` once per
// batch. Captured data is untrusted: it is only ever handled as data.

import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import {
  createMerger, type Diagnostic, type Frame, type FrameEntry, type FrameKind, type Inspection, type Merger,
  type MergeOptions, type ProviderId, type Provenance, type Reply, type StreamError, type Transport,
} from '../src/core/index.js'
import { utf8Length } from '../src/core/utf8.js'
import { urlHost, urlPath } from './format.js'
import { ProvenanceIndex, type FieldRef } from './provenance.js'
import type { CaptureEvent, CapturedRequest, PanelShell } from './shell.js'
import { isKeepalive, summarizeFrame } from './summary.js'

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
  providerReason: Inspection['providerReason'] | null
  /**
   * Entries (comments), provenance, stream errors and diagnostics: 'ready'; 'pending' (being
   * computed soon); 'manual' (a very long stream: computed only when asked, with index()).
   */
  index: 'ready' | 'pending' | 'manual'
  /** Estimated time index() takes (ms). */
  indexCost: number
  /** Selecting a frame also rewinds the reply (off for very long streams, where it is slow). */
  autoScrub: boolean
}

/** Everything the exporters need for one request (structurally src/exchange's ExportInput, and more). */
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
  /** Runs heavy work later (indexing large streams); setTimeout by default. Returns a canceller. */
  defer?: (work: () => void, ms: number) => () => void
  now?: () => number
  /** Body bytes kept per request; beyond it the rest is dropped, and that is said. */
  maxBytesPerRequest?: number
  /** Above this many frames, selecting a frame does not rewind the reply by itself. */
  autoScrubMaxFrames?: number
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
  /** The frame list rows [from, to) of the selected request. */
  frameItems(from: number, to: number): FrameItem[]
  /** One frame of the selected request, in full. */
  frame(seq: number): Frame | null
  /** The frame that produced a position of the shown reply. */
  frameAt(field: FieldRef, offset: number): number | null
  /** The ranges a frame contributed, in the shown reply. */
  rangesFor(seq: number): Highlight[]
  force(id: string, force: Force): void
  /** Computes entries, provenance, stream errors and diagnostics of a request now (and from then on). */
  index(id: string): void
  clear(): void
  dismissNote(index: number): void
  exportSource(id: string): ExportSource | null
  dispose(): void
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
const MAX_NOTES = 50
/** Estimated indexing cost per frame before one has been measured (ms). */
const COST_PER_FRAME = 0.01
/** Indexing cheaper than this runs at once. */
const CHEAP_MS = 12
/** While a stream grows, indexing dearer than this waits for its end. */
const LIVE_MAX_MS = 60
/** Indexing dearer than this (a 20 MB paste: seconds) runs only when the user asks: it blocks. */
const AUTO_MAX_MS = 250
/** Frames classified (dimmed or not) per slice when hiding pings in a stream not indexed. */
const FLAG_BUDGET_MS = 8

interface Insight {
  rev: number
  frameCount: number
  entries: FrameEntry[]
  provenance: ProvenanceIndex
  streamErrors: StreamError[]
  streamErrorByFrame: Map<number, string>
  diagnostics: Diagnostic[]
  providerReason: Inspection['providerReason']
}

interface Entry {
  request: CapturedRequest
  chunks: Array<{ data: Uint8Array | string; t: number | null }>
  merger: Merger
  forced: Force
  state: RequestState
  cancelReason: string | null
  bytes: number
  firstT: number | null
  lastT: number | null
  endT: number | null
  truncated: boolean
  final: Reply | null
  /** Bumped on every change of this request. */
  rev: number
  latest: { rev: number; reply: Reply } | null
  row: { rev: number; row: RequestRow } | null
  insight: Insight | null
  insightAt: number
  costPerFrame: number
  insightTimer: (() => void) | null
  replyAt: Map<number, Reply>
  items: { key: string; items: Int32Array } | null
  /** The user asked for the index of this (long) stream. */
  indexRequested: boolean
  /** Per frame: bit 0 dimmed ([DONE], keep-alive), bit 1 broken; valid for frames < flagged. */
  flags: Uint8Array
  flagged: number
  flagTimer: (() => void) | null
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

export function createPanelStore(shell?: Pick<PanelShell, 'kind'> | null, options: StoreOptions = {}): PanelStore {
  void shell
  const schedule = options.schedule ?? defaultSchedule
  const defer = options.defer ?? defaultDefer
  const clock = options.now ?? now
  const maxBytes = options.maxBytesPerRequest ?? DEFAULT_MAX_BYTES
  const autoScrubMax = options.autoScrubMaxFrames ?? 5000

  const entries = new Map<string, Entry>()
  let order: string[] = []
  let dirty = false
  let scheduled = false
  let disposed = false

  const version = signal(0)
  const filter = signal('')
  const hideDimmed = signal(false)
  const preserveLog = signal(false)
  const notes = signal<Note[]>([])
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
    if (!dirty || disposed) return
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
      request, chunks: [], merger: createMerger(mergeOptions(request, {})), forced: {}, state: 'live', cancelReason: null,
      bytes: 0, firstT: null, lastT: null, endT: null, truncated: false, final: null, rev: 0,
      latest: null, row: null, insight: null, insightAt: -Infinity, costPerFrame: COST_PER_FRAME, insightTimer: null,
      replyAt: new Map(), items: null, indexRequested: false, flags: new Uint8Array(64), flagged: 0, flagTimer: null,
    }
  }

  function endMerger(e: Entry): void {
    try {
      e.final = e.merger.end()
    } catch (err) {
      addNote('warning', `request ${e.request.id}: ${String(err)}`)
    }
  }

  function pushChunk(e: Entry, data: Uint8Array | string, t: number | null): void {
    const size = typeof data === 'string' ? utf8Length(data) : data.byteLength
    if (e.truncated) return
    if (e.bytes + size > maxBytes) {
      e.truncated = true
      addNote('warning', `${urlPath(e.request.url)}: the body went over ${Math.round(maxBytes / 1048576)} MB; the rest was not kept`)
      return
    }
    e.bytes += size
    e.chunks.push({ data, t })
    if (t !== null) {
      e.firstT ??= t
      e.lastT = t
    }
    if (t === null) e.merger.push(data)
    else e.merger.push(data, t)
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
        if (!e || e.state !== 'live') return
        try {
          pushChunk(e, event.data, event.t)
        } catch (err) {
          addNote('warning', `request ${event.id}: ${String(err)}`)
        }
        touch(e)
        return
      }
      case 'finished':
      case 'cancelled': {
        const e = entries.get(event.id)
        if (!e || e.state !== 'live') return
        e.state = event.type === 'finished' ? 'finished' : 'cancelled'
        if (event.type === 'finished' && event.status !== undefined) e.request = { ...e.request, status: event.status }
        if (event.type === 'cancelled') e.cancelReason = event.reason ?? null
        e.endT = event.t ?? e.lastT
        endMerger(e)
        touch(e)
        return
      }
      case 'navigated':
        if (!preserveLog.value) clear()
        return
      case 'note':
        addNote(event.level, event.message)
        return
      case 'select':
        if (entries.has(event.id)) select(event.id)
        return
      case 'removed': {
        const e = entries.get(event.id)
        if (!e) return
        e.insightTimer?.()
        e.flagTimer?.()
        entries.delete(event.id)
        order = order.filter((id) => id !== event.id)
        if (selectedId.value === event.id) select(null)
        markDirty()
        return
      }
    }
  }

  // ---------------------------------------------------------------- derived, per request

  function latestReply(e: Entry): Reply {
    if (e.final) return e.final
    if (e.latest && e.latest.rev === e.rev) return e.latest.reply
    const reply = e.merger.snapshot()
    e.latest = { rev: e.rev, reply }
    return reply
  }

  function replyAfter(e: Entry, seq: number): Reply {
    const count = e.merger.frameCount
    if (count === 0) return latestReply(e)
    if (seq >= count - 1 && e.final) return e.final
    const key = Math.min(seq, count - 1)
    let reply = e.replyAt.get(key)
    if (!reply) {
      reply = e.merger.replyAt(key)
      if (e.replyAt.size >= 16) e.replyAt.delete(e.replyAt.keys().next().value!)
      e.replyAt.set(key, reply)
    }
    return reply
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
      streamErrors: e.insight?.streamErrors.length ?? 0,
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

  function computeInsight(e: Entry): Insight {
    e.insightTimer?.()
    e.insightTimer = null
    const started = clock()
    const ins = e.merger.inspect()
    growFlags(e, ins.frames.length)
    for (const f of ins.frames) e.flags[f.seq] = flagsOf(f)
    e.flagged = Math.max(e.flagged, ins.frames.length)
    const streamErrorByFrame = new Map<number, string>()
    for (const s of ins.streamErrors) if (!streamErrorByFrame.has(s.frame)) streamErrorByFrame.set(s.frame, s.message)
    const insight: Insight = {
      rev: e.rev,
      frameCount: ins.frames.length,
      entries: ins.entries,
      provenance: new ProvenanceIndex(ins.provenance),
      streamErrors: ins.streamErrors,
      streamErrorByFrame,
      diagnostics: ins.diagnostics,
      providerReason: ins.providerReason,
    }
    const spent = clock() - started
    e.insightAt = clock()
    if (ins.frames.length > 0) e.costPerFrame = Math.max(spent / ins.frames.length, 0.0005)
    e.insight = insight
    e.row = null
    return insight
  }

  function deferInsight(e: Entry, ms: number): void {
    if (e.insightTimer) return
    e.insightTimer = defer(() => {
      e.insightTimer = null
      if (!entries.has(e.request.id) || disposed) return
      if (e.insight && e.insight.rev === e.rev) return
      computeInsight(e)
      markDirty()
    }, ms)
  }

  function estimateOf(e: Entry): number {
    return e.merger.frameCount * e.costPerFrame
  }

  /**
   * Entries, provenance, diagnostics: at once when cheap; later when affordable; for a very
   * long stream only when the user asks (inspect() is one blocking call of the core).
   */
  function insightOf(e: Entry): Insight | null {
    if (e.insight && e.insight.rev === e.rev) return e.insight
    const estimate = estimateOf(e)
    if (estimate <= CHEAP_MS) return computeInsight(e)
    if (estimate > AUTO_MAX_MS && !e.indexRequested) return e.insight
    if (e.state === 'live') {
      if (estimate > LIVE_MAX_MS && !e.indexRequested) return e.insight
      const wait = estimate * 8 - (clock() - e.insightAt)
      if (wait <= 0) return computeInsight(e)
      deferInsight(e, wait)
      return e.insight
    }
    // let the reply and the first rows paint first
    deferInsight(e, 30)
    return e.insight
  }

  function growFlags(e: Entry, n: number): void {
    if (e.flags.length >= n) return
    let size = e.flags.length
    while (size < n) size *= 2
    const flags = new Uint8Array(size)
    flags.set(e.flags.subarray(0, e.flagged))
    e.flags = flags
  }

  /** Classifies frames (dimmed or not) in slices, for hiding pings in a stream not indexed. */
  function flagLater(e: Entry): void {
    if (e.flagTimer) return
    e.flagTimer = defer(() => {
      e.flagTimer = null
      if (!entries.has(e.request.id) || disposed) return
      const n = e.merger.frameCount
      growFlags(e, n)
      const started = clock()
      let i = e.flagged
      while (i < n) {
        e.flags[i] = flagsOf(e.merger.frame(i))
        i++
        if ((i & 255) === 0 && clock() - started > FLAG_BUDGET_MS) break
      }
      e.flagged = i
      markDirty()
      if (i < n) flagLater(e)
    }, 0)
  }

  function itemsOf(e: Entry, insight: Insight | null, hide: boolean): Int32Array {
    const n = e.merger.frameCount
    if (hide && e.flagged < n) {
      if (insight === null || insight.rev !== e.rev) flagLater(e)
    }
    const key = `${n}:${insight?.rev ?? -1}:${hide}:${hide ? e.flagged : 0}`
    if (e.items && e.items.key === key) return e.items.items
    const list = insight?.entries ?? []
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
    const insight = insightOf(e)
    const latest = latestReply(e)
    const at = scrub.value
    const scrubbed = at !== null && at < frameCount ? at : null
    const reply = scrubbed === null ? latest : replyAfter(e, scrubbed)
    const items = itemsOf(e, insight, hideDimmed.value)
    const frame = selectedFrame.value !== null && selectedFrame.value < frameCount ? selectedFrame.value : null
    const frameIndex = frame === null ? -1 : items.indexOf(frame)
    const highlight = frame === null || !insight ? [] : toShown(insight.provenance.forFrame(frame), latest, reply)
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
      streamErrors: (insight?.streamErrors ?? []).filter((s) => upTo(s.frame)),
      diagnostics: (insight?.diagnostics ?? []).filter((d) => upTo(d.frame)),
      providerReason: insight?.providerReason ?? null,
      index: insight !== null && insight.rev === e.rev
        ? 'ready'
        : estimateOf(e) > AUTO_MAX_MS && !e.indexRequested ? 'manual' : 'pending',
      indexCost: estimateOf(e),
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
    let remaining = Math.abs(delta)
    let target = -1
    let k = i
    while (remaining > 0) {
      k += step
      if (k < 0 || k >= items.length) break
      if (items[k]! >= 0) {
        target = k
        remaining--
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
    const insight = e.insight
    const out: FrameItem[] = []
    const start = e.request.startedAt
    for (let i = Math.max(0, from); i < Math.min(to, view.items.length); i++) {
      const code = view.items[i]!
      if (code < 0) {
        const entry = insight?.entries[-code - 1]
        if (!entry) continue
        out.push({
          type: 'entry', index: -code - 1, kind: entry.kind, raw: entry.raw, line: entry.line,
          beforeFrame: entry.beforeFrame, size: utf8Length(entry.raw), dimmed: true,
        })
        continue
      }
      const f = e.merger.frame(code)
      const contributed = insight ? insight.provenance.forFrame(code) : []
      out.push({
        type: 'frame',
        seq: code,
        kind: f.kind,
        event: f.event,
        label: f.event ?? labelOf(f),
        time: f.time,
        sinceStart: f.time !== null && Number.isFinite(start) ? f.time - start : null,
        size: f.byteEnd - f.byteStart,
        summary: summarizeFrame(f, contributed, view.latest),
        broken: f.kind === 'invalid' && f.error
          ? { message: f.error.message, line: f.line, position: f.error.position, offset: f.start }
          : null,
        dimmed: f.kind === 'done' || isKeepalive(f),
        unterminated: f.unterminated,
        streamError: insight?.streamErrorByFrame.get(code) ?? null,
        contributed: contributed.reduce((n, p) => n + (p.end - p.start), 0),
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
    const insight = e.insight
    if (!insight) return null
    let ref = field
    if (field.channel === 'arguments' && field.toolCall !== null) {
      const pos = mapToolCall(view.reply, view.latest, field.choice, field.toolCall)
      if (pos === null) return null
      ref = { ...field, toolCall: pos }
    }
    return insight.provenance.frameAt(ref, offset)
  }

  function rangesFor(seq: number): Highlight[] {
    const view = selection.peek()
    const e = selected()
    if (!view || !e) return []
    const insight = e.insight
    if (!insight) return []
    return toShown(insight.provenance.forFrame(seq), view.latest, view.reply)
  }

  function force(id: string, forced: Force): void {
    const e = entries.get(id)
    if (!e) return
    e.insightTimer?.()
    e.insightTimer = null
    e.forced = {}
    if (forced.provider) e.forced.provider = forced.provider
    if (forced.transport) e.forced.transport = forced.transport
    e.merger = createMerger(mergeOptions(e.request, e.forced))
    e.final = null
    e.latest = null
    e.insight = null
    e.items = null
    e.flagTimer?.()
    e.flagTimer = null
    e.flagged = 0
    e.replyAt.clear()
    try {
      for (const c of e.chunks) {
        if (c.t === null) e.merger.push(c.data)
        else e.merger.push(c.data, c.t)
      }
    } catch (err) {
      addNote('warning', `request ${id}: ${String(err)}`)
    }
    if (e.state !== 'live') endMerger(e)
    touch(e)
    batch(() => {
      if (selectedId.peek() === id) {
        selectedFrame.value = null
        scrub.value = null
      }
      local.value++
    })
  }

  function index(id: string): void {
    const e = entries.get(id)
    if (!e) return
    e.indexRequested = true
    if (!e.insight || e.insight.rev !== e.rev) computeInsight(e)
    batch(() => { local.value++ })
  }

  function clear(): void {
    for (const e of entries.values()) { e.insightTimer?.(); e.flagTimer?.() }
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
    const expected = latestReply(e)
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
    for (const e of entries.values()) { e.insightTimer?.(); e.flagTimer?.() }
  }

  return {
    apply, flush, version, requests, rows, filter, hideDimmed, preserveLog, notes,
    selectedId, selectedFrame, selection,
    select, selectFrame, moveFrame, moveRequest, scrubTo, frameItems, frame, frameAt, rangesFor,
    force, index, clear, dismissNote, exportSource, dispose,
  }
}

function flagsOf(f: Frame): number {
  return (f.kind === 'done' || isKeepalive(f) ? 1 : 0) | (f.kind === 'invalid' ? 2 : 0)
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
