// Files dropped on the DevTools panel: a HAR (every streaming entry), a Deltascope fixture or
// a raw stream file (.sse .ndjson .jsonl .txt) is imported beside what the panel captured,
// each request marked as imported (source 'import', ids of its own), the first one selected.
// The files are read and fed where the store runs (store/import.ts, with the standalone page's
// readers); what the files could not give is said as notes. A drop never throws: a file that
// cannot be read is a note too.

import type { PanelStore } from './store/index.js'
import type { ImportJob } from './store/import.js'

/** The class the mount root carries while files are dragged over it (panel.css outlines it). */
export const DROPPING_CLASS = 'ds-dropping'

/** Listens for files dropped on `root`'s document; returns a function that stops. */
export function acceptDroppedFiles(root: HTMLElement, store: PanelStore): () => void {
  const doc = root.ownerDocument
  let job: ImportJob | null = null
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
    job?.cancel()
    // read, parsed and fed where the store runs (store/import.ts); captured or not where it
    // came from, here each request is an import: the list marks it so
    const current = store.importFiles(files, { asImport: true })
    job = current
    const { count, warnings } = await current.read
    for (const w of warnings) note('warning', w)
    const names = files.map((f) => f.name).join(', ')
    if (count === 0) note('warning', `Nothing to import from ${names}: no streaming request in it.`)
    else note('info', `Imported ${count === 1 ? '1 request' : `${count} requests`} from ${names}, marked "imported" in the list.`)
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
