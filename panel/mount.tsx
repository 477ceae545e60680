// Mounts the panel UI on a shell: the DevTools shell (src/shells/extension) or the standalone page's
// inline shell (src/shells/page). Same components, a different source of data.
//
// Stable test hooks (end-to-end tests read them through CDP; keep them):
//   request-row      one per listed request; aria-selected, data-id, data-state (live|finished|cancelled),
//                    title = the full URL (data-url: the URL alone, whatever the title adds),
//                    data-source (har|live|import|…); inside it request-frames (frame count), request-broken,
//                    request-imported (a file dropped on the panel), request-start / -status / -size / -duration
//   request-column   a header of the request list (role columnheader, aria-sort, data-key); inside its
//                    sort button and request-column-resize (role separator, aria-valuenow = width in px)
//   request-head     the headers; data-columns = aligned (cells under the headers) or wrapped
//   frame-list       the frame list (focusable; data-count = rows it holds)
//   frame-row        one per frame in view (virtualised); data-seq, data-kind (data|done|invalid),
//                    data-broken="true" on a frame that failed to parse, aria-selected
//   frame-entry      a comment / event-only block (not a frame); data-kind (comment|empty)
//   frame-count      the selected request's frame count (the number only)
//   reply-content    one per choice: the content text only (a window of it beyond 20,000 characters;
//                    while the stream is live, its last 2,000)
//   reply-reasoning  one per choice with reasoning
//   reply-refusal    one per choice with a refusal
//   tool-call        one per tool call; data-index; inside: tool-name, tool-id, tool-arguments (raw)
//                    or tool-arguments-pretty, tool-error (final reply, arguments not JSON)
//   finish-reason    one per choice: the finish reason only ('' when none)
//   frame-error      one per frame that failed to parse; data-frame
//   stream-error     one per provider error inside the stream; data-frame
//   diagnostic       one per core diagnostic; data-code
//   .ds-sel-title    the selection header's URL line; title = the full URL
//   request-incomplete  the mark on a request row whose stream is incomplete; title = the reason
//   frame-search     the "Search frames" box; search-count ("N of M"), search-error (an invalid regex)
//   frame-row data-incomplete="true"  the partial last frame of a stream the page cancelled
//   pane-tab-frames, pane-tab-reply   the Frames / Reply tabs of a narrow panel (role tab)
//   context-menu     the right-click menu (role menu; items role menuitem, data-action)
//   export-menu      the Export button when the export actions do not fit (the actions are then its menu items)
//   scrubber, scrub-slider, scrub-label, filter, hide-dimmed, live-toggle, clear, export-bar,
//   export-{fixture,test,har,raw,jsonl,curl}, include-credentials, frame-detail, frame-raw,
//   redaction-settings (the Redact button), redaction-popover, redaction-{names,values,patterns}
//   (its boxes), redaction-save, redaction-cancel, redaction-problem (an entry left out), redaction-status,
//   json-tree, usage, note, force-provider, force-transport, more-tool-calls (past the first 50 calls),
//   merging (a large body being merged in slices: its percentage)
//   live-toggle is checked exactly when the shell reports live capture on (`live` events)

import { render } from 'preact'
import { App } from './components/App.js'
import { createUiState, PanelContext } from './context.js'
import type { PanelShell } from './shell.js'
import { createStoreMirror } from './remote/mirror.js'
import type { FromStore, Port, ToStore } from './remote/protocol.js'
import { createPanelStore, type PanelStore } from './store/index.js'
import './panel.css'

export interface MountOptions {
  /** Receives the store once created (the standalone page reads it for its own controls and tests). */
  onStore?: (store: PanelStore) => void
  /**
   * Starts the worker the store runs in (panel/remote/standalone-worker.ts), so merging never holds
   * the UI thread. The page that mounts the panel knows how its CSP lets it start one. Without
   * it (or when it throws) the store runs on this thread.
   */
  startWorker?: () => Worker
}

/**
 * The store in a worker when one can be started, else here; how it gets the capture events
 * (the worker takes them itself where the shell says where from); and how to stop the worker.
 */
function createStore(shell: PanelShell, startWorker: MountOptions['startWorker']): { store: PanelStore; connect: () => () => void; stop: () => void } {
  let worker: Worker | null = null
  try {
    worker = startWorker?.() ?? null
  } catch (err) {
    console.warn('Deltascope: the store runs on the UI thread; its worker did not start:', err)
  }
  if (!worker) {
    const store = createPanelStore(shell)
    return { store, connect: () => shell.connect((event) => store.apply(event)), stop: () => {} }
  }
  const store = createStoreMirror(worker as unknown as Port<FromStore, ToStore>, shell)
  // a worker that fails to load (a CSP that refuses it) says so where the user looks
  const failed = (e: ErrorEvent) => store.failed(`The panel's worker failed (${e.message || 'it could not be loaded'}): reload the panel.`)
  worker.addEventListener('error', failed)
  const connect = () => {
    if (shell.workerEvents === undefined) return shell.connect((event) => store.apply(event))
    store.takeEvents(shell.workerEvents)
    return () => {} // the worker stops listening when it is disposed
  }
  return { store, connect, stop: () => { worker.removeEventListener('error', failed); worker.terminate() } }
}

export function mountPanel(root: HTMLElement, shell: PanelShell, options: MountOptions = {}): () => void {
  root.classList.add('ds-mount')
  const { store, connect, stop } = createStore(shell, options.startWorker)
  const ui = createUiState(shell.theme(), shell.storage)
  options.onStore?.(store)
  const stopTheme = shell.onThemeChange((theme) => { ui.theme.value = theme })
  const disconnect = connect()
  // the host's search bar (DevTools' onSearch, where the shell relays it) drives the frame search
  const stopSearch = shell.onSearch?.((action, query) => {
    if (action === 'performSearch') store.apply({ type: 'search', query: query ?? '' })
    else if (action === 'cancelSearch') store.apply({ type: 'search', query: '' })
    else store.apply({ type: 'search-step', delta: action === 'nextSearchResult' ? 1 : -1 })
  })
  render(
    <PanelContext.Provider value={{ store, shell, ui }}>
      <App />
    </PanelContext.Provider>,
    root,
  )
  return () => {
    disconnect()
    stopSearch?.()
    stopTheme()
    render(null, root)
    root.classList.remove('ds-mount')
    store.dispose()
    stop()
  }
}

export type { PanelShell } from './shell.js'
export type { PanelStore } from './store/index.js'
