// The panel's store in a worker (issue 18: merging off the UI thread): the messages between
// the store (host.ts, in the worker) and its mirror on the UI thread (mirror.ts). Plain data
// only. Commands and events go to the store in the order given; after each change the store
// sends what changed, small: the reply as text appended (reply-patch.ts), lists as the
// entries that are new or changed (list-patch.ts), the frame list as the rows in view. The
// bodies stay in the worker: a frame, an export or a body's head is asked for and answered.
// The commands and questions themselves are written once, in store/calls.ts; this module
// says how they travel.

import type { Progress } from '../store/feed.js'
import type { AnswerTo, CallArgs, CommandName, QuestionName, StoreCalls } from '../store/calls.js'
import type { ComparisonView } from '../store/comparison.js'
import type { PanelEvent } from '../store/events.js'
import type { ImportRead } from '../store/import.js'
import type { RequestSort } from '../store/sort.js'
import type { FrameItem, LiveState, Note, RequestRow, SelectionView } from '../store/types.js'
import type { ListPatch } from './list-patch.js'
import type { ReplyPatch } from './reply-patch.js'

/** The store's signals the UI sets (the toolbar, the search box); the worker's copy follows. */
export interface UiSettings {
  filter: string
  sort: RequestSort
  search: string
  hideDimmed: boolean
  preserveLog: boolean
  memoryBudget: number
}

/** A call as sent: its name and its arguments, as the map says (store/calls.ts). */
export type CallOf<K extends keyof StoreCalls> = { [P in K]: { name: P; args: CallArgs<P> } }[K]
/** A command, applied in order, answered by nothing. */
export type Command<K extends CommandName = CommandName> = CallOf<K>
/** A question, answered later by an `answer` with the same `call`. */
export type Question<K extends QuestionName = QuestionName> = CallOf<K>
/** Any question's answer. */
export type Answer = AnswerTo<QuestionName>

/** What the worker's store answers a question with, and the buffers moved (not copied) with it. */
export interface Answered<A> {
  value: A
  transfer?: Transferable[]
}
/** The worker's answers, one handler per question: a handler missing, or answering the wrong type, does not compile. */
export type QuestionHandlers = { [K in QuestionName]: (...args: CallArgs<K>) => Answered<AnswerTo<K>> }
/** The mirror's question: its answer's type follows from its name. */
export type Ask = <K extends QuestionName>(name: K, ...args: CallArgs<K>) => Promise<AnswerTo<K>>

export type ToStore =
  | { type: 'event'; event: PanelEvent }
  | { type: 'set'; settings: Partial<UiSettings> }
  | { type: 'command'; command: Command }
  | { type: 'ask'; call: number; question: Question }
  /**
   * The frame list rows the UI shows, sent with every change: positions [from, to) in the
   * list, or with `tail` its last `to - from` rows (a list followed while it grows).
   */
  | { type: 'window'; from: number; to: number; tail: boolean }
  /** Import files here (store/import.ts): answered by import-read, import-progress, import-done with the same `job`. */
  | { type: 'import'; job: number; files: File[]; asImport: boolean }
  | { type: 'import-cancel'; job: number }
  /** Take the capture events from `source` directly (the shell's `workerEvents`), not from the UI. */
  | { type: 'connect'; source: unknown }
  | { type: 'dispose' }

/**
 * Entries of each problem list sent to the UI (the diagnostics, the stream errors, a reply's
 * parse errors): what Problems can lay out (50, then 200, then 800). A body of 100,000 broken
 * frames has 100,000 of each; cloning them all took a 300 ms task on the UI thread. Their
 * counts go whole (SelectionView.totals).
 */
export const LISTED = 800

/** Fields of the selection sent only when they changed (absent: as before, for the same request): large, or rarely changed. */
export const KEPT_FIELDS = ['request', 'frameTimes', 'timing', 'highlight', 'found'] as const
type KeptField = (typeof KEPT_FIELDS)[number]

/** The selection, without its frame list (only its length: the rows in view come as `window`), its replies as patches. */
export interface SelectionPatch extends Omit<SelectionView, 'reply' | 'latest' | 'diagnostics' | 'streamErrors' | KeptField>, Partial<Pick<SelectionView, KeptField>> {
  /** The latest reply against the one sent before (for the same request), or from nothing. */
  latest: ReplyPatch
  /** The reply shown: null when it is the latest, else whole (a moment of the scrubber). */
  reply: ReplyPatch | null
  diagnostics: ListPatch<SelectionView['diagnostics'][number]>
  streamErrors: ListPatch<SelectionView['streamErrors'][number]>
}

/** What changed in the store since the last `state` (a field absent: unchanged). */
export interface StatePatch {
  requests?: ListPatch<RequestRow>
  /** The request list's rows, as ids of `requests`. */
  rows?: string[]
  notes?: Note[]
  live?: LiveState
  selectedId?: string | null
  selectedFrame?: number | null
  /** null: nothing selected. */
  selection?: SelectionPatch | null
  comparison?: ComparisonView | null
  /** The frame list rows [from, from + items.length) of the selection as it is after this patch. */
  window?: { from: number; items: FrameItem[] }
}

export type FromStore =
  | { type: 'state'; patch: StatePatch }
  | { type: 'answer'; call: number; value: Answer }
  | { type: 'import-read'; job: number; read: ImportRead }
  | { type: 'import-progress'; job: number; progress: Progress }
  | { type: 'import-done'; job: number }

/** Anything that passes messages like a Worker, a worker's global scope or a MessagePort. */
export interface Port<In, Out> {
  postMessage(message: Out, transfer?: Transferable[]): void
  onmessage: ((event: { data: In }) => void) | null
}
