// Which frames of one request are dimmed ([DONE], pings, keep-alives), for hiding them in the
// frame list. Telling a JSON {"type":"ping"} from a data frame means reading the frame, so
// a long stream is classified in slices of FLAG_BUDGET_MS, a batch after each, and the list
// hides what is classified so far; a short remainder (FLAG_SYNC frames) is done at once.

import type { Merger } from '../../src/library.js'
import { isKeepalive, isKeepaliveEvent } from '../summary.js'
import { DeferredRun } from './deferred-run.js'
import type { ModelState, StoreEnv } from './types.js'

/** Frames classified at once; more go in slices... */
const FLAG_SYNC = 1000
/** ...of this much work each (ms). */
const FLAG_BUDGET_MS = 8

export class FrameFlags {
  /** Per frame: bit 0 dimmed, bit 1 broken; valid for frames < count. */
  flags = new Uint8Array(64)
  /** Frames classified so far. */
  count = 0
  private readonly run: DeferredRun

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {
    this.run = new DeferredRun(model, env)
  }

  /** Classifies the frames not classified yet: now when few, else in slices from now on. */
  update(): void {
    const n = this.model.merger.frameCount
    if (this.count >= n) return
    if (n - this.count <= FLAG_SYNC) this.classify(Infinity)
    else this.later()
  }

  forget(): void {
    this.run.forget()
  }

  /** A new merger: every frame is classified again. */
  reset(): void {
    this.forget()
    this.count = 0
  }

  /** Classifies frames until `until` (clock) or the last one. */
  private classify(until: number): void {
    const { merger } = this.model
    const n = merger.frameCount
    if (this.flags.length < n) {
      let size = this.flags.length
      while (size < n) size *= 2
      const flags = new Uint8Array(size)
      flags.set(this.flags.subarray(0, this.count))
      this.flags = flags
    }
    let i = this.count
    while (i < n) {
      this.flags[i] = classify(merger, i)
      i++
      if ((i & 255) === 0 && this.env.now() > until) break
    }
    this.count = i
  }

  private later(): void {
    this.run.schedule(() => {
      this.classify(this.env.now() + FLAG_BUDGET_MS)
      this.env.changed()
      if (this.count < this.model.merger.frameCount) this.later()
    }, 0)
  }
}

/** 1: dimmed ([DONE], a ping or keep-alive); 2: broken; 0: neither. */
function classify(m: Merger, seq: number): number {
  const info = m.frameInfo(seq)
  if (info.kind === 'done') return 1
  if (info.kind === 'invalid') return 2
  if (isKeepaliveEvent(info.event)) return 1
  // a JSON {"type":"ping"}: only the frame's data says
  return isKeepalive(m.frame(seq)) ? 1 : 0
}
