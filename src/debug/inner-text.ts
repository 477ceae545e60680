// What a browser's innerText gives for rendered HTML, built from a flat list of operations
// instead of a DOM (the reference is rendered in the panel's store worker and in plain Node,
// where there is none). The Markdown renderer (markdown-micromark.ts) says what the HTML
// would hold; this module applies innerText's rules to it, each unit keeping its source index:
//   - a block element asks for line breaks around it (its "required line break count": 2 for
//     <p>, 1 for every other block: headings, lists and their items, <pre>, <blockquote>,
//     <table> rows, <hr>); neighbouring requests merge into the largest, and none are kept at
//     the start or the end of the text;
//   - outside <pre>, white space (space, tab, line feed, carriage return, form feed) collapses:
//     a run is one space, and none is kept at the start or end of a line;
//   - inside <pre>, text is kept as it is;
//   - <br> is a line feed; table cells are separated by a tab.
// No-break spaces are text (HTML does not collapse them; compareRenderedText's normalisation
// reads them as white space on both sides).

import { MappedBuilder, type MappedText } from './mapped-text.js'

export type InnerTextOp =
  /** Text of the HTML, `map[i]` the source index of `text[i]` (-1: added); `pre`: inside <pre>. */
  | { op: 'text'; text: string; map: readonly number[]; pre: boolean }
  /** A block element's edge: at least `lines` line breaks here, unless at the start or the end. */
  | { op: 'block'; lines: 1 | 2 }
  /** A <br>, from source index `src`. */
  | { op: 'br'; src: number }
  /** A table cell starts; all but a row's first are preceded by a tab. */
  | { op: 'cell'; first: boolean }

/** No collapsible space is waiting. */
const NONE = -2

/** The text innerText gives for `ops`, mapped to the source. */
export function innerText(ops: readonly InnerTextOp[]): MappedText {
  const out = new MappedBuilder()
  let breaks = 0 // line breaks asked for and not yet written
  let wrote = false // anything written yet (line breaks at the start are dropped)
  let space = NONE // the source index of a collapsed run of white space waiting for text
  let lineStart = true // white space here is dropped
  const flush = () => {
    if (breaks > 0 && wrote) out.added('\n'.repeat(breaks))
    breaks = 0
  }
  for (const o of ops) {
    switch (o.op) {
      case 'block':
        breaks = Math.max(breaks, o.lines)
        space = NONE
        lineStart = true
        break
      case 'br':
        flush()
        out.push('\n', o.src)
        wrote = true
        space = NONE
        lineStart = true
        break
      case 'cell':
        if (o.first) break
        flush()
        out.added('\t')
        wrote = true
        space = NONE
        lineStart = true
        break
      case 'text':
        for (let k = 0; k < o.text.length; k++) {
          const c = o.text[k]!
          const src = o.map[k]!
          if (!o.pre && isCollapsible(c)) {
            if (!lineStart && breaks === 0 && space === NONE) space = src
            continue
          }
          flush()
          if (space !== NONE) out.push(' ', space)
          space = NONE
          out.push(c, src)
          wrote = true
          lineStart = o.pre && c === '\n'
        }
        break
    }
  }
  return out.result()
}

/** HTML's white space (ASCII only: a no-break space is text). */
function isCollapsible(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'
}
