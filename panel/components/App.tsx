// The whole panel: toolbar, notes, request list, and the selected request.

import { useEffect, useRef } from 'preact/hooks'
import { usePanel } from '../context.js'
import { Notes } from './Notes.js'
import { RequestList } from './RequestList.js'
import { SelectionPane } from './SelectionPane.js'
import { Toolbar } from './Toolbar.js'

export function App() {
  const { ui } = usePanel()
  const filterRef = useRef<HTMLInputElement>(null)
  const rootRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const doc = rootRef.current?.ownerDocument
    if (!doc) return
    // Ctrl/Cmd+F focuses the filter; every other shortcut is left to the host.
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault()
        filterRef.current?.focus()
        filterRef.current?.select()
      }
    }
    doc.addEventListener('keydown', onKey)
    return () => doc.removeEventListener('keydown', onKey)
  }, [])

  return (
    <div ref={rootRef} class="ds-root ds-theme" data-theme={ui.theme.value}>
      <Toolbar filterRef={filterRef} />
      <Notes />
      <div class="ds-main">
        <section class="ds-pane" aria-label="Requests">
          <RequestList />
        </section>
        <section class="ds-pane" aria-label="Selected request">
          <SelectionPane />
        </section>
      </div>
    </div>
  )
}
