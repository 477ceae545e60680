// The reconstructed reply, per choice, as it stands (or as it stood after the scrubbed frame).

import { usePanel } from '../context.js'
import { ChoiceView } from './ChoiceView.js'
import { ComparePane } from './ComparePane.js'
import { Problems } from './Problems.js'
import { Scrubber } from './Scrubber.js'
import { JsonTree } from './JsonTree.js'
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
        <span data-testid="reply-done">{reply.done ? 'terminal event seen' : view.row.state === 'live' && view.scrub === null ? 'streaming…' : 'no terminal event'}</span>
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
