// Export the selected request: fixture, test file, HAR, raw body, JSON Lines, cURL. The actions
// are buttons while they fit on the header's line, else one "Export" button with them as its
// menu (measured: the row's natural width is remembered, so it comes back when there is room).
// Credentials stay redacted unless "include credentials" is ticked; the Redact button beside it
// edits the user's own list (RedactionSettings.tsx), applied to every export.

import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { say, usePanel } from '../context.js'
import { EXPORT_ACTIONS, runExport, type ExportAction } from '../exports.js'
import { exportItems } from '../menus.js'
import { openMenu } from './Menu.js'
import { RedactionSettings } from './RedactionSettings.js'

export function ExportBar() {
  const ctx = usePanel()
  const { store, shell, ui } = ctx
  const id = store.selectedId.value
  const ref = useRef<HTMLDivElement>(null)
  /** The width the buttons need on one line, once they did not fit; null while they do. */
  const [needed, setNeeded] = useState<number | null>(null)

  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const check = () => {
      const row = el.querySelector<HTMLElement>('.ds-export-actions')
      const label = el.querySelector<HTMLElement>('.ds-export-extra')
      // the room the buttons would have: the bar, less the checkbox and the Redact button beside them and the gap
      const room = el.clientWidth - (label?.offsetWidth ?? 0) - 8
      if (needed === null && row && row.scrollWidth > row.clientWidth + 1) setNeeded(row.scrollWidth)
      else if (needed !== null && room >= needed) setNeeded(null)
    }
    check()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(check)
    ro.observe(el)
    return () => ro.disconnect()
  }, [needed])

  const run = async (action: ExportAction) => {
    const source = id === null ? null : await store.recordings.load(id)
    if (!source) return
    try {
      say(ui, await runExport(action, source, shell, ui.includeCredentials.value, store.redaction.rules.peek()))
    } catch (err) {
      say(ui, `Export failed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const credentials = (
    <label class="ds-check" title="Keep Authorization, cookies, API keys and tokens in the exports">
      <input
        type="checkbox"
        data-testid="include-credentials"
        checked={ui.includeCredentials.value}
        onChange={(e) => { ui.includeCredentials.value = e.currentTarget.checked }}
      />
      include credentials
    </label>
  )
  return (
    <div ref={ref} class="ds-export" role="group" aria-label="Export" data-testid="export-bar" data-collapsed={needed !== null || undefined}>
      {needed === null
        ? (
          <div class="ds-export-actions">
            {EXPORT_ACTIONS.map((a) => (
              <button key={a.id} type="button" class="ds-button" title={a.title} data-testid={`export-${a.id}`} disabled={id === null} onClick={() => void run(a.id)}>
                {a.label}
              </button>
            ))}
          </div>
        )
        : (
          <button
            type="button"
            class="ds-button"
            aria-haspopup="menu"
            data-testid="export-menu"
            disabled={id === null}
            onClick={(e) => { if (id !== null) openMenu(ui, e.currentTarget, 'Export', exportItems(ctx, id), 'export-actions') }}
          >
            Export ▾
          </button>
        )}
      <div class="ds-export-extra">
        {credentials}
        <RedactionSettings />
      </div>
    </div>
  )
}
