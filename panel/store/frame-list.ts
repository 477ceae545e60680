// The frame list of one request. The list itself is an Int32Array of frame seqs and entries
// (comments, event-only blocks) in body order, rebuilt only when its length or the filter
// changes (hiding pings: frame-flags.ts); rows are built only for the rows in view, from the
// core's frame table and one re-read frame each, and cached.

import { utf8Length, type Frame, type FrameEntry, type Merger, type Reply } from '../../src/library.js'
import { isKeepalive, summarizeFrame } from '../summary.js'
import { FrameFlags } from './frame-flags.js'
import type { DebugCache } from './debug.js'
import type { Index, ProvenanceSchedule } from './provenance-schedule.js'
import type { ReplyCache } from './replies.js'
import type { BrokenInfo, FrameItem, ModelState, RequestCache, StoreEnv } from './types.js'

/** What the frame list reads of its model: its state and its sibling caches. */
export interface FrameListModel extends ModelState {
  readonly replies: ReplyCache
  readonly provenance: ProvenanceSchedule
  readonly debug: DebugCache
}

/** Frame rows kept built (the rows in view, and some around). */
const ROW_CACHE = 2000

/** What a row needs beyond frameInfo: read from the frame itself, for rows in view only. */
interface Described {
  label: string
  summary: string
  broken: BrokenInfo | null
  dimmed: boolean
  contributed: number
}

export class FrameList implements RequestCache {
  private readonly flags: FrameFlags
  private cached: { key: string; items: Int32Array } | null = null
  /**
   * The whole list (nothing hidden) as it grows: frames and entries only ever come after the
   * ones before, so each batch of a growing stream appends to it (a buffer grown by doubling)
   * instead of building the list again: 248,000 frames read over 100 batches wrote 12 million
   * entries before.
   */
  private grown: { buffer: Int32Array; length: number; frames: number; entries: number } | null = null
  private matched: { seqs: Int32Array; count: number; hide: boolean; flagged: number; items: Int32Array } | null = null
  /** Rows built, valid for one merger and one provenance index. */
  private described: { merger: Merger; index: Index | null; map: Map<number, Described> } | null = null

  constructor(private readonly model: FrameListModel, env: StoreEnv) {
    this.flags = new FrameFlags(model, env)
  }

  /** Frame seqs (>= 0) and entries (-(index + 1)) in body order; without dimmed ones when `hide`. */
  items(entries: readonly FrameEntry[], hide: boolean): Int32Array {
    const n = this.model.merger.frameCount
    if (hide) this.flags.update()
    const { flags, count: flagged } = this.flags
    const key = `${n}:${entries.length}:${hide}:${hide ? flagged : 0}`
    if (this.cached && this.cached.key === key) return this.cached.items
    if (!hide) {
      const items = this.grow(n, entries)
      this.cached = { key, items }
      return items
    }
    // hiding: the list is built again (a frame classified later can hide one listed before)
    const out = new Int32Array(n)
    let k = 0
    for (let seq = 0; seq < n; seq++) {
      if (seq < flagged && (flags[seq]! & 1) !== 0) continue
      out[k++] = seq
    }
    const items = k === out.length ? out : out.slice(0, k)
    this.cached = { key, items }
    return items
  }

  /** The whole list, the frames and entries that came since the last call appended in body order. */
  private grow(n: number, entries: readonly FrameEntry[]): Int32Array {
    let g = this.grown
    if (!g || g.frames > n || g.entries > entries.length) g = this.grown = { buffer: new Int32Array(Math.max(64, n + entries.length)), length: 0, frames: 0, entries: 0 }
    const total = n + entries.length
    if (total > g.buffer.length) {
      const buffer = new Int32Array(Math.max(total, g.buffer.length * 2))
      buffer.set(g.buffer.subarray(0, g.length))
      g.buffer = buffer
    }
    const out = g.buffer
    let k = g.length
    let j = g.entries
    for (let seq = g.frames; seq < n; seq++) {
      while (j < entries.length && entries[j]!.beforeFrame <= seq) out[k++] = -(j++ + 1)
      out[k++] = seq
    }
    while (j < entries.length) out[k++] = -(j++ + 1)
    Object.assign(g, { length: k, frames: n, entries: entries.length })
    return out.subarray(0, k)
  }

  /** The frames a search matched (ascending seqs, `count` of them): the list while searching; without dimmed ones when `hide`. */
  matching(seqs: Int32Array, count: number, hide: boolean): Int32Array {
    if (hide) this.flags.update()
    const { flags, count: flagged } = this.flags
    const m = this.matched
    if (m && m.seqs === seqs && m.count === count && m.hide === hide && m.flagged === flagged) return m.items
    let items = seqs.subarray(0, count)
    if (hide) items = items.filter((seq) => !(seq < flagged && (flags[seq]! & 1) !== 0))
    this.matched = { seqs, count, hide, flagged, items }
    return items
  }

  /** The rows [from, to) of `items`; `latest` is the reply the summaries quote. */
  rows(items: Int32Array, from: number, to: number, latest: Reply): FrameItem[] {
    const m = this.model
    const facts = m.replies.facts()
    const marks = m.debug.get().marks
    const out: FrameItem[] = []
    const start = m.request.startedAt
    const partial = m.partialFrame()
    for (let i = Math.max(0, from); i < Math.min(to, items.length); i++) {
      const code = items[i]!
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
      const info = m.merger.frameInfo(code)
      const d = this.describe(code, latest)
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
        broken: code === partial ? null : d.broken,
        dimmed: d.dimmed,
        unterminated: info.unterminated,
        incomplete: code === partial,
        streamError: facts.streamErrorByFrame.get(code) ?? null,
        contributed: d.contributed,
        problem: marks.get(code) ?? null,
      })
    }
    return out
  }

  forget(): void {
    this.flags.forget()
  }

  /** A new merger: its frames are classified and described again. */
  reset(): void {
    this.flags.reset()
    this.cached = null
    this.grown = null
    this.matched = null
    this.described = null
  }

  /** The part of a row read from the frame itself (its data re-parsed): rows in view only, cached. */
  private describe(seq: number, latest: Reply): Described {
    const m = this.model
    const index = m.provenance.current()
    let cache = this.described
    if (!cache || cache.merger !== m.merger || cache.index !== index || cache.map.size > ROW_CACHE) {
      cache = this.described = { merger: m.merger, index, map: new Map() }
    }
    const hit = cache.map.get(seq)
    if (hit) return hit
    const f = m.merger.frame(seq)
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
    if (known || m.final !== null) cache.map.set(seq, d)
    return d
  }
}

/** The frame's own name when the SSE event line gives none: its JSON `type` (not `object`: a Chat Completions chunk's is the same on every frame). */
function labelOf(f: Frame): string {
  const json = f.json
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const t = (json as Record<string, unknown>)['type']
    if (typeof t === 'string') return t
  }
  return ''
}
