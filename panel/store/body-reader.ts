// A request's body given whole (a file opened or dropped on the panel): read by the store
// itself, where it merges, as the file's byte stream, at the pace it merges. In a worker the
// UI thread never touches the bytes, and nothing is read far ahead of the merger: at most
// READ_AHEAD bytes wait in the request's backlog, so a 300 MB file costs its body once, not
// once more in flight. The request ends finished when the stream ends, cancelled when the
// file cannot be read to its end; reading stops when the request is removed.

import { slices } from '../../src/exchange/slices.js'
import type { Merger } from '../../src/library.js'
import { LARGE_CHUNK } from './backlog.js'
import { nextTask } from './clock.js'
import type { Recorder } from './recorder.js'
import type { BodySource } from './types.js'

export type { BodySource } from './types.js'

/** Bytes received but not merged yet, at most, before the reader waits for the merger. */
const READ_AHEAD = 4 * 1024 * 1024
/**
 * Bytes asked for per read, where the stream lets the reader choose (a byte stream, as a File's
 * is in Chromium): a File's own pieces run from 64 KiB to 1.5 MB, and reading it in pieces of
 * one size kept the page's peak 10–20 MB lower over a 64 MB file (docs/benchmarks.md).
 */
const READ_SIZE = 256 * 1024
/** How long the reader waits before it looks at the backlog again (ms). */
const WAIT_MS = 8
/**
 * Reading and merging at most this long (ms) before the reader yields a task: a stream whose
 * pieces are at hand resolves its reads as microtasks, and the store's other messages (the
 * UI's commands, in a worker) must not wait for the whole file.
 */
const TURN_MS = 16

export async function readBody(recorder: Recorder, id: string, body: BodySource): Promise<void> {
  const model = recorder.models.get(id)
  if (!model || model.state !== 'live' || model.closing) return
  model.reading = { total: body.size }
  model.fileSlices = true
  recorder.readBackFrom(model, body)
  const reader = pieceReader(body.stream(), () => model.merger)
  /** The request was removed (Clear, another paste) or ended otherwise: nothing more to read. */
  const gone = () => recorder.models.get(id) !== model || model.state !== 'live' || model.closing !== null
  const stop = () => { void reader.cancel().catch(() => {}) }
  let turn = Date.now()
  try {
    // the next piece is asked for before this one is merged: the file is read while the merger
    // works. A read that fails meanwhile is awaited at the top of the loop; marked handled now,
    // so its failure is not reported as unhandled before then.
    const ahead = () => {
      const read = reader.next()
      read.catch(() => {})
      return read
    }
    let next = ahead()
    for (;;) {
      if (Date.now() - turn > TURN_MS) {
        await nextTask()
        turn = Date.now()
      }
      const piece = await next
      if (piece.done) break
      if (gone()) return stop()
      next = ahead()
      // pieces of up to a megabyte or more: merged here, as views small enough to be merged
      // where they arrive (LARGE_CHUNK), between which this loop yields; handed to the merger
      // as they are (nobody else holds them): the body is the file's pieces, not a copy
      for (const bytes of slices(piece.value, LARGE_CHUNK)) recorder.chunk(id, bytes, null, { owned: true })
      // over the size kept per request, or the memory budget: the rest would not be kept
      if (model.truncated) { stop(); break }
      while (!gone() && model.backlog.total - model.backlog.done > READ_AHEAD) await new Promise((r) => setTimeout(r, WAIT_MS))
    }
    recorder.close({ type: 'finished', id, t: null })
  } catch (err) {
    // the file went away or changed while it was read: what arrived stays, cut short
    recorder.close({ type: 'cancelled', id, t: null, reason: `the file could not be read to its end (${String(err)})` })
  } finally {
    model.reading = null
  }
}

/**
 * A stream's reader that gives its pieces. A byte stream (a File's, in Chromium) is read in
 * pieces of READ_SIZE bytes, into the buffers of earlier pieces the merger has let go of
 * (Merger.bytesHeldFrom) when there are any: a 64 MB file is read into a few buffers, not 256
 * made and collected (each a major collection's worth of external memory, sooner or later).
 * Another stream gives its own pieces.
 */
function pieceReader(stream: ReadableStream<Uint8Array>, merger: () => Merger): { next(): Promise<ReadableStreamReadResult<Uint8Array>>; cancel(): Promise<void> } {
  let byob: ReadableStreamBYOBReader
  try {
    byob = stream.getReader({ mode: 'byob' })
  } catch {
    const reader = stream.getReader()
    return { next: () => reader.read(), cancel: () => reader.cancel() }
  }
  /** Pieces handed to the merger, in order, with where each ends in the body and the merger that has it. */
  const lent: Array<{ buffer: ArrayBuffer; end: number; merger: Merger }> = []
  const free: ArrayBuffer[] = []
  let read = 0
  const next = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    const m = merger()
    const held = m.bytesHeldFrom()
    // a piece of another merger (the request merged again meanwhile) is left to the collector
    while (lent.length > 0 && (lent[0]!.merger !== m || lent[0]!.end <= held)) {
      const piece = lent.shift()!
      if (piece.merger === m) free.push(piece.buffer)
    }
    const result = await byob.read(new Uint8Array(free.pop() ?? new ArrayBuffer(READ_SIZE)))
    if (!result.done && result.value.byteLength > 0) {
      read += result.value.byteLength
      lent.push({ buffer: result.value.buffer as ArrayBuffer, end: read, merger: m })
    }
    return result as ReadableStreamReadResult<Uint8Array>
  }
  return { next, cancel: () => byob.cancel() }
}
