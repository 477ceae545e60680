// Messages about capture itself (live mode detached, a body cut at the cap, …): each message
// once, with how many times it was said; each can be dismissed, and Clear removes them all.

import { usePanel } from '../context.js'

export function Notes() {
  const { store } = usePanel()
  const notes = store.notes.value
  if (notes.length === 0) return <div class="ds-notes" />
  return (
    <div class="ds-notes" role="log" aria-label="Notes">
      {notes.map((n, i) => (
        <div key={`${n.level}:${n.message}`} class={`ds-note ${n.level}`} data-testid="note">
          <span class="ds-note-text">{n.message}</span>
          {n.count !== undefined && <span class="ds-note-count" data-testid="note-count" title={`said ${n.count} times`}>×{n.count}</span>}
          <button type="button" class="ds-note-close" onClick={() => store.dismissNote(i)} aria-label="Dismiss" title="Dismiss">✕</button>
        </div>
      ))}
      {notes.length > 1 && (
        <button type="button" class="ds-link ds-notes-all" data-testid="notes-dismiss-all" onClick={() => store.clearNotes()}>dismiss all {notes.length} notes</button>
      )}
    </div>
  )
}
