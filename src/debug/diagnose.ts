// Diagnostics that name the bug (docs/architecture.md#the-debugger). The merger already reports what framing and
// merging see (the accumulator: content after a finish, a reused tool index, a provider error,
// a token limit, data after the end…); this adds what needs the frames' text, the network
// reads and their times: glued frames, a missing `data:`, inline <think> tags, mixed line
// endings, a BOM, frames and characters split across reads, stalls, bursts, an empty reply.
// Each rule is one pass over the frames, the entries or the chunks (diagnose-frames.ts,
// diagnose-reads.ts, diagnose-times.ts); a rule that fires on many frames lists the first 100
// and sums up the rest in one diagnostic (diagnose-findings.ts).

import { createMerger } from '../library.js'
import type { Diagnostic, LibraryMergeOptions, Merger } from '../library.js'
import type { CapturedChunk, Recording } from '../exchange/types.js'
import { Findings } from './diagnose-findings.js'
import { afterDoneMarker, emptyReply, gluedFrames, inlineThinkTags, missingDataPrefix } from './diagnose-frames.js'
import type { LineEndings } from './line-endings.js'
import { bom, mixedLineEndings, readBoundaries, splitCharacters, splitFrames } from './diagnose-reads.js'
import { burst, DEFAULT_STALL_MS, firstByteTime, firstFrameTime, stalls } from './diagnose-times.js'

export { DEFAULT_STALL_MS, frameTimes, stallGaps } from './diagnose-times.js'

export interface DiagnoseOptions {
  /** A gap of at least this many ms between two frames is a stall (default 1000). */
  stallMs?: number
}

export interface DiagnoseMergerOptions extends DiagnoseOptions {
  /** When the request started, on the clock of the push times: the burst rule needs it. */
  startedAt?: number | null
  /** The stream is still running: rules that need its end (empty-reply) wait. */
  live?: boolean
  /**
   * False when the body is a file's, not reads a client got: `chunks` are then not read (the
   * boundaries of a file's slices are where it happened to be cut, so the rules on frames and
   * characters split across reads say nothing true of it); the rules on the bytes (line
   * endings, the BOM) read the merger's body instead.
   */
  networkReads?: boolean
  /** The body's line endings, counted as it arrived (the panel's store): the body is not read again for them. */
  lineEndings?: LineEndings
}

/** The merge options a recording's replay uses: its URL, Content-Type and what was forced. */
export function recordingMergeOptions(recording: Recording): LibraryMergeOptions {
  const options: LibraryMergeOptions = { url: recording.request.url }
  if (recording.request.contentType) options.contentType = recording.request.contentType
  if (recording.forced?.provider) options.provider = recording.forced.provider
  if (recording.forced?.transport) options.transport = recording.forced.transport
  if (recording.forced?.rules) options.rules = recording.forced.rules
  return options
}

/** A merger fed the recording's chunks, each with its time, and ended. */
export function mergeRecording(recording: Recording): Merger {
  const merger = createMerger(recordingMergeOptions(recording))
  for (const c of recording.chunks) {
    if (c.t === null) merger.push(c.data)
    else merger.push(c.data, c.t)
  }
  merger.end()
  return merger
}

/** Everything worth saying about a recorded stream: the merger's diagnostics and the debugger's, by frame, stream-wide first. */
export function diagnose(recording: Recording, options: DiagnoseOptions = {}): Diagnostic[] {
  return diagnoseMerger(mergeRecording(recording), recording.chunks, { ...options, startedAt: recording.request.startedAt })
}

/**
 * The same for a merger the caller holds (the panel's). `chunks` are the network reads it was
 * pushed, in order (the rules on reads, line endings and the BOM need them); frame times are
 * the merger's. The merger must keep its body (the default) for the rules that read frames.
 */
export function diagnoseMerger(merger: Merger, chunks?: readonly CapturedChunk[] | null, options: DiagnoseMergerOptions = {}): Diagnostic[] {
  const found = new Findings()
  const reply = merger.snapshot()
  const theirs = merger.diagnostics()
  const sse = reply.transport === 'sse'
  if (sse || reply.transport === 'ndjson') {
    gluedFrames(merger, reply, found)
    if (sse) missingDataPrefix(merger, theirs, found)
  }
  afterDoneMarker(merger, found)
  inlineThinkTags(merger, reply, found)
  // slices of a file: the rules on its bytes read the merger's body a window at a time (a body
  // read back from a file is not held whole, and its slices say nothing of how it arrived)
  const bytes = options.networkReads === false ? bodyWindows(merger) : chunks && chunks.length > 0 ? chunks : null
  if (bytes) {
    bom(bytes, found)
    if (sse || reply.transport === 'ndjson' || reply.transport === 'data-stream') mixedLineEndings(merger, bytes, found, options.lineEndings ?? null)
  }
  if (options.networkReads !== false && chunks && chunks.length > 0) {
    const reads = readBoundaries(chunks)
    splitFrames(merger, reads, found)
    // an AWS event stream is binary: its bytes are not characters, and none is split
    if (reply.transport !== 'eventstream' && reply.transport !== 'connect') splitCharacters(merger, chunks, reads, found)
  }
  stalls(merger, options.stallMs ?? DEFAULT_STALL_MS, found)
  burst(merger, firstByteTime(chunks) ?? firstFrameTime(merger), options.startedAt ?? null, found)
  if (!options.live) emptyReply(reply, found)
  return merged(theirs, found.done())
}

/** Bytes read a window at a time (the BOM rule reads the first only). */
const WINDOW = 1 << 16

/** The merger's body as reads of WINDOW bytes, read when iterated (each time). */
function bodyWindows(merger: Merger): Iterable<CapturedChunk> {
  return {
    *[Symbol.iterator]() {
      for (let at = 0; at < merger.byteLength; at += WINDOW) yield { data: merger.body(at, Math.min(merger.byteLength, at + WINDOW)), t: null }
    },
  }
}

/** The merger's and ours, by frame (stream-wide first); ours replace the merger's generic ones for the same thing. */
function merged(theirs: Diagnostic[], ours: Diagnostic[]): Diagnostic[] {
  // a line with a JSON payload and no `data:` is an unknown field to the SSE reader: ours says which bug it is
  const prefixLines = new Set(ours.filter((d) => d.code === 'missing-data-prefix').map((d) => d.line))
  // the accumulator reports data after any terminal marker, we report any frame after [DONE]: the earlier one stays
  const theirAfterDone = theirs.find((d) => d.code === 'data-after-done')
  const ourAfterDone = ours.find((d) => d.code === 'data-after-done')
  const later = theirAfterDone && ourAfterDone ? ((ourAfterDone.frame ?? 0) < (theirAfterDone.frame ?? 0) ? theirAfterDone : ourAfterDone) : null
  return [...theirs, ...ours]
    .filter((d) => d !== later && !(d.code === 'unknown-field' && d.line !== undefined && prefixLines.has(d.line)))
    .sort((a, b) => (a.frame ?? -1) - (b.frame ?? -1))
}
