// Large bodies, merged in slices. A chunk over LARGE_CHUNK (a whole 20 MB body from the HAR
// path, a dropped file) is not merged where it arrives: it is queued, with everything that
// follows it (order matters), and each batch merges pieces of it (src/exchange/slices.ts) for
// its budget, so the first rows and the reply paint at once and repaint between slices.

import { piece, pieceEnd, sizeOf, SLICE_SIZE } from '../../src/exchange/slices.js'
import type { RequestModel } from './model.js'

/** A chunk longer than this (characters or bytes) is merged in slices across batches. */
export const LARGE_CHUNK = 1024 * 1024

/** A queued chunk (`at`: how much of it is merged), or the end of the body. */
export type BacklogOp = { data: Uint8Array | string; t: number | null; at: number } | 'end'

export class Backlogs {
  /** Requests with a backlog, in the order they got one. */
  private readonly busy = new Set<RequestModel>()

  /**
   * @param sliceBudget merging work per batch (ms); twice that once a body is complete
   * @param changed marks the batch changed
   */
  constructor(
    private readonly now: () => number,
    private readonly sliceBudget: number,
    private readonly changed: () => void,
  ) {}

  /** A large body of this request is being merged in slices. */
  merging(m: RequestModel): boolean {
    return this.busy.has(m)
  }

  enqueue(m: RequestModel, op: BacklogOp): void {
    m.backlog.ops.push(op)
    if (op !== 'end') m.backlog.total += sizeOf(op.data)
    this.busy.add(m)
  }

  forget(m: RequestModel): void {
    this.busy.delete(m)
  }

  /** One batch's share of the merging; true while some is left for the next batch. */
  mergeSlices(): boolean {
    if (this.busy.size === 0) return false
    // one slice first, so the first rows and the reply paint at once; then a body known to be
    // complete (its end queued behind it) takes longer turns: fewer repaints on the way
    const started = [...this.busy].every((m) => m.backlog.done > 0)
    const complete = [...this.busy].every((m) => m.closing !== null)
    this.drain(this.busy, this.now() + (!started ? 0 : complete ? this.sliceBudget * 2 : this.sliceBudget))
    return this.busy.size > 0
  }

  /** Merges all that one request still holds, now (before an export). */
  mergeNow(m: RequestModel): void {
    if (this.busy.has(m)) this.drain([m], Infinity)
  }

  /** Merges backlogs until `deadline` (clock), slice by slice. */
  private drain(models: Iterable<RequestModel>, deadline: number): void {
    let first = true
    for (const m of models) {
      const { backlog } = m
      while (backlog.ops.length > 0) {
        const op = backlog.ops[0]!
        // at least one slice per batch, however short the budget (the end costs nothing)
        if (op !== 'end') {
          if (!first && this.now() >= deadline) return
          first = false
        }
        m.rev++
        this.changed()
        if (op === 'end') {
          backlog.ops.shift()
          if (m.state === 'live') m.close()
          else m.end() // merged again after a force
          continue
        }
        const end = pieceEnd(op.data, op.at, SLICE_SIZE)
        m.push(piece(op.data, op.at, end), op.t)
        backlog.done += end - op.at
        op.at = end
        if (end === sizeOf(op.data)) backlog.ops.shift()
      }
      this.busy.delete(m)
      backlog.total = 0
      backlog.done = 0
    }
  }
}
