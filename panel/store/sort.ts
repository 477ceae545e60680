// How a click on a request-list column (request-columns.tsx) orders the list, and the widths the user
// dragged them to. As in the Network panel: the list starts in start-time order; a click on a
// column header sorts by it (ascending), a second click reverses it, a third goes back to start
// order. Rows that have no value for the column (a status not known yet, a stream still running
// has no duration) go last in both directions, so a reversal never buries the known ones.
// Equal values keep start order, so sorting is stable and the list does not shuffle as frames
// arrive. Pure rules (no DOM), tested without a browser.

import { signal, type Signal } from '@preact/signals'
import { REQUEST_COLUMNS, requestColumn, type ColumnKey } from '../request-columns.js'
import type { PanelShell } from '../shell.js'
import type { RequestRow } from './types.js'

/** A column's key (request-columns.tsx): the list is sorted by one column at a time. */
export type SortKey = ColumnKey
export type SortDirection = 'ascending' | 'descending'

export interface RequestSort {
  key: SortKey
  direction: SortDirection
}

/** The default: start time, as the rows come from the list (request-list.ts orders them so). */
export const START_ORDER: RequestSort = { key: 'start', direction: 'ascending' }

export const MAX_COLUMN_WIDTH = 600

/**
 * The rows in the order `sort` asks. `rows` must be in start order (the default); equal values
 * keep it. Returns `rows` itself for start order ascending.
 */
export function sortRows(rows: readonly RequestRow[], sort: RequestSort): readonly RequestRow[] {
  const sortBy = requestColumn(sort.key).sortBy
  if (sortBy === 'start order') return sort.direction === 'ascending' ? rows : [...rows].reverse()
  const sign = sort.direction === 'ascending' ? 1 : -1
  const keyed = rows.map((row, at) => ({ row, at, v: sortBy(row) }))
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.at - b.at : a.v === null ? 1 : -1
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v))
    return c !== 0 ? c * sign : a.at - b.at
  })
  return keyed.map((k) => k.row)
}

/** The sort after a click on column `key`: ascending, then descending, then start order again. */
export function nextSort(current: RequestSort, key: SortKey): RequestSort {
  if (current.key !== key) return { key, direction: 'ascending' }
  if (requestColumn(key).sortBy === 'start order') return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
  return current.direction === 'ascending' ? { key, direction: 'descending' } : START_ORDER
}

/** The aria-sort of column `key` under `sort`. */
export function ariaSort(sort: RequestSort, key: SortKey): 'ascending' | 'descending' | 'none' {
  return sort.key === key ? sort.direction : 'none'
}

// ---- widths ---------------------------------------------------------------------------------

export type ColumnWidths = Signal<Readonly<Record<SortKey, number>>>

const WIDTHS_KEY = 'deltascope.requests.columns'

export function defaultWidths(): Record<SortKey, number> {
  return Object.fromEntries(REQUEST_COLUMNS.map((c) => [c.key, c.width])) as Record<SortKey, number>
}

/** A column's width within its bounds. */
export function clampWidth(key: SortKey, width: number): number {
  const column = requestColumn(key)
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(column.min, width)))
}

/** Widths read from what was stored (JSON of key → px); anything unreadable or out of bounds falls back or is clamped. */
export function parseWidths(raw: string | null): Record<SortKey, number> {
  const widths = defaultWidths()
  if (raw === null) return widths
  let stored: unknown
  try {
    stored = JSON.parse(raw)
  } catch {
    return widths
  }
  if (typeof stored !== 'object' || stored === null) return widths
  for (const c of REQUEST_COLUMNS) {
    const v = (stored as Record<string, unknown>)[c.key]
    if (typeof v === 'number' && Number.isFinite(v)) widths[c.key] = clampWidth(c.key, v)
  }
  return widths
}

/** The widths, kept through the shell's storage when it has one (a refused write keeps them in memory). */
export function createColumnWidths(storage?: PanelShell['storage']): ColumnWidths {
  let raw: string | null = null
  try {
    raw = storage?.get(WIDTHS_KEY) ?? null
  } catch {
    // storage refused: the defaults
  }
  const widths = signal<Readonly<Record<SortKey, number>>>(parseWidths(raw))
  if (storage) {
    let first = true
    widths.subscribe((w) => {
      if (first) { first = false; return }
      try {
        storage.set(WIDTHS_KEY, JSON.stringify(w))
      } catch {
        // full or refused: kept in memory only
      }
    })
  }
  return widths
}

/** Room between two columns (px), as in panel.css. */
export const COLUMN_GAP = 4

/**
 * Whether the columns (their widths and the gaps) fit in `room` px of row. When they do, the
 * cells line up under the headers, as in the Network panel; when they do not (the list beside
 * the selection is a fifth of the panel), the cells wrap as labelled badges instead, so every
 * value stays readable rather than each being cut to a few letters.
 */
export function columnsFit(widths: Readonly<Record<SortKey, number>>, room: number): boolean {
  const sum = REQUEST_COLUMNS.reduce((n, c) => n + widths[c.key], 0)
  return sum + COLUMN_GAP * (REQUEST_COLUMNS.length - 1) <= room
}

/**
 * The CSS grid columns for `widths`. Each may still shrink (to 0): a row beside the list's
 * scrollbar is a little narrower than the head the fit was measured on.
 */
export function gridColumns(widths: Readonly<Record<SortKey, number>>): string {
  return REQUEST_COLUMNS.map((c) => `minmax(0, ${widths[c.key]}px)`).join(' ')
}
