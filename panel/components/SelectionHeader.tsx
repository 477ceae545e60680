// What the selected request is: URL (cut in the middle when long, whole on hover), status,
// frame count, the detection (forceable), exports (a menu when they do not fit).

import { formatBytes, formatDuration } from '../format.js'
import { usePanel } from '../context.js'
import { ExportBar } from './ExportBar.js'
import { ForceSelect } from './ForceSelect.js'
import { PinToggle } from './MemoryBudget.js'
import { MiddleEllipsis } from './MiddleEllipsis.js'
import { RulesButton } from './RulesEditor.js'

export function SelectionHeader() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { row } = view
  return (
    <div class="ds-sel-head">
      <div class="ds-sel-title" title={row.url}>
        <b>{row.method}</b> <MiddleEllipsis text={row.url} tail={32} testid="selection-url" />
      </div>
      <div class="ds-sel-facts">
        <span>status <b>{row.status ?? '—'}</b></span>
        <span><b data-testid="frame-count">{view.frameCount}</b> frame{view.frameCount === 1 ? '' : 's'}</span>
        {row.broken > 0 && <span class="ds-badge bad">{row.broken} broken</span>}
        <span>{formatBytes(row.bytes)}</span>
        <span>{formatDuration(row.duration)}</span>
        <span class={`ds-state-${row.state}`} data-testid="request-state">{row.state}</span>
        {row.incomplete && <span class="ds-badge warn" title={row.incomplete}>incomplete</span>}
        {row.listedBecause !== undefined && <span class="ds-badge" title={row.listedBecause} data-testid="listed-because">sniffed</span>}
        <ForceSelect />
        <RulesButton />
        <PinToggle id={view.id} pinned={row.pinned === true} />
      </div>
      <ExportBar />
    </div>
  )
}
