// Provenance both ways, from the core's records (Merger.provenance()):
//   frame → the ranges it contributed to reply fields,
//   a position in a reply field → the frame that produced it.
// Records are integers only; lookups are binary searches, so a 100,000-frame stream costs
// nothing per click. Building the index is one pass over typed arrays (no object per frame):
// a few milliseconds for 150,000 records.

import type { Channel, Provenance, ProvenanceVisit } from '../src/library.js'
import { recent } from './recent.js'

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

/** The runs of one field, sorted by start: built when a position in that field is asked about. */
interface FieldRuns {
  starts: Int32Array
  ends: Int32Array
  frames: Int32Array
}

/** Fields whose runs are kept once built: a click in a field is often followed by another. */
const RUNS_KEPT = 4

/** choice → its fields' ids (-1: none yet), the arguments by the call's position in choice.toolCalls. */
interface ChoiceFields {
  content: number
  reasoning: number
  refusal: number
  args: number[]
}

export class ProvenanceIndex {
  readonly size: number
  /**
   * The records as columns, not the core's objects (248,000 of them for a 64 MB stream: 12 MB
   * held for as long as the request is): forFrame builds the few it is asked for.
   */
  private readonly frameOf: Int32Array
  private readonly startOf: Int32Array
  private readonly endOf: Int32Array
  /** Each record's field: an index into `fields` (-1: a field no run is kept for, in `odd`). */
  private readonly fieldOf: Int32Array
  private readonly fields: FieldRef[] = []
  private readonly odd = new Map<number, Provenance>()
  /** frameOf ascending (the core appends in frame order); else `byFrame` lists each frame's records. */
  private readonly sorted: boolean
  private readonly byFrame: Map<number, number[]> | null = null
  /** choice → its fields (no string key per record: 100,000 records are built in milliseconds). */
  private readonly byChoice = new Map<number, ChoiceFields>()
  /**
   * The runs of the fields last asked about, most recent last. Built on demand, not for every
   * field at once: a 64 MB stream has 12,000 tool calls, and a set of arrays for each cost
   * 10 MB held for as long as the request is, for the few a user clicks in.
   */
  private readonly runs = new Map<number, FieldRuns>()

  /**
   * From the core's records: as objects (Merger.provenance()), or read through
   * Merger.eachProvenance, which builds none (twice: once to count them).
   */
  constructor(records: readonly Provenance[] | ((visit: ProvenanceVisit) => void)) {
    const each = typeof records === 'function'
      ? records
      : (visit: ProvenanceVisit) => { for (const r of records) visit(r.frame, r.choice, r.channel, r.toolCall, r.start, r.end) }
    let n = 0
    each(() => { n++ })
    this.size = n
    this.frameOf = new Int32Array(n)
    this.startOf = new Int32Array(n)
    this.endOf = new Int32Array(n)
    this.fieldOf = new Int32Array(n)
    let sorted = true
    let i = 0
    each((frame, choice, channel, toolCall, start, end) => {
      if (i >= n) return
      this.frameOf[i] = frame
      this.startOf[i] = start
      this.endOf[i] = end
      if (i > 0 && frame < this.frameOf[i - 1]!) sorted = false
      const field = this.fieldId(choice, channel, toolCall, true)
      this.fieldOf[i] = field
      if (field < 0) this.odd.set(i, { frame, choice, channel, toolCall, start, end })
      i++
    })
    this.sorted = sorted
    if (!sorted) {
      const byFrame = new Map<number, number[]>()
      for (let k = 0; k < n; k++) {
        let list = byFrame.get(this.frameOf[k]!)
        if (!list) byFrame.set(this.frameOf[k]!, (list = []))
        list.push(k)
      }
      this.byFrame = byFrame
    }
  }

  /** Record `i` as the core gave it. */
  private record(i: number): Provenance {
    const f = this.fieldOf[i]!
    if (f < 0) return this.odd.get(i)!
    const { choice, channel, toolCall } = this.fields[f]!
    return { frame: this.frameOf[i]!, choice, channel, toolCall, start: this.startOf[i]!, end: this.endOf[i]! }
  }

  /** The field's id, -1 for a field no id is kept for (a call with no position); made when `create`. */
  private fieldId(choice: number, channel: FieldRef['channel'], toolCall: number | null, create: boolean): number {
    let c = this.byChoice.get(choice)
    if (!c) {
      if (!create) return -1
      this.byChoice.set(choice, (c = { content: -1, reasoning: -1, refusal: -1, args: [] }))
    }
    if (channel === 'arguments') {
      if (toolCall === null || toolCall < 0) return -1
      const known = c.args[toolCall]
      if (known !== undefined || !create) return known ?? -1
      return (c.args[toolCall] = this.fields.push({ choice, channel, toolCall }) - 1)
    }
    if (c[channel] >= 0 || !create) return c[channel]
    return (c[channel] = this.fields.push({ choice, channel, toolCall: null }) - 1)
  }

  /** The runs of field `id`, sorted by start (appends only ever grow a field: already sorted but for a rewrite). */
  private runsOf(id: number): FieldRuns {
    return recent(this.runs, id, RUNS_KEPT, () => {
      const order: number[] = []
      for (let i = 0; i < this.size; i++) if (this.fieldOf[i] === id) order.push(i)
      // a stable sort, linear on the sorted input it almost always is
      order.sort((a, b) => this.startOf[a]! - this.startOf[b]!)
      return {
        starts: Int32Array.from(order, (i) => this.startOf[i]!),
        ends: Int32Array.from(order, (i) => this.endOf[i]!),
        frames: Int32Array.from(order, (i) => this.frameOf[i]!),
      }
    })
  }

  /** The ranges frame `seq` contributed, in the order they were appended. */
  forFrame(seq: number): readonly Provenance[] {
    if (!this.sorted) return (this.byFrame!.get(seq) ?? []).map((i) => this.record(i))
    const a = this.frameOf
    let lo = 0
    let hi = a.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (a[mid]! < seq) lo = mid + 1
      else hi = mid
    }
    let end = lo
    while (end < a.length && a[end] === seq) end++
    const out: Provenance[] = []
    for (let i = lo; i < end; i++) out.push(this.record(i))
    return out
  }

  /**
   * The frame that produced the character at `offset` of a field. An offset equal to the
   * field's length (a click after the last character) maps to the last run.
   */
  frameAt(field: FieldRef, offset: number): number | null {
    const id = this.fieldId(field.choice, field.channel, field.toolCall, false)
    if (id < 0) return null
    const runs = this.runsOf(id)
    const count = runs.starts.length
    if (count === 0) return null
    // last run whose start <= offset
    if (offset < runs.starts[0]!) return null
    let lo = 0
    let hi = count - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (runs.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    const end = runs.ends[lo]!
    if (offset < end) return runs.frames[lo]!
    if (offset === end && lo === count - 1) return runs.frames[lo]!
    return null
  }
}
