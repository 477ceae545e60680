// The debugger's reading of one request: the diagnostics that name a client bug (the merger's
// own, plus the ones that need the frames' text, the network reads and their times), and the
// timing figures. Both read every frame once, so they are computed once the body has ended
// (and again only if the request is read again with a provider forced); while it streams, the
// merger's own diagnostics, which cost nothing, are shown.

import type { Diagnostic } from '../../src/library.js'
import { diagnoseMerger, frameTimes } from '../../src/debug/diagnose.js'
import { timingOfMerger, type Timing } from '../../src/debug/timing.js'
import type { RequestModel } from './model.js'

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

export class DebugCache {
  private done: { merger: unknown; value: Debugged } | null = null
  private live: { rev: number; value: Debugged } | null = null

  constructor(private readonly model: RequestModel) {}

  get(): Debugged {
    const m = this.model
    if (m.final === null) {
      if (this.live && this.live.rev === m.rev) return this.live.value
      const diagnostics = m.merger.diagnostics()
      this.live = { rev: m.rev, value: { diagnostics, marks: marksOf(diagnostics), timing: null, times: null } }
      return this.live.value
    }
    if (this.done && this.done.merger === m.merger) return this.done.value
    const start = m.request.startedAt
    const chunks = m.chunks()
    const diagnostics = diagnoseMerger(m.merger, chunks, { startedAt: Number.isFinite(start) ? start : null })
    const timing = timingOfMerger(m.merger, chunks, start)
    const times = timing.timesUnknown ? null : frameTimes(m.merger).map((t) => (t === null ? null : t - start))
    this.done = { merger: m.merger, value: { diagnostics, marks: marksOf(diagnostics), timing, times } }
    return this.done.value
  }

  reset(): void {
    this.done = null
    this.live = null
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
