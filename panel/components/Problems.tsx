// What went wrong, where: the diagnostics that name a client bug (with what a client that reads
// it wrongly shows), errors the provider sent inside the stream, and frames that failed to
// parse. Each names its frame; a click selects it. Warnings and errors come first, one line
// each; info notes (a Live capture has one per frame split across reads) are one line per code
// with their count, opened on demand, so the reply below stays in view; the whole block folds
// away, remembered through the shell's storage (issue 33). Long lists are windowed: a body of
// 100,000 broken frames must not lay out 100,000 rows. The counts are the store's
// (view.totals, view.noteCounts): a store in a worker sends only each list's first entries.

import { useState } from 'preact/hooks'
import type { Diagnostic, DiagnosticCode } from '../../src/library.js'
import { showFrame, usePanel } from '../context.js'
import { noteGroupLabel } from '../note-labels.js'
import { formatCount, oneLine, plural } from '../format.js'
import { notesIn } from '../store/problem-order.js'
import { useStaggered } from './staggered.js'

/** Rows of each list laid out at first; more on demand. */
export const PROBLEMS_SHOWN = 50

const NO_CODES: ReadonlySet<DiagnosticCode> = new Set()

export function Problems() {
  const { store, ui } = usePanel()
  const [limit, setLimit] = useState(PROBLEMS_SHOWN)
  /** The note groups opened, by code. */
  const [opened, setOpened] = useState(NO_CODES)
  const view = store.selection.value
  const upTo = useStaggered(limit, view ? Math.max(view.diagnostics.length, view.streamErrors.length, view.reply.errors.length) : 0, store.selectedId.value)
  if (!view) return null
  const { reply, streamErrors, diagnostics, totals, noteCounts } = view
  // the partial last frame of a stream the page cancelled is incomplete, not malformed: not listed here
  const partial = view.row.partialFrame
  const failed = partial === null ? reply.errors : reply.errors.filter((e) => e.frame !== partial)
  // counted against the whole list: a partial frame is the last frame, and its error is in it
  const failedTotal = totals.errors - (partial === null ? 0 : 1)
  if (totals.diagnostics === 0 && totals.streamErrors === 0 && failedTotal <= 0) return null

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
      // while the rows are still being added (useStaggered), no button yet
      if (upTo < limit) return null
      return <li><button type="button" class="ds-link" onClick={() => setLimit(limit * 4)}>… {formatCount(total - limit)} more: show {formatCount(Math.min(here - limit, limit * 3))} more</button></li>
    }
    if (total > here) return <li class="ds-status" data-testid="problems-not-listed">… {formatCount(total - here)} more, not listed here: the frame list marks their frames</li>
    return null
  }
  const row = (d: Diagnostic, i: number) => (
    <li key={i} class={d.level} data-testid="diagnostic" data-code={d.code} data-frame={d.frame ?? undefined}>
      {link(d.frame)}
      <span>
        <b class="ds-code">{d.code}</b> {d.message}
        {d.symptom && <span class="ds-symptom" data-testid="diagnostic-symptom">{d.symptom}</span>}
      </span>
    </li>
  )
  const toggle = (code: DiagnosticCode) => {
    const next = new Set(opened)
    if (!next.delete(code)) next.add(code)
    setOpened(next)
  }

  // the store lists the warnings and errors first
  const problems = diagnostics.slice(0, totals.problems)
  const notes = noteCounts.reduce((n, g) => n + g.count, 0)
  const head = [
    'problems',
    totals.problems > 0 ? plural(totals.problems, 'warning or error', 'warnings and errors') : notes > 0 ? 'none, only notes' : null,
    notes > 0 ? plural(notes, 'note') : null,
    totals.streamErrors > 0 ? plural(totals.streamErrors, 'error sent by the provider', 'errors sent by the provider') : null,
    failedTotal > 0 ? plural(failedTotal, 'frame that failed to parse', 'frames that failed to parse') : null,
  ].filter((s) => s !== null).join(' · ')
  const open = ui.problemsOpen.value
  return (
    <div class="ds-block ds-problems-block" data-testid="problems">
      <div class="ds-section-label">
        <button
          type="button" class="ds-fold" data-testid="problems-toggle" aria-expanded={open} aria-controls="ds-problems-body"
          onClick={() => { ui.problemsOpen.value = !open }}
        >
          <span aria-hidden="true" class="ds-fold-mark">{open ? '▾' : '▸'}</span>
          <span data-testid="problems-head">{head}</span>
        </button>
      </div>
      {open && (
        <div id="ds-problems-body" class="ds-problems-body">
          {totals.diagnostics > 0 && (
            <ul class="ds-list ds-problems ds-problem-list" data-testid="diagnostics">
              {problems.slice(0, upTo).map(row)}
              {more(problems.length, totals.problems)}
              {noteCounts.map((g) => {
                const expanded = opened.has(g.code)
                const listed = expanded ? diagnostics.filter((d) => d.level === 'info' && d.code === g.code) : []
                return (
                  <li key={g.code} class="info ds-note-group" data-testid="note-group" data-code={g.code}>
                    <button type="button" class="ds-fold" aria-expanded={expanded} onClick={() => toggle(g.code)}>
                      <span aria-hidden="true" class="ds-fold-mark">{expanded ? '▾' : '▸'}</span>
                      <span data-testid="note-group-label">{noteGroupLabel(g.code, g.count)}</span>
                    </button>
                    {expanded && (
                      <ul class="ds-list ds-problem-list">
                        {listed.slice(0, upTo).map(row)}
                        {/* the store's list crosses cut to its first entries: the rest are only counted */}
                        {more(listed.length, listed.length + g.count - listed.reduce((n, d) => n + notesIn(d), 0))}
                      </ul>
                    )}
                  </li>
                )
              })}
            </ul>
          )}
          {totals.streamErrors > 0 && (
            <>
              <div class="ds-section-label">errors sent by the provider</div>
              <ul class="ds-list ds-problem-list" data-testid="stream-errors">
                {streamErrors.slice(0, upTo).map((s, i) => (
                  <li key={i} class="error" data-testid="stream-error" data-frame={s.frame}>
                    {link(s.frame)}
                    <span>{s.type ? `${s.type}: ` : ''}{oneLine(s.message, 300)}{s.code !== null ? ` (${s.code})` : ''}</span>
                  </li>
                ))}
                {more(streamErrors.length, totals.streamErrors)}
              </ul>
            </>
          )}
          {failedTotal > 0 && (
            <>
              <div class="ds-section-label">frames that failed to parse</div>
              <ul class="ds-list ds-problem-list" data-testid="frame-errors">
                {failed.slice(0, upTo).map((e) => (
                  <li key={e.frame} class="error" data-testid="frame-error" data-frame={e.frame}>
                    {link(e.frame)}
                    <span>line {e.line}: {e.message}</span>
                    <code>{oneLine(e.raw, 60)}</code>
                  </li>
                ))}
                {more(failed.length, failedTotal)}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  )
}
