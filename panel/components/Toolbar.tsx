// Filter box, preserve log, hide pings, clear (requests and notes), and live capture where the
// shell offers it.

import type { RefObject } from 'preact'
import { useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { MemoryBudgetSelect } from './MemoryBudget.js'

export function Toolbar({ filterRef }: { filterRef: RefObject<HTMLInputElement> }) {
  const { store, shell, ui } = usePanel()
  const live = store.live.value
  const [busy, setBusy] = useState(false)
  const toggleLive = async (enabled: boolean) => {
    if (!shell.live) return
    setBusy(true)
    try {
      const result = await shell.live.setEnabled(enabled)
      // the shell also reports it (a `live` event), and every later change (a detach, …)
      if (result.ok) store.apply({ type: 'live', enabled })
      if (result.message) store.apply({ type: 'note', level: result.ok ? 'info' : 'warning', message: result.message })
    } finally {
      // a refused change: the checkbox shows the state there is again
      setBusy(false)
    }
  }
  return (
    <div class="ds-toolbar" role="toolbar" aria-label="Deltascope">
      <input
        ref={filterRef}
        class="ds-filter"
        type="search"
        placeholder="Filter requests"
        aria-label="Filter requests"
        data-testid="filter"
        value={store.filter.value}
        onInput={(e) => { store.filter.value = e.currentTarget.value }}
        onKeyDown={(e) => { if (e.key === 'Escape') { store.filter.value = ''; e.currentTarget.blur() } }}
      />
      <label class="ds-check" title="Keep requests when the page navigates">
        <input type="checkbox" checked={store.preserveLog.value} onChange={(e) => { store.preserveLog.value = e.currentTarget.checked }} />
        Preserve log
      </label>
      <label class="ds-check" title="Hide comments, pings, keep-alives and [DONE] in the frame list">
        <input type="checkbox" data-testid="hide-dimmed" checked={store.hideDimmed.value} onChange={(e) => { store.hideDimmed.value = e.currentTarget.checked }} />
        Hide pings &amp; [DONE]
      </label>
      {shell.live && (
        <label
          class="ds-check"
          title={`Capture streams while they arrive (${shell.live.mechanism})${live.message ? `. Last change: ${live.message}` : ''}`}
        >
          <input
            type="checkbox"
            data-testid="live-toggle"
            checked={live.enabled}
            disabled={busy}
            onChange={(e) => { void toggleLive(e.currentTarget.checked) }}
          />
          Live
        </label>
      )}
      <MemoryBudgetSelect />
      <button type="button" class="ds-button" data-testid="clear" title="Remove every request and note" onClick={() => { store.clear(); store.clearNotes() }}>Clear</button>
      <span class="ds-spacer" />
      <span class="ds-status" role="status">{ui.status.value}</span>
    </div>
  )
}
