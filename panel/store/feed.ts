// Feeds streams to the panel in slices, yielding to the browser between them, so a 20 MB
// paste never blocks the page: the core merges each slice in a few milliseconds, the list
// and the reply repaint between slices, and a progress figure moves. A large file's body
// (sources.ts) is handed to the store whole, as the file: the store reads it where it merges.

import type { CaptureEvent } from '../shell.js'
import type { PanelEvent } from './types.js'
import { sizeOf, slices } from '../../src/exchange/slices.js'
import type { FeedStream } from './sources.js'

/** What a feed sends: capture events, and a file's body for the store to read. */
export type FeedEvent = CaptureEvent | Extract<PanelEvent, { type: 'body' }>

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

/**
 * Sends request, chunks (in pieces of SLICE_SIZE, src/exchange/slices.ts), finished, for each
 * stream, or request and its body (a file, which the store reads and ends); selects `select`
 * (an id) first.
 */
export function feedStreams(
  emit: (event: FeedEvent) => void,
  streams: FeedStream[],
  options: {
    select?: string
    onProgress?: (p: Progress) => void
    /** Called right after a request is announced, before its body: to force its provider or transport. */
    onRequest?: (stream: FeedStream) => void
  } = {},
): FeedJob {
  let cancelled = false
  // the progress of what is fed here: a file's body is the store's to read (its merging shows there)
  const total = streams.reduce((n, s) => n + s.chunks.reduce((m, c) => m + sizeOf(c.data), 0), 0)
  const finished = (async () => {
    let done = 0
    let turn = performance.now()
    const report = () => options.onProgress?.({ done, total })
    report()
    const pace = async () => {
      if (performance.now() - turn <= BUDGET_MS) return
      report()
      await yieldToBrowser()
      turn = performance.now()
    }
    // every request listed first (10,000 from one HAR: a few thousand a turn, so the list grows as they come)
    for (let i = 0; i < streams.length; i++) {
      const s = streams[i]!
      if (cancelled) return
      emit({ type: 'request', request: s.request })
      options.onRequest?.(s)
      if (s.request.id === options.select) emit({ type: 'select', id: s.request.id })
      if (i % 64 === 63) await pace()
    }
    for (const s of streams) {
      if (s.body) {
        emit({ type: 'body', id: s.request.id, body: s.body })
        continue
      }
      for (const chunk of s.chunks) {
        let first = true
        for (const piece of slices(chunk.data)) {
          if (cancelled) return
          // the pieces after the first are the rest of the same read (the debugger's rules on reads count one)
          emit({ type: 'chunk', id: s.request.id, data: piece, t: chunk.t, ...(first ? {} : { continues: true }) })
          first = false
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
    cancel: () => { cancelled = true },
  }
}
