// A long text shown in full without holding the page: its pieces (long-text.ts stepBounds)
// are appended one per animation frame, each its own block of real text nodes, so
// find-in-page and a selection's copy reach what is laid out, and what was laid out before is
// never laid out again. Text only, never markup; invisible characters marked (VisibleText).

import { Component } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { formatCount } from '../format.js'
import { stepBounds, STEP_CHARS } from '../long-text.js'
import { VisibleText } from './VisibleText.js'
import { nextTurn, stepNow } from './turns.js'

/** A piece of a step: plain, or drawn in a mark with this class ('' for the plain <mark>). */
export interface StepPiece { text: string; mark?: string; testid?: string }

/** One step, rendered once: its pieces never change. */
class Step extends Component<{ pieces: StepPiece[] }> {
  override shouldComponentUpdate(next: { pieces: StepPiece[] }) { return next.pieces !== this.props.pieces }
  override render() {
    return (
      <span class="ds-step">
        {this.props.pieces.map((p, i) => p.mark === undefined ? <VisibleText key={i} text={p.text} />
          : <mark key={i} class={p.mark || undefined} data-testid={p.testid}><VisibleText text={p.text} /></mark>)}
      </span>
    )
  }
}

/** Pieces (marked or not, in order) cut into steps of about `size` characters. */
export function stepsOf(pieces: StepPiece[], size = STEP_CHARS): StepPiece[][] {
  const text = pieces.map((p) => p.text).join('')
  const bounds = stepBounds(text, size)
  const steps: StepPiece[][] = []
  let k = 0
  let offset = 0 // start of pieces[k] in the text
  let from = 0
  for (const end of bounds) {
    const step: StepPiece[] = []
    while (k < pieces.length && offset < end) {
      const p = pieces[k]!
      const a = Math.max(from, offset) - offset
      const b = Math.min(end, offset + p.text.length) - offset
      if (b > a) step.push({ ...p, text: p.text.slice(a, b) })
      if (offset + p.text.length <= end) { offset += p.text.length; k++ } else break
    }
    steps.push(step)
    from = end
  }
  return steps
}

/**
 * How many of `total` steps to render: the first at once when no other step was laid out in
 * this frame, then one more per turn (turns.ts: one step per frame, page-wide).
 */
export function useProgress(total: number): number {
  const [shown, setShown] = useState(() => Math.min(total, stepNow() ? 1 : 0))
  useEffect(() => {
    if (shown >= total) return
    return nextTurn(() => setShown((n) => Math.min(total, n + 1)))
  }, [shown, total])
  return shown
}

export function ProgressiveText({ pieces, size = STEP_CHARS }: { pieces: StepPiece[]; size?: number }) {
  const steps = useMemo(() => stepsOf(pieces, size), [pieces, size])
  const shown = useProgress(steps.length)
  const left = shown < steps.length ? steps.slice(shown).reduce((n, s) => n + s.reduce((m, p) => m + p.text.length, 0), 0) : 0
  return (
    <>
      {steps.slice(0, shown).map((s, i) => <Step key={i} pieces={s} />)}
      {/* drawn by CSS (::after): not in the text's textContent, find or copy */}
      {left > 0 && <span class="ds-laying-out" data-testid="laying-out" data-left={formatCount(left)} />}
    </>
  )
}
