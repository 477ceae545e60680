// The contract between the panel UI and whatever feeds it: the DevTools capture layer
// (src/shells/extension) or the standalone page (src/shells/page). Plain data and plain functions only,
// so it crosses postMessage and the same UI mounts in both shells.

// The captured data itself (requests, body chunks, events) is defined beside the exchange
// formats, which read and write it: the core side never imports the UI.
import type { CaptureEvent } from '../src/exchange/types.js'

export type { CaptureEvent, CapturedRequest, Header } from '../src/exchange/types.js'

export interface PanelShell {
  kind: 'devtools' | 'inline'
  /** Starts the flow of capture events; returns a function that stops it. */
  connect(onEvent: (event: CaptureEvent) => void): () => void
  /**
   * Optional: where a store running in a worker takes the capture events from itself
   * (structured-cloneable, understood by the worker the shell's page starts): `connect` is then
   * not called, and no body passes through the UI thread. The DevTools shell: its tab, whose
   * hub the worker listens to.
   */
  workerEvents?: unknown
  /** Live capture (Chrome's debugger API, Firefox's webRequest stream filter). Absent where the shell cannot offer it. */
  live?: {
    /** What captures the bytes as they arrive, in words for the toggle's tooltip. */
    mechanism: string
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
  /**
   * Optional: where the panel keeps its layout (pane sizes) between sessions. Strings only;
   * may throw (storage full or refused): the panel then keeps them in memory. The page gives
   * localStorage; without it the sizes last as long as the panel.
   */
  storage?: {
    get(key: string): string | null
    set(key: string, value: string): void
  }
  /**
   * Optional: the host's own search bar drives the frame search (DevTools:
   * chrome.devtools.panels ExtensionPanel.onSearch, whose actions are performSearch with the
   * query, nextSearchResult, previousSearchResult and cancelSearch). The panel subscribes when
   * it mounts and applies them as `search` / `search-step` events; returns an unsubscribe.
   */
  onSearch?(callback: (action: SearchAction, query?: string) => void): () => void
  /**
   * Optional: where the user's redaction list is kept (panel/store/redaction.ts), one string:
   * the extension's browser.storage.local (through src/shells/extension), the page's localStorage.
   * Without it the list lasts as long as the panel. Either call may reject (storage refused, full).
   */
  redactionStore?: {
    load(): Promise<string | null>
    save(value: string): Promise<void>
  }
  /**
   * Optional: where the user's stream rules per URL pattern are kept (panel/store/rules.ts), one
   * string: the extension's browser.storage.local (through src/shells/extension), the page's
   * localStorage. Without it the rules last as long as the panel. Either call may reject.
   */
  rulesStore?: {
    load(): Promise<string | null>
    save(value: string): Promise<void>
  }
  /** Optional: the page whose streams are captured, to compare what it shows with them (DevTools). */
  inspectedPage?: InspectedPage
}

/**
 * The element of the inspected page that shows a reply: found by a CSS selector (its last
 * match, or match `index`), or, without one, the element whose text best matches `expected`
 * (the reply's text as the page would show it).
 */
export interface PageQuery {
  selector: string | null
  index?: number | null
  expected: string
}

/** What the page said of that element: text, numbers and a rectangle only (its code is untrusted). */
export interface PageElement {
  found: boolean
  /** The selector used, or the one made for the element found by its text (null: none found). */
  selector: string | null
  /** Elements matching the selector. */
  count: number
  /** Which of them (the last: the newest reply). */
  index: number
  /** Length of its text (UTF-16 units). */
  length: number
  /** Length and hash of its text: tells whether it still changes. */
  digest: string
  rect: { x: number; y: number; width: number; height: number } | null
  /** `read` only: its innerText, cut at 10 MB (`cut`). */
  text?: string
  cut?: boolean
  /** `read` only: the <details> blocks and buttons inside it, outermost only, with their text (which `text` holds too), in page order. */
  parts?: Array<{ kind: 'details' | 'button'; text: string }>
}

export type PickState = { state: 'picking' | 'none' | 'cancelled' } | { state: 'picked'; selector: string; index: number }

/**
 * The inspected page (DevTools only, devtools.inspectedWindow.eval: no permission). Every call
 * resolves; a string is why it failed (the page navigated, the selector is not CSS, the eval
 * threw).
 */
export interface InspectedPage {
  origin(): Promise<string>
  probe(query: PageQuery): Promise<PageElement | string>
  read(query: PageQuery): Promise<PageElement | string>
  /** Starts the picker: hovering outlines elements, a click chooses, Escape cancels. */
  pickStart(): Promise<true | string>
  /** What the picker chose, once (it forgets it then). */
  pickPoll(): Promise<PickState | string>
  pickCancel(): Promise<void>
}

/** What a host search bar asks (the names of chrome.devtools.panels onSearch). */
export type SearchAction = 'performSearch' | 'nextSearchResult' | 'previousSearchResult' | 'cancelSearch'
