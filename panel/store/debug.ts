// The debugger's reading of one request: the diagnostics that name a client bug (the merger's
// own, plus the ones that need the frames' text, the network reads and their times), and the
// timing figures. Both read every frame once, so they are computed once the body has ended
// (and again only if the request is read again with a provider forced); while it streams, the
// merger's own diagnostics, which cost nothing, are shown. For a long body the reading runs
// in a task of its own after the final reply is shown (the reply does not wait for it), the
// merger's diagnostics standing meanwhile.

import type { Diagnostic } from '../../src/library.js'
import { diagnoseMerger, frameTimes } from '../../src/debug/diagnose.js'
import { timingOfMerger, type Timing } from '../../src/debug/timing.js'
import { DeferredRun } from './deferred-run.js'
import type { ModelState, RequestCache, StoreEnv } from './types.js'

/** Bodies of more frames than this are read by the debugger in a task after the final reply is shown. */
const DEFER_FRAMES = 20_000

/** The worst level of the diagnostics on each frame, for the marks in the frame list. */
export type FrameMarks = Map<number, { level: Diagnostic['level']; message: string }>

const RANK = { info: 0, warning: 1, error: 2 } as const

export interface Debugged {
  diagnostics: Diagnostic[]
  marks: FrameMarks
  timing: Timing | null
  /** Each frame's time (ms since the request started), null where unknown: the gap chart reads it. */
  times: Array<number | null> | null
}

export class DebugCache implements RequestCache {
  private done: { merger: unknown; value: Debugged } | null = null
  private live: { rev: number; value: Debugged } | null = null
  /** The deferred reading of a long body. */
  private readonly pending: DeferredRun

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {
    this.pending = new DeferredRun(model, env)
  }

  get(): Debugged {
    const m = this.model
    if (this.done && this.done.merger === m.merger && m.final !== null) return this.done.value
    if (m.final !== null && m.merger.frameCount > DEFER_FRAMES) {
      const merger = m.merger
      this.pending.schedule(() => {
        if (m.merger !== merger) return
        this.read()
        this.env.changed()
      }, 0)
    } else if (m.final !== null) {
      return this.read()
    }
    if (this.live && this.live.rev === m.rev) return this.live.value
    const diagnostics = m.merger.diagnostics()
    this.live = { rev: m.rev, value: { diagnostics, marks: marksOf(diagnostics), timing: null, times: null } }
    return this.live.value
  }

  /** The debugger's reading of the ended body (every frame, the reads, their times). */
  private read(): Debugged {
    const m = this.model
    const start = m.request.startedAt
    // a file's slices are not reads (and a file read back is not held whole): none are read
    const chunks = m.fileSlices ? [] : m.chunks()
    const diagnostics = diagnoseMerger(m.merger, chunks, { startedAt: Number.isFinite(start) ? start : null, networkReads: !m.fileSlices, lineEndings: m.lineEndings })
    const timing = timingOfMerger(m.merger, chunks, start)
    const times = timing.timesUnknown ? null : frameTimes(m.merger).map((t) => (t === null ? null : t - start))
    this.done = { merger: m.merger, value: { diagnostics, marks: marksOf(diagnostics), timing, times } }
    return this.done.value
  }

  reset(): void {
    this.forget()
    this.done = null
    this.live = null
  }

  /** Cancels a deferred reading (the model is dropped, or restarted). */
  forget(): void {
    this.pending.forget()
  }
}

function marksOf(diagnostics: readonly Diagnostic[]): FrameMarks {
  const marks: FrameMarks = new Map()
  for (const d of diagnostics) {
    if (d.frame === null) continue
    const had = marks.get(d.frame)
    if (!had || RANK[d.level] > RANK[had.level]) marks.set(d.frame, { level: d.level, message: `${d.code}: ${d.message}` })
  }
  return marks
}
