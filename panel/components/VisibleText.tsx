// Text as it really is: each invisible or bidi character is kept in the DOM (so copying gives
// the exact text and click offsets stay true) but drawn as a visible mark, isolated so it
// cannot reorder anything around it.

import { invisibleRuns } from '../invisible.js'

export function VisibleText({ text }: { text: string }) {
  const runs = invisibleRuns(text)
  if (runs.length === 1 && runs[0]!.mark === null) return <>{text}</>
  return (
    <>
      {runs.map((r, i) =>
        r.mark === null ? r.text : (
          <span key={i} class="ds-invis" data-mark={r.mark.short} title={r.mark.legend} data-testid="invisible-char">{r.text}</span>
        ),
      )}
    </>
  )
}
