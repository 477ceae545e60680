// A body that is not read as a stream (not SSE, NDJSON or a JSON array: a pasted error page,
// plain text): it has no frames, so the panel says what it did and shows the raw text, with
// the way to read it anyway (force a transport in the header).

import { useEffect, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { formatBytes } from '../format.js'
import { VisibleText } from './VisibleText.js'

/** Characters of the body shown (the rest is counted). */
const SHOWN = 20_000

export function UnreadBody() {
  const { store } = usePanel()
  const view = store.selection.value
  const id = view?.id
  const bytes = view?.row.bytes ?? 0
  // the head of the body, read from where it is kept (a store in a worker answers later)
  const [head, setHead] = useState<{ id: string; text: string } | null>(null)
  useEffect(() => {
    if (id === undefined) return
    let current = true
    // 4 bytes a character at most: enough for SHOWN characters and one more
    void store.recordings.head(id, SHOWN * 4 + 4).then((b) => {
      if (current) setHead({ id, text: b ? new TextDecoder().decode(b) : '' })
    })
    return () => { current = false }
  }, [id, bytes])
  if (!view) return null
  const text = head?.id === view.id ? head.text : ''
  const cut = text.length > SHOWN || (text.length === SHOWN && view.row.bytes > SHOWN)
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
