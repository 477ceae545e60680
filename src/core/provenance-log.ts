// Provenance as parallel integer arrays (which frame wrote which run of reply text): one record
// per append, not one object.

import { Int32Column } from './column.js'

export class ProvenanceLog {
  private readonly frame = new Int32Column()
  private readonly target = new Int32Column()
  private readonly start = new Int32Column()
  private readonly end = new Int32Column()
  count = 0

  add(frame: number, target: number, start: number, end: number): void {
    const i = this.count++
    this.frame.set(i, frame)
    this.target.set(i, target)
    this.start.set(i, start)
    this.end.set(i, end)
  }

  record(i: number): { frame: number; target: number; start: number; end: number } {
    return { frame: this.frame.get(i), target: this.target.get(i), start: this.start.get(i), end: this.end.get(i) }
  }
}
