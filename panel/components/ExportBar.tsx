// Export the selected request: fixture, test file, HAR, raw body, JSON Lines, cURL.
// Credentials stay redacted unless "include credentials" is ticked.

import { usePanel } from '../context.js'
import { EXPORT_ACTIONS, runExport, type ExportAction } from '../exports.js'

export function ExportBar() {
  const { store, shell, ui } = usePanel()
  const id = store.selectedId.value
  const run = async (action: ExportAction) => {
    const source = id === null ? null : store.recordings.get(id)
    if (!source) return
    let message: string
    try {
      message = await runExport(action, source, shell, ui.includeCredentials.value)
    } catch (err) {
      message = `Export failed: ${err instanceof Error ? err.message : String(err)}`
    }
    ui.status.value = message
    setTimeout(() => { if (ui.status.value === message) ui.status.value = '' }, 6000)
  }
  return (
    <div class="ds-export" role="group" aria-label="Export" data-testid="export-bar">
      {EXPORT_ACTIONS.map((a) => (
        <button key={a.id} type="button" class="ds-button" title={a.title} data-testid={`export-${a.id}`} disabled={id === null} onClick={() => void run(a.id)}>
          {a.label}
        </button>
      ))}
      <label class="ds-check" title="Keep Authorization, cookies, API keys and tokens in the exports">
        <input
          type="checkbox"
          data-testid="include-credentials"
          checked={ui.includeCredentials.value}
          onChange={(e) => { ui.includeCredentials.value = e.currentTarget.checked }}
        />
        include credentials
      </label>
    </div>
  )
}
