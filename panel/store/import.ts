// Files imported into the store where it runs (a HAR, a fixture, a raw stream file; the page's
// file input and drop, files dropped on the DevTools panel): read, named and fed here
// (src/shells/page/sources.ts and feed.ts), so in a worker the UI thread never reads, decodes or
// parses them. A 30 MB HAR is one JSON.parse of 30 MB: it must not hold the page.

import { feedStreams, type Progress } from './feed.js'
import { readFile, type FeedStream, type FileLike } from './sources.js'
import type { PanelEvent } from './types.js'
import type { HeldSource } from './types.js'

export interface ImportOptions {
  /** Mark every request imported (source 'import'), wherever it was captured (the DevTools panel: beside what it captured). */
  asImport?: boolean
  /** How much is fed so far, in bytes (a file's body read by the store itself counts for nothing here: its progress is the row's). */
  onProgress?: (progress: Progress) => void
}

/** What the files gave, once they are read and before they are fed. */
export interface ImportRead {
  /** Requests found, in the order they will be listed. */
  count: number
  /** What could not be read or made sense of, and what was done about it (each with its file's name). */
  warnings: string[]
}

export interface ImportJob {
  readonly read: Promise<ImportRead>
  /** Resolves once everything was fed (or the job was cancelled). */
  readonly finished: Promise<void>
  cancel(): void
}

/** What importing needs of the store: its events, and the reply each recording rebuilt. */
export interface ImportTarget {
  apply(event: PanelEvent): void
  recordings: { get(id: string): HeldSource | null }
}

/** The note for a fixture whose expected reply is not the one rebuilt here. */
export function fixtureDiffers(url: string): Extract<PanelEvent, { type: 'note' }> {
  return { type: 'note', level: 'warning', message: `${url}: the fixture's expected reply differs from the reply rebuilt here (exported by another version, or edited)` }
}

export function importFiles(store: ImportTarget, files: readonly FileLike[], options: ImportOptions = {}): ImportJob {
  let cancelled = false
  let feeding: { cancel(): void } | null = null
  const read = (async (): Promise<{ streams: FeedStream[]; warnings: string[] }> => {
    const streams: FeedStream[] = []
    const warnings: string[] = []
    for (const file of files) {
      try {
        const result = await readFile(file)
        warnings.push(...result.warnings)
        for (const s of result.streams) streams.push(options.asImport ? { ...s, request: { ...s.request, source: 'import' } } : s)
      } catch (err) {
        warnings.push(`${file.name}: could not be read (${String(err)})`)
      }
    }
    return { streams, warnings }
  })()
  const finished = (async () => {
    const { streams } = await read
    if (cancelled || streams.length === 0) return
    const job = feedStreams((event) => store.apply(event), streams, {
      select: streams[0]!.request.id,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      onRequest: (s) => { if (s.forced) store.apply({ type: 'force', id: s.request.id, forced: s.forced }) },
    })
    feeding = job
    await job.finished
    if (cancelled) return
    // a fixture says what reply it expects: say so when this build rebuilds another one
    for (const s of streams) {
      if (!s.expected) continue
      const rebuilt = store.recordings.get(s.request.id)?.expected
      if (rebuilt && JSON.stringify(rebuilt) !== JSON.stringify(s.expected)) store.apply(fixtureDiffers(s.request.url))
    }
  })()
  return {
    read: read.then(({ streams, warnings }) => ({ count: streams.length, warnings })),
    finished,
    cancel: () => {
      cancelled = true
      feeding?.cancel()
    },
  }
}
