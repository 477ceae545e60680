// The request list's columns, each one entry: its header (label, title), its width, what a
// click on its header sorts by, and its cell in a row's second line. The header
// (components/RequestList.tsx), the row (components/RequestRowView.tsx), the sort and the widths
// (store/sort.ts) all map over this one list, so a column is added here and nowhere else; `cell`
// is required, so a header without its cell does not compile.
//
// The cells are vnodes, not DOM: the store's worker imports this list for the sort values, and
// preact (already there for the signals) is all the cells bring with them.

import type { JSX } from 'preact'
import { formatBytes, formatClock, formatDuration, plural } from './format.js'
import type { RequestRow } from './store/types.js'

/** What a cell needs besides its row. */
export interface CellContext {
  /** The first start in the list: the Start cell counts from it. */
  firstStart: number | null
}

/** The value a row is sorted by; null: none known (such rows go last in both directions). */
export type SortValue = number | string | null

export interface RequestColumn<K extends string = string> {
  key: K
  label: string
  /** What the header says on hover (and to a screen reader, with the sort). */
  title: string
  /** Width in px before the user drags it, and the narrowest it may be dragged. */
  width: number
  min: number
  /**
   * What a click on the header sorts by. 'start order': the list's own order (rows come from
   * the list in start order), so sorting by it is a reversal at most.
   */
  sortBy: ((row: RequestRow) => SortValue) | 'start order'
  /** The cell under the header, in a row's second line. */
  cell: (row: RequestRow, context: CellContext) => JSX.Element
}

/** The Start cell: time since the first request in the list started. */
export function startCell(startedAt: number | null, firstStart: number | null): string {
  if (startedAt === null || firstStart === null) return '—'
  const since = startedAt - firstStart
  return since <= 0 ? '0' : `+${formatDuration(since)}`
}

/** The columns of a row's second line, in order; the first line (method and path) is above them. */
export const REQUEST_COLUMNS = [
  {
    key: 'start', label: 'Start', title: 'Start time', width: 52, min: 28,
    sortBy: 'start order',
    cell: (row, { firstStart }) => <span class="ds-badge" title={`Started ${formatClock(row.startedAt)}`} data-testid="request-start">{startCell(row.startedAt, firstStart)}</span>,
  },
  {
    key: 'status', label: 'Status', title: 'HTTP status', width: 38, min: 24,
    sortBy: (row) => row.status,
    cell: (row) => <span class={`ds-badge${row.status !== null && row.status >= 400 ? ' bad' : ''}`} title="HTTP status" data-testid="request-status">{row.status ?? '—'}</span>,
  },
  {
    key: 'provider', label: 'Provider', title: 'Provider', width: 70, min: 28,
    sortBy: (row) => row.provider,
    cell: (row) => <span class="ds-badge" title={`Provider: ${row.provider ?? 'not known yet'}`}>{row.provider ?? '…'}</span>,
  },
  {
    key: 'frames', label: 'Frames', title: 'Frames (and broken frames)', width: 84, min: 24,
    sortBy: (row) => row.frames,
    cell: (row) => (
      <span class="ds-badge" title={row.broken > 0 ? `${plural(row.frames, 'frame')}, ${row.broken} broken` : plural(row.frames, 'frame')}>
        <span data-testid="request-frames">{row.frames}</span><span class="ds-unit"> fr</span>
        {row.broken > 0 && <> <span class="bad" data-testid="request-broken">{row.broken} broken</span></>}
        {row.streamErrors > 0 && <> <span class="bad" title="Errors sent by the provider">{plural(row.streamErrors, 'error')}</span></>}
      </span>
    ),
  },
  {
    key: 'size', label: 'Size', title: 'Body size', width: 46, min: 28,
    sortBy: (row) => row.bytes,
    cell: (row) => <span class="ds-badge" title="Body size" data-testid="request-size">{formatBytes(row.bytes)}{row.truncated ? ' (cut)' : ''}</span>,
  },
  {
    key: 'duration', label: 'Time', title: 'Duration', width: 46, min: 28,
    sortBy: (row) => row.duration,
    cell: (row) => <span class="ds-badge" title="Duration" data-testid="request-duration">{formatDuration(row.duration)}</span>,
  },
  {
    key: 'state', label: 'State', title: 'State', width: 56, min: 28,
    sortBy: (row) => row.state,
    cell: (row) => <span class={`ds-badge ds-state-${row.state}`} title={row.incomplete ?? row.cancelReason ?? 'State'}>{row.state}</span>,
  },
] as const satisfies readonly RequestColumn[]

/** A column's key: what the sort and the widths are keyed by. */
export type ColumnKey = (typeof REQUEST_COLUMNS)[number]['key']

/** The column `key` names. */
export function requestColumn(key: ColumnKey): RequestColumn<ColumnKey> {
  return REQUEST_COLUMNS.find((c) => c.key === key)!
}
