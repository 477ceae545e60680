// Provider and transport, as detected by the core, and selectors to force them.

import { PROVIDER_IDS, type ProviderId, type Transport } from '../../src/library.js'
import { usePanel } from '../context.js'

const TRANSPORTS: Transport[] = ['sse', 'ndjson', 'json', 'data-stream', 'eventstream', 'connect']

export function ForceSelect() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { row } = view
  const detectedProvider = view.latest.provider
  const detectedTransport = view.latest.transport
  return (
    <>
      <label title={view.providerReason ? `chosen by: ${view.providerReason}` : 'provider'}>
        provider{' '}
        <select
          data-testid="force-provider"
          aria-label="Provider"
          value={row.forced.provider ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value
            // a provider chosen here replaces user rules (they would win over it)
            const { rules: _rules, ...rest } = row.forced
            store.apply({ type: 'force', id: row.id, forced: { ...(v === '' ? row.forced : rest), provider: v === '' ? undefined : (v as ProviderId) } })
          }}
        >
          <option value="">auto ({row.frames > 0 ? detectedProvider : '…'})</option>
          {PROVIDER_IDS.map((p) => <option key={p} value={p}>{p}</option>)}
        </select>
      </label>
      <label title="framing">
        transport{' '}
        <select
          data-testid="force-transport"
          aria-label="Transport"
          value={row.forced.transport ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value
            store.apply({ type: 'force', id: row.id, forced: { ...row.forced, transport: v === '' ? undefined : (v as Transport) } })
          }}
        >
          <option value="">auto ({detectedTransport})</option>
          {TRANSPORTS.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </label>
    </>
  )
}
