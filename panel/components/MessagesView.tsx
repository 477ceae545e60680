// A run as its client shows it (Reply.messages): one block per message (role, id, name), its
// parts in order, each tool call with its result under it. Shown for the protocols whose
// messages have ids (LangGraph, AG-UI, AI SDK); a plain completion has only its choices.
// Wire text is rendered as text nodes (VisibleText), never as HTML.

import type { ReplyMessage, ReplyMessagePart } from '../../src/library.js'
import { plural } from '../format.js'
import { JsonTree } from './JsonTree.js'
import { VisibleText } from './VisibleText.js'

type ToolResult = Extract<ReplyMessagePart, { type: 'tool-result' }>

/** True when the reply's messages are the wire's own (some message has an id), not its choices restated. */
export function hasOwnMessages(messages: readonly ReplyMessage[]): boolean {
  return messages.some((m) => m.id !== null)
}

export function MessagesView({ messages }: { messages: readonly ReplyMessage[] }) {
  // each result goes under its call when the run holds that call
  const calls = new Set<string>()
  for (const m of messages) for (const p of m.parts) if (p.type === 'tool-call' && p.id !== null) calls.add(p.id)
  const results = new Map<string, ToolResult[]>()
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type !== 'tool-result' || p.toolCallId === null || !calls.has(p.toolCallId)) continue
      const list = results.get(p.toolCallId) ?? []
      list.push(p)
      results.set(p.toolCallId, list)
    }
  }
  return (
    <div class="ds-block" data-testid="messages">
      <div class="ds-section-label">messages ({messages.length})</div>
      {messages.map((m, i) => (
        <article key={`${i}:${m.id ?? ''}`} class="ds-choice ds-message" data-testid="message" data-index={i}>
          <div class="ds-choice-head">
            <span>message <b>{i}</b></span>
            <span>role <b data-testid="message-role">{m.role ?? '(none)'}</b></span>
            {m.name !== undefined && <span>name <b data-testid="message-name"><VisibleText text={m.name} /></b></span>}
            <span class="id" data-testid="message-id">{m.id === null ? '(no id)' : <VisibleText text={m.id} />}</span>
          </div>
          {m.parts.map((p, k) => <PartView key={k} part={p} results={results} />)}
        </article>
      ))}
    </div>
  )
}

function PartView({ part, results }: { part: ReplyMessagePart; results: ReadonlyMap<string, ToolResult[]> }) {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return (
        <div class="ds-field" data-testid="message-part" data-type={part.type}>
          <div class="ds-field-label">{part.type} · {plural(part.text.length, 'char')}</div>
          <pre class="ds-text" data-testid="message-text"><VisibleText text={part.text} /></pre>
        </div>
      )
    case 'tool-call':
      return (
        <div class="ds-field" data-testid="message-part" data-type="tool-call">
          <div class="ds-field-label">tool call <VisibleText text={part.name ?? '(no name)'} /> · <VisibleText text={part.id ?? '(no id)'} /></div>
          <pre class="ds-text" data-testid="message-arguments"><VisibleText text={part.arguments} /></pre>
          {part.argumentsError !== null && <div class="ds-tool-error">arguments are not valid JSON: {part.argumentsError}</div>}
          {(part.id === null ? [] : results.get(part.id) ?? []).map((r, i) => <ResultView key={i} result={r} />)}
        </div>
      )
    case 'tool-result':
      // shown under its call when the run holds it; here only when it does not
      if (part.toolCallId !== null && results.has(part.toolCallId)) {
        return <div class="ds-field ds-status" data-testid="message-part" data-type="tool-result">result of <VisibleText text={part.toolCallId} />, under its call</div>
      }
      return <div class="ds-field" data-testid="message-part" data-type="tool-result"><ResultView result={part} /></div>
    case 'error':
      return <div class="ds-field ds-tool-error" data-testid="message-part" data-type="error">error: <VisibleText text={part.message} /></div>
    default:
      return (
        <div class="ds-field" data-testid="message-part" data-type={part.type}>
          <div class="ds-field-label">{part.type}</div>
          <JsonTree value={part.data} />
        </div>
      )
  }
}

function ResultView({ result }: { result: ToolResult }) {
  return (
    <div class={result.isError ? 'ds-tool-error' : ''} data-testid="tool-result" data-error={result.isError || undefined}>
      <div class="ds-field-label">{result.isError ? 'failed: ' : 'result'}</div>
      {typeof result.output === 'string' ? <pre class="ds-text"><VisibleText text={result.output} /></pre> : <JsonTree value={result.output} />}
    </div>
  )
}
