// A body that is not read as a stream (not SSE, NDJSON or a JSON array: a pasted error page,
// plain text): it has no frames, so the panel says what it did and shows the raw text, with
// the way to read it anyway (force a transport in the header).

import { usePanel } from '../context.js'
import { formatBytes } from '../format.js'
import { VisibleText } from './VisibleText.js'

/** Characters of the body shown (the rest is counted). */
const SHOWN = 20_000

export function UnreadBody() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const source = store.recordings.get(view.id)
  const decoder = new TextDecoder()
  let text = ''
  for (const c of source?.chunks ?? []) {
    text += typeof c.data === 'string' ? c.data : decoder.decode(c.data, { stream: true })
    if (text.length > SHOWN) break
  }
  const cut = text.length > SHOWN
  return (
    <div class="ds-unread" data-testid="unread-body">
      <p>
        Not read as a stream: this body is not SSE, NDJSON or a JSON array, so it has no frames and no reply.
        Its raw text is below ({formatBytes(view.row.bytes)}); pick a transport above to read it anyway.
      </p>
      <pre class="ds-raw" data-testid="unread-raw"><VisibleText text={text.slice(0, SHOWN)} /></pre>
      {cut && <p class="ds-status">… the rest of the body is not shown (export the raw body to read it all).</p>}
    </div>
  )
}
