// The contract between the panel UI and whatever feeds it: the DevTools capture layer
// (src/capture) or the standalone page (panel/inline). Plain data and plain functions only,
// so it crosses postMessage and the same UI mounts in both shells.

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
}

/** Events in the order they happened. Times are ms since epoch. */
export type CaptureEvent =
  /** A streaming response began (live), or a finished one was found (HAR, import). */
  | { type: 'request'; request: CapturedRequest }
  /** The next piece of a request's body, in arrival order. */
  | { type: 'chunk'; id: string; data: Uint8Array | string; t: number | null }
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

export interface PanelShell {
  kind: 'devtools' | 'inline'
  /** Starts the flow of capture events; returns a function that stops it. */
  connect(onEvent: (event: CaptureEvent) => void): () => void
  /** Live capture (Chrome's debugger API). Absent where the shell cannot offer it. */
  live?: {
    setEnabled(enabled: boolean): Promise<{ ok: boolean; message?: string }>
    /** Optional: whether live capture is on now (the panel's initial state; `live` events follow). */
    enabled?(): boolean
  }
  /** The host's colour theme (DevTools theme, or the OS preference). */
  theme(): 'light' | 'dark'
  onThemeChange(callback: (theme: 'light' | 'dark') => void): () => void
  /** Saves a file for the user (download). */
  save(filename: string, mime: string, content: string): void
  /** Optional: saves exact bytes (a raw body that is not valid UTF-8). Without it the panel saves the text. */
  saveBytes?(filename: string, mime: string, content: Uint8Array): void
  copy(text: string): Promise<void>
}
