// The captured streaming requests. Arrows move the selection, Enter opens the frames.

import { useEffect, useRef } from 'preact/hooks'
import { usePanel } from '../context.js'
import { RequestRowView } from './RequestRowView.js'
import { revealIn } from './scroll.js'

export function RequestList() {
  const { store } = usePanel()
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
      const frames = listRef.current?.ownerDocument.querySelector<HTMLElement>('[data-testid="frame-list"]')
      frames?.focus()
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
          <RequestRowView key={row.id} row={row} selected={row.id === selected} onSelect={() => store.select(row.id)} />
        ))}
        {all === 0 && <div class="ds-empty">No streaming request yet. Streams (SSE, NDJSON) appear here as the page makes them.</div>}
        {all > 0 && rows.length === 0 && <div class="ds-empty">No request matches the filter.</div>}
      </div>
    </>
  )
}
