// "or diff with another request…": its options (one per other request: 10,000 from one HAR)
// are built when the select is first reached (focus, pointer, key), not on every change of the
// request list while it sits closed.

import { useMemo, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { oneLine } from '../format.js'

export function CompareRequestSelect({ id, onPick }: { id: string; onPick: (other: string) => void }) {
  const { store } = usePanel()
  const [armed, setArmed] = useState(false)
  const requests = store.requests.value
  const options = useMemo(
    () => (armed ? requests.filter((r) => r.id !== id).map((r) => <option key={r.id} value={r.id}>{oneLine(`${r.method} ${r.path}`, 60)} ({r.frames} frame{r.frames === 1 ? '' : 's'})</option>) : null),
    [armed, requests, id],
  )
  const arm = () => { if (!armed) setArmed(true) }
  return (
    <select aria-label="Another request to compare with" data-testid="compare-request" value="" onFocus={arm} onPointerDown={arm} onKeyDown={arm} onChange={(e) => onPick((e.target as HTMLSelectElement).value)}>
      <option value="">another request…</option>
      {options}
    </select>
  )
}
