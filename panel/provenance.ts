// Provenance both ways, from the core's records (Merger.provenance()):
//   frame → the ranges it contributed to reply fields,
//   a position in a reply field → the frame that produced it.
// Records are integers only; lookups are binary searches, so a 100,000-frame stream costs
// nothing per click. Building the index is one pass over typed arrays (no object per frame):
// a few milliseconds for 150,000 records.

import type { Channel, Provenance, ProvenanceVisit } from '../src/library.js'

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

/** The runs of one field, in append order: record indices into the index's list. */
class FieldRuns {
  constructor(readonly ref: FieldRef, readonly id: number) {}
  starts: Int32Array = new Int32Array(16)
  ends: Int32Array = new Int32Array(16)
  frames: Int32Array = new Int32Array(16)
  count = 0

  add(start: number, end: number, frame: number): void {
    if (this.count === this.starts.length) {
      const grow = (a: Int32Array) => { const b = new Int32Array(a.length * 2); b.set(a); return b }
      this.starts = grow(this.starts)
      this.ends = grow(this.ends)
      this.frames = grow(this.frames)
    }
    this.starts[this.count] = start
    this.ends[this.count] = end
    this.frames[this.count] = frame
    this.count++
  }

  sort(): void {
    for (let i = 1; i < this.count; i++) if (this.starts[i]! < this.starts[i - 1]!) return this.sortAll()
  }

  private sortAll(): void {
    const order = Array.from({ length: this.count }, (_, i) => i).sort((a, b) => this.starts[a]! - this.starts[b]!)
    const pick = (a: Int32Array) => Int32Array.from(order, (i) => a[i]!)
    this.starts = pick(this.starts)
    this.ends = pick(this.ends)
    this.frames = pick(this.frames)
  }
}

interface ChoiceFields {
  content: FieldRuns | null
  reasoning: FieldRuns | null
  refusal: FieldRuns | null
  /** By the call's position in choice.toolCalls. */
  args: Array<FieldRuns | undefined>
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
      const runs = this.runsOf(choice, channel, toolCall, true)
      if (runs) {
        runs.add(start, end, frame)
        this.fieldOf[i] = runs.id
      } else {
        this.fieldOf[i] = -1
        this.odd.set(i, { frame, choice, channel, toolCall, start, end })
      }
      i++
    })
    // appends only ever grow a field, so starts are already ascending; keep it true if not
    for (const c of this.byChoice.values()) {
      for (const f of [c.content, c.reasoning, c.refusal, ...c.args]) f?.sort()
    }
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

  private runsOf(choice: number, channel: FieldRef['channel'], toolCall: number | null, create: boolean): FieldRuns | null {
    let c = this.byChoice.get(choice)
    if (!c) {
      if (!create) return null
      this.byChoice.set(choice, (c = { content: null, reasoning: null, refusal: null, args: [] }))
    }
    if (channel === 'arguments') {
      if (toolCall === null || toolCall < 0) return null
      return c.args[toolCall] ?? (create ? (c.args[toolCall] = this.newRuns(choice, channel, toolCall)) : null)
    }
    return c[channel] ?? (create ? (c[channel] = this.newRuns(choice, channel, null)) : null)
  }

  private newRuns(choice: number, channel: FieldRef['channel'], toolCall: number | null): FieldRuns {
    const ref = { choice, channel, toolCall }
    return new FieldRuns(ref, this.fields.push(ref) - 1)
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
    const runs = this.runsOf(field.choice, field.channel, field.toolCall, false)
    if (!runs || runs.count === 0) return null
    // last run whose start <= offset
    if (offset < runs.starts[0]!) return null
    let lo = 0
    let hi = runs.count - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (runs.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    const end = runs.ends[lo]!
    if (offset < end) return runs.frames[lo]!
    if (offset === end && lo === runs.count - 1) return runs.frames[lo]!
    return null
  }
}
