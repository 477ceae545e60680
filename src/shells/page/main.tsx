// The standalone page: the panel UI on an inline shell, with paste / open / drop / samples.

import { render } from 'preact'
import { mountPanel } from '../../../panel/mount.js'
import type { CaptureEvent } from '../../../panel/shell.js'
import type { PanelStore } from '../../../panel/store/index.js'
import { PageInput } from './PageInput.js'
import { createInlineShell } from './shell.js'
import StoreWorker from '../../../panel/remote/standalone-worker.ts?worker&inline'
import './page.css'

const inputRoot = document.getElementById('input')
const panelRoot = document.getElementById('panel')
if (!inputRoot || !panelRoot) throw new Error('index.html needs #input and #panel')

const shell = createInlineShell()
const html = document.documentElement
html.dataset['theme'] = shell.theme()
shell.onThemeChange((theme) => { html.dataset['theme'] = theme })

let store: PanelStore | null = null
// the store merges in a worker (from a Blob: a page opened from file:// can start no worker
// from a file); `?deltascope-store=local` keeps it on the UI thread (the UI benchmark's before)
const local = new URLSearchParams(location.search).get('deltascope-store') === 'local'
mountPanel(panelRoot, shell, { onStore: (s) => { store = s }, ...(local ? {} : { startWorker: () => new StoreWorker() }) })
render(<PageInput shell={shell} store={store!} />, inputRoot)

/**
 * Test hook (the UI benchmark, `npm run bench:ui`): feeds capture events through the inline
 * shell's own event path, as a paste or a file does. Present only when the page is opened
 * with `?deltascope-test`; it can do nothing the page's own controls cannot (the page sends
 * nothing anywhere, and its CSP admits no other script).
 */
export interface TestHook {
  feed(events: CaptureEvent[]): void
  store: PanelStore
}

if (new URLSearchParams(location.search).has('deltascope-test')) {
  const hook: TestHook = { feed: (events) => { for (const e of events) shell.emit(e) }, store: store! }
  ;(window as unknown as { __deltascope?: TestHook }).__deltascope = hook
}
