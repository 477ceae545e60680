// When to build one request's provenance index (frame ↔ reply text, panel/provenance.ts).
// Reading the core's provenance is the one read that costs time per frame, so it is never
// done on every batch of a long stream: it is built at once when the estimate (frames × the
// cost per frame last measured) is cheap; otherwise the index there is stays (stale, or none,
// and the view says 'pending') and a rebuild is deferred: while the stream grows, at most
// every max(100 ms, 8 × its cost); a complete stream, after the update that shows it; a
// large body being merged in slices, after its last slice and that update. A click on the
// reply cannot wait: `ensure` builds it whatever it costs.

import { ProvenanceIndex } from '../provenance.js'
import { timed, waitToRerun } from './clock.js'
import { DeferredRun } from './deferred-run.js'
import type { ModelState, RequestCache, StoreEnv } from './types.js'

/** Cost per frame before one has been measured (ms). */
const COST_PER_FRAME = 0.001
const MIN_COST_PER_FRAME = 0.0002
/** An index cheaper than this is rebuilt at once (ms)... */
const CHEAP_MS = 12
/** ...or this while the stream grows: a batch per animation frame must stay short. */
const LIVE_CHEAP_MS = 2
/** While a stream grows, the index is rebuilt at most every max(this, LIVE_RATIO × its cost) ms. */
const LIVE_INTERVAL_MS = 100
const LIVE_RATIO = 8
/**
 * A complete long stream: the index after the update that shows it (the worker's host waits up
 * to 50 ms between updates: an index built first delayed a 64 MB file's reply by its 55 ms).
 */
const AFTER_UPDATE_MS = 100

/** A provenance index and what it covers. */
export interface Index {
  merger: ModelState['merger']
  /** model.rev it was read at (moved on while nothing it depends on changes). */
  rev: number
  /** Frames it covers, and whether the body had ended. */
  frames: number
  ended: boolean
  provenance: ProvenanceIndex
}

export class ProvenanceSchedule implements RequestCache {
  private index: Index | null = null
  /** When the last index was built (clock), and what it cost per frame: kept across restarts. */
  private builtAt = -Infinity
  private costPerFrame = COST_PER_FRAME
  private readonly run: DeferredRun

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {
    this.run = new DeferredRun(model, env)
  }

  /** The index built from the current merger, fresh or not. */
  current(): Index | null {
    return this.index && this.index.merger === this.model.merger ? this.index : null
  }

  isFresh(index: Index | null): index is Index {
    if (!index) return false
    const m = this.model
    if (index.rev === m.rev) return true
    // nothing that provenance depends on changed (bytes of a frame not complete yet)
    if (index.frames === m.merger.frameCount && index.ended === (m.final !== null)) {
      index.rev = m.rev
      return true
    }
    return false
  }

  /** The index now if it is cheap, else the one there is (stale or null) and a rebuild later. */
  get(): Index | null {
    const cur = this.current()
    if (this.isFresh(cur)) return cur
    const m = this.model
    const growing = m.state === 'live' || this.env.merging(m)
    if (this.estimate() <= (growing ? LIVE_CHEAP_MS : CHEAP_MS)) return this.build()
    this.schedule()
    return cur
  }

  /** Fresh now, whatever it costs: a click on the reply needs it. */
  ensure(): Index {
    const cur = this.current()
    return this.isFresh(cur) ? cur : this.build()
  }

  forget(): void {
    this.run.forget()
  }

  /** A new merger: the index goes; what it cost stays, as the estimate for the next one. */
  reset(): void {
    this.forget()
    this.index = null
  }

  private estimate(): number {
    return this.model.merger.frameCount * this.costPerFrame
  }

  private build(): Index {
    this.forget()
    const m = this.model
    const frames = m.merger.frameCount
    const { value: provenance, spent, at } = timed(() => this.env.now(), () => new ProvenanceIndex((visit) => m.merger.eachProvenance(visit)))
    this.builtAt = at
    if (frames > 0) this.costPerFrame = Math.max(spent / frames, MIN_COST_PER_FRAME)
    this.index = { merger: m.merger, rev: m.rev, frames, ended: m.final !== null, provenance }
    return this.index
  }

  private schedule(): void {
    if (this.run.waiting) return
    const m = this.model
    const merging = this.env.merging(m)
    const wait = merging
      ? LIVE_INTERVAL_MS
      : m.state === 'live'
        ? Math.max(0, waitToRerun(this.env.now(), this.builtAt, this.estimate(), LIVE_RATIO, LIVE_INTERVAL_MS))
        : AFTER_UPDATE_MS
    this.run.schedule(() => {
      // asked while a large body was being merged: after its end, and after the update that shows it
      if (merging) { this.schedule(); return }
      if (this.isFresh(this.current())) return
      this.build()
      this.env.changed()
    }, wait)
  }
}
