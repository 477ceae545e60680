// The panel's state, without a DOM: the signals the components render, composed from the
// parts in panel/store/. Events (what the shell reports, and `force`) are applied by
// applyEvent (store/events.ts). Captured data is untrusted: it is only ever handled as data.
//
//   batch.ts                one `version` bump per batch (an animation frame)
//   recorder.ts             requests and their bodies, kept up to a cap
//   backlog.ts              large bodies merged in slices across batches
//   request-model.ts        one request: its merger and the caches built from it
//   replies.ts              its replies: the latest (throttled snapshots), after a frame
//   provenance-schedule.ts  when to build its provenance index (frame ↔ reply text)
//   frame-list.ts           its frame list: rows built for the rows in view only
//   frame-flags.ts          which of its frames are dimmed, classified in slices
//   search.ts               search inside its frames, in slices; the reply text the matches produced
//   selection.ts            the selected request, frame and moment, and its view
//   highlights.ts           frame ↔ reply positions in the reply shown
//   request-list.ts         the request list (by start time) and its filter
//   sort.ts                 the list's columns: the order a click asks, the widths dragged
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

import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type { Frame } from '../../src/library.js'
import type { FieldRef } from '../provenance.js'
import type { PanelShell } from '../shell.js'
import { Backlogs } from './backlog.js'
import { Comparisons, type ComparisonView } from './comparison.js'
import { Batches } from './batch.js'
import type { StoreCommands } from './calls.js'
import { fileReaderSync } from './file-body.js'
import { defaultDefer, defaultNow, defaultSchedule } from './clock.js'
import { DEFAULT_MEMORY_BUDGET } from './budget.js'
import { applyEvent, type PanelEvent } from './events.js'
import { importFiles, type ImportJob, type ImportOptions } from './import.js'
import { createRequestList } from './request-list.js'
import { frameAt, rangesFor } from './highlights.js'
import type { StoreEnv } from './request-model.js'
import { Notes } from './notes.js'
import { Recorder } from './recorder.js'
import { createRedactionSettings, type RedactionSettings } from './redaction.js'
import { createStreamRules, type StreamRules } from './rules.js'
import { Selection } from './selection.js'
import { sortRows, START_ORDER, type RequestSort } from './sort.js'
import type { FrameItem, HeldRecordings, Highlight, LiveState, Note, Recordings, RequestRow, SelectionState, SelectionView, StoreOptions } from './types.js'

export type {
  BrokenInfo, ExportSource, FrameItem, HeldRecordings, HeldSource, Highlight, LiveState, Note, PageVerdict, ProviderReason, Recordings, RequestRow, RequestState,
  SearchView, SelectionState, SelectionView, StoreOptions,
} from './types.js'
export { applyEvent, type PanelEvent } from './events.js'
export type { CompareAgainst, ComparisonView } from './comparison.js'

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
/** Merging work per batch (ms) while a large body is merged in slices (twice that when it is complete). */
const SLICE_BUDGET_MS = 50
const AUTO_SCRUB_MAX_FRAMES = 5000

/** The parts applyEvent changes. Components read the signals of the store instead. */
export interface StoreParts {
  readonly batches: Batches
  readonly recorder: Recorder
  readonly selection: Selection
  readonly notes: Notes
  readonly live: Signal<LiveState>
  readonly comparisons: Comparisons
}

/**
 * What the components use: signals to render and commands to give. Two implementations: the
 * store itself (createPanelStore, below, on the thread that calls it) and its mirror on the
 * UI thread of a store that runs in a worker (panel/remote). The reads that need the body (a
 * frame, a window of rows, an export) answer from what the mirror holds, or later. Its
 * commands (select, pin, clear, …) are the map's, in store/calls.ts.
 */
export interface PanelStore extends StoreCommands {
  /** Applies an event (applyEvent where the store is). */
  apply(event: PanelEvent): void
  /** Bumped once per batch. */
  readonly version: ReadonlySignal<number>
  /** Every request, by start time (then arrival), as in the Network panel. */
  readonly requests: ReadonlySignal<RequestRow[]>
  /** The request list after the filter, in the order `sort` asks (arrow keys follow it). */
  readonly rows: ReadonlySignal<RequestRow[]>
  readonly filter: Signal<string>
  /** The request list's order: start time by default, or a column the user clicked (store/sort.ts). */
  readonly sort: Signal<RequestSort>
  /**
   * The frame search: plain text (case-insensitive) or /regex/flags, over the selected
   * request's frames (store/search.ts). Also set by a `search` event (DevTools' search bar).
   */
  readonly search: Signal<string>
  /** Hide comments, pings and [DONE]. */
  readonly hideDimmed: Signal<boolean>
  readonly preserveLog: Signal<boolean>
  /**
   * The memory budget (bytes) for every request together: bodies and what is derived from
   * them (store/budget.ts). Past it the oldest finished, unpinned requests are released;
   * a request alone over it stops growing. Applied at the next batch.
   */
  readonly memoryBudget: Signal<number>
  readonly notes: ReadonlySignal<Note[]>
  /** Live capture as the shell reports it (off where the shell has none). */
  readonly live: ReadonlySignal<LiveState>
  readonly selectedId: ReadonlySignal<string | null>
  readonly selectedFrame: ReadonlySignal<number | null>
  readonly selection: ReadonlySignal<SelectionView | null>
  /** The comparison shown (compare with my client, diff two captures), or null. */
  readonly comparison: ReadonlySignal<ComparisonView | null>
  /**
   * The frame list rows [from, to) of the selected request (built for these rows only). A
   * mirror returns the rows it has (null for a row not here yet) and asks for the rest.
   */
  frameItems(from: number, to: number): Array<FrameItem | null>
  /** One frame of the selected request, in full; null when there is none (or, in a mirror, not here yet: asked for). */
  frame(seq: number): Frame | null
  /** One frame of the selected request, in full, once it is here. */
  loadFrame(seq: number): Promise<Frame | null>
  /** Selects the frame that produced a position of the shown reply (the reply stays); false when no frame did. */
  selectFrameAt(field: FieldRef, offset: number): Promise<boolean>
  /** What was recorded, read-only: the exports read it. */
  readonly recordings: Recordings
  /**
   * Imports files (a HAR, a fixture, a raw stream file) where the store runs: read, parsed and
   * fed there (store/import.ts), the first request selected.
   */
  importFiles(files: readonly File[], options?: ImportOptions): ImportJob
  /** The user's redaction list, applied to every export (store/redaction.ts). */
  readonly redaction: RedactionSettings
  /** The user's stream rules per URL pattern: a matching request is read with them (store/rules.ts). */
  readonly rules: StreamRules
  dispose(): void
}

/** The store itself: its parts (applyEvent changes them) and synchronous reads of what it holds. */
export interface LocalPanelStore extends PanelStore {
  /** Runs the pending batch now (the scheduler calls it). */
  runBatch(): void
  frameItems(from: number, to: number): FrameItem[]
  /** The frame that produced a position of the shown reply. */
  frameAt(field: FieldRef, offset: number): number | null
  /** The ranges a frame contributed, in the shown reply. */
  rangesFor(seq: number): Highlight[]
  readonly selection: ReadonlySignal<SelectionState | null>
  readonly recordings: HeldRecordings
  readonly parts: StoreParts
}

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
    merging: (m) => m.reading !== null || backlogs.merging(m),
    holds: (m) => !batches.disposed && recorder.models.get(m.request.id) === m,
    warn: (message) => notes.add('warning', message),
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
