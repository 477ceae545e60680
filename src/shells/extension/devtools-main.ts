// The devtools page: creates the Deltascope panel and runs the hub, which captures from the
// moment DevTools opens (also before the panel is first shown).

import browser from 'webextension-polyfill'
import { startHub } from './hub.js'
import { controlChannelName, sender } from './messages.js'

export const PANEL_TITLE = 'Deltascope'
/** Root-absolute: DevTools resolves a relative path against its own URL. */
export const PANEL_PAGE = '/src/shells/extension/panel.html'
/** Also a manifest icon, so the build copies it to the same path. */
export const PANEL_ICON = '/src/shells/extension/icons/icon-32.png'

startHub()
void browser.devtools.panels.create(PANEL_TITLE, PANEL_ICON, PANEL_PAGE).then((panel) => {
  // DevTools' search bar (Ctrl/Cmd+F while the panel is shown) reports here, in the devtools
  // page: relay it to the panel, which runs its frame search. Chrome has onSearch; Firefox none.
  const onSearch = (panel as { onSearch?: { addListener(cb: (action: string, query?: string) => void): void } }).onSearch
  if (!onSearch) return
  const toPanel = sender<'hub→panel'>(new BroadcastChannel(controlChannelName(browser.devtools.inspectedWindow.tabId)))
  onSearch.addListener((action, query) => {
    if (action === 'performSearch' || action === 'nextSearchResult' || action === 'previousSearchResult' || action === 'cancelSearch') {
      toPanel(query === undefined ? { type: 'search', action } : { type: 'search', action, query })
    }
  })
})
