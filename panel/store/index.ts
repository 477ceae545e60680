// The panel's state, without a DOM: the composition root of the parts in panel/store/, which
// builds the store the components render (its interface: panel-store.ts). Events (what the shell reports, and `force`) are applied by
// applyEvent (store/events.ts). Captured data is untrusted: it is only ever handled as data.
//
//   panel-store.ts          what the components use: PanelStore, LocalPanelStore, StoreParts
//   types.ts                the shared types (no part imports another through them)
//   calls.ts                the commands and questions, once (the worker's protocol derives from it)
//   batch.ts                one `version` bump per batch (an animation frame)
//   recorder.ts             requests and their bodies, kept up to a cap
//   backlog.ts              large bodies merged in slices across batches
//   request-model.ts        one request: its merger and the caches built from it (one list)
//   deferred-run.ts         the one timer each cache defers its work with
//   replies.ts              its replies: the latest (throttled snapshots), after a frame
//   provenance-schedule.ts  when to build its provenance index (frame ↔ reply text)
//   frame-list.ts           its frame list: rows built for the rows in view only
//   frame-flags.ts          which of its frames are dimmed, classified in slices
//   search.ts               search inside its frames, in slices; the reply text the matches produced
//   selection.ts            the selected request, frame and moment, and its view
//   highlights.ts           frame ↔ reply positions in the reply shown
//   request-list.ts         the request list (by start time) and its filter
//   sort.ts                 the order a click on a column asks, the widths dragged (the
//                           columns themselves: panel/request-columns.tsx)
//   notes.ts                what the user should know, each message once
//   debug.ts                a request's diagnostics and timing, once its body ended
//   comparison.ts           compare with my client, diff two captures
//   clock.ts                the clock, and when work that grows with the stream runs again
//   redaction.ts            the user's redaction list, kept through the shell
//   rules.ts                the user's stream rules per URL pattern, kept through the shell
//   budget.ts               the memory budget: what the requests hold, which to release
//
// Scale (100,000+ frames, a 20 MB body in one chunk): nothing costs time per frame on every
// batch. The parts read the core's cheap accessors (frameCount, frameInfo, entries,
// streamErrors, diagnostics, snapshot) and never ask for every frame at once.

import { batch, computed, signal } from '@preact/signals'
import type { PanelShell } from '../shell.js'
import { Backlogs } from './backlog.js'
import { Comparisons } from './comparison.js'
import { Batches } from './batch.js'
import { fileReaderSync } from './file-body.js'
import { defaultDefer, defaultNow, defaultSchedule } from './clock.js'
import { DEFAULT_MEMORY_BUDGET } from './budget.js'
import { applyEvent } from './events.js'
import { importFiles } from './import.js'
import { createRequestList } from './request-list.js'
import { frameAt, rangesFor } from './highlights.js'
import type { LocalPanelStore, PanelStore } from './panel-store.js'
import type { RequestModel } from './request-model.js'
import { Notes } from './notes.js'
import { Recorder } from './recorder.js'
import { createRedactionSettings } from './redaction.js'
import { createStreamRules } from './rules.js'
import { Selection } from './selection.js'
import { sortRows, START_ORDER, type RequestSort } from './sort.js'
import type { LiveState, RequestRow, StoreEnv, StoreOptions } from './types.js'

export type {
  BrokenInfo, ExportSource, FrameItem, HeldRecordings, HeldSource, Highlight, LiveState, Note, PageVerdict, ProviderReason, Recordings, RequestRow, RequestState,
  SearchView, SelectionState, SelectionView, StoreOptions,
} from './types.js'
export type { LocalPanelStore, PanelStore, StoreParts } from './panel-store.js'
export { applyEvent } from './events.js'
export type { PanelEvent } from './types.js'
export type { ComparisonView } from './comparison.js'
export type { CompareAgainst } from './types.js'

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
/** Merging work per batch (ms) while a large body is merged in slices (twice that when it is complete). */
const SLICE_BUDGET_MS = 50
const AUTO_SCRUB_MAX_FRAMES = 5000

export function createPanelStore(shell?: Pick<PanelShell, 'kind' | 'live' | 'redactionStore' | 'rulesStore'> | null, options: StoreOptions = {}): LocalPanelStore {
  const now = options.now ?? defaultNow
  const defer = options.defer ?? defaultDefer
  // each batch merges its share of large bodies, then keeps the requests within the memory budget
  const batches = new Batches(options.schedule ?? defaultSchedule, () => {
    const more = backlogs.mergeSlices()
    recorder.enforceBudget(selection.id.peek())
    return more
  })
  const memoryBudget = signal(options.memoryBudget ?? DEFAULT_MEMORY_BUDGET)
  const unwatchBudget = memoryBudget.subscribe(() => batches.changed())
  const backlogs = new Backlogs(now, options.sliceBudgetMs ?? SLICE_BUDGET_MS, () => batches.changed())
  const notes = new Notes()
  const env: StoreEnv = {
    now,
    defer,
    changed: () => batches.changed(),
    // a body read from a file by the store arrives as fast as one merged in slices: the same care
    // (the store's models are the only ones its parts ask about)
    merging: (m: RequestModel) => m.reading !== null || backlogs.merging(m),
    holds: (m) => !batches.disposed && recorder.models.get(m.request.id) === m,
    warn: (message: string) => notes.add('warning', message),
    readSync: options.readSync === undefined ? fileReaderSync() : options.readSync,
  }
  const recorder = new Recorder(env, backlogs, options.maxBytesPerRequest ?? DEFAULT_MAX_BYTES, () => memoryBudget.peek())
  const filter = signal('')
  const hideDimmed = signal(false)
  const search = signal('')
  const { requests, rows: filtered } = createRequestList(recorder, batches, filter)
  const sort = signal<RequestSort>(START_ORDER)
  const rows = computed(() => sortRows(filtered.value, sort.value) as RequestRow[])
  const selection = new Selection(recorder, batches, hideDimmed, options.autoScrubMaxFrames ?? AUTO_SCRUB_MAX_FRAMES, search)
  const live = signal<LiveState>({ enabled: initialLive(shell), message: null })
  const comparisons = new Comparisons({ get: (id) => recorder.get(id) })

  /** The selected request with its view, for the reads that work on the rows in view. */
  const selected = () => {
    const view = selection.view.peek()
    const m = selection.selected()
    return view && m ? { view, m } : null
  }

  const store: LocalPanelStore = {
    apply: (event) => applyEvent(store, event),
    runBatch: batches.run,
    version: batches.version,
    requests,
    rows,
    filter,
    sort,
    search,
    hideDimmed,
    preserveLog: signal(false),
    memoryBudget,
    pin(id, on) {
      if (recorder.pin(id, on)) batches.changed()
    },
    notes: notes.list,
    live,
    selectedId: selection.id,
    selectedFrame: selection.frame,
    selection: selection.view,
    comparison: comparisons.current,
    select: (id) => selection.select(id),
    selectFrame: (seq, opts) => selection.selectFrame(seq, opts),
    moveFrame: (delta) => selection.moveFrame(delta),
    searchStep: (delta) => selection.stepMatch(delta),
    moveRequest: (delta) => selection.moveRequest(rows.peek(), delta),
    scrubTo: (seq) => { selection.scrub.value = seq },
    frameItems(from, to) {
      const s = selected()
      return s ? s.m.frameList.rows(s.view.items, from, to, s.view.latest) : []
    },
    frame(seq) {
      const m = selection.selected()
      return !m || seq < 0 || seq >= m.merger.frameCount ? null : m.merger.frame(seq)
    },
    loadFrame: async (seq) => store.frame(seq),
    async selectFrameAt(field, offset) {
      const seq = store.frameAt(field, offset)
      if (seq !== null) selection.selectFrame(seq, { scrub: false })
      return seq !== null
    },
    frameAt(field, offset) {
      const s = selected()
      return s ? frameAt(s.m, s.view, field, offset) : null
    },
    rangesFor(seq) {
      const s = selected()
      return s ? rangesFor(s.m, s.view, seq) : []
    },
    clear() {
      recorder.clear()
      comparisons.clear()
      batch(() => {
        selection.clear()
        batches.actions.value++
      })
    },
    dismissNote: (index) => notes.dismiss(index),
    clearNotes: () => notes.clear(),
    importFiles: (files, importOptions) => importFiles(store, files, importOptions),
    recordings: {
      get: (id) => recorder.get(id),
      async load(id) {
        const held = recorder.get(id)
        return held && { ...held, frames: async () => held.frames() }
      },
      head: async (id, maxBytes) => recorder.head(id, maxBytes),
      tail: async (id, frames, maxBytes) => recorder.tail(id, frames, maxBytes),
      rebuilt: async (id) => recorder.rebuilt(id),
    },
    redaction: createRedactionSettings(shell?.redactionStore),
    rules: createStreamRules(shell?.rulesStore),
    parts: { batches, recorder, selection, notes, live, comparisons },
    dispose() {
      unwatchBudget()
      batches.disposed = true
      recorder.forgetAll()
    },
  }
  applySavedRules(store)
  return store
}

/** Requests that arrived before the saved stream rules were read are read with them once they are. */
export function applySavedRules(store: PanelStore): void {
  void store.rules.ready.then(() => {
    for (const row of store.requests.peek()) {
      const rules = row.forced.provider || row.forced.rules ? null : store.rules.ruleFor(row.url)
      if (rules) store.apply({ type: 'force', id: row.id, forced: { ...row.forced, rules } })
    }
  })
}

function initialLive(shell: Pick<PanelShell, 'kind' | 'live'> | null | undefined): boolean {
  try {
    return shell?.live?.enabled?.() ?? false
  } catch {
    return false
  }
}
