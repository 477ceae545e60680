// Reply text that knows where it came from: the selected frame's contribution is marked,
// and a click on a character selects the frame that produced it. Text only, never markup.

import { useEffect, useRef, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import type { FieldRef } from '../provenance.js'
import type { Highlight } from '../store.js'
import { revealIn } from './scroll.js'
import { VisibleText } from './VisibleText.js'

interface Props {
  text: string
  field: FieldRef
  marks: Highlight[]
  testid: string
  mono?: boolean
  /** The text grows on every batch (a live stream, the reply not rewound): its end is shown. */
  growing?: boolean
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

export function TracedText({ text, field, marks, testid, mono, growing }: Props) {
  const { store, ui } = usePanel()
  const ref = useRef<HTMLDivElement>(null)
  const [expanded, setExpanded] = useState(false)
  const marked = marks.length > 0

  let from = 0
  let to = text.length
  if (!expanded && growing && !marked && text.length > LIVE_WINDOW) {
    from = text.length - LIVE_WINDOW
  } else if (!expanded && text.length > TEXT_WINDOW) {
    const focus = marks[0]?.start ?? 0
    from = focus < TEXT_WINDOW * 0.8 ? 0 : Math.max(0, Math.min(focus - TEXT_WINDOW / 2, text.length - TEXT_WINDOW))
    to = Math.min(text.length, from + TEXT_WINDOW)
  }
  const shown = from === 0 && to === text.length ? text : text.slice(from, to)
  const segments = split(shown, from === 0 ? marks : marks.map((m) => ({ ...m, start: m.start - from, end: m.end - from })))

  useEffect(() => {
    if (!marked) return
    const mark = ref.current?.querySelector('mark')
    if (mark) revealIn(mark, ref.current!.closest('.ds-reply'), 40)
  }, [marked, marks[0]?.start, marks[0]?.end])

  const onClick = (e: MouseEvent) => {
    const el = ref.current
    if (!el) return
    const sel = el.ownerDocument.getSelection()
    if (!sel || !sel.isCollapsed || !sel.anchorNode || !el.contains(sel.anchorNode)) return
    const offset = from + characterAt(el, sel.anchorNode, sel.anchorOffset, e.clientX, e.clientY)
    const seq = store.frameAt(field, offset)
    if (seq === null) return
    store.selectFrame(seq, { scrub: false })
    ui.detailOpen.value = true
  }

  return (
    <>
      {from > 0 && (
        <button type="button" class="ds-link ds-more" onClick={() => setExpanded(true)}>
          … {from.toLocaleString('en')} characters before: show all
        </button>
      )}
      <div ref={ref} class={`ds-text${mono ? ' mono' : ''}`} data-testid={testid} onClick={onClick} title="Click a character to find the frame that sent it">
        {segments.map((s, i) => (s.mark ? <mark key={i}><VisibleText text={s.text} /></mark> : <VisibleText key={i} text={s.text} />))}
      </div>
      {to < text.length && (
        <button type="button" class="ds-link ds-more" onClick={() => setExpanded(true)}>
          … {(text.length - to).toLocaleString('en')} more characters: show all
        </button>
      )}
    </>
  )
}

function split(text: string, marks: Highlight[]): Array<{ text: string; mark: boolean }> {
  if (marks.length === 0) return [{ text, mark: false }]
  const ranges = marks
    .map((m) => [Math.max(0, Math.min(m.start, text.length)), Math.max(0, Math.min(m.end, text.length))] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0])
  const out: Array<{ text: string; mark: boolean }> = []
  let at = 0
  for (const [a, b] of ranges) {
    const start = Math.max(a, at)
    if (b <= start) continue
    if (start > at) out.push({ text: text.slice(at, start), mark: false })
    out.push({ text: text.slice(start, b), mark: true })
    at = b
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false })
  return out
}

/** Character offset in `root` of the caret, moved to the character actually under the pointer. */
function characterAt(root: HTMLElement, node: Node, offset: number, x: number, y: number): number {
  const doc = root.ownerDocument
  const range = doc.createRange()
  range.setStart(root, 0)
  range.setEnd(node, offset)
  const caret = range.toString().length
  if (caret === 0 || node.nodeType !== Node.TEXT_NODE) return caret
  // a click on the right half of a character puts the caret after it: use that character
  if (offset > 0) {
    const prev = doc.createRange()
    prev.setStart(node, offset - 1)
    prev.setEnd(node, offset)
    for (const r of Array.from(prev.getClientRects())) {
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return caret - 1
    }
  }
  return caret
}
