// Frames stored column-wise in typed arrays: a 100 MB stream has about a million frames,
// and a million small objects would cost more than the body itself. A Frame object is
// built only when someone asks for one (inspect(), the panel opening a frame).

import type { FrameKind, JsonSyntaxError } from './types.js'

const KINDS: FrameKind[] = ['data', 'done', 'invalid']
const UNTERMINATED = 8

export interface FrameRow {
  start: number
  end: number
  byteStart: number
  byteEnd: number
  line: number
  kind: FrameKind
  unterminated: boolean
  event: string | null
  id: string | null
  retry: number | null
  time: number | null
  error: JsonSyntaxError | null
}

export class FrameTable {
  private capacity = 256
  private start = new Float64Array(this.capacity)
  private end = new Float64Array(this.capacity)
  private byteStart = new Float64Array(this.capacity)
  private byteEnd = new Float64Array(this.capacity)
  /** Allocated on the first frame that has a time: bodies read from files have none. */
  private time: Float64Array | null = null
  private line = new Int32Array(this.capacity)
  private event = new Int32Array(this.capacity)
  private flags = new Uint8Array(this.capacity)
  private readonly eventNames: string[] = []
  private readonly eventIds = new Map<string, number>()
  private readonly ids = new Map<number, string>()
  private readonly retries = new Map<number, number>()
  private readonly errors = new Map<number, JsonSyntaxError>()
  count = 0

  /** `keepRows: false` only counts frames (merge() returns the Reply and nothing else). */
  constructor(private readonly keepRows = true) {}

  /** Counts a frame without storing it. */
  skip(): number {
    return this.count++
  }

  add(row: FrameRow): number {
    if (this.count === this.capacity) this.grow()
    const i = this.count++
    this.start[i] = row.start
    this.end[i] = row.end
    this.byteStart[i] = row.byteStart
    this.byteEnd[i] = row.byteEnd
    if (row.time !== null) {
      this.time ??= new Float64Array(this.capacity).fill(NaN)
      this.time[i] = row.time
    } else if (this.time !== null) this.time[i] = NaN
    this.line[i] = row.line
    this.event[i] = row.event === null ? -1 : this.intern(row.event)
    this.flags[i] = KINDS.indexOf(row.kind) | (row.unterminated ? UNTERMINATED : 0)
    if (row.id !== null) this.ids.set(i, row.id)
    if (row.retry !== null) this.retries.set(i, row.retry)
    if (row.error !== null) this.errors.set(i, row.error)
    return i
  }

  row(i: number): FrameRow {
    if (i < 0 || i >= this.count) throw new RangeError(`no frame ${i} (there are ${this.count})`)
    if (!this.keepRows) throw new Error('frames are not kept by merge(): read them from createMerger()')
    const flags = this.flags[i]!
    const event = this.event[i]!
    const time = this.time === null ? NaN : this.time[i]!
    return {
      start: this.start[i]!,
      end: this.end[i]!,
      byteStart: this.byteStart[i]!,
      byteEnd: this.byteEnd[i]!,
      line: this.line[i]!,
      kind: KINDS[flags & 3]!,
      unterminated: (flags & UNTERMINATED) !== 0,
      event: event < 0 ? null : this.eventNames[event]!,
      id: this.ids.get(i) ?? null,
      retry: this.retries.get(i) ?? null,
      time: Number.isNaN(time) ? null : time,
      error: this.errors.get(i) ?? null,
    }
  }

  private lastEvent = ''
  private lastEventId = -1

  private intern(name: string): number {
    // most streams repeat a handful of names: compare with the last one before hashing
    if (name === this.lastEvent && this.lastEventId >= 0) return this.lastEventId
    let id = this.eventIds.get(name)
    if (id === undefined) {
      id = this.eventNames.push(name) - 1
      this.eventIds.set(name, id)
    }
    this.lastEvent = name
    this.lastEventId = id
    return id
  }

  private grow(): void {
    this.capacity *= 2
    const f64 = (a: Float64Array) => { const b = new Float64Array(this.capacity); b.set(a); return b }
    this.start = f64(this.start)
    this.end = f64(this.end)
    this.byteStart = f64(this.byteStart)
    this.byteEnd = f64(this.byteEnd)
    if (this.time !== null) {
      const time = new Float64Array(this.capacity).fill(NaN)
      time.set(this.time)
      this.time = time
    }
    const line = new Int32Array(this.capacity); line.set(this.line); this.line = line
    const event = new Int32Array(this.capacity); event.set(this.event); this.event = event
    const flags = new Uint8Array(this.capacity); flags.set(this.flags); this.flags = flags
  }
}
