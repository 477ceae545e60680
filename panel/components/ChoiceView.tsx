// One choice: reasoning (collapsible), content, refusal, tool calls, finish reason.

import { useState } from 'preact/hooks'
import type { ReplyChoice } from '../../src/library.js'
import { formatCount, plural } from '../format.js'
import type { Highlight } from '../store/index.js'
import { piecesFor } from '../text-pieces.js'
import { ToolCallView } from './ToolCallView.js'
import { useStaggered } from './staggered.js'
import { usePanel } from '../context.js'
import { TracedText } from './TracedText.js'

interface Props {
  choice: ReplyChoice
  multiple: boolean
  highlight: Highlight[]
  /** The text the frames a search matched produced. */
  found?: Highlight[]
  /** Not the final reply: rewound to a frame, or still streaming. */
  partial: boolean
  /** Still streaming, and shown as it stands (not rewound): the texts grow on every batch. */
  growing?: boolean
  /** Fields a compared client got wrong (`choices[0].content`, …): marked. */
  differs?: ReadonlySet<string>
}

/**
 * Tool calls rendered at first (more on demand). A long generated stream can hold thousands,
 * and re-laying them all out on every batch of a growing stream would stall the panel.
 */
export const TOOL_CALLS_SHOWN = 50

const NONE: ReadonlySet<string> = new Set()
const NO_MARKS: Highlight[] = []

export function ChoiceView({ choice, multiple, highlight, found = NO_MARKS, partial, growing = false, differs = NONE }: Props) {
  const [limit, setLimit] = useState(TOOL_CALLS_SHOWN)
  const upTo = useStaggered(limit, choice.toolCalls.length, usePanel().store.selectedId.value)
  const field = (channel: 'content' | 'reasoning' | 'refusal') => ({ choice: choice.index, channel, toolCall: null })
  const path = (f: string) => `choices[${choice.index}].${f}`
  const diff = (f: string) => (differs.has(path(f)) ? { class: ' ds-differs', attr: true } : { class: '', attr: undefined })
  const of = (list: Highlight[], channel: string, call: number | null = null) =>
    list.filter((h) => h.field.choice === choice.index && h.field.channel === channel && (call === null || h.field.toolCall === call))
  const marks = (channel: string) => of(highlight, channel)
  const finds = (channel: string) => (found.length === 0 ? NO_MARKS : of(found, channel))
  return (
    <article class="ds-choice" data-testid="reply-choice" data-index={choice.index}>
      <div class="ds-choice-head">
        <span>choice <b>{choice.index}</b></span>
        {choice.role !== null && <span>role <b>{choice.role}</b></span>}
        {multiple && <span>{plural(choice.content.length, 'char')}</span>}
      </div>
      {choice.reasoning !== '' && (
        <details class={`ds-field ds-reasoning${diff('reasoning').class}`} data-differs={diff('reasoning').attr} open>
          <summary>reasoning · {plural(choice.reasoning.length, 'char')}</summary>
          <TracedText testid="reply-reasoning" text={choice.reasoning} pieces={piecesFor(choice, 'reasoning')} field={field('reasoning')} marks={marks('reasoning')} found={finds('reasoning')} growing={growing} />
        </details>
      )}
      <div class={`ds-field${diff('content').class}`} data-differs={diff('content').attr} data-field="content">
        <div class="ds-field-label">content</div>
        <TracedText testid="reply-content" text={choice.content} pieces={piecesFor(choice, 'content')} field={field('content')} marks={marks('content')} found={finds('content')} growing={growing} />
      </div>
      {choice.refusal !== '' && (
        <div class={`ds-field ds-refusal${diff('refusal').class}`} data-differs={diff('refusal').attr}>
          <div class="ds-field-label">refusal</div>
          <TracedText testid="reply-refusal" text={choice.refusal} pieces={piecesFor(choice, 'refusal')} field={field('refusal')} marks={marks('refusal')} found={finds('refusal')} growing={growing} />
        </div>
      )}
      {choice.toolCalls.length > 0 && (
        <div class={`ds-field${diff('toolCalls').class}`} data-differs={diff('toolCalls').attr}>
          <div class="ds-field-label">tool calls ({choice.toolCalls.length})</div>
          {callsShown(choice, highlight, upTo).map((i) => {
            const call = choice.toolCalls[i]!
            return (
              <ToolCallView
                key={`${call.index}:${call.id ?? i}`}
                call={call}
                field={{ choice: choice.index, channel: 'arguments', toolCall: i }}
                partial={partial}
                growing={growing}
                marks={of(highlight, 'arguments', i)}
                found={found.length === 0 ? NO_MARKS : of(found, 'arguments', i)}
              />
            )
          })}
          {choice.toolCalls.length > limit && upTo === limit && (
            <button type="button" class="ds-link ds-more" data-testid="more-tool-calls" onClick={() => setLimit(limit + TOOL_CALLS_SHOWN * 4)}>
              … {formatCount(choice.toolCalls.length - limit)} more tool call{choice.toolCalls.length - limit === 1 ? '' : 's'}: show {Math.min(TOOL_CALLS_SHOWN * 4, choice.toolCalls.length - limit)} more
            </button>
          )}
        </div>
      )}
      <div class={`ds-field${diff('finishReason').class}`} data-differs={diff('finishReason').attr}>
        <span class="ds-field-label">finish reason </span>
        <span class="ds-finish" data-testid="finish-reason">{choice.finishReason ?? ''}</span>
        {choice.finishReason === null && <span class="ds-status"> none yet</span>}
      </div>
    </article>
  )
}

/**
 * The positions of the calls rendered: the first `upTo`, and past them only the calls the
 * selected frame wrote into. Never a walk over every call: a 64 MB stream has 12,403, and
 * each render filtered the marks once per call.
 */
function callsShown(choice: ReplyChoice, highlight: readonly Highlight[], upTo: number): number[] {
  const n = choice.toolCalls.length
  const out: number[] = []
  for (let i = 0; i < Math.min(upTo, n); i++) out.push(i)
  const marked = new Set<number>()
  for (const h of highlight) {
    const at = h.field.toolCall
    if (h.field.choice === choice.index && h.field.channel === 'arguments' && at !== null && at >= upTo && at < n) marked.add(at)
  }
  return marked.size === 0 ? out : out.concat([...marked].sort((a, b) => a - b))
}
