// Feeds streams to the panel in slices, yielding to the browser between them, so a 20 MB
// paste never blocks the page: the core merges each slice in a few milliseconds, the list
// and the reply repaint between slices, and a progress figure moves. A streamed file body
// (sources.ts) is fed as the byte pieces its stream gives, as they are read.

import type { CaptureEvent } from '../shell.js'
import { sizeOf, slices } from '../../src/exchange/slices.js'
import type { FeedStream } from './sources.js'

/** Work per turn of the event loop before yielding (ms). */
const BUDGET_MS = 12

export interface Progress {
  done: number
  total: number
}

export interface FeedJob {
  /** Resolves when every stream was fed (or the job was cancelled). */
  readonly finished: Promise<void>
  cancel(): void
}

/**
 * Lets the browser paint before the next slice: after the next animation frame (or 100 ms,
 * in a hidden tab where there is none), then a task.
 */
const yieldToBrowser = () =>
  new Promise<void>((resolve) => {
    let done = false
    const go = () => {
      if (done) return
      done = true
      setTimeout(resolve, 0)
    }
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(go)
    setTimeout(go, 100)
  })

/** Sends request, chunks (in pieces of SLICE_SIZE, src/exchange/slices.ts), finished, for each stream; selects `select` (an id) first. */
export function feedStreams(
  emit: (event: CaptureEvent) => void,
  streams: FeedStream[],
  options: {
    select?: string
    onProgress?: (p: Progress) => void
    /** Called right after a request is announced, before its body: to force its provider or transport. */
    onRequest?: (stream: FeedStream) => void
  } = {},
): FeedJob {
  let cancelled = false
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null
  const total = streams.reduce((n, s) => n + (s.body?.size ?? 0) + s.chunks.reduce((m, c) => m + sizeOf(c.data), 0), 0)
  const finished = (async () => {
    let done = 0
    let turn = performance.now()
    const report = () => options.onProgress?.({ done, total })
    report()
    for (const s of streams) {
      emit({ type: 'request', request: s.request })
      options.onRequest?.(s)
      if (s.request.id === options.select) emit({ type: 'select', id: s.request.id })
    }
    const pace = async () => {
      if (performance.now() - turn <= BUDGET_MS) return
      report()
      await yieldToBrowser()
      turn = performance.now()
    }
    for (const s of streams) {
      if (s.body) {
        reader = s.body.read().getReader()
        for (;;) {
          let piece: ReadableStreamReadResult<Uint8Array>
          try {
            piece = await reader.read()
          } catch (err) {
            // the file went away or changed while it was read: what arrived stays, cut short
            if (cancelled) return
            emit({ type: 'cancelled', id: s.request.id, t: null, reason: `the file could not be read to its end (${String(err)})` })
            break
          }
          if (cancelled) return
          if (piece.done) break
          // a browser's file stream gives pieces of up to a megabyte or more: fed as views of
          // SLICE_SIZE (no copy), which the store merges in pieces sized by their cost
          for (const bytes of slices(piece.value)) {
            emit({ type: 'chunk', id: s.request.id, data: bytes, t: null })
            done += sizeOf(bytes)
            await pace()
            if (cancelled) return
          }
        }
        reader = null
      }
      for (const chunk of s.chunks) {
        for (const piece of slices(chunk.data)) {
          if (cancelled) return
          emit({ type: 'chunk', id: s.request.id, data: piece, t: chunk.t })
          done += sizeOf(piece)
          await pace()
        }
      }
      if (cancelled) return
      const last = s.chunks.length > 0 ? s.chunks[s.chunks.length - 1]!.t : null
      emit({ type: 'finished', id: s.request.id, t: last })
    }
    report()
  })()
  return {
    finished,
    cancel: () => {
      cancelled = true
      void reader?.cancel().catch(() => {})
    },
  }
}
