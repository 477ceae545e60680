// What went wrong, where: errors the provider sent inside the stream, frames that failed to
// parse, and the diagnostics that name a client bug (with what a client that reads it wrongly
// shows). Each names its frame; a click selects it. Long lists are windowed: a body of 100,000
// broken frames must not lay out 100,000 rows. The counts are the store's (view.totals): a
// store in a worker sends only each list's first entries, those that can be laid out.

import { useState } from 'preact/hooks'
import { showFrame, usePanel } from '../context.js'
import { formatCount, oneLine, plural } from '../format.js'

/** Rows of each list laid out at first; more on demand. */
export const PROBLEMS_SHOWN = 50

export function Problems() {
  const { store, ui } = usePanel()
  const [limit, setLimit] = useState(PROBLEMS_SHOWN)
  const view = store.selection.value
  if (!view) return null
  const { reply, streamErrors, diagnostics } = view
  const go = (frame: number | null) => {
    if (frame === null) return
    store.selectFrame(frame, { scrub: false })
    showFrame(ui)
  }
  const link = (frame: number | null) =>
    frame === null ? <span class="ds-where">stream</span> : <button type="button" class="ds-link" onClick={() => go(frame)}>frame {frame}</button>
  /** After the rows laid out: more of them on demand, or (past what is here) where the rest are. */
  const more = (here: number, total: number) => {
    if (here > limit) {
      return <li><button type="button" class="ds-link" onClick={() => setLimit(limit * 4)}>… {formatCount(total - limit)} more: show {formatCount(Math.min(here - limit, limit * 3))} more</button></li>
    }
    if (total > here) return <li class="ds-status" data-testid="problems-not-listed">… {formatCount(total - here)} more, not listed here: the frame list marks their frames</li>
    return null
  }
  const { totals } = view
  // the partial last frame of a stream the page cancelled is incomplete, not malformed: not listed here
  const partial = view.row.partialFrame
  const failed = partial === null ? reply.errors : reply.errors.filter((e) => e.frame !== partial)
  // counted against the whole list: a partial frame is the last frame, and its error is in it
  const failedTotal = totals.errors - (partial === null ? 0 : 1)
  return (
    <>
      {totals.diagnostics > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">
            problems {totals.problems > 0 ? `· ${plural(totals.problems, 'warning or error', 'warnings and errors')}` : '· none, only notes'}
          </div>
          <ul class="ds-list ds-problems ds-problem-list" data-testid="diagnostics">
            {diagnostics.slice(0, limit).map((d, i) => (
              <li key={i} class={d.level} data-testid="diagnostic" data-code={d.code} data-frame={d.frame ?? undefined}>
                {link(d.frame)}
                <span>
                  <b class="ds-code">{d.code}</b> {d.message}
                  {d.symptom && <span class="ds-symptom" data-testid="diagnostic-symptom">{d.symptom}</span>}
                </span>
              </li>
            ))}
            {more(diagnostics.length, totals.diagnostics)}
          </ul>
        </div>
      )}
      {totals.streamErrors > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">errors sent by the provider</div>
          <ul class="ds-list ds-problem-list" data-testid="stream-errors">
            {streamErrors.slice(0, limit).map((s, i) => (
              <li key={i} class="error" data-testid="stream-error" data-frame={s.frame}>
                {link(s.frame)}
                <span>{s.type ? `${s.type}: ` : ''}{oneLine(s.message, 300)}{s.code !== null ? ` (${s.code})` : ''}</span>
              </li>
            ))}
            {more(streamErrors.length, totals.streamErrors)}
          </ul>
        </div>
      )}
      {failedTotal > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">frames that failed to parse</div>
          <ul class="ds-list ds-problem-list" data-testid="frame-errors">
            {failed.slice(0, limit).map((e) => (
              <li key={e.frame} class="error" data-testid="frame-error" data-frame={e.frame}>
                {link(e.frame)}
                <span>line {e.line}: {e.message}</span>
                <code>{oneLine(e.raw, 60)}</code>
              </li>
            ))}
            {more(failed.length, failedTotal)}
          </ul>
        </div>
      )}
    </>
  )
}
