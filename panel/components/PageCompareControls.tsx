// "Compare with the page" beside "Compare with my client" (DevTools only): the button, the
// picker, the selector remembered for the page's origin, and the toggle that compares every
// stream that finishes with the newest element the selector matches (its row shows ✓ or ✗).
// The page's text is never shown here but through the comparison, as text.

import { usePanel } from '../context.js'
import { pageCompareFor } from '../page-compare.js'

export function PageCompareControls({ id }: { id: string }) {
  const { store, shell } = usePanel()
  const page = pageCompareFor(store, shell)
  if (!page) return null
  const selector = page.selector.value
  const picking = page.picking.value
  return (
    <div class="ds-page-compare" data-testid="page-compare">
      <div class="ds-compare-actions">
        <button type="button" class="ds-button" data-testid="compare-page" disabled={page.busy.value || picking} onClick={() => void page.compare(id)}
          title="Compare the text the inspected page shows for this reply with the reply rebuilt here (its Markdown rendered, or raw)">
          Compare with the page
        </button>
        {picking
          ? <button type="button" class="ds-button" data-testid="page-pick-cancel" onClick={() => void page.cancelPick()}>Cancel pick</button>
          : <button type="button" class="ds-button" data-testid="page-pick" disabled={page.busy.value} onClick={() => void page.pick(id)}
              title="Hover the reply in the page and click it (Escape cancels)">Pick</button>}
        <label class="ds-page-selector">
          Selector{' '}
          <input
            type="text"
            aria-label="Selector"
            data-testid="page-selector"
            spellcheck={false}
            placeholder="found by the reply's text"
            value={selector ?? ''}
            onChange={(e) => page.setSelector((e.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <label class="ds-page-every" title={selector === null ? 'Pick the reply or type a selector first' : `Each stream that finishes is compared with the newest ${selector}`}>
        <input type="checkbox" data-testid="page-every" checked={page.everyStream.value} onChange={(e) => page.setEveryStream((e.target as HTMLInputElement).checked)} />
        {' '}Compare every stream with the page
      </label>
      {page.status.value !== '' && <div class="ds-page-status" data-testid="page-status" role="status">{page.status.value}</div>}
      {page.origin.value !== '' && selector !== null && <div class="ds-page-origin" data-testid="page-origin">Selector kept for {page.origin.value}</div>}
    </div>
  )
}
