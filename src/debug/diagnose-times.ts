// The debugger's rules on times: stalls between frames and a stream that arrived in one burst.
// A frame's time is the arrival of the read that completed it (the merger's frameInfo().time).

import type { Merger } from '../library.js'
import type { CapturedChunk } from '../exchange/types.js'
import { formatMs, type Findings } from './diagnose-findings.js'

export const DEFAULT_STALL_MS = 1000
/** A burst: at least this many frames… */
const BURST_FRAMES = 20
/** …all completed within this many ms of each other… */
const BURST_WINDOW_MS = 50
/** …after a first byte later than this. */
const BURST_FIRST_BYTE_MS = 500

/** Frame times (the arrival of the read that completed each frame), null where unknown. */
export function frameTimes(merger: Merger): Array<number | null> {
  const times: Array<number | null> = []
  for (let seq = 0; seq < merger.frameCount; seq++) times.push(merger.frameTime(seq))
  return times
}

/** Gaps of at least `stallMs` between two frames: after frame `afterFrame`, `ms` long. */
export function stallGaps(times: ReadonlyArray<number | null>, stallMs: number): Array<{ afterFrame: number; ms: number }> {
  return gapsOf(times.length, (seq) => times[seq] ?? null, stallMs)
}

/** The same over `count` frames read one at a time (a merger's: no array of every time). */
function gapsOf(count: number, time: (seq: number) => number | null, stallMs: number): Array<{ afterFrame: number; ms: number }> {
  const out: Array<{ afterFrame: number; ms: number }> = []
  let a = count > 0 ? time(0) : null
  for (let seq = 1; seq < count; seq++) {
    const b = time(seq)
    if (a !== null && b !== null && b - a >= stallMs) out.push({ afterFrame: seq - 1, ms: b - a })
    a = b
  }
  return out
}

export function stalls(merger: Merger, stallMs: number, found: Findings): void {
  for (const s of gapsOf(merger.frameCount, (seq) => merger.frameTime(seq), stallMs)) {
    found.add('stall', 'info', s.afterFrame + 1, `${formatMs(s.ms)} without a frame between frame ${s.afterFrame} and frame ${s.afterFrame + 1}`)
  }
}

/** The whole stream in one short burst after a long wait: buffered on the way. */
export function burst(merger: Merger, firstByte: number | null, startedAt: number | null, found: Findings): void {
  const count = merger.frameCount
  if (count < BURST_FRAMES || firstByte === null || startedAt === null || firstByte - startedAt <= BURST_FIRST_BYTE_MS) return
  let min = Infinity
  let max = -Infinity
  for (let seq = 0; seq < count; seq++) {
    const t = merger.frameTime(seq)
    if (t === null) return
    if (t < min) min = t
    if (t > max) max = t
  }
  if (max - min > BURST_WINDOW_MS) return
  found.add('burst', 'warning', null,
    `all ${count} frames arrived within ${formatMs(max - min)}, ${formatMs(firstByte - startedAt)} after the request started: the stream was buffered (a proxy, compression or the server)`)
}

export function firstByteTime(chunks: readonly CapturedChunk[] | null | undefined): number | null {
  for (const c of chunks ?? []) {
    if ((typeof c.data === 'string' ? c.data.length : c.data.byteLength) > 0) return c.t
  }
  return null
}

export function firstFrameTime(merger: Merger): number | null {
  return merger.frameCount > 0 ? merger.frameTime(0) : null
}
