// Reply text that knows where it came from: the selected frame's contribution is marked (and,
// more lightly, the text the frames a search matched produced), and a click on a character
// selects the frame that produced it. Text only, never markup.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { showFrame, usePanel } from '../context.js'
import { formatCount } from '../format.js'
import type { FieldRef } from '../provenance.js'
import type { Highlight } from '../store/index.js'
import { revealIn } from './scroll.js'
import { textWindow, type TextPiece } from '../text-pieces.js'
import { VisibleText } from './VisibleText.js'
import { characterAt } from './caret.js'
import { ProgressiveText, type StepPiece } from './ProgressiveText.js'
import { STEP_CHARS } from '../long-text.js'
import { nextTurn, stepNow } from './turns.js'

interface Props {
  text: string
  field: FieldRef
  marks: Highlight[]
  /** The text the matching frames of a search produced (drawn under the selected frame's marks). */
  found?: Highlight[]
  /**
   * The text shown is not the field itself (pretty-printed tool-call arguments): its offsets
   * mapped to the field's, for clicks (`marks` and `found` come in the shown text's offsets).
   */
  toField?: (offset: number) => number | null
  testid: string
  mono?: boolean
  /** The text grows on every batch (a live stream, the reply not rewound): its end is shown. */
  growing?: boolean
  /** The pieces the text arrived in, where known: a window of a long text is cut from them (text-pieces.ts). */
  pieces?: TextPiece | null
}

/**
 * Longer texts show a window of this many characters (around the marked range), with
 * buttons for the rest: laying out megabytes of text on every update would stall the page.
 */
export const TEXT_WINDOW = 20_000
/**
 * While the text grows, its last this many characters: a text node that changes is laid out
 * again in full (about 2 µs a character), and a live stream changes it on every batch.
 */
export const LIVE_WINDOW = 2_000
/**
 * A window longer than this, with nothing marked, is laid out in steps of this many characters,
 * one per frame: a step of text with characters from a fallback font (CJK) costs about 5 µs a
 * character to shape.
 */
export const WINDOW_STEP = 2_000
/**
 * A text shown longer than this waits its turn (turns.ts) when its field first appears (this
 * component mounts): a reply whose reasoning and content both appeared with a request shaped
 * both windows in one frame. A field already shown for another request does not wait again.
 */
const TURN_ABOVE = 1_000

const NONE: Highlight[] = []

export function TracedText({ text, field, marks, found = NONE, toField, testid, mono, growing, pieces = null }: Props) {
  const { store, ui } = usePanel()
  const ref = useRef<HTMLDivElement>(null)
  const [expanded, setExpanded] = useState(false)
  const marked = marks.length > 0

  let from = 0
  let to = text.length
  if (!expanded && growing && !marked && text.length > LIVE_WINDOW) {
    from = text.length - LIVE_WINDOW
  } else if (!expanded && text.length > TEXT_WINDOW) {
    const focus = marks[0]?.start ?? found[0]?.start ?? 0
    from = focus < TEXT_WINDOW * 0.8 ? 0 : Math.max(0, Math.min(focus - TEXT_WINDOW / 2, text.length - TEXT_WINDOW))
    to = Math.min(text.length, from + TEXT_WINDOW)
  }
  const shown = from === 0 && to === text.length ? text : textWindow(text, from, to, pieces)
  const shift = (list: Highlight[]) => (from === 0 ? list : list.map((m) => ({ ...m, start: m.start - from, end: m.end - from })))
  const segments = split(shown, shift(marks), shift(found))
  // shown in full and long: laid out in steps, one per animation frame (ProgressiveText)
  const whole = from === 0 && to === text.length && text.length > TEXT_WINDOW && !growing
  // a long window with nothing to reveal in it (the reply of a long stream as it ends) too, in
  // smaller steps: laid out at once, a reply's windows cost one task of 100 ms and more
  const windowInSteps = !whole && !growing && !marked && found.length === 0 && shown.length > WINDOW_STEP
  const progressive = whole || windowInSteps
  const steps = useMemo(() => (progressive ? segments.map(stepPiece) : null), [progressive, shown, marks, found])
  const [ready, setReady] = useState(() => shown.length <= TURN_ABOVE || stepNow())
  useEffect(() => {
    if (ready) return
    return nextTurn(() => setReady(true))
  }, [ready])

  useEffect(() => {
    if (!marked || !ready) return
    const mark = ref.current?.querySelector('mark')
    if (mark) revealIn(mark, ref.current!.closest('.ds-reply'), 40)
  }, [marked, ready, marks[0]?.start, marks[0]?.end])

  const onClick = (e: MouseEvent) => {
    const el = ref.current
    if (!el) return
    const sel = el.ownerDocument.getSelection()
    if (!sel || !sel.isCollapsed || !sel.anchorNode || !el.contains(sel.anchorNode)) return
    const shownAt = from + characterAt(el, sel.anchorNode, sel.anchorOffset, e.clientX, e.clientY)
    const offset = toField ? toField(shownAt) : shownAt
    if (offset === null) return
    void store.selectFrameAt(field, offset).then((found) => { if (found) showFrame(ui) })
  }

  return (
    <>
      {from > 0 && (
        <button type="button" class="ds-link ds-more" onClick={() => setExpanded(true)}>
          … {formatCount(from)} character{from === 1 ? '' : 's'} before: show all
        </button>
      )}
      <div ref={ref} class={`ds-text${mono ? ' mono' : ''}`} data-testid={testid} onClick={onClick} title="Click a character to find the frame that sent it">
        {!ready ? null : steps ? <ProgressiveText pieces={steps} size={whole ? STEP_CHARS : WINDOW_STEP} /> : segments.map((s, i) => (
          s.mark ? <mark key={i}><VisibleText text={s.text} /></mark>
            : s.found ? <mark key={i} class="ds-found" data-testid="found-mark"><VisibleText text={s.text} /></mark>
              : <VisibleText key={i} text={s.text} />
        ))}
      </div>
      {to < text.length && (
        <button type="button" class="ds-link ds-more" data-testid="text-show-all" onClick={() => setExpanded(true)}>
          … {formatCount(text.length - to)} more character{text.length - to === 1 ? '' : 's'}: show all
        </button>
      )}
      {(from > 0 || to < text.length || text.length > TEXT_WINDOW) && <CopyAll text={text} />}
    </>
  )
}

interface Segment { text: string; mark: boolean; found: boolean }

function stepPiece(s: Segment): StepPiece {
  return s.mark ? { text: s.text, mark: '' } : s.found ? { text: s.text, mark: 'ds-found', testid: 'found-mark' } : { text: s.text }
}

/** The whole text to the clipboard, whatever is shown of it. */
function CopyAll({ text }: { text: string }) {
  const { shell, ui } = usePanel()
  const copy = async () => {
    try {
      await shell.copy(text)
      ui.status.value = `Copied all ${formatCount(text.length)} characters`
    } catch {
      ui.status.value = 'Copy failed'
    }
  }
  return <button type="button" class="ds-link ds-more" data-testid="text-copy-all" onClick={() => void copy()}>copy all {formatCount(text.length)} characters</button>
}

/** Ranges clipped to the text, sorted. */
function clip(text: string, marks: Highlight[]): Array<[number, number]> {
  return marks
    .map((m) => [Math.max(0, Math.min(m.start, text.length)), Math.max(0, Math.min(m.end, text.length))] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0])
}

/** The text cut at every edge of both layers: each piece is marked (the selected frame), found (a search), or plain. */
function split(text: string, marks: Highlight[], found: Highlight[]): Segment[] {
  if (marks.length === 0 && found.length === 0) return [{ text, mark: false, found: false }]
  const a = clip(text, marks)
  const b = clip(text, found)
  const edges = new Set<number>([0, text.length])
  for (const [x, y] of a) { edges.add(x); edges.add(y) }
  for (const [x, y] of b) { edges.add(x); edges.add(y) }
  const cuts = [...edges].sort((x, y) => x - y)
  // one sweep: each layer's ranges are sorted, so a cursor per layer suffices
  const inside = (ranges: Array<[number, number]>, k: { i: number }, at: number) => {
    while (k.i < ranges.length && ranges[k.i]![1] <= at) k.i++
    return k.i < ranges.length && ranges[k.i]![0] <= at
  }
  const ka = { i: 0 }
  const kb = { i: 0 }
  const out: Segment[] = []
  for (let j = 0; j + 1 < cuts.length; j++) {
    const at = cuts[j]!
    const mark = inside(a, ka, at)
    const f = !mark && inside(b, kb, at)
    const prev = out[out.length - 1]
    const piece = text.slice(at, cuts[j + 1]!)
    if (prev && prev.mark === mark && prev.found === f) prev.text += piece
    else out.push({ text: piece, mark, found: f })
  }
  return out
}

