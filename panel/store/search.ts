// Search inside the frames of one request ("Search frames"): plain text, case-insensitive, or
// /regex/flags. A frame matches when its data or its SSE event name does (what Chrome's
// EventStream filter reads; the `data:` prefixes of the raw block would match every frame).
//
// Matching means building each frame from the body (merger.frame: its text, and its JSON
// parsed), so a long stream is searched in slices of SLICE_MS, a batch after each, and the
// list narrows as the matches come; a short remainder (SYNC_FRAMES) is searched at once. The
// scan is kept per request and query: frames that arrive later (a live stream) are searched
// when they arrive, and only they.

import type { Provenance } from '../../src/library.js'
import type { ProvenanceIndex } from '../provenance.js'
import { DeferredRun } from './deferred-run.js'
import type { Highlight, ModelState, RequestCache, StoreEnv } from './types.js'

/** Frames searched at once; more go in slices... */
const SYNC_FRAMES = 1500
/** ...of this much work each (ms): the page answers between them. */
const SLICE_MS = 12
/** The clock is read once per this many frames (reading it costs as much as a small frame). */
const CLOCK_EVERY = 32

/** A query as typed, read. */
export type ParsedQuery =
  | { kind: 'none' }
  | { kind: 'text' | 'regex'; key: string; re: RegExp }
  | { kind: 'invalid'; message: string }

/**
 * Reads a query: `/…/flags` is a regular expression (g and y are ignored: test() would keep
 * state between frames); anything else, "/v1/chat" included, is plain text, case-insensitive.
 */
export function parseQuery(query: string): ParsedQuery {
  if (query === '') return { kind: 'none' }
  const regex = /^\/(.+)\/([dgimsuvy]*)$/s.exec(query)
  if (!regex) {
    const escaped = query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return { kind: 'text', key: `t:${query.toLowerCase()}`, re: new RegExp(escaped, 'i') }
  }
  const [, source, given] = regex as unknown as [string, string, string]
  // g and y make test() stateful (lastIndex): a frame would match every other time
  const flags = [...new Set(given.replace(/[gy]/g, ''))].join('')
  try {
    return { kind: 'regex', key: `r:${flags}:${source}`, re: new RegExp(source, flags) }
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err)
    return { kind: 'invalid', message: `Invalid regular expression: ${why}` }
  }
}

/** What a search found so far in one request. */
export interface ScanResult {
  /** Matching frame seqs, ascending, in [0, count). */
  seqs: Int32Array
  count: number
  /** Frames searched so far, and frames there are. */
  scanned: number
  total: number
}

interface Scan extends ScanResult {
  merger: ModelState['merger']
  key: string
  re: RegExp
  /** Where the last frame searched ended: a last frame that grew since is searched again. */
  lastEnd: number
  /** Highlights built from the first `upTo` matches (by field, in order), and what they were built from. */
  found: { index: ProvenanceIndex; from: unknown; to: unknown; upTo: number; lists: Map<string, Highlight[]>; ranges: Highlight[] } | null
}

/** The search of one request (kept on its model; a new merger starts it over). */
export class FrameScan implements RequestCache {
  private scan: Scan | null = null
  private readonly deferred: DeferredRun

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {
    this.deferred = new DeferredRun(model, env)
  }

  /** The matches of `query` so far: searched now when few frames are left, else in slices from now on. */
  result(query: Extract<ParsedQuery, { re: RegExp }>): ScanResult {
    const m = this.model
    let s = this.scan
    if (!s || s.merger !== m.merger || s.key !== query.key) {
      this.forget()
      s = this.scan = { merger: m.merger, key: query.key, re: query.re, seqs: new Int32Array(64), count: 0, scanned: 0, total: 0, lastEnd: -1, found: null }
    }
    const n = m.merger.frameCount
    s.total = n
    // a last frame that grew since it was searched (an unterminated one) is searched again
    if (s.scanned > 0 && s.scanned <= n && m.merger.frameInfo(s.scanned - 1).byteEnd !== s.lastEnd) {
      s.scanned--
      if (s.count > 0 && s.seqs[s.count - 1] === s.scanned) s.count--
    }
    if (s.scanned < n) {
      if (n - s.scanned <= SYNC_FRAMES) this.run(s, Infinity)
      else this.later()
    }
    return s
  }

  /**
   * The reply text the matching frames produced, as highlights in the reply shown, adjacent
   * runs joined (a search that matches 100,000 frames marks a few ranges, not 100,000). Built
   * as the matches come: each batch adds the runs of the frames matched since the last one
   * (their text comes after what is there, so they extend or follow the last range of their
   * field); anything else (a new index, another reply shown) builds it again.
   */
  found(index: ProvenanceIndex, frames: number, toShown: (ranges: readonly Provenance[]) => Highlight[], from: unknown, to: unknown): Highlight[] {
    const s = this.scan
    if (!s) return []
    let f = s.found
    if (!f || f.index !== index || f.from !== from || f.to !== to || f.upTo > s.count) {
      f = s.found = { index, from, to, upTo: 0, lists: new Map(), ranges: [] }
    }
    if (f.upTo === s.count) return f.ranges
    const records: Provenance[] = []
    let i = f.upTo
    for (; i < s.count; i++) {
      const seq = s.seqs[i]!
      if (seq >= frames) break // past what the index covers (a growing stream between rebuilds)
      for (const r of index.forFrame(seq)) records.push(r)
    }
    f.upTo = i
    let ordered = true
    for (const h of toShown(records)) {
      const key = `${h.field.choice}:${h.field.channel}:${h.field.toolCall ?? ''}`
      let list = f.lists.get(key)
      if (!list) f.lists.set(key, (list = []))
      const last = list[list.length - 1]
      if (last && h.start < last.start) { ordered = false; break }
      if (last && h.start <= last.end) last.end = Math.max(last.end, h.end)
      else list.push({ field: h.field, start: h.start, end: h.end })
    }
    if (!ordered) {
      // a run before the last one of its field (not seen in practice): all of it again, sorted
      const all: Highlight[] = []
      for (let k = 0; k < f.upTo; k++) {
        const seq = s.seqs[k]!
        if (seq >= frames) break
        all.push(...toShown(index.forFrame(seq)))
      }
      f.lists = new Map()
      for (const h of join(all)) {
        const key = `${h.field.choice}:${h.field.channel}:${h.field.toolCall ?? ''}`
        let list = f.lists.get(key)
        if (!list) f.lists.set(key, (list = []))
        list.push(h)
      }
    }
    // a new array each time: the view changed
    f.ranges = ([] as Highlight[]).concat(...f.lists.values())
    return f.ranges
  }

  forget(): void {
    this.deferred.forget()
  }

  /** A new merger: searched again from the first frame. */
  reset(): void {
    this.forget()
    this.scan = null
  }

  /** Searches frames until `until` (clock) or the last one. */
  private run(s: Scan, until: number): void {
    const { merger } = this.model
    const n = merger.frameCount
    let i = s.scanned
    while (i < n) {
      const f = merger.frame(i)
      if (s.re.test(f.data) || (f.event !== null && s.re.test(f.event))) {
        if (s.count === s.seqs.length) {
          const grown = new Int32Array(s.seqs.length * 2)
          grown.set(s.seqs)
          s.seqs = grown
        }
        s.seqs[s.count++] = i
      }
      s.lastEnd = f.byteEnd
      i++
      if (i % CLOCK_EVERY === 0 && this.env.now() > until) break
    }
    s.scanned = i
    s.total = n
  }

  private later(): void {
    this.deferred.schedule(() => {
      const s = this.scan
      if (!s || s.merger !== this.model.merger) return
      this.run(s, this.env.now() + SLICE_MS)
      this.env.changed()
      if (s.scanned < this.model.merger.frameCount) this.later()
    }, 0)
  }
}

/** Highlights of the same field that touch or overlap, joined; in field order, then position. */
function join(ranges: Highlight[]): Highlight[] {
  const byField = new Map<string, Highlight[]>()
  for (const r of ranges) {
    const key = `${r.field.choice}:${r.field.channel}:${r.field.toolCall ?? ''}`
    let list = byField.get(key)
    if (!list) byField.set(key, (list = []))
    list.push(r)
  }
  const out: Highlight[] = []
  for (const list of byField.values()) {
    list.sort((a, b) => a.start - b.start)
    let cur: Highlight | null = null
    for (const r of list) {
      if (cur && r.start <= cur.end) {
        if (r.end > cur.end) cur.end = r.end
        continue
      }
      cur = { field: r.field, start: r.start, end: r.end }
      out.push(cur)
    }
  }
  return out
}

/** Index in `items` (ascending frame seqs) of the next match after `from` (or before it, delta < 0), wrapping around; -1 when none. */
export function stepIndex(items: Int32Array, from: number | null, delta: number): number {
  if (items.length === 0) return -1
  if (from === null) return delta >= 0 ? 0 : items.length - 1
  // first item > from (delta > 0), or last item < from (delta < 0)
  let lo = 0
  let hi = items.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (items[mid]! <= from) lo = mid + 1
    else hi = mid
  }
  if (delta >= 0) return lo < items.length ? lo : 0
  let k = lo - 1
  if (k >= 0 && items[k] === from) k--
  return k >= 0 ? k : items.length - 1
}
