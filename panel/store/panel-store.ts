// What the components use of the store: the PanelStore interface (signals to render,
// commands to give), the store itself as LocalPanelStore, and the parts applyEvent changes.
// Apart from the store (index.ts) that implements them, so events.ts and the mirror depend on
// the interface, not on the composition root.

import type { ReadonlySignal, Signal } from '@preact/signals'
import type { Frame } from '../../src/library.js'
import type { FieldRef } from '../provenance.js'
import type { Batches } from './batch.js'
import type { StoreCommands } from './calls.js'
import type { Comparisons, ComparisonView } from './comparison.js'
import type { ImportJob, ImportOptions } from './import.js'
import type { Notes } from './notes.js'
import type { Recorder } from './recorder.js'
import type { RedactionSettings } from './redaction.js'
import type { StreamRules } from './rules.js'
import type { Selection } from './selection.js'
import type { RequestSort } from './sort.js'
import type { FrameItem, HeldRecordings, Highlight, LiveState, Note, PanelEvent, Recordings, RequestRow, SelectionState, SelectionView } from './types.js'

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
