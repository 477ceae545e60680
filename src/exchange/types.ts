// The shapes every export and import shares, and the captured data they are made from:
// the capture events the DevTools capture layer and the standalone page feed the panel
// (panel/shell.ts carries them across to the UI).

import type { ProviderId, Reply, Rules, Transport } from '../library.js'

export interface Header {
  name: string
  value: string
}

export interface CapturedRequest {
  id: string
  method: string
  url: string
  /** HTTP status; null while unknown. */
  status: number | null
  requestHeaders: Header[]
  responseHeaders: Header[]
  requestBody: string | null
  /** The response Content-Type, when known. */
  contentType: string | null
  /** Wall-clock start (ms since epoch). */
  startedAt: number
  /** Where it came from: the HAR path (complete bodies), live capture, or an import / paste. */
  source: 'har' | 'live' | 'import' | 'paste' | 'sample'
  /** Why it was listed when its Content-Type did not declare a stream (its body sniffed as one: src/exchange/sniff.ts listedReason). */
  listedBecause?: string
  /**
   * Why the capture has no body although the response may have had one, in words (the
   * DevTools network API handed none over: a no-store response, a body larger than Chrome
   * keeps; or the body went to a panel opened earlier, src/shells/extension/replay-buffer.ts).
   */
  bodyWithheld?: string
  /**
   * The body's text chunks may be its bytes decoded as windows-1252 (Chrome's, for a text
   * response naming no charset): the store undoes that where the text is UTF-8 mojibake
   * (src/exchange/windows-1252.ts).
   */
  bodyDecodedAs?: 'windows-1252'
  /**
   * A turn of a WebSocket connection rather than an HTTP response (src/exchange/ws-turns.ts):
   * its body is its frames written as SSE (received frames as events, everything else as
   * comments), so the store reads it like any stream.
   */
  websocket?: { connection: string; turn: number; key: string | null }
}

/** Events in the order they happened. Times are ms since epoch. */
export type CaptureEvent =
  /** A streaming response began (live), or a finished one was found (HAR, import). */
  | { type: 'request'; request: CapturedRequest }
  /**
   * The next piece of a request's body, in arrival order. `continues`: this piece is the rest
   * of the read before it, cut only to cross to the store in pieces (a large paste), so the
   * debugger's rules on reads see one read where the client saw one.
   */
  | { type: 'chunk'; id: string; data: Uint8Array | string; t: number | null; continues?: boolean }
  /** The body is complete. */
  | { type: 'finished'; id: string; t: number | null; status?: number }
  /** The page (or the user) cancelled the stream before it finished. */
  | { type: 'cancelled'; id: string; t: number | null; reason?: string }
  /** The inspected page navigated: the panel clears unless the log is preserved. */
  | { type: 'navigated'; url: string }
  /** Something the user should know about capture itself (live mode detached, …). */
  | { type: 'note'; level: 'info' | 'warning'; message: string }
  /** Optional: the user just opened this request in the shell (paste, file): the panel selects it. */
  | { type: 'select'; id: string }
  /** Optional: the shell withdraws a request it sent (the pasted text was edited). */
  | { type: 'removed'; id: string }
  /**
   * Live capture turned on or off: by the user, or by the browser (the debugger was detached,
   * the extension's worker went away). `message` says why, when the shell knows.
   */
  | { type: 'live'; enabled: boolean; message?: string }

/** One network chunk of a response body, as the capture layer saw it. */
export interface CapturedChunk {
  data: string | Uint8Array
  /** Arrival time, ms since epoch (as in CaptureEvent); null when unknown. */
  t: number | null
}

/**
 * One captured request with its body: what every export is made from and every import
 * (HAR, fixture, raw stream) gives back, and what the debugger analyses.
 */
export interface Recording {
  request: CapturedRequest
  /** The body in arrival order; a body known only whole is one chunk with t = null. */
  chunks: readonly CapturedChunk[]
  /** The Reply to store as expected (what the panel showed, a fixture's); computed by replaying the chunks when absent. */
  expected?: Reply
  /** Provider / transport the user forced in the panel, if any: stored so replays use them too. */
  forced?: ForcedOptions
}

export interface ForcedOptions {
  provider?: ProviderId
  transport?: Transport
  /** User rules the stream was read with (docs/rules.md): they win over `provider`. */
  rules?: Rules
}

export interface ExportOptions {
  /** Keep Authorization, cookies, API keys and tokens as they are. Off by default. */
  includeCredentials?: boolean
  /** More header, parameter and field names to redact (case-insensitive), beside the defaults. */
  redactNames?: readonly string[]
  /** Values to replace wherever they appear (at least 4 characters; docs/architecture.md#redaction). */
  redactValues?: readonly string[]
  /** Wildcard patterns whose matches are replaced wherever they appear (`sk-live-*`; redact-user.ts). */
  redactPatterns?: readonly string[]
  /** The export time to record (ISO 8601); now by default. */
  exportedAt?: string
}
