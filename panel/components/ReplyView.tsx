// The reconstructed reply, per choice, as it stands (or as it stood after the scrubbed frame).

import { usePanel } from '../context.js'
import { ChoiceView } from './ChoiceView.js'
import { Problems } from './Problems.js'
import { Scrubber } from './Scrubber.js'
import { JsonTree } from './JsonTree.js'

export function ReplyView() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { reply } = view
  return (
    <div class="ds-reply" data-testid="reply">
      <Scrubber />
      <div class="ds-reply-facts">
        <span>provider <b data-testid="reply-provider">{reply.provider}</b></span>
        <span>transport <b>{reply.transport}</b></span>
        <span data-testid="reply-done">{reply.done ? 'terminal event seen' : view.row.state === 'live' && view.scrub === null ? 'streaming…' : 'no terminal event'}</span>
        {view.loading !== null && (
          <span data-testid="merging">
            merging… {view.loading.total > 0 ? Math.floor((100 * view.loading.done) / view.loading.total) : 0}%
          </span>
        )}
        {view.loading === null && view.index === 'pending' && view.row.state !== 'live' && <span>indexing frames…</span>}
      </div>
      {reply.choices.length === 0 && (
        <div class="ds-pending">{view.frameCount === 0 ? 'No reply yet.' : 'No choice in the reply (yet).'}</div>
      )}
      {reply.choices.map((c) => (
        <ChoiceView
          key={c.index}
          choice={c}
          multiple={reply.choices.length > 1}
          highlight={view.highlight}
          partial={view.scrub !== null || view.row.state === 'live'}
          growing={view.scrub === null && view.row.state === 'live'}
        />
      ))}
      {reply.usage !== null && (
        <div class="ds-block" data-testid="usage">
          <div class="ds-section-label">usage</div>
          <JsonTree value={reply.usage} />
        </div>
      )}
      <Problems />
    </div>
  )
}
