// One request: method and path (cut in the middle, so the query that tells requests apart
// stays), then a line of cells under the list's column headers (RequestList, store/sort.ts):
// start, status, provider, frames (and broken frames), size, duration, state. A stream that
// ended incomplete (cut, cancelled, no terminal event) carries a mark with the reason on hover;
// a request dropped onto the panel from a file says it was imported.

import { formatBytes, formatClock, formatDuration, plural } from '../format.js'
import type { RequestRow } from '../store.js'
import { MiddleEllipsis } from './MiddleEllipsis.js'

interface Props {
  row: RequestRow
  /** The first start in the list: the Start cell counts from it. */
  firstStart: number | null
  selected: boolean
  onSelect: () => void
  onMenu: (e: MouseEvent) => void
}

/** The Start cell: time since the first request in the list started. */
export function startCell(startedAt: number | null, firstStart: number | null): string {
  if (startedAt === null || firstStart === null) return '—'
  const since = startedAt - firstStart
  return since <= 0 ? '0' : `+${formatDuration(since)}`
}

export function RequestRowView({ row, firstStart, selected, onSelect, onMenu }: Props) {
  const statusBad = row.status !== null && row.status >= 400
  return (
    <div
      class={`ds-request${row.incomplete ? ' incomplete' : ''}`}
      role="option"
      aria-selected={selected}
      data-testid="request-row"
      data-id={row.id}
      data-state={row.state}
      data-source={row.source}
      data-url={row.url}
      data-incomplete={row.incomplete ? 'true' : undefined}
      title={row.listedBecause !== undefined ? `${row.url}\n${row.listedBecause}` : row.url}
      onClick={onSelect}
      onContextMenu={(e) => { e.preventDefault(); onSelect(); onMenu(e) }}
    >
      <div class="ds-request-name">
        {row.incomplete && (
          <span class="ds-incomplete-mark" data-testid="request-incomplete" title={`Incomplete: ${row.incomplete}`} aria-label={`incomplete: ${row.incomplete}`} role="img">⚠</span>
        )}
        <span class="ds-method">{row.method}</span>
        <MiddleEllipsis class="ds-path" text={row.path} tail={20} />
        {row.pinned && <span class="ds-pinned" data-testid="request-pinned" title="Pinned: the memory budget keeps it" aria-label="pinned" role="img">📌</span>}
        {row.source === 'import' && <span class="ds-imported" data-testid="request-imported" title="Imported from a file dropped on the panel">imported</span>}
        {row.page && (
          <span class={`ds-page-verdict ${row.page.state}`} data-testid="request-page" data-state={row.page.state} data-cause={row.page.cause} title={row.page.message} role="img"
            aria-label={row.page.state === 'equal' ? 'the page shows it right' : row.page.state === 'differs' ? `the page differs: ${row.page.cause}` : 'not shown by the page'}>
            {row.page.state === 'equal' ? '✓' : row.page.state === 'differs' ? '✗' : 'not shown'}
          </span>
        )}
      </div>
      <div class="ds-request-meta">
        <span class="ds-badge" title={`Started ${formatClock(row.startedAt)}`} data-testid="request-start">{startCell(row.startedAt, firstStart)}</span>
        <span class={`ds-badge${statusBad ? ' bad' : ''}`} title="HTTP status" data-testid="request-status">{row.status ?? '—'}</span>
        <span class="ds-badge" title={`Provider: ${row.provider ?? 'not known yet'}`}>{row.provider ?? '…'}</span>
        <span class="ds-badge" title={row.broken > 0 ? `${plural(row.frames, 'frame')}, ${row.broken} broken` : plural(row.frames, 'frame')}>
          <span data-testid="request-frames">{row.frames}</span><span class="ds-unit"> fr</span>
          {row.broken > 0 && <> <span class="bad" data-testid="request-broken">{row.broken} broken</span></>}
          {row.streamErrors > 0 && <> <span class="bad" title="Errors sent by the provider">{plural(row.streamErrors, 'error')}</span></>}
        </span>
        <span class="ds-badge" title="Body size" data-testid="request-size">{formatBytes(row.bytes)}{row.truncated ? ' (cut)' : ''}</span>
        <span class="ds-badge" title="Duration" data-testid="request-duration">{formatDuration(row.duration)}</span>
        <span class={`ds-badge ds-state-${row.state}`} title={row.incomplete ?? row.cancelReason ?? 'State'}>{row.state}</span>
      </div>
    </div>
  )
}
