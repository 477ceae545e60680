// The standalone page: the panel UI on an inline shell, with paste / open / drop / samples.

import { render } from 'preact'
import { mountPanel } from '../mount.js'
import type { PanelStore } from '../store.js'
import { PageInput } from './PageInput.js'
import { createInlineShell } from './shell.js'
import './page.css'

const inputRoot = document.getElementById('input')
const panelRoot = document.getElementById('panel')
if (!inputRoot || !panelRoot) throw new Error('index.html needs #input and #panel')

const shell = createInlineShell()
const html = document.documentElement
html.dataset['theme'] = shell.theme()
shell.onThemeChange((theme) => { html.dataset['theme'] = theme })

let store: PanelStore | null = null
mountPanel(panelRoot, shell, { onStore: (s) => { store = s } })
render(<PageInput shell={shell} store={store!} />, inputRoot)
