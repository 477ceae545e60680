// Provenance both ways, from the core's records (Inspection.provenance):
//   frame → the ranges it contributed to reply fields,
//   a position in a reply field → the frame that produced it.
// Records are integers only; lookups are binary searches, so a 100,000-frame stream costs
// nothing per click.

import type { Channel, Provenance } from '../src/core/index.js'

/** One text field of the reply: a channel of a choice, or the arguments of one tool call. */
export interface FieldRef {
  choice: number
  channel: Channel | 'arguments'
  /** Position of the call in choice.toolCalls, for 'arguments'; null otherwise. */
  toolCall: number | null
}

export function fieldKey(f: FieldRef): string {
  return `${f.choice}:${f.channel}:${f.toolCall ?? ''}`
}

interface FieldRuns {
  starts: number[]
  ends: number[]
  frames: number[]
}

export class ProvenanceIndex {
  private readonly byFrame = new Map<number, Provenance[]>()
  private readonly byField = new Map<string, FieldRuns>()
  readonly size: number

  constructor(records: readonly Provenance[]) {
    this.size = records.length
    for (const r of records) {
      let list = this.byFrame.get(r.frame)
      if (!list) this.byFrame.set(r.frame, (list = []))
      list.push(r)
      const key = fieldKey(r)
      let runs = this.byField.get(key)
      if (!runs) this.byField.set(key, (runs = { starts: [], ends: [], frames: [] }))
      runs.starts.push(r.start)
      runs.ends.push(r.end)
      runs.frames.push(r.frame)
    }
    // appends only ever grow a field, so starts are already ascending; keep it true if not
    for (const runs of this.byField.values()) {
      if (!isAscending(runs.starts)) sortRuns(runs)
    }
  }

  /** The ranges frame `seq` contributed, in the order they were appended. */
  forFrame(seq: number): readonly Provenance[] {
    return this.byFrame.get(seq) ?? []
  }

  /**
   * The frame that produced the character at `offset` of a field. An offset equal to the
   * field's length (a click after the last character) maps to the last run.
   */
  frameAt(field: FieldRef, offset: number): number | null {
    const runs = this.byField.get(fieldKey(field))
    if (!runs || runs.starts.length === 0) return null
    // last run whose start <= offset
    let lo = 0
    let hi = runs.starts.length - 1
    if (offset < runs.starts[0]!) return null
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (runs.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    const end = runs.ends[lo]!
    if (offset < end) return runs.frames[lo]!
    if (offset === end && lo === runs.starts.length - 1) return runs.frames[lo]!
    return null
  }
}

function isAscending(a: number[]): boolean {
  for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false
  return true
}

function sortRuns(runs: FieldRuns): void {
  const order = runs.starts.map((_, i) => i).sort((a, b) => runs.starts[a]! - runs.starts[b]!)
  runs.starts = order.map((i) => runs.starts[i]!)
  runs.ends = order.map((i) => runs.ends[i]!)
  runs.frames = order.map((i) => runs.frames[i]!)
}
