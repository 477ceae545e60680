// The reconstructed reply, per choice, as it stands (or as it stood after the scrubbed frame).

import { usePanel } from '../context.js'
import type { SelectionView } from '../store/index.js'
import { ChoiceView } from './ChoiceView.js'
import { ComparePane } from './ComparePane.js'
import { Problems } from './Problems.js'
import { Scrubber } from './Scrubber.js'
import { JsonTree } from './JsonTree.js'
import { hasOwnMessages, MessagesView } from './MessagesView.js'
import { TimingStrip } from './TimingStrip.js'

export function ReplyView() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { reply } = view
  const comparison = store.comparison.value
  // fields the compared client got wrong (when the comparison is of this request, and the reply shown is the latest)
  const differs = new Set(comparison !== null && comparison.id === view.id && view.scrub === null ? comparison.fields.filter((f) => !f.equal).map((f) => f.field) : [])
  return (
    <div class="ds-reply" data-testid="reply">
      <Scrubber />
      <div class="ds-reply-facts">
        <span>provider <b data-testid="reply-provider">{reply.provider}</b></span>
        <span>transport <b>{reply.transport}</b></span>
        <span data-testid="reply-done">{reply.done ? 'terminal event seen' : view.row.state === 'live' && view.scrub === null ? 'streaming…' : view.scrub !== null ? 'no terminal event yet' : 'no terminal event'}</span>
        {view.row.incomplete && view.scrub === null && <span class="ds-warn" data-testid="reply-incomplete" title={view.row.incomplete}>incomplete: {view.row.incomplete.split(':')[0]}</span>}
        {view.loading !== null && (
          <span data-testid="merging">
            merging… {view.loading.total > 0 ? Math.floor((100 * view.loading.done) / view.loading.total) : 0}%
          </span>
        )}
        {view.loading === null && view.index === 'pending' && view.row.state !== 'live' && <span>indexing frames…</span>}
      </div>
      <TimingStrip />
      <Problems />
      <ComparePane />
      {reply.choices.length === 0 && <div class="ds-pending" data-testid="reply-empty">{emptyReply(view)}</div>}
      {hasOwnMessages(reply.messages) && <MessagesView reply={reply} highlight={view.highlight} />}
      {reply.choices.map((c) => (
        <ChoiceView
          key={c.index}
          choice={c}
          multiple={reply.choices.length > 1}
          highlight={view.highlight}
          found={view.found}
          partial={view.scrub !== null || view.row.state === 'live'}
          growing={view.scrub === null && view.row.state === 'live'}
          differs={differs}
        />
      ))}
      {reply.usage !== null && (
        <div class={`ds-block${differs.has('usage') ? ' ds-differs' : ''}`} data-testid="usage" data-differs={differs.has('usage') || undefined}>
          <div class="ds-section-label">usage</div>
          <JsonTree value={reply.usage} />
        </div>
      )}
    </div>
  )
}

/** Why the reply shown has no choice, in words that are true of this stream now. */
function emptyReply(view: SelectionView): string {
  const running = view.row.state === 'live'
  if (view.frameCount === 0) {
    if (running) return 'No reply yet: no frame has arrived.'
    if (view.row.bytes > 0 && view.latest.transport === 'unknown') return 'No reply: the body was not read as a stream (its raw text is under Frames).'
    return 'No reply: the stream carried no frames.'
  }
  if (view.scrub !== null) return `No choice in the reply yet after frame ${view.scrub}.`
  if (running) return 'No choice in the reply yet.'
  return 'No choice in the reply: the stream carried none.'
}
