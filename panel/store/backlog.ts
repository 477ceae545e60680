// Large bodies, merged in slices. A chunk over LARGE_CHUNK (a whole 20 MB body from the HAR
// path, a dropped file) is not merged where it arrives: it is queued, with everything that
// follows it (order matters), and each batch merges pieces of it (src/exchange/slices.ts) for
// its budget, so the first rows and the reply paint at once and repaint between slices.
// Pieces are sized by what they cost, not by their length: the time a piece took gives the
// body's cost per byte, and the next piece is as long as SLICE_TARGET_MS of it (1 MB of
// 100,000 broken frames costs seconds, 1 MB of a healthy stream a few milliseconds).

import { piece, pieceEnd, sizeOf, SLICE_SIZE } from '../../src/exchange/slices.js'
import type { RequestState } from './types.js'

/** A chunk longer than this (characters or bytes) is merged in slices across batches. */
export const LARGE_CHUNK = 64 * 1024
/** A piece is sized to cost about this much (ms), by the cost per byte of the piece before. */
const SLICE_TARGET_MS = 16
/** The first piece of a body (its cost unknown), and the shortest and longest pieces. */
const FIRST_PIECE = 64 * 1024
const MIN_PIECE = 2048

/** A queued chunk (`at`: how much of it is merged), or the end of the body. */
export type BacklogOp = { data: Uint8Array | string; t: number | null; at: number } | 'end'

/** A request's backlog: what is queued, how much of it is merged, and the length of the next piece. */
export interface Backlog {
  ops: BacklogOp[]
  total: number
  done: number
  piece: number
}

export function emptyBacklog(): Backlog {
  return { ops: [], total: 0, done: 0, piece: FIRST_PIECE }
}

/** What the backlog reads and drives of a request model (request-model.ts RequestModel). */
export interface BacklogModel {
  readonly backlog: Backlog
  /** A finished or cancelled that arrived and waits for what came before it. */
  readonly closing: object | null
  readonly state: RequestState
  rev: number
  push(data: Uint8Array | string, t: number | null): void
  /** Applies the closing, once everything before it is merged. */
  close(): void
  end(): void
}

export class Backlogs {
  /** Requests with a backlog, in the order they got one. */
  private readonly busy = new Set<BacklogModel>()

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
  merging(m: BacklogModel): boolean {
    return this.busy.has(m)
  }

  enqueue(m: BacklogModel, op: BacklogOp): void {
    m.backlog.ops.push(op)
    if (op !== 'end') m.backlog.total += sizeOf(op.data)
    this.busy.add(m)
  }

  forget(m: BacklogModel): void {
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
  mergeNow(m: BacklogModel): void {
    if (this.busy.has(m)) this.drain([m], Infinity)
  }

  /** Merges backlogs until `deadline` (clock), slice by slice. */
  private drain(models: Iterable<BacklogModel>, deadline: number): void {
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
        const end = pieceEnd(op.data, op.at, backlog.piece)
        const started = this.now()
        m.push(piece(op.data, op.at, end), op.t)
        const spent = this.now() - started
        // the next piece: SLICE_TARGET_MS at this piece's cost per unit (a clock that did not move keeps the size)
        if (spent > 0) backlog.piece = Math.max(MIN_PIECE, Math.min(SLICE_SIZE, Math.floor(((end - op.at) * SLICE_TARGET_MS) / spent)))
        backlog.done += end - op.at
        op.at = end
        if (end === sizeOf(op.data)) backlog.ops.shift()
      }
      this.busy.delete(m)
      backlog.total = 0
      backlog.done = 0
      backlog.piece = FIRST_PIECE
    }
  }
}
