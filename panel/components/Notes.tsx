// Messages about capture itself (live mode detached, a body cut at the cap, …).

import { usePanel } from '../context.js'

export function Notes() {
  const { store } = usePanel()
  const notes = store.notes.value
  if (notes.length === 0) return <div class="ds-notes" />
  return (
    <div class="ds-notes" role="log">
      {notes.map((n, i) => (
        <div key={i} class={`ds-note ${n.level}`} data-testid="note">
          <span>{n.message}</span>
          <button type="button" class="ds-link" onClick={() => store.dismissNote(i)} aria-label="Dismiss">dismiss</button>
        </div>
      ))}
    </div>
  )
}
