// The selected request: its header, the frame list (with the frame detail under it) and the reply.

import { usePanel } from '../context.js'
import { FrameDetail } from './FrameDetail.js'
import { FrameList } from './FrameList.js'
import { ReplyView } from './ReplyView.js'
import { SelectionHeader } from './SelectionHeader.js'

export function SelectionPane() {
  const { store, ui } = usePanel()
  const view = store.selection.value
  if (!view) {
    return <div class="ds-empty">Select a stream to see its frames beside the reply.</div>
  }
  const detail = ui.detailOpen.value && view.frame !== null
  return (
    <div class="ds-selection">
      <SelectionHeader />
      <div class="ds-sel-body">
        <div class={`ds-frames-col${detail ? ' with-detail' : ''}`}>
          <FrameList />
          {detail && <FrameDetail seq={view.frame!} />}
        </div>
        <section class="ds-pane" aria-label="Reply">
          <ReplyView />
        </section>
      </div>
    </div>
  )
}
