// A long string (a URL, a path) cut in the middle when it does not fit: the start ends in …
// and the end stays (the query that tells requests apart). The whole text stays in the DOM,
// so copying gives it all, and shows on hover. Captured text: drawn with VisibleText.

import { middleSplit } from '../layout.js'
import { VisibleText } from './VisibleText.js'

export function MiddleEllipsis({ text, tail = 24, class: cls = '', testid }: { text: string; tail?: number; class?: string; testid?: string }) {
  const [head, end] = middleSplit(text, tail)
  return (
    <span class={`ds-mid ${cls}`} title={text} data-testid={testid}>
      <span class="ds-mid-head"><VisibleText text={head} /></span>
      {end !== '' && <span class="ds-mid-tail"><VisibleText text={end} /></span>}
    </span>
  )
}
