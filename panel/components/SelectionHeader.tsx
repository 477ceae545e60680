// What the selected request is: URL, status, frame count, the detection (forceable), exports.

import { formatBytes, formatDuration } from '../format.js'
import { usePanel } from '../context.js'
import { ExportBar } from './ExportBar.js'
import { ForceSelect } from './ForceSelect.js'

export function SelectionHeader() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { row } = view
  return (
    <div class="ds-sel-head">
      <div class="ds-sel-title" title={row.url}>
        <b>{row.method}</b> {row.url}
      </div>
      <div class="ds-sel-facts">
        <span>status <b>{row.status ?? '—'}</b></span>
        <span><b data-testid="frame-count">{view.frameCount}</b> frames</span>
        {row.broken > 0 && <span class="ds-badge bad">{row.broken} broken</span>}
        <span>{formatBytes(row.bytes)}</span>
        <span>{formatDuration(row.duration)}</span>
        <span class={`ds-state-${row.state}`} data-testid="request-state">{row.state}</span>
        <ForceSelect />
      </div>
      <ExportBar />
    </div>
  )
}
