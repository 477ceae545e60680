// The captured streaming requests, by start time. Arrows move the selection, Enter opens the
// frames, a right click (or the context-menu key) opens the request's menu.

import { useEffect, useRef } from 'preact/hooks'
import { usePanel } from '../context.js'
import { requestMenu } from '../menus.js'
import { openMenu } from './Menu.js'
import { RequestRowView } from './RequestRowView.js'
import { revealIn } from './scroll.js'

export function RequestList() {
  const ctx = usePanel()
  const { store, ui } = ctx
  const rows = store.rows.value
  const all = store.requests.value.length
  const selected = store.selectedId.value
  const listRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const el = listRef.current?.querySelector('[aria-selected="true"]')
    if (el) revealIn(el, listRef.current)
  }, [selected])

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return
    if (e.key === 'ArrowDown') store.moveRequest(1)
    else if (e.key === 'ArrowUp') store.moveRequest(-1)
    else if (e.key === 'Home') store.moveRequest(-Infinity)
    else if (e.key === 'End') store.moveRequest(Infinity)
    else if (e.key === 'Enter') {
      ui.tab.value = 'frames'
      const frames = listRef.current?.ownerDocument.querySelector<HTMLElement>('[data-testid="frame-list"]')
      frames?.focus()
    } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      const el = listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]')
      const row = rows.find((r) => r.id === selected)
      if (!el || !row) return
      const r = el.getBoundingClientRect()
      const at = new MouseEvent('contextmenu', { clientX: r.left + 16, clientY: r.bottom })
      openMenu(ui, at, `Request ${row.path}`, requestMenu(ctx, row.id, row.url, at), undefined, listRef.current)
    } else return
    e.preventDefault()
  }

  return (
    <>
      <div class="ds-pane-title">
        Streams <span data-testid="request-count">{rows.length}</span>{rows.length !== all ? ` of ${all}` : ''}
      </div>
      <div
        ref={listRef}
        class="ds-requests"
        role="listbox"
        aria-label="Streaming requests"
        tabIndex={0}
        data-testid="request-list"
        onKeyDown={onKeyDown}
      >
        {rows.map((row) => (
          <RequestRowView
            key={row.id}
            row={row}
            selected={row.id === selected}
            onSelect={() => store.select(row.id)}
            onMenu={(e) => openMenu(ui, e, `Request ${row.path}`, requestMenu(ctx, row.id, row.url, e), undefined, listRef.current)}
          />
        ))}
        {all === 0 && <div class="ds-empty">No streaming request yet. Streams (SSE, NDJSON) appear here as the page makes them.</div>}
        {all > 0 && rows.length === 0 && <div class="ds-empty">No request matches the filter.</div>}
      </div>
    </>
  )
}
