// The store's shared types, in one module that imports no other part of the store (types
// only from leaves), so no part depends on another through them and no import cycle goes
// through here: what the store gives the components (plain, read-only shapes built from the
// core's reply and frame table; the components import them from panel/store/index.ts), the
// events it applies, and what a request model's caches read of it (the model's parts take
// it through these, not through the RequestModel class, which imports them).

import type { Diagnostic, Frame, FrameKind, Merger, ProviderId, ProviderReason, Reply, StreamError, Transport } from '../../src/library.js'
import type { LineEndings } from '../../src/debug/line-endings.js'
import type { Timing } from '../../src/debug/timing.js'
import type { CompareCause } from '../../src/debug/compare-causes.js'
import type { CaptureEvent, ForcedOptions } from '../../src/exchange/types.js'
import type { FieldRef } from '../provenance.js'
import type { CapturedRequest } from '../shell.js'
import type { Clock } from './clock.js'
import type { NoteCount } from './problem-order.js'

export type RequestState = 'live' | 'finished' | 'cancelled'

/** One line of the request list. */
export interface RequestRow {
  id: string
  method: string
  url: string
  /** Path and query. */
  path: string
  host: string
  status: number | null
  /** The provider the core chose (or was forced to); null before the first frame. */
  provider: ProviderId | null
  transport: Transport | null
  frames: number
  /** Frames whose data failed to parse (not counting the partial last frame of a cancelled stream). */
  broken: number
  /** Stream errors the provider sent. */
  streamErrors: number
  /** Body bytes received so far. */
  bytes: number
  /** ms from the request's start to its end (or to the last chunk while live); null when unknown. */
  duration: number | null
  /** Wall-clock start (ms since epoch); null when unknown. */
  startedAt: number | null
  state: RequestState
  cancelReason: string | null
  source: CapturedRequest['source']
  /** A terminal marker was seen. */
  done: boolean
  /** The body went over the per-request cap or the memory budget: the rest was not kept. */
  truncated: boolean
  /** It was the memory budget that cut it (absent: the per-request cap, or not cut). */
  cutByBudget?: true
  /** Pinned by the user: the memory budget never releases it (absent: not pinned). */
  pinned?: boolean
  /** Its verdict against what the inspected page shows (absent: not compared). */
  page?: PageVerdict
  forced: ForcedOptions
  /** Why the stream is incomplete (cut, cancelled, no terminal event), in words; null when it is whole or still running. */
  incomplete: string | null
  /** The last frame, cut short when the page cancelled the stream: shown as incomplete, not broken. */
  partialFrame: number | null
  /** Why a response its Content-Type did not declare a stream was listed (CapturedRequest.listedBecause). */
  listedBecause?: string
}

export interface BrokenInfo {
  message: string
  /** 1-based line of the frame's first line in the body. */
  line: number
  /** Character position inside the frame's data. */
  position: number
  /** Character offset of the frame in the decoded body. */
  offset: number
}

/**
 * One row of the frame list: a frame, or an entry, the core's name for a block the SSE spec
 * throws away (a comment, an event-only block).
 */
export type FrameItem =
  | {
      type: 'frame'
      seq: number
      kind: FrameKind
      /** SSE event name, else the JSON `type` / `object`. */
      event: string | null
      label: string
      time: number | null
      sinceStart: number | null
      /** Bytes on the wire. */
      size: number
      summary: string
      broken: BrokenInfo | null
      /** [DONE], pings and keep-alives. */
      dimmed: boolean
      unterminated: boolean
      /** The partial last frame of a stream the page cancelled (`broken` is null then). */
      incomplete: boolean
      /** A provider error payload carried by this frame. */
      streamError: string | null
      /** Characters this frame added to the reply. */
      contributed: number
      /** The worst diagnostic on this frame (its level and what it says), for a mark in the list. */
      problem: { level: Diagnostic['level']; message: string } | null
    }
  | {
      type: 'entry'
      /** Index among the stream's entries. */
      index: number
      kind: 'comment' | 'empty'
      raw: string
      line: number
      beforeFrame: number
      size: number
      dimmed: true
    }

/** A highlighted range, in the coordinates of the reply being shown. */
export interface Highlight {
  field: FieldRef
  start: number
  end: number
}

export interface Note {
  level: 'info' | 'warning'
  message: string
  /** How many times it was said, when more than once (the same message is one note). */
  count?: number
}

/** The frame search as it applies to the selected request. */
export interface SearchView {
  query: string
  /** The query cannot be read (an invalid regular expression): what is wrong. The list is not narrowed. */
  error: string | null
  /** Matching frames found so far, of `total` frames. */
  count: number
  total: number
  /** Frames searched so far: the rest are searched in slices (`count` grows meanwhile). */
  scanned: number
  done: boolean
}

export type { ProviderReason }

/** What the components render for the selected request. */
export interface SelectionView {
  id: string
  request: CapturedRequest
  row: RequestRow
  /** The reply shown: after frame `scrub`, or the latest. */
  reply: Reply
  /** The reply as it stands now (final once the body ended). */
  latest: Reply
  /** Reply after frame N; null: the latest. */
  scrub: number | null
  frameCount: number
  /** Rows in the frame list (frames and entries; the matching frames while a search runs): store.frameItems reads them. */
  itemCount: number
  /** The selected frame, and its position in `items` (-1 when hidden). */
  frame: number | null
  frameIndex: number
  highlight: Highlight[]
  /** The frame search (null when the search box is empty); `items` holds the matching frames only. */
  search: SearchView | null
  /** The text the matching frames produced, in the reply shown. */
  found: Highlight[]
  streamErrors: StreamError[]
  /** The debugger's diagnostics once the body ended; the merger's own while it streams. */
  diagnostics: Diagnostic[]
  /**
   * The whole lengths of the problem lists (the stream errors, the diagnostics and those above
   * info level, the parse errors of the reply shown). A store in a worker sends the UI only the
   * first entries of each (panel/remote: what Problems lays out); these counts stay exact.
   */
  totals: { streamErrors: number; diagnostics: number; problems: number; errors: number }
  /** The info notes among the diagnostics, counted by code (summaries counted for what they stand for): one line each in Problems. */
  noteCounts: NoteCount[]
  /** Timing figures once the body ended (null before); `timesUnknown` when no chunk had a time. */
  timing: Timing | null
  /** Each frame's time since the request started (the gap chart), once the body ended and when known. */
  frameTimes: ReadonlyArray<number | null> | null
  providerReason: ProviderReason | null
  /**
   * Provenance (frame ↔ reply text) covers every frame: 'ready'; else 'pending' (rebuilt
   * soon: a long stream that grows, or one that just arrived). Everything else is always current.
   */
  index: 'ready' | 'pending'
  /** A large body being merged in slices: bytes (or characters) merged of those received. */
  loading: { done: number; total: number } | null
  /** Selecting a frame also rewinds the reply (off for very long streams, where it is slow). */
  autoScrub: boolean
}

/** The selection as the store keeps it: with its frame list, which only the store reads. */
export interface SelectionState extends SelectionView {
  /** The frame list: frame seqs (>= 0) and entries (-(index + 1)), in body order. */
  items: Int32Array
}

/** Live capture, as the shell last reported it. */
export interface LiveState {
  enabled: boolean
  /** Why it changed, when the shell said (the debugger was detached, …). */
  message: string | null
}

/** Everything the exporters need for one request (structurally src/exchange's Recording, and more). */
export interface ExportSource {
  request: CapturedRequest
  /** The body as it arrived, with arrival times (ms since epoch) when known. */
  chunks: ReadonlyArray<{ data: Uint8Array | string; t: number | null }>
  /** The Reply the panel shows as the latest (final once the body ended). */
  expected: Reply
  /** Provider / transport forced in the panel. */
  forced?: ForcedOptions
  state: RequestState
  transport: Transport
  truncated: boolean
  /** The frames, built on demand (JSON Lines export). */
  frames(): Promise<Frame[]>
}

/** A request as the store itself holds it, its frames at hand (the store's parts, its tests, the worker's side). */
export interface HeldSource extends Omit<ExportSource, 'frames'> {
  frames(): Frame[]
}

/**
 * Read-only access to what was recorded, for the exports: nothing here changes what the panel
 * shows. Asynchronous: the store may run in a worker (panel/remote), where the bodies are kept.
 */
export interface Recordings {
  /** One request as the exporters need it (what is still queued merged first); null when unknown. */
  load(id: string): Promise<ExportSource | null>
  /** The reply rebuilt from a request (what is still queued merged first), without its body; null when unknown. */
  rebuilt(id: string): Promise<Reply | null>
  /** The first `maxBytes` bytes of a request's body as kept (a body that is not a stream is shown raw); null when unknown. */
  head(id: string, maxBytes: number): Promise<Uint8Array | null>
  /**
   * The end of a request's body, whole frames: from the start of the earliest of its last
   * `frames` frames that lies within its last `maxBytes` bytes (where a finish reason and an
   * end marker are); null when unknown.
   */
  tail(id: string, frames: number, maxBytes: number): Promise<Uint8Array | null>
}

/** The store's own Recordings, where the merger is at hand: synchronous reads too. */
export interface HeldRecordings extends Recordings {
  get(id: string): HeldSource | null
}

export interface StoreOptions {
  /** Runs `runBatch` once per batch; requestAnimationFrame in a browser. */
  schedule?: (runBatch: () => void) => void
  /** Runs work later (provenance of long streams, frame classification); setTimeout by default. Returns a canceller. */
  defer?: (work: () => void, ms: number) => () => void
  now?: () => number
  /** Body bytes kept per request; beyond it the rest is dropped, and that is said. */
  maxBytesPerRequest?: number
  /** The memory budget for all requests together (store/budget.ts; default 512 MB); store.memoryBudget changes it. */
  memoryBudget?: number
  /** Above this many frames, selecting a frame does not rewind the reply by itself. */
  autoScrubMaxFrames?: number
  /** Merging work per batch when a large body is merged in slices (ms). */
  sliceBudgetMs?: number
  /**
   * Reads a file's bytes synchronously, so that a body the store reads from a file is read
   * back from it, not kept (file-body.ts). FileReaderSync where there is one (a worker) by
   * default; null keeps every body in memory.
   */
  readSync?: ReadSync | null
}

/** A stream's verdict against the page (the toggle "Compare every stream with the page"), shown on its row. */
export interface PageVerdict {
  state: 'equal' | 'differs' | 'not-shown'
  /** differs: the first difference's cause. */
  cause?: CompareCause
  frame?: number | null
  /** In words, for the row's tooltip. */
  message: string
}

// ---- events ---------------------------------------------------------------------------------

/** What the store reads a body from: a File or Blob (structured-cloneable, so it crosses to a worker). */
export interface BodySource {
  readonly size: number
  stream(): ReadableStream<Uint8Array>
}

/** Reads bytes [from, to) of a file synchronously (FileReaderSync in a worker: file-body.ts); throws when it cannot. */
export type ReadSync = (source: BodySource, from: number, to: number) => Uint8Array

/** What the selected request is compared with. */
export type CompareAgainst =
  /** The client's result as the user gave it: JSON (an SDK's final object, a Reply) or plain text. */
  | { client: string; label?: string }
  /** Another captured or imported request: its reply. */
  | { request: string }
  /** What the inspected page shows for the reply (its element's innerText), compared rendered or raw; `notes` say how it was read. */
  | { page: string; label: string; notes?: string[]; leaveOut?: string[] }

/**
 * Everything a store applies (events.ts applyEvent): the shell's capture events, and `force`
 * (read a request's kept chunks again with a provider or transport forced; {} gives the
 * choice back to the core).
 */
export type PanelEvent =
  | CaptureEvent
  /**
   * A request's whole body, as a file: the store reads it where it merges (in the worker,
   * off the UI thread), at the pace it merges, and ends the request when the file ends.
   */
  | { type: 'body'; id: string; body: BodySource }
  | { type: 'force'; id: string; forced: ForcedOptions }
  /** Compare a request's reply with the user's client's result, or with another request's reply. */
  | { type: 'compare'; id: string; against: CompareAgainst }
  | { type: 'compare-clear' }
  /** What the page shows for a finished stream (null: nothing), `where` in words, `leaveOut` the texts in it that are not the reply: the stream's row shows the verdict. */
  | { type: 'page-verdict'; id: string; text: string | null; where: string; leaveOut?: string[] }
  /**
   * Search inside the selected request's frames (plain text or /regex/; '' ends the search),
   * and step to the next (1) or previous (-1) match. The hook for DevTools' own search bar
   * (chrome.devtools.panels onSearch: performSearch, nextSearchResult, previousSearchResult,
   * cancelSearch), wired by the shell's optional onSearch (panel/shell.ts).
   */
  | { type: 'search'; query: string }
  | { type: 'search-step'; delta: 1 | -1 }

// ---- a request model, as its caches read it ---------------------------------------------------

/** What a request model's caches read of it (request-model.ts RequestModel implements it). */
export interface ModelState {
  readonly request: CapturedRequest
  readonly merger: Merger
  /** Bumped on every change of the request; caches keyed by it are rebuilt when read. */
  readonly rev: number
  readonly state: RequestState
  /** The merger's end(): set once the body ended and all of it was merged. */
  readonly final: Reply | null
  /** Its chunks are slices of a file the store read, not a client's network reads. */
  readonly fileSlices: boolean
  readonly lineEndings: LineEndings
  /** The kept chunks read back from the merger, with their arrival times. */
  chunks(): Array<{ data: Uint8Array; t: number | null }>
  /** The last frame, when a cancel cut it short; else null. */
  partialFrame(): number | null
}

/** What a model and its caches need from the store around them. */
export interface StoreEnv extends Clock {
  /** Something changed: `version` is bumped when the batch runs. */
  changed(): void
  /** A large body of this request is being merged in slices (backlog.ts), or read from a file (body-reader.ts). */
  merging(model: ModelState): boolean
  /** The model is still the store's: deferred work for a removed, cleared or disposed one does nothing. */
  holds(model: ModelState): boolean
  /** Says something to the user (a note). */
  warn(message: string): void
  /** Reads a file's bytes synchronously (StoreOptions.readSync); null: bodies are kept. */
  readSync: ReadSync | null
}

/**
 * A cache built from a model's merger. Each is valid for one merger: a restart resets every
 * one; a model dropped or restarted forgets the work each deferred (deferred-run.ts).
 */
export interface RequestCache {
  /** A new merger: nothing cached holds (what a cache learned of costs may stay, as an estimate). */
  reset(): void
  /** Cancels the work deferred. */
  forget(): void
}
