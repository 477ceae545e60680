// "Search frames": plain text (any case) or /regex/flags over the selected request's frames.
// The list narrows to the frames that match, "N of M" says how many, Enter and Shift+Enter
// step through them, and the reply marks the text they produced (store/search.ts does the
// searching, in slices on long streams). Escape empties the box.

import { usePanel } from '../context.js'

export function FrameSearch() {
  const { store } = usePanel()
  const view = store.selection.value
  const search = view?.search ?? null
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault()
      store.searchStep(e.shiftKey ? -1 : 1)
    } else if (e.key === 'Escape' && store.search.value !== '') {
      e.preventDefault()
      store.search.value = ''
    }
  }
  const pct = search && !search.done && search.total > 0 ? Math.floor((100 * search.scanned) / search.total) : null
  return (
    <div class="ds-search" role="search">
      <input
        class="ds-search-input"
        type="search"
        aria-label="Search frames"
        aria-invalid={search?.error ? true : undefined}
        aria-describedby="ds-search-status"
        placeholder="Search frames: text or /regex/ (Ctrl+F)"
        data-testid="frame-search"
        spellcheck={false}
        value={store.search.value}
        onInput={(e) => { store.search.value = e.currentTarget.value }}
        onKeyDown={onKeyDown}
      />
      <span id="ds-search-status" class="ds-search-status" aria-live="polite">
        {search?.error
          ? <span class="ds-search-error" data-testid="search-error">{search.error}</span>
          : search && (
            <>
              <span data-testid="search-count" data-done={String(search.done)}>{search.count} of {search.total}</span>
              {pct !== null && <span class="ds-status"> · searching {pct}%</span>}
            </>
          )}
      </span>
      {search && !search.error && search.count > 0 && (
        <span class="ds-search-steps">
          <button type="button" class="ds-button" aria-label="Previous match (Shift+Enter)" title="Previous match (Shift+Enter)" onClick={() => store.searchStep(-1)}>▲</button>
          <button type="button" class="ds-button" aria-label="Next match (Enter)" title="Next match (Enter)" onClick={() => store.searchStep(1)}>▼</button>
        </span>
      )}
    </div>
  )
}
