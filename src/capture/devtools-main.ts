// The devtools page: creates the Deltascope panel and runs the hub, which captures from the
// moment DevTools opens (also before the panel is first shown).

import browser from 'webextension-polyfill'
import { startHub } from './hub.js'

export const PANEL_TITLE = 'Deltascope'
/** Root-absolute: DevTools resolves a relative path against its own URL. */
export const PANEL_PAGE = '/extension/panel.html'
/** Also a manifest icon, so the build copies it to the same path. */
export const PANEL_ICON = '/extension/icons/icon-32.png'

startHub()
void browser.devtools.panels.create(PANEL_TITLE, PANEL_ICON, PANEL_PAGE)
