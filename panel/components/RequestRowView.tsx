// One request: method and path, then status, provider, frames, broken frames, size, duration, state.

import { formatBytes, formatDuration } from '../format.js'
import type { RequestRow } from '../store.js'

export function RequestRowView({ row, selected, onSelect }: { row: RequestRow; selected: boolean; onSelect: () => void }) {
  const statusBad = row.status !== null && row.status >= 400
  return (
    <div
      class="ds-request"
      role="option"
      aria-selected={selected}
      data-testid="request-row"
      data-id={row.id}
      data-state={row.state}
      title={row.url}
      onClick={onSelect}
    >
      <div class="ds-request-name">
        <span class="ds-method">{row.method}</span>
        <span class="ds-path">{row.path}</span>
      </div>
      <div class="ds-request-meta">
        <span class={`ds-badge${statusBad ? ' bad' : ''}`} title="HTTP status">{row.status ?? '—'}</span>
        <span class="ds-badge" title="Provider">{row.provider ?? '…'}</span>
        <span class="ds-badge" title="Frames"><span data-testid="request-frames">{row.frames}</span> fr</span>
        {row.broken > 0 && <span class="ds-badge bad" title="Frames that failed to parse" data-testid="request-broken">{row.broken} broken</span>}
        {row.streamErrors > 0 && <span class="ds-badge bad" title="Errors sent by the provider">{row.streamErrors} error{row.streamErrors === 1 ? '' : 's'}</span>}
        <span class="ds-badge" title="Body size">{formatBytes(row.bytes)}{row.truncated ? ' (cut)' : ''}</span>
        <span class="ds-badge" title="Duration">{formatDuration(row.duration)}</span>
        <span class={`ds-badge ds-state-${row.state}`} title={row.cancelReason ?? 'State'}>{row.state}</span>
      </div>
    </div>
  )
}
