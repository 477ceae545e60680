// One choice: reasoning (collapsible), content, refusal, tool calls, finish reason.

import type { ReplyChoice } from '../../src/core/index.js'
import type { Highlight } from '../store.js'
import { ToolCallView } from './ToolCallView.js'
import { TracedText } from './TracedText.js'

interface Props {
  choice: ReplyChoice
  multiple: boolean
  highlight: Highlight[]
  /** Not the final reply: rewound to a frame, or still streaming. */
  partial: boolean
}

export function ChoiceView({ choice, multiple, highlight, partial }: Props) {
  const field = (channel: 'content' | 'reasoning' | 'refusal') => ({ choice: choice.index, channel, toolCall: null })
  const marks = (channel: string) => highlight.filter((h) => h.field.choice === choice.index && h.field.channel === channel)
  return (
    <article class="ds-choice" data-testid="reply-choice" data-index={choice.index}>
      <div class="ds-choice-head">
        <span>choice <b>{choice.index}</b></span>
        {choice.role !== null && <span>role <b>{choice.role}</b></span>}
        {multiple && <span>{choice.content.length} chars</span>}
      </div>
      {choice.reasoning !== '' && (
        <details class="ds-field ds-reasoning" open>
          <summary>reasoning · {choice.reasoning.length} chars</summary>
          <TracedText testid="reply-reasoning" text={choice.reasoning} field={field('reasoning')} marks={marks('reasoning')} />
        </details>
      )}
      <div class="ds-field">
        <div class="ds-field-label">content</div>
        <TracedText testid="reply-content" text={choice.content} field={field('content')} marks={marks('content')} />
      </div>
      {choice.refusal !== '' && (
        <div class="ds-field ds-refusal">
          <div class="ds-field-label">refusal</div>
          <TracedText testid="reply-refusal" text={choice.refusal} field={field('refusal')} marks={marks('refusal')} />
        </div>
      )}
      {choice.toolCalls.length > 0 && (
        <div class="ds-field">
          <div class="ds-field-label">tool calls ({choice.toolCalls.length})</div>
          {choice.toolCalls.map((call, i) => (
            <ToolCallView
              key={`${call.index}:${call.id ?? i}`}
              call={call}
              field={{ choice: choice.index, channel: 'arguments', toolCall: i }}
              partial={partial}
              marks={highlight.filter((h) => h.field.choice === choice.index && h.field.channel === 'arguments' && h.field.toolCall === i)}
            />
          ))}
        </div>
      )}
      <div class="ds-field">
        <span class="ds-field-label">finish reason </span>
        <span class="ds-finish" data-testid="finish-reason">{choice.finishReason ?? ''}</span>
        {choice.finishReason === null && <span class="ds-status"> none yet</span>}
      </div>
    </article>
  )
}
