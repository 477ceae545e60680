// The whole panel: toolbar, notes, request list, and the selected request, laid out for the
// width there is (panel/layout.ts): the list beside the selection with a splitter, or above
// it in a narrow panel (DevTools docked to the side). Nothing is ever wider than the panel.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { pageCompareFor } from '../page-compare.js'
import { listHeightFor, listWidthFor, MIN_LIST, MIN_LIST_HEIGHT, STACK_BELOW } from '../layout.js'
import { Menu } from './Menu.js'
import { Notes } from './Notes.js'
import { RequestList } from './RequestList.js'
import { SelectionPane } from './SelectionPane.js'
import { Splitter } from './Splitter.js'
import { Toolbar } from './Toolbar.js'

export function App() {
  const { ui, store, shell } = usePanel()
  // "Compare every stream with the page" watches the streams whether or not the compare pane is open
  pageCompareFor(store, shell)
  const filterRef = useRef<HTMLInputElement>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const mainRef = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState({ width: 1024, height: 600 })

  useLayoutEffect(() => {
    const el = mainRef.current
    const root = rootRef.current
    if (!el || !root) return
    const measure = () => setSize({ width: root.clientWidth, height: el.clientHeight })
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(root)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  useEffect(() => {
    const doc = rootRef.current?.ownerDocument
    if (!doc) return
    // Ctrl/Cmd+F: the frame search when a request is selected (again: the request filter), else
    // the filter. Every other shortcut is left to the host. (In DevTools the host's own search
    // bar takes Ctrl+F first; the shell may relay it: PanelShell.onSearch.)
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'f') return
      e.preventDefault()
      const focus = (el: HTMLInputElement | null | undefined) => { el?.focus(); el?.select() }
      const find = () => doc.querySelector<HTMLInputElement>('[data-testid="frame-search"]')
      const search = find()
      if (store.selectedId.peek() === null || (search !== null && doc.activeElement === search)) {
        focus(filterRef.current)
      } else if (search) {
        focus(search)
      } else {
        // a narrow panel showing the Reply tab: the Frames tab first, then its box once rendered
        ui.tab.value = 'frames'
        setTimeout(() => focus(find()), 0)
      }
    }
    doc.addEventListener('keydown', onKey)
    return () => doc.removeEventListener('keydown', onKey)
  }, [])

  const stacked = size.width < STACK_BELOW
  const { listWidth, listHeight } = ui.sizes
  const width = listWidthFor(size.width, listWidth.value)
  const height = listHeightFor(size.height, listHeight.value)
  const template = stacked
    ? { gridTemplateRows: `${height}px auto minmax(0, 1fr)`, gridTemplateColumns: 'minmax(0, 1fr)' }
    : { gridTemplateColumns: `${width}px auto minmax(0, 1fr)`, gridTemplateRows: 'minmax(0, 1fr)' }

  return (
    <div ref={rootRef} class="ds-root ds-theme" data-theme={ui.theme.value} data-layout={stacked ? 'stacked' : 'side'}>
      <Toolbar filterRef={filterRef} />
      <Notes />
      <div ref={mainRef} class="ds-main" style={template}>
        <section class="ds-pane" aria-label="Requests">
          <RequestList />
        </section>
        {stacked
          ? <Splitter orientation="horizontal" label="Request list height" value={height} min={MIN_LIST_HEIGHT} max={listHeightFor(size.height, Infinity)} onChange={(v) => { listHeight.value = v }} testid="split-requests" />
          : <Splitter orientation="vertical" label="Request list width" value={width} min={MIN_LIST} max={listWidthFor(size.width, Infinity)} onChange={(v) => { listWidth.value = v }} testid="split-requests" />}
        <section class="ds-pane" aria-label="Selected request">
          <SelectionPane />
        </section>
      </div>
      <Menu />
    </div>
  )
}
