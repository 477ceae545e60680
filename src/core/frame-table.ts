// Frames stored column-wise in paged typed arrays: a 100 MB stream has about a million
// frames, and a million small objects would cost more than the body itself. A Frame object
// is built only when someone asks for one (frames(), the panel opening a frame).

import { Float64Column, Int32Column, OffsetColumn, Uint8Column } from './column.js'
import type { FrameInfo, FrameKind, JsonSyntaxError } from './types.js'

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
  private readonly start = new OffsetColumn()
  private readonly end = new OffsetColumn()
  private readonly byteStart = new OffsetColumn()
  private readonly byteEnd = new OffsetColumn()
  /** Made on the first frame that has a time: bodies read from files have none. */
  private time: Float64Column | null = null
  private readonly line = new Int32Column()
  private readonly event = new Int32Column()
  private readonly flags = new Uint8Column()
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
    const i = this.count++
    this.start.set(i, row.start)
    this.end.set(i, row.end)
    this.byteStart.set(i, row.byteStart)
    this.byteEnd.set(i, row.byteEnd)
    // rows without a time read NaN: the column is filled with it
    if (row.time !== null) (this.time ??= new Float64Column(NaN)).set(i, row.time)
    this.line.set(i, row.line)
    this.event.set(i, row.event === null ? -1 : this.intern(row.event))
    this.flags.set(i, KINDS.indexOf(row.kind) | (row.unterminated ? UNTERMINATED : 0))
    if (row.id !== null) this.ids.set(i, row.id)
    if (row.retry !== null) this.retries.set(i, row.retry)
    if (row.error !== null) this.errors.set(i, row.error)
    return i
  }

  row(i: number): FrameRow {
    this.check(i)
    const flags = this.flags.get(i)
    const event = this.event.get(i)
    const time = this.time === null ? NaN : this.time.get(i)
    return {
      start: this.start.get(i),
      end: this.end.get(i),
      byteStart: this.byteStart.get(i),
      byteEnd: this.byteEnd.get(i),
      line: this.line.get(i),
      kind: KINDS[flags & 3]!,
      unterminated: (flags & UNTERMINATED) !== 0,
      event: event < 0 ? null : this.eventNames[event]!,
      id: this.ids.get(i) ?? null,
      retry: this.retries.get(i) ?? null,
      time: Number.isNaN(time) ? null : time,
      error: this.errors.get(i) ?? null,
    }
  }

  /**
   * Frame `i` as FrameInfo, built straight from the columns: the debugger reads every frame of
   * a body once it ends, and an intermediate row per frame was most of its garbage.
   */
  info(i: number): FrameInfo {
    this.check(i)
    const flags = this.flags.get(i)
    const event = this.event.get(i)
    return {
      seq: i, kind: KINDS[flags & 3]!, start: this.start.get(i), end: this.end.get(i), byteStart: this.byteStart.get(i), byteEnd: this.byteEnd.get(i),
      line: this.line.get(i), event: event < 0 ? null : this.eventNames[event]!, id: this.ids.get(i) ?? null, retry: this.retries.get(i) ?? null,
      time: this.timeAt(i), unterminated: (flags & UNTERMINATED) !== 0,
    }
  }

  /** Frame `i`'s kind, nothing built. */
  kindAt(i: number): FrameKind {
    this.check(i)
    return KINDS[this.flags.get(i) & 3]!
  }

  /** Frame `i`'s time (null: none given), nothing built. */
  timeAt(i: number): number | null {
    this.check(i)
    const time = this.time === null ? NaN : this.time.get(i)
    return Number.isNaN(time) ? null : time
  }

  private check(i: number): void {
    if (i < 0 || i >= this.count) throw new RangeError(`no frame ${i} (there are ${this.count})`)
    if (!this.keepRows) throw new Error('frames are not kept by merge(): read them from createMerger()')
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
}
