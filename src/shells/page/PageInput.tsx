// The standalone page's own controls: paste a stream, open or drop files, pick a sample.
// Everything is read in this page; nothing is sent anywhere.

import { useEffect, useRef, useState } from 'preact/hooks'
import { formatBytes } from '../../../panel/format.js'
import { feedStreams, type FeedJob, type Progress } from '../../../panel/store/feed.js'
import type { PanelStore } from '../../../panel/store/index.js'
import type { InlineShell } from './shell.js'
import { FIRST_SAMPLE, SAMPLES } from './samples.js'
import { fixtureDiffers, type ImportJob } from '../../../panel/store/import.js'
import { readSource, type FeedStream } from '../../../panel/store/sources.js'

/** Pastes above this size are read straight from the clipboard event, not kept in the box. */
const LARGE_PASTE = 512 * 1024
const ACCEPT = '.sse,.txt,.ndjson,.jsonl,.json,.har,.log,text/event-stream,application/x-ndjson,application/json,text/plain'

interface Loading {
  label: string
  progress: Progress
}

export function PageInput({ shell, store }: { shell: InlineShell; store: PanelStore }) {
  const [loading, setLoading] = useState<Loading | null>(null)
  const [warnings, setWarnings] = useState<string[]>([])
  const [placeholder, setPlaceholder] = useState('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]')
  const [dragging, setDragging] = useState(false)
  const job = useRef<FeedJob | ImportJob | null>(null)
  const pasteIds = useRef<string[]>([])
  const debounce = useRef<ReturnType<typeof setTimeout> | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  /** Feeds pasted text or a sample, one job at a time (a new input cancels the one still loading). */
  const load = async (label: string, streams: FeedStream[], found: string[]) => {
    setWarnings(found)
    job.current?.cancel()
    if (streams.length === 0) return
    // capture events go the shell's way; a file's body is handed to the store, which reads it
    const current = feedStreams((e) => (e.type === 'body' ? store.apply(e) : shell.emit(e)), streams, {
      select: streams[0]!.request.id,
      onProgress: (progress) => setLoading({ label, progress }),
      onRequest: (s) => { if (s.forced) store.apply({ type: 'force', id: s.request.id, forced: s.forced }) },
    })
    job.current = current
    await current.finished
    if (job.current === current) {
      job.current = null
      setLoading(null)
    }
    // a fixture says what reply it expects: say so when this build rebuilds another one
    for (const s of streams) {
      if (!s.expected) continue
      const rebuilt = await store.recordings.rebuilt(s.request.id)
      if (rebuilt && JSON.stringify(rebuilt) !== JSON.stringify(s.expected)) shell.emit(fixtureDiffers(s.request.url))
    }
  }

  const loadPaste = (text: string) => {
    for (const id of pasteIds.current) shell.emit({ type: 'removed', id })
    pasteIds.current = []
    if (text.trim() === '') {
      job.current?.cancel()
      setLoading(null)
      return
    }
    const result = readSource({ text }, null, { source: 'paste' })
    pasteIds.current = result.streams.map((s) => s.request.id)
    void load(`pasted text (${formatBytes(text.length)})`, result.streams, result.warnings)
  }

  /** Files are read, parsed and fed where the store runs (its worker): this thread only shows how far it got. */
  const loadFiles = async (files: FileList | File[]) => {
    const list = Array.from(files)
    const label = list.map((f) => f.name).join(', ')
    job.current?.cancel()
    const current = store.importFiles(list, { onProgress: (progress) => setLoading({ label, progress }) })
    job.current = current
    setWarnings([])
    const read = await current.read
    if (job.current === current) setWarnings(read.warnings)
    await current.finished
    if (job.current === current) {
      job.current = null
      setLoading(null)
    }
  }

  const loadSample = (name: string) => {
    const sample = SAMPLES.find((s) => s.name === name)
    if (!sample) return
    const result = readSource({ text: sample.text }, sample.name, { source: 'sample' })
    void load(sample.name, result.streams, result.warnings)
  }

  // open with a sample loaded; accept files dropped anywhere on the page
  useEffect(() => {
    loadSample(FIRST_SAMPLE.name)
    const doc = document
    const over = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return
      e.preventDefault()
      e.dataTransfer.dropEffect = 'copy'
      setDragging(true)
    }
    const leave = (e: DragEvent) => { if (e.relatedTarget === null) setDragging(false) }
    const drop = (e: DragEvent) => {
      e.preventDefault()
      setDragging(false)
      if (e.dataTransfer?.files.length) void loadFiles(e.dataTransfer.files)
    }
    doc.addEventListener('dragover', over)
    doc.addEventListener('dragleave', leave)
    doc.addEventListener('drop', drop)
    return () => {
      doc.removeEventListener('dragover', over)
      doc.removeEventListener('dragleave', leave)
      doc.removeEventListener('drop', drop)
    }
  }, [])

  const onPaste = (e: ClipboardEvent) => {
    const text = e.clipboardData?.getData('text/plain') ?? ''
    if (text.length <= LARGE_PASTE) return // the box takes it; onInput loads it
    // a large paste is read from the event and not kept in the box (a 20 MB textarea is slow)
    e.preventDefault()
    const area = e.currentTarget as HTMLTextAreaElement
    area.value = ''
    setPlaceholder(`Pasted ${formatBytes(text.length)}: shown beside. Paste again to replace it.`)
    if (debounce.current) clearTimeout(debounce.current)
    loadPaste(text)
  }

  const onInput = (e: Event) => {
    const value = (e.currentTarget as HTMLTextAreaElement).value
    if (debounce.current) clearTimeout(debounce.current)
    debounce.current = setTimeout(() => loadPaste(value), 150)
  }

  const pct = loading && loading.progress.total > 0 ? Math.round((100 * loading.progress.done) / loading.progress.total) : 0

  return (
    <div class={`pg-input${dragging ? ' dragging' : ''}`}>
      <div class="pg-brand">
        <h1>Deltascope</h1>
        <p>Rebuilds a streamed LLM reply frame by frame. Everything stays in this page: nothing is sent anywhere.</p>
      </div>
      <div class="pg-paste">
        <label for="pg-paste">Paste a stream</label>
        <textarea
          id="pg-paste"
          data-testid="paste"
          rows={3}
          spellcheck={false}
          placeholder={placeholder}
          onPaste={onPaste}
          onInput={onInput}
        />
      </div>
      <div class="pg-actions">
        <button type="button" class="ds-button" onClick={() => fileInput.current?.click()}>Open files…</button>
        <input
          ref={fileInput}
          class="pg-file"
          type="file"
          multiple
          accept={ACCEPT}
          data-testid="file-input"
          aria-label="Open stream, fixture or HAR files"
          onChange={(e) => {
            const files = e.currentTarget.files
            if (files && files.length > 0) void loadFiles(Array.from(files))
            e.currentTarget.value = ''
          }}
        />
        <span class="pg-hint">or drop .sse .ndjson .jsonl .txt, a fixture or a HAR anywhere</span>
        <label class="pg-samples">
          Sample{' '}
          <select
            data-testid="samples"
            value=""
            onChange={(e) => {
              loadSample(e.currentTarget.value)
              e.currentTarget.value = ''
            }}
          >
            <option value="">add a sample…</option>
            {SAMPLES.map((s) => <option key={s.name} value={s.name}>{s.name}</option>)}
          </select>
        </label>
        {loading && (
          <span class="pg-progress" data-testid="progress" role="status">
            Reading {loading.label}: <progress max={100} value={pct} /> {formatBytes(loading.progress.done)} of {formatBytes(loading.progress.total)}
          </span>
        )}
      </div>
      {warnings.length > 0 && (
        <ul class="pg-warnings" data-testid="import-warnings">
          {warnings.map((w, i) => <li key={i}>{w}</li>)}
        </ul>
      )}
    </div>
  )
}
