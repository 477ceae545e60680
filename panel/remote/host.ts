// The panel's store where it runs in a worker: the store itself (panel/store/index.ts, unchanged),
// driven by the messages of its mirror on the UI thread (mirror.ts), and what changed sent
// back after each change, coalesced: one `state` per task, however many signals changed in
// it. Only this side holds bodies and mergers; the mirror holds what the UI shows.

import { effect } from '@preact/signals'
import { concatBytes, utf8Encode } from '../../src/exchange/bytes.js'
import type { Reply } from '../../src/library.js'
import { createPanelStore, type LocalPanelStore } from '../store/index.js'
import { nextTask } from '../store/clock.js'
import type { ImportJob } from '../store/import.js'
import type { CaptureEvent } from '../shell.js'
import type { RequestRow, SelectionState, StoreOptions } from '../store/types.js'
import { diffList, diffListCapped } from './list-patch.js'
import type { CommandName, QuestionName, SourceData, StoreCommands } from '../store/calls.js'
import {
  KEPT_FIELDS, LISTED,
  type Answer, type Answered, type Command, type FromStore, type Port, type Question, type QuestionHandlers, type SelectionPatch, type StatePatch, type ToStore,
} from './protocol.js'
import { diffReply } from './reply-patch.js'

/** A body's bytes as an answer: a copy of their own, moved (a view would clone the merger's whole block). */
function moved(bytes: Uint8Array | null): Answered<Uint8Array | null> {
  const copy = bytes && bytes.slice()
  return { value: copy, transfer: copy ? [copy.buffer] : [] }
}

/** Batches run at most this often (ms): a worker has no animation frames to follow. */
const BATCH_MS = 16
/**
 * A batch and the update it sends cost time that grows with the selected request (its view,
 * its reply): the next waits at least this many times what the last cost, so a 64 MB body
 * being read spends most of its time merging, not describing itself.
 */
const BATCH_COST_RATIO = 4
/** …but never longer than this (ms): the end of a body must show soon after it merged. */
const BATCH_MAX_MS = 50
/**
 * Request rows sent in one update, at most: the UI thread takes each update in one task
 * (cloning, applying, laying out). 10,000 rows at once held it for half a second; 400 at a
 * time, rendered in one animation frame, made tasks of 99–315 ms while a 10,000-entry HAR
 * was listed, and 200 make 128–141 ms.
 */
export const ROWS_PER_UPDATE = 200
/** Between two updates that carry the rest of a long list: about a frame, for the UI to paint. */
const ROWS_PACE_MS = 20

/** What was sent last, to send only what changed. */
interface Sent {
  requests: RequestRow[] | null
  rows: RequestRow[] | null
  notes: unknown
  live: unknown
  selectedId: unknown
  selectedFrame: unknown
  comparison: unknown
  selection: SelectionState | null
  /** The selected request's latest reply and problem lists as sent (cut to LISTED): the baseline of the next patches. */
  latest: Reply | null
  diagnostics: SelectionState['diagnostics'] | null
  streamErrors: SelectionState['streamErrors'] | null
  window: { selection: SelectionState | null } | null
}

export interface StoreHost {
  readonly store: LocalPanelStore
  /** Sends what changed now (tests; otherwise once per task). */
  flush(): void
  dispose(): void
}

/**
 * How the worker's own page connects its store to capture events (a `connect` message: the
 * shell's `workerEvents`); returns a disconnect. The standalone page's worker has none.
 */
export type ConnectEvents = (source: unknown, onEvent: (event: CaptureEvent) => void) => () => void

export function createStoreHost(port: Port<ToStore, FromStore>, options: StoreOptions = {}, connectEvents: ConnectEvents | null = null): StoreHost {
  // a batch that leaves work queued (a large body merged in slices) is followed at once: in a
  // worker nothing waits for a paint between slices; other batches wait BATCH_MS, to gather
  let inBatch = false
  /** What the last batch and the update after it cost (ms), and when it ended. */
  let cost = 0
  let ended = -Infinity
  const store = createPanelStore(null, {
    schedule: (run) => {
      const batch = () => {
        inBatch = true
        const t = performance.now()
        try { run() } finally {
          inBatch = false
          ended = performance.now()
          cost = ended - t
        }
      }
      // the wait is counted from the last batch's end: a change after a quiet while (the end of
      // a file read outside batches) is sent once the spacing is kept, not a whole spacing later
      const spacing = Math.min(BATCH_MAX_MS, Math.max(BATCH_MS, cost * BATCH_COST_RATIO))
      if (inBatch) void nextTask().then(batch)
      else setTimeout(batch, Math.max(0, spacing - (performance.now() - ended)))
    },
    ...options,
  })
  const sent: Sent = {
    requests: null, rows: null, notes: null, live: null, selectedId: undefined, selectedFrame: undefined,
    comparison: null, selection: null, latest: null, diagnostics: null, streamErrors: null, window: null,
  }
  /** The rows in view the UI asked for; a newly selected request starts at its top, sent without being asked. */
  const FIRST_WINDOW = { from: 0, to: 120, tail: false }
  let window = FIRST_WINDOW
  let windowFor: string | null = null
  let pending = false
  /** Imports running here (`import`), by the mirror's job number. */
  const imports = new Map<number, ImportJob>()
  /** Stops the capture events the worker takes itself (`connect`). */
  let disconnect: (() => void) | null = null
  const post = (message: FromStore, transfer: Transferable[] = []) => port.postMessage(message, transfer)

  const flush = () => {
    const t = performance.now()
    try {
      send()
    } finally {
      cost += performance.now() - t
    }
  }

  const send = () => {
    pending = false
    const patch: StatePatch = {}
    const requests = store.requests.peek()
    const { patch: requestsPatch, now, more } = diffListCapped(sent.requests, requests, ROWS_PER_UPDATE)
    if (requestsPatch) patch.requests = requestsPatch
    sent.requests = now as RequestRow[]
    // the rest of a list that grew by thousands follows in later updates, a frame or so apart
    if (more) setTimeout(changed, ROWS_PACE_MS)
    const rows = store.rows.peek()
    if (rows !== sent.rows) {
      if (sent.rows === null || rows.length !== sent.rows.length || rows.some((r, i) => r.id !== sent.rows![i]!.id)) patch.rows = rows.map((r) => r.id)
      sent.rows = rows
    }
    const plain = ['notes', 'live', 'selectedId', 'selectedFrame', 'comparison'] as const
    for (const name of plain) {
      const value = store[name].peek()
      if (value !== sent[name]) {
        ;(patch as Record<string, unknown>)[name] = value
        sent[name] = value
      }
    }
    const view = store.selection.peek()
    if (view !== sent.selection) {
      patch.selection = view === null ? null : selectionPatch(sent.selection, view)
    }
    // a new request selected: its list opens at the top, so its first rows come with it
    if (view !== null && view.id !== windowFor) {
      window = FIRST_WINDOW
      windowFor = view.id
    }
    if (view !== null && sent.window?.selection !== view) {
      const length = view.items.length
      const to = window.tail ? length : Math.min(window.to, length)
      const from = window.tail ? Math.max(0, length - (window.to - window.from)) : Math.min(window.from, to)
      patch.window = { from, items: store.frameItems(from, to) }
      sent.window = { selection: view }
    }
    sent.selection = view
    if (Object.keys(patch).length > 0) post({ type: 'state', patch })
  }

  /** A reply with only the first LISTED of its parse errors (their count is in the view's totals). */
  const listed = (r: Reply): Reply => (r.errors.length <= LISTED ? r : { ...r, errors: r.errors.slice(0, LISTED) })

  /** The selection as changes since the one sent (the same request), or whole; its lists cut to LISTED. */
  const selectionPatch = (prev: SelectionState | null, view: SelectionState): SelectionPatch => {
    const same = prev !== null && prev.id === view.id
    const { items: _items, ...whole } = view
    const latest = listed(view.latest)
    const reply = view.reply === view.latest ? latest : listed(view.reply)
    const diagnostics = whole.diagnostics.slice(0, LISTED)
    const streamErrors = whole.streamErrors.slice(0, LISTED)
    const { reply: _r, latest: _l, diagnostics: _d, streamErrors: _s, ...rest } = whole
    // the large fields only when they changed
    if (same) for (const field of KEPT_FIELDS) if (rest[field] === prev![field]) delete rest[field]
    const baseline = { latest: sent.latest, diagnostics: sent.diagnostics, streamErrors: sent.streamErrors }
    Object.assign(sent, { latest, diagnostics, streamErrors })
    return {
      // the frame list's length only (itemCount): its rows in view come as `window`
      ...rest,
      latest: diffReply(same ? baseline.latest : null, latest),
      reply: reply === latest ? null : diffReply(null, reply),
      diagnostics: diffList(same ? baseline.diagnostics : null, diagnostics) ?? { keep: diagnostics.length, add: [] },
      streamErrors: diffList(same ? baseline.streamErrors : null, streamErrors) ?? { keep: streamErrors.length, add: [] },
    }
  }

  const changed = () => {
    if (pending) return
    pending = true
    // at the end of this task: before work deferred to later tasks (the debugger's reading of a long body)
    queueMicrotask(flush)
  }
  // every signal the UI shows: any change sends a state (once per task)
  const stopWatching = effect(() => {
    store.requests.value
    store.rows.value
    store.notes.value
    store.live.value
    store.selectedId.value
    store.selectedFrame.value
    store.selection.value
    store.comparison.value
    changed()
  })

  // the commands' dispatch table is the store itself: PanelStore extends StoreCommands
  const commands: StoreCommands = store
  const command = <K extends CommandName>(c: Command<K>) => commands[c.name](...c.args)

  // the questions' dispatch table, typed by the map: one handler per question, answering its type
  const questions: QuestionHandlers = {
    frame: (seq) => ({ value: store.frame(seq) }),
    selectFrameAt: (field, offset) => {
      const seq = store.frameAt(field, offset)
      if (seq !== null) store.selectFrame(seq, { scrub: false })
      return { value: seq !== null }
    },
    frames: (id) => ({ value: store.recordings.get(id)?.frames() ?? null }),
    rebuilt: (id) => ({ value: store.parts.recorder.rebuilt(id) }),
    head: (id, maxBytes) => moved(store.parts.recorder.head(id, maxBytes)),
    tail: (id, frames, maxBytes) => moved(store.parts.recorder.tail(id, frames, maxBytes)),
    load: (id) => {
      const held = store.recordings.get(id)
      if (!held) return { value: null }
      const { chunks, frames: _frames, ...rest } = held
      const parts = chunks.map((c) => (typeof c.data === 'string' ? utf8Encode(c.data) : c.data))
      const ends: number[] = []
      let at = 0
      for (const p of parts) ends.push(at += p.byteLength)
      const body = concatBytes(parts)
      const source: SourceData = { ...rest, body, ends, ts: chunks.map((c) => c.t) }
      return { value: source, transfer: [body.buffer] }
    },
  }
  const answer = <K extends QuestionName>(q: Question<K>): Answered<Answer> => questions[q.name](...q.args)

  port.onmessage = ({ data: msg }) => {
    switch (msg.type) {
      case 'event': store.apply(msg.event); return
      case 'set': {
        const s = msg.settings
        if (s.filter !== undefined) store.filter.value = s.filter
        if (s.sort !== undefined) store.sort.value = s.sort
        if (s.search !== undefined) store.search.value = s.search
        if (s.hideDimmed !== undefined) store.hideDimmed.value = s.hideDimmed
        if (s.preserveLog !== undefined) store.preserveLog.value = s.preserveLog
        if (s.memoryBudget !== undefined) store.memoryBudget.value = s.memoryBudget
        return
      }
      case 'command': command(msg.command); return
      case 'ask': {
        let reply: Answered<Answer>
        try {
          reply = answer(msg.question)
        } catch {
          reply = { value: null }
        }
        post({ type: 'answer', call: msg.call, value: reply.value }, reply.transfer)
        return
      }
      case 'window':
        window = { from: msg.from, to: msg.to, tail: msg.tail }
        windowFor = store.selectedId.peek()
        sent.window = null // sent again, even for the same selection
        changed()
        return
      case 'import': {
        const { job } = msg
        const running = store.importFiles(msg.files, {
          asImport: msg.asImport,
          onProgress: (progress) => post({ type: 'import-progress', job, progress }),
        })
        imports.set(job, running)
        void running.read.then((read) => post({ type: 'import-read', job, read }))
        // done however it ended (a file that failed is a warning, not a rejection: store/import.ts)
        void running.finished.catch(() => {}).then(() => {
          imports.delete(job)
          post({ type: 'import-done', job })
        })
        return
      }
      case 'import-cancel':
        imports.get(msg.job)?.cancel()
        return
      case 'connect':
        disconnect?.()
        disconnect = connectEvents ? connectEvents(msg.source, (event) => store.apply(event)) : null
        return
      case 'dispose':
        dispose()
        return
    }
  }

  function dispose(): void {
    for (const job of imports.values()) job.cancel()
    disconnect?.()
    disconnect = null
    stopWatching()
    store.dispose()
  }

  return { store, flush, dispose }
}
