// The panel page: the shared Preact UI mounted on the DevTools shell.

import { mountPanel } from '../../panel/mount.js'
import { createDevtoolsShell } from './devtools-shell.js'

const root = document.getElementById('app')
if (!root) throw new Error('panel.html has no #app')
mountPanel(root, createDevtoolsShell())
