// One request: method and path (cut in the middle, so the query that tells requests apart
// stays), then a line of cells under the list's column headers, one per column of
// request-columns.tsx (the header maps over the same list). A stream that
// ended incomplete (cut, cancelled, no terminal event) carries a mark with the reason on hover;
// a request dropped onto the panel from a file says it was imported.

import { Fragment } from 'preact'
import { REQUEST_COLUMNS } from '../request-columns.js'
import type { RequestRow } from '../store/index.js'
import { MiddleEllipsis } from './MiddleEllipsis.js'

interface Props {
  row: RequestRow
  /** The first start in the list: the Start cell counts from it. */
  firstStart: number | null
  selected: boolean
  onSelect: () => void
  onMenu: (e: MouseEvent) => void
}

export function RequestRowView({ row, firstStart, selected, onSelect, onMenu }: Props) {
  const context = { firstStart }
  return (
    <div
      class={`ds-request${row.incomplete ? ' incomplete' : ''}`}
      role="option"
      aria-selected={selected}
      data-testid="request-row"
      data-id={row.id}
      data-state={row.state}
      data-source={row.source}
      data-url={row.url}
      data-incomplete={row.incomplete ? 'true' : undefined}
      title={row.listedBecause !== undefined ? `${row.url}\n${row.listedBecause}` : row.url}
      onClick={onSelect}
      onContextMenu={(e) => { e.preventDefault(); onSelect(); onMenu(e) }}
    >
      <div class="ds-request-name">
        {row.incomplete && (
          <span class="ds-incomplete-mark" data-testid="request-incomplete" title={`Incomplete: ${row.incomplete}`} aria-label={`incomplete: ${row.incomplete}`} role="img">⚠</span>
        )}
        <span class="ds-method">{row.method}</span>
        <MiddleEllipsis class="ds-path" text={row.path} tail={20} />
        {row.pinned && <span class="ds-pinned" data-testid="request-pinned" title="Pinned: the memory budget keeps it" aria-label="pinned" role="img">📌</span>}
        {row.source === 'import' && <span class="ds-imported" data-testid="request-imported" title="Imported from a file dropped on the panel">imported</span>}
        {row.page && (
          <span class={`ds-page-verdict ${row.page.state}`} data-testid="request-page" data-state={row.page.state} data-cause={row.page.cause} title={row.page.message} role="img"
            aria-label={row.page.state === 'equal' ? 'the page shows it right' : row.page.state === 'differs' ? `the page differs: ${row.page.cause}` : 'not shown by the page'}>
            {row.page.state === 'equal' ? '✓' : row.page.state === 'differs' ? '✗' : 'not shown'}
          </span>
        )}
      </div>
      <div class="ds-request-meta">
        {REQUEST_COLUMNS.map((c) => <Fragment key={c.key}>{c.cell(row, context)}</Fragment>)}
      </div>
    </div>
  )
}
