// The captured streaming requests, by start time, or by the column whose header was clicked
// (store/sort.ts: ascending, descending, start order again), as in the Network panel. Arrows
// move the selection, Enter opens the frames, a right click (or the context-menu key) opens
// the request's menu. Column headers are buttons (Enter or Space sorts); the edge after each is
// a separator dragged (or moved with the arrow keys) to resize its column, remembered. When
// the columns do not fit (the list beside the selection is narrow), the headers wrap as sort
// buttons and each row's cells as badges: every value readable, nothing cut to a few letters.

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { requestMenu } from '../menus.js'
import {
  ariaSort, clampWidth, columnsFit, createColumnWidths, gridColumns, nextSort,
  type ColumnWidths, type SortKey,
} from '../store/sort.js'
import { REQUEST_COLUMNS, type RequestColumn } from '../request-columns.js'
import { openMenu } from './Menu.js'
import { RequestRowView } from './RequestRowView.js'
import { RowGroups } from './RowGroups.js'
import { revealIn } from './scroll.js'

export function RequestList() {
  const ctx = usePanel()
  const { store, ui, shell } = ctx
  const rows = store.rows.value
  const all = store.requests.value.length
  const selected = store.selectedId.value
  const listRef = useRef<HTMLDivElement>(null)
  const headRef = useRef<HTMLDivElement>(null)
  const widths = useMemo(() => createColumnWidths(shell.storage), [])
  // the room a row's cells have (the head is as wide): columns when they fit, else wrapped badges
  const [room, setRoom] = useState(Infinity)
  useLayoutEffect(() => {
    const el = headRef.current
    if (!el) return
    const measure = () => { if (el.clientWidth > 0) setRoom(el.clientWidth) }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  // the first start among all rows: the Start column counts from it
  const firstStart = useMemo(() => {
    let first: number | null = null
    for (const r of store.requests.value) if (r.startedAt !== null && (first === null || r.startedAt < first)) first = r.startedAt
    return first
  }, [store.requests.value])

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

  const fit = columnsFit(widths.value, room)
  const columns = gridColumns(widths.value)
  return (
    <>
      <div class="ds-pane-title">
        Streams <span data-testid="request-count">{rows.length}</span>{rows.length !== all ? ` of ${all}` : ''}
      </div>
      <div class={`ds-request-head${fit ? '' : ' wrapped'}`} role="table" aria-label="Request list columns: sort and width" data-testid="request-head" data-columns={fit ? 'aligned' : 'wrapped'}>
        <div role="row" ref={headRef} style={{ gridTemplateColumns: columns }}>
          {REQUEST_COLUMNS.map((c) => <ColumnHeader key={c.key} column={c} widths={widths} resizable={fit} />)}
        </div>
      </div>
      <div
        ref={listRef}
        class={`ds-requests${fit ? '' : ' wrapped'}`}
        role="listbox"
        aria-label="Streaming requests"
        tabIndex={0}
        data-testid="request-list"
        style={{ '--ds-req-cols': columns }}
        onKeyDown={onKeyDown}
      >
        <RowGroups rows={rows} selected={selected} extra={firstStart} render={(row, isSelected) => (
          <RequestRowView
            key={row.id}
            row={row}
            firstStart={firstStart}
            selected={isSelected}
            onSelect={() => store.select(row.id)}
            onMenu={(e) => openMenu(ui, e, `Request ${row.path}`, requestMenu(ctx, row.id, row.url, e), undefined, listRef.current)}
          />
        )} />
        {all === 0 && <div class="ds-empty">No streaming request yet. Streams (SSE, NDJSON) appear here as the page makes them.</div>}
        {all > 0 && rows.length === 0 && <div class="ds-empty">No request matches the filter.</div>}
      </div>
    </>
  )
}

/** Pixels an arrow key moves a column edge (ten times that with Shift). */
const STEP = 8

function ColumnHeader({ column, widths, resizable }: { column: RequestColumn<SortKey>; widths: ColumnWidths; resizable: boolean }) {
  const { store } = usePanel()
  const sort = store.sort.value
  const aria = ariaSort(sort, column.key)
  const drag = useRef<{ start: number; at: number } | null>(null)
  const width = widths.value[column.key]
  const set = (key: SortKey, w: number) => { widths.value = { ...widths.value, [key]: clampWidth(key, w) } }

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return
    e.preventDefault()
    e.stopPropagation()
    ;(e.currentTarget as HTMLElement).setPointerCapture(e.pointerId)
    drag.current = { start: width, at: e.clientX }
  }
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current
    if (d) set(column.key, d.start + e.clientX - d.at)
  }
  const onPointerUp = (e: PointerEvent) => {
    drag.current = null
    const el = e.currentTarget as HTMLElement
    if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? STEP * 10 : STEP
    if (e.key === 'ArrowLeft') set(column.key, width - step)
    else if (e.key === 'ArrowRight') set(column.key, width + step)
    else if (e.key === 'Home') set(column.key, column.min)
    else if (e.key === 'End') set(column.key, column.width)
    else return
    e.preventDefault()
  }

  const arrow = aria === 'ascending' ? ' ▲' : aria === 'descending' ? ' ▼' : ''
  return (
    <div class="ds-col-head" role="columnheader" aria-sort={aria} data-testid="request-column" data-key={column.key}>
      <button
        type="button"
        class="ds-col-sort"
        title={`${column.title}: click to sort${aria === 'none' ? '' : ` (now ${aria})`}`}
        onClick={() => { store.sort.value = nextSort(store.sort.peek(), column.key) }}
      >
        {column.label}{arrow}
      </button>
      {resizable && <div
        class="ds-col-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={`${column.title} column width`}
        aria-valuenow={width}
        aria-valuemin={column.min}
        tabIndex={0}
        data-testid="request-column-resize"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        onDblClick={() => set(column.key, column.width)}
      />}
    </div>
  )
}
