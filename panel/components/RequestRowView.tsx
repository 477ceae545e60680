// One request: method and path (cut in the middle, so the query that tells requests apart
// stays), then status, provider, frames, broken frames, size, duration, state. A stream that
// ended incomplete (cut, cancelled, no terminal event) carries a mark with the reason on hover.

import { formatBytes, formatDuration, plural } from '../format.js'
import type { RequestRow } from '../store.js'
import { MiddleEllipsis } from './MiddleEllipsis.js'

interface Props {
  row: RequestRow
  selected: boolean
  onSelect: () => void
  onMenu: (e: MouseEvent) => void
}

export function RequestRowView({ row, selected, onSelect, onMenu }: Props) {
  const statusBad = row.status !== null && row.status >= 400
  return (
    <div
      class={`ds-request${row.incomplete ? ' incomplete' : ''}`}
      role="option"
      aria-selected={selected}
      data-testid="request-row"
      data-id={row.id}
      data-state={row.state}
      data-incomplete={row.incomplete ? 'true' : undefined}
      title={row.url}
      onClick={onSelect}
      onContextMenu={(e) => { e.preventDefault(); onSelect(); onMenu(e) }}
    >
      <div class="ds-request-name">
        {row.incomplete && (
          <span class="ds-incomplete-mark" data-testid="request-incomplete" title={`Incomplete: ${row.incomplete}`} aria-label={`incomplete: ${row.incomplete}`} role="img">⚠</span>
        )}
        <span class="ds-method">{row.method}</span>
        <MiddleEllipsis class="ds-path" text={row.path} tail={20} />
      </div>
      <div class="ds-request-meta">
        <span class={`ds-badge${statusBad ? ' bad' : ''}`} title="HTTP status">{row.status ?? '—'}</span>
        <span class="ds-badge" title="Provider">{row.provider ?? '…'}</span>
        <span class="ds-badge" title={plural(row.frames, 'frame')}><span data-testid="request-frames">{row.frames}</span> fr</span>
        {row.broken > 0 && <span class="ds-badge bad" title="Frames that failed to parse" data-testid="request-broken">{row.broken} broken</span>}
        {row.streamErrors > 0 && <span class="ds-badge bad" title="Errors sent by the provider">{plural(row.streamErrors, 'error')}</span>}
        <span class="ds-badge" title="Body size">{formatBytes(row.bytes)}{row.truncated ? ' (cut)' : ''}</span>
        <span class="ds-badge" title="Duration">{formatDuration(row.duration)}</span>
        <span class={`ds-badge ds-state-${row.state}`} title={row.incomplete ?? row.cancelReason ?? 'State'}>{row.state}</span>
      </div>
    </div>
  )
}
