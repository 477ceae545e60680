// Files dropped on the DevTools panel: a HAR (every streaming entry), a Deltascope fixture or
// a raw stream file (.sse .ndjson .jsonl .txt) is imported beside what the panel captured,
// each request marked as imported (source 'import', ids of its own), the first one selected.
// The reading and the paced feeding are the standalone page's (panel/inline/sources.ts and
// feed.ts); what the files could not give is said as notes. A drop never throws: a file that
// cannot be read is a note too.

import { feedStreams, type FeedJob } from './inline/feed.js'
import { readFile, type FeedStream } from './inline/sources.js'
import type { PanelStore } from './store.js'

/** The class the mount root carries while files are dragged over it (panel.css outlines it). */
export const DROPPING_CLASS = 'ds-dropping'

/** Listens for files dropped on `root`'s document; returns a function that stops. */
export function acceptDroppedFiles(root: HTMLElement, store: PanelStore): () => void {
  const doc = root.ownerDocument
  let job: FeedJob | null = null
  const note = (level: 'info' | 'warning', message: string) => store.apply({ type: 'note', level, message })

  const over = (e: DragEvent) => {
    if (!e.dataTransfer?.types.includes('Files')) return
    e.preventDefault()
    e.dataTransfer.dropEffect = 'copy'
    root.classList.add(DROPPING_CLASS)
  }
  const leave = (e: DragEvent) => { if (e.relatedTarget === null) root.classList.remove(DROPPING_CLASS) }
  const drop = (e: DragEvent) => {
    if (!e.dataTransfer?.types.includes('Files')) return
    e.preventDefault()
    root.classList.remove(DROPPING_CLASS)
    const files = Array.from(e.dataTransfer.files)
    if (files.length > 0) void importFiles(files)
  }

  const importFiles = async (files: File[]) => {
    const streams: FeedStream[] = []
    for (const file of files) {
      try {
        const result = await readFile(file)
        for (const w of result.warnings) note('warning', w)
        // captured or not where it came from, here it is an import: the list marks it so
        for (const s of result.streams) streams.push({ ...s, request: { ...s.request, source: 'import' } })
      } catch (err) {
        note('warning', `${file.name}: could not be read (${String(err)})`)
      }
    }
    const names = files.map((f) => f.name).join(', ')
    if (streams.length === 0) {
      note('warning', `Nothing to import from ${names}: no streaming request in it.`)
      return
    }
    note('info', `Imported ${streams.length === 1 ? '1 request' : `${streams.length} requests`} from ${names}, marked "imported" in the list.`)
    job = feedStreams((event) => store.apply(event), streams, {
      select: streams[0]!.request.id,
      onRequest: (s) => { if (s.forced) store.apply({ type: 'force', id: s.request.id, forced: s.forced }) },
    })
  }

  doc.addEventListener('dragover', over)
  doc.addEventListener('dragleave', leave)
  doc.addEventListener('drop', drop)
  return () => {
    job?.cancel()
    doc.removeEventListener('dragover', over)
    doc.removeEventListener('dragleave', leave)
    doc.removeEventListener('drop', drop)
  }
}
