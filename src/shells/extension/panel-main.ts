// The panel page: the shared Preact UI mounted on the DevTools shell. Files dropped on it (a
// HAR, a fixture, a raw stream) are imported beside the captured requests (panel/drop.ts).

import { acceptDroppedFiles } from '../../../panel/drop.js'
import { mountPanel } from '../../../panel/mount.js'
import { createDevtoolsShell } from './devtools-shell.js'
// the store merges in a worker, from the extension's own file (its CSP admits no blob: worker),
// which takes the captured bodies from the hub itself
import StoreWorker from './devtools-worker.ts?worker'

const root = document.getElementById('app')
if (!root) throw new Error('panel.html has no #app')
mountPanel(root, createDevtoolsShell(), { onStore: (store) => acceptDroppedFiles(root, store), startWorker: () => new StoreWorker() })

// Test builds only: report what the panel shows (test-probe.ts). '' in shipped builds, so the
// bundler drops this branch and the probe module with it.
if (__DELTASCOPE_PROBE__ !== '') void import('./test-probe.js').then((m) => m.startProbe(__DELTASCOPE_PROBE__))
