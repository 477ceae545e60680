// Timing figures of a recorded stream (docs/architecture.md#the-debugger), from its chunks' arrival times: when the
// first byte, the first frame and the first reasoning, content and tool call came, the gaps
// between frames and the stalls among them, and the rates. Milliseconds since the request
// started; null where unknown or absent. A frame's time is the arrival of the read that
// completed it.

import type { Merger } from '../library.js'
import type { CapturedChunk, Recording } from '../exchange/types.js'
import { mergeRecording } from './diagnose.js'
import { DEFAULT_STALL_MS, frameTimes, stallGaps } from './diagnose-times.js'

export interface Timing {
  /** True when no chunk has a time (a body known only whole): every time field is null. */
  timesUnknown: boolean
  /** The first non-empty read. */
  ttfb: number | null
  firstFrame: number | null
  /** The first frame that wrote reasoning (content, tool-call arguments), by provenance. */
  firstReasoning: number | null
  firstContent: number | null
  firstToolCall: number | null
  /** The last read. */
  total: number | null
  /** As the Reply counts them. */
  frames: number
  /** Between consecutive frames (nearest-rank percentiles); null with fewer than two timed frames. */
  gaps: { max: number | null; p50: number | null; p95: number | null }
  /** The gaps of the `stall` diagnostic; `afterFrame` is the frame before the gap. */
  stalls: Array<{ afterFrame: number; ms: number }>
  /** Frames after the first, per second between the first frame and the last. */
  framesPerSecond: number | null
  /** Content characters written after the first content frame, per second between it and the last content frame. */
  contentCharsPerSecond: number | null
}

export interface TimingOptions {
  /** A gap of at least this many ms between two frames is a stall (default 1000, as for the diagnostic). */
  stallMs?: number
}

/** The timing of a recording, replayed chunk by chunk with its times. */
export function timing(recording: Recording, options: TimingOptions = {}): Timing {
  return timingOfMerger(mergeRecording(recording), recording.chunks, recording.request.startedAt, options)
}

/** The same for a merger the caller holds, fed `chunks` (their times on the clock of `startedAt`). */
export function timingOfMerger(merger: Merger, chunks: readonly CapturedChunk[], startedAt: number, options: TimingOptions = {}): Timing {
  const frames = merger.snapshot().frameCount
  const known = chunks.some((c) => c.t !== null)
  if (!known) {
    return {
      timesUnknown: true, ttfb: null, firstFrame: null, firstReasoning: null, firstContent: null, firstToolCall: null,
      total: null, frames, gaps: { max: null, p50: null, p95: null }, stalls: [], framesPerSecond: null, contentCharsPerSecond: null,
    }
  }
  const since = (t: number | null | undefined) => (t === null || t === undefined ? null : t - startedAt)
  const times = frameTimes(merger)
  const first = firstFrames(merger)
  const gaps: number[] = []
  for (let seq = 1; seq < times.length; seq++) {
    const a = times[seq - 1]
    const b = times[seq]
    if (a !== null && a !== undefined && b !== null && b !== undefined) gaps.push(b - a)
  }
  gaps.sort((a, b) => a - b)
  const firstByte = chunks.find((c) => (typeof c.data === 'string' ? c.data.length : c.data.byteLength) > 0)
  const timed = times.filter((t): t is number => t !== null)
  const span = timed.length >= 2 ? timed[timed.length - 1]! - timed[0]! : 0
  const contentStart = first.content === null ? null : times[first.content] ?? null
  const contentEnd = first.lastContent === null ? null : times[first.lastContent] ?? null
  const contentSpan = contentStart === null || contentEnd === null ? 0 : contentEnd - contentStart
  return {
    timesUnknown: false,
    ttfb: since(firstByte?.t),
    firstFrame: since(times[0]),
    firstReasoning: first.reasoning === null ? null : since(times[first.reasoning]),
    firstContent: first.content === null ? null : since(times[first.content]),
    firstToolCall: first.toolCall === null ? null : since(times[first.toolCall]),
    total: since(chunks[chunks.length - 1]!.t),
    frames,
    gaps: { max: gaps.length > 0 ? gaps[gaps.length - 1]! : null, p50: percentile(gaps, 50), p95: percentile(gaps, 95) },
    stalls: stallGaps(times, options.stallMs ?? DEFAULT_STALL_MS),
    framesPerSecond: span > 0 ? ((timed.length - 1) * 1000) / span : null,
    contentCharsPerSecond: contentSpan > 0 ? (first.contentCharsAfterFirst * 1000) / contentSpan : null,
  }
}

/** The first frame that wrote each channel (by provenance), the last content frame, and the content written after the first. */
function firstFrames(merger: Merger): {
  reasoning: number | null; content: number | null; toolCall: number | null; lastContent: number | null; contentCharsAfterFirst: number
} {
  let reasoning: number | null = null
  let content: number | null = null
  let toolCall: number | null = null
  let lastContent: number | null = null
  let after = 0
  const provenance = merger.provenance()
  for (const p of provenance) {
    if (p.channel === 'reasoning') reasoning = reasoning === null ? p.frame : Math.min(reasoning, p.frame)
    else if (p.channel === 'arguments') toolCall = toolCall === null ? p.frame : Math.min(toolCall, p.frame)
    else if (p.channel === 'content') {
      content = content === null ? p.frame : Math.min(content, p.frame)
      lastContent = lastContent === null ? p.frame : Math.max(lastContent, p.frame)
    }
  }
  if (content !== null) {
    for (const p of provenance) if (p.channel === 'content' && p.frame > content) after += p.end - p.start
  }
  return { reasoning, content, toolCall, lastContent, contentCharsAfterFirst: after }
}

/** Nearest rank: the smallest value with at least p% of the values at or below it. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}
