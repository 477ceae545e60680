// The selection: which request, which frame, and which moment of the reply (the scrubber),
// and the one view the components render for it. The view is computed from the request's
// caches; reading it is cheap on every batch because every part it reads is (see request-model.ts).

import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type { Batches } from './batch.js'
import { toShown } from './highlights.js'
import { noteCounts, problemsFirst } from './problem-order.js'
import type { RequestModel } from './request-model.js'
import type { Recorder } from './recorder.js'
import { parseQuery, stepIndex } from './search.js'
import type { Highlight, RequestRow, SearchView, SelectionState } from './types.js'

export class Selection {
  readonly id = signal<string | null>(null)
  readonly frame = signal<number | null>(null)
  /** Reply after frame N; null: the latest. */
  readonly scrub = signal<number | null>(null)
  readonly view: ReadonlySignal<SelectionState | null>

  /**
   * @param hideDimmed hide comments, pings and [DONE] in the frame list
   * @param autoScrubMax above this many frames, selecting a frame does not rewind the reply by itself
   * @param query the frame search (search.ts): the list narrows to the frames it matches
   */
  constructor(
    private readonly recorder: Recorder,
    batches: Batches,
    hideDimmed: Signal<boolean>,
    private readonly autoScrubMax: number,
    private readonly query: Signal<string>,
  ) {
    this.view = computed(() => {
      batches.version.value
      batches.actions.value
      const id = this.id.value
      const m = id === null ? undefined : recorder.models.get(id)
      return m ? this.viewOf(m, hideDimmed.value) : null
    })
  }

  /** The selected request's model. */
  selected(): RequestModel | undefined {
    const id = this.id.peek()
    return id === null ? undefined : this.recorder.models.get(id)
  }

  select(id: string | null): void {
    if (id !== null && !this.recorder.models.has(id)) return
    if (id === this.id.value) return
    batch(() => {
      this.id.value = id
      this.frame.value = null
      this.scrub.value = null
    })
  }

  /** Selects a frame; `scrub` rewinds the reply to it (default: when the stream is short enough). */
  selectFrame(seq: number | null, opts: { scrub?: boolean } = {}): void {
    const m = this.selected()
    if (!m) return
    if (seq !== null && (seq < 0 || seq >= m.merger.frameCount)) return
    const rewind = opts.scrub ?? m.merger.frameCount <= this.autoScrubMax
    batch(() => {
      this.frame.value = seq
      if (rewind) this.scrub.value = seq
    })
  }

  /** Moves the frame selection over visible frames (arrow keys); ±Infinity: the last or first. */
  moveFrame(delta: number): void {
    const view = this.view.peek()
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
    this.selectFrame(items[target]!)
  }

  /** Selects the next frame the search matched (Enter; Shift+Enter: delta -1), wrapping around at the ends. */
  stepMatch(delta: number): void {
    const view = this.view.peek()
    if (!view || !view.search || view.search.error !== null) return
    const k = stepIndex(view.items, view.frame, delta)
    if (k >= 0) this.selectFrame(view.items[k]!)
  }

  /** Moves the request selection over the rows shown. */
  moveRequest(rows: readonly RequestRow[], delta: number): void {
    if (rows.length === 0) return
    const i = rows.findIndex((r) => r.id === this.id.peek())
    const j = i < 0 ? (delta >= 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, i + delta))
    this.select(rows[j]!.id)
  }

  /** Back to no frame and the latest reply: the request's frames were read again (force). */
  restarted(id: string): void {
    if (this.id.peek() !== id) return
    this.frame.value = null
    this.scrub.value = null
  }

  /** Nothing selected (the list was cleared). */
  clear(): void {
    batch(() => {
      this.id.value = null
      this.frame.value = null
      this.scrub.value = null
    })
  }

  private viewOf(m: RequestModel, hide: boolean): SelectionState {
    const frameCount = m.merger.frameCount
    const latest = m.replies.latest()
    const at = this.scrub.value
    const scrubbed = at !== null && at < frameCount ? at : null
    const reply = scrubbed === null ? latest : m.replies.after(scrubbed)
    const facts = m.replies.facts()
    const debugged = m.debug.get()
    const index = m.provenance.get()
    const query = this.query.value
    const parsed = parseQuery(query)
    let items: Int32Array
    let search: SearchView | null = null
    let found: Highlight[] = []
    if (parsed.kind === 'text' || parsed.kind === 'regex') {
      const r = m.search.result(parsed)
      items = m.frameList.matching(r.seqs, r.count, hide)
      search = { query, error: null, count: r.count, total: frameCount, scanned: r.scanned, done: r.scanned >= frameCount }
      if (index) found = m.search.found(index.provenance, index.frames, (ranges) => toShown(ranges, latest, reply), latest, reply)
    } else {
      items = m.frameList.items(facts.entries, hide)
      if (parsed.kind === 'invalid') search = { query, error: parsed.message, count: 0, total: frameCount, scanned: 0, done: true }
    }
    const frame = this.frame.value !== null && this.frame.value < frameCount ? this.frame.value : null
    const frameIndex = frame === null ? -1 : items.indexOf(frame)
    const highlight = frame === null || !index ? [] : toShown(index.provenance.forFrame(frame), latest, reply)
    const upTo = (f: number | null) => scrubbed === null || (f !== null && f <= scrubbed)
    const streamErrors = facts.streamErrors.filter((s) => upTo(s.frame))
    // warnings and errors ahead of the notes: the list crosses to the UI cut to its first entries
    const diagnostics = problemsFirst(debugged.diagnostics.filter((d) => upTo(d.frame)))
    let problems = 0
    for (const d of diagnostics) if (d.level !== 'info') problems++
    return {
      id: m.request.id,
      request: m.request,
      row: m.row(),
      reply,
      latest,
      scrub: scrubbed,
      frameCount,
      items,
      itemCount: items.length,
      frame,
      frameIndex,
      highlight,
      search,
      found,
      streamErrors,
      diagnostics,
      totals: { streamErrors: streamErrors.length, diagnostics: diagnostics.length, problems, errors: reply.errors.length },
      noteCounts: noteCounts(diagnostics),
      timing: debugged.timing,
      frameTimes: debugged.times,
      providerReason: m.providerReason(),
      index: m.provenance.isFresh(index) ? 'ready' : 'pending',
      loading: m.reading !== null
        ? { done: m.bytes - (m.backlog.total - m.backlog.done), total: m.reading.total }
        : this.recorder.merging(m) ? { done: m.backlog.done, total: m.backlog.total } : null,
      autoScrub: frameCount <= this.autoScrubMax,
    }
  }
}
