// Provenance as parallel integer arrays (which frame wrote which run of reply text): one record
// per append, not one object. A truncate (a snapshot that rewrote, a patch's truncate) cuts a
// field's runs from its end: each record links to the previous record of its field, so a cut
// visits only the runs it removes and the one it shortens (each run is removed once, so cuts
// cost O(1) amortised per append); a removed run is left empty in place and skipped by readers.

import { Int32Column } from './column.js'

export class ProvenanceLog {
  private readonly frame = new Int32Column()
  private readonly target = new Int32Column()
  private readonly start = new Int32Column()
  private readonly end = new Int32Column()
  /**
   * The record before this one of the same target, -1 for its first: stored +1 (a column fills
   * with 0). Only truncates follow it, and most streams never cut: it is made at the first
   * truncate (chain()), a fifth of the log saved until then.
   */
  private previous: Int32Column | null = null
  /** Per target, its last record that still holds text, +1 (0: none). */
  private readonly last = new Int32Column()
  /** Targets `last` has a row for. */
  private targets = 0
  count = 0

  add(frame: number, target: number, start: number, end: number): void {
    const i = this.count++
    this.frame.set(i, frame)
    this.target.set(i, target)
    this.start.set(i, start)
    this.end.set(i, end)
    if (this.previous !== null) this.previous.set(i, this.lastOf(target) + 1)
    this.setLast(target, i)
  }

  /** Keeps the first `length` characters of the target's runs: later runs are emptied, the one across the cut shortened. */
  truncate(target: number, length: number): void {
    const previous = (this.previous ??= this.chain())
    let i = this.lastOf(target)
    while (i >= 0 && this.start.get(i) >= length) {
      this.end.put(i, this.start.get(i))
      i = previous.get(i) - 1
    }
    if (i >= 0 && this.end.get(i) > length) this.end.put(i, length)
    this.setLast(target, i)
  }

  /** False for a run a truncate removed (readers skip it). */
  holdsText(i: number): boolean {
    return this.end.get(i) > this.start.get(i)
  }

  frameAt(i: number): number { return this.frame.get(i) }
  targetAt(i: number): number { return this.target.get(i) }
  startAt(i: number): number { return this.start.get(i) }
  endAt(i: number): number { return this.end.get(i) }

  /** `previous` for the records so far, none of which a truncate has emptied yet. */
  private chain(): Int32Column {
    const previous = new Int32Column()
    const lastSeen = new Int32Array(this.targets)
    for (let i = 0; i < this.count; i++) {
      const target = this.target.get(i)
      previous.set(i, lastSeen[target]!)
      lastSeen[target] = i + 1
    }
    return previous
  }

  private lastOf(target: number): number {
    return this.last.get(target) - 1
  }

  /**
   * Targets are numbered in order of first use, so `last` is written in order for a new target
   * (set) and rewritten for a known one (put).
   */
  private setLast(target: number, i: number): void {
    if (target < this.targets) this.last.put(target, i + 1)
    else {
      this.last.set(target, i + 1)
      this.targets = target + 1
    }
  }
}
