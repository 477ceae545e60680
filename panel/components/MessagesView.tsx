// A run as its client shows it (Reply.messages): one block per message (role, id, name), its
// parts in order, each tool call with its result under it. Shown for the protocols whose
// messages have ids (LangGraph, AG-UI, AI SDK); a plain completion has only its choices. The
// text and arguments the selected frame wrote are marked in the part that holds them, and a
// click on a character of a part selects the frame that wrote it (as in the choice's text).
// Wire text is rendered as text nodes (VisibleText), never as HTML.

import { useState } from 'preact/hooks'
import type { Channel, Reply, ReplyMessage, ReplyMessagePart } from '../../src/library.js'
import { showFrame, usePanel } from '../context.js'
import { plural } from '../format.js'
import { partSpans } from '../message-layout.js'
import type { FieldRef } from '../provenance.js'
import type { Highlight } from '../store/index.js'
import { characterAt } from './caret.js'
import { JsonTree } from './JsonTree.js'
import { VisibleText } from './VisibleText.js'

type ToolResult = Extract<ReplyMessagePart, { type: 'tool-result' }>

/** True when the reply's messages are the wire's own (some message has an id), not its choices restated. */
export function hasOwnMessages(messages: readonly ReplyMessage[]): boolean {
  return messages.some((m) => m.id !== null)
}

/**
 * Messages laid out at first (more on demand), and characters shown of a part (the choice's
 * view above windows the whole text): a long run re-laid out on every batch would stall the panel.
 */
export const MESSAGES_SHOWN = 50
export const PART_CHARS_SHOWN = 4_000

/** Ranges [start, end) of one part's own text. */
type Ranges = Array<[number, number]>

const CHANNEL_OF: Record<string, Channel> = { text: 'content', reasoning: 'reasoning', refusal: 'refusal' }

/** The marked ranges of each part, keyed `message:part`, from highlights in the reply's coordinates (choice 0). */
function partMarks(reply: Reply, highlight: readonly Highlight[]): Map<string, Ranges> {
  const out = new Map<string, Ranges>()
  if (highlight.length === 0) return out
  const add = (key: string, range: [number, number]) => { const list = out.get(key) ?? []; list.push(range); out.set(key, list) }
  for (const channel of ['content', 'reasoning', 'refusal'] as const) {
    const marks = highlight.filter((h) => h.field.choice === 0 && h.field.channel === channel)
    if (marks.length === 0) continue
    const spans = partSpans(reply, channel)
    let n = 0
    reply.messages.forEach((m, i) => m.parts.forEach((p, k) => {
      if (!('text' in p) || CHANNEL_OF[p.type] !== channel) return
      const span = spans[n++]!
      for (const h of marks) {
        const a = Math.max(h.start, span.start)
        const b = Math.min(h.end, span.end)
        if (a < b) add(`${i}:${k}`, [a - span.start, b - span.start])
      }
    }))
  }
  const calls = reply.choices.find((c) => c.index === 0)?.toolCalls ?? []
  reply.messages.forEach((m, i) => m.parts.forEach((p, k) => {
    if (p.type !== 'tool-call' || p.id === null) return
    const at = calls.findIndex((c) => c.id === p.id)
    for (const h of highlight) if (h.field.choice === 0 && h.field.channel === 'arguments' && h.field.toolCall === at) add(`${i}:${k}`, [h.start, h.end])
  }))
  return out
}

/** Text with its marked ranges in <mark> (ranges in order, not overlapping: a frame's runs); past PART_CHARS_SHOWN, its length said. */
function Marked({ text: whole, ranges }: { text: string; ranges: Ranges | undefined }) {
  const text = whole.length > PART_CHARS_SHOWN ? whole.slice(0, PART_CHARS_SHOWN) : whole
  const rest = whole.length - text.length
  const more = rest > 0 ? <span class="ds-status" data-testid="message-text-more"> … {plural(rest, 'more char')}</span> : null
  if (ranges === undefined || ranges.length === 0) return <><VisibleText text={text} />{more}</>
  const sorted = [...ranges].sort((x, y) => x[0] - y[0])
  const out = []
  let at = 0
  for (const [a, b] of sorted) {
    if (a < at || a >= text.length) continue
    if (a > at) out.push(<VisibleText key={`t${at}`} text={text.slice(at, a)} />)
    out.push(<mark key={`m${a}`}><VisibleText text={text.slice(a, Math.min(b, text.length))} /></mark>)
    at = Math.min(b, text.length)
  }
  if (at < text.length) out.push(<VisibleText key={`t${at}`} text={text.slice(at)} />)
  return <>{out}{more}</>
}

/**
 * Where a character of a part is in the choice's fields (choice 0: a message protocol's text
 * and calls are its), to find the frame that wrote it; null for a part no frame wrote into.
 */
function fieldOf(reply: Reply, message: number, part: number): ((offset: number) => { field: FieldRef; offset: number } | null) | null {
  const p = reply.messages[message]?.parts[part]
  if (p === undefined) return null
  if (p.type === 'tool-call') {
    const at = p.id === null ? -1 : (reply.choices.find((c) => c.index === 0)?.toolCalls ?? []).findIndex((c) => c.id === p.id)
    return at < 0 ? null : (offset) => ({ field: { choice: 0, channel: 'arguments', toolCall: at }, offset })
  }
  const channel = CHANNEL_OF[p.type]
  if (channel === undefined) return null
  // the part's span in the channel text: its own offsets shifted by the parts before it
  const key = `${reply.messages[message]!.id ?? `#${message}`}\u0000${part}`
  const span = partSpans(reply, channel).find((x) => x.key === key)
  return span === undefined ? null : (offset) => ({ field: { choice: 0, channel, toolCall: null }, offset: span.start + offset })
}

export function MessagesView({ reply, highlight }: { reply: Reply; highlight: readonly Highlight[] }) {
  const { store, ui } = usePanel()
  const [limit, setLimit] = useState(MESSAGES_SHOWN)
  const messages = reply.messages
  const marks = partMarks(reply, highlight)
  /** A click on a part's text (`el`, the block holding it) selects the frame that wrote that character. */
  const select = (message: number, part: number, el: HTMLElement, e: MouseEvent) => {
    const sel = el.ownerDocument.getSelection()
    if (!sel || !sel.isCollapsed || !sel.anchorNode || !el.contains(sel.anchorNode)) return
    const at = fieldOf(reply, message, part)?.(characterAt(el, sel.anchorNode, sel.anchorOffset, e.clientX, e.clientY))
    if (at) void store.selectFrameAt(at.field, at.offset).then((found) => { if (found) showFrame(ui) })
  }
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
      {messages.map((m, i) => i >= limit && !hasMark(marks, i) ? null : (
        <article key={`${i}:${m.id ?? ''}`} class="ds-choice ds-message" data-testid="message" data-index={i}>
          <div class="ds-choice-head">
            <span>message <b>{i}</b></span>
            <span>role <b data-testid="message-role">{m.role ?? '(none)'}</b></span>
            {m.name !== undefined && <span>name <b data-testid="message-name"><VisibleText text={m.name} /></b></span>}
            <span class="id" data-testid="message-id">{m.id === null ? '(no id)' : <VisibleText text={m.id} />}</span>
          </div>
          {m.parts.map((p, k) => <PartView key={k} part={p} results={results} marks={marks.get(`${i}:${k}`)} onClick={(el, e) => select(i, k, el, e)} />)}
        </article>
      ))}
      {messages.length > limit && (
        <button type="button" class="ds-link ds-more" data-testid="more-messages" onClick={() => setLimit(limit + MESSAGES_SHOWN * 4)}>
          … {plural(messages.length - limit, 'more message')}: show {Math.min(MESSAGES_SHOWN * 4, messages.length - limit)} more
        </button>
      )}
    </div>
  )
}

/** Past the limit, a message is laid out only when the selected frame wrote into it. */
function hasMark(marks: ReadonlyMap<string, Ranges>, message: number): boolean {
  for (const key of marks.keys()) if (key.startsWith(`${message}:`)) return true
  return false
}

interface PartProps {
  part: ReplyMessagePart
  results: ReadonlyMap<string, ToolResult[]>
  marks: Ranges | undefined
  /** A click in the part's text or arguments. */
  onClick: (el: HTMLElement, e: MouseEvent) => void
}

const CLICK_TITLE = 'Click a character to find the frame that sent it'

function PartView({ part, results, marks, onClick }: PartProps) {
  const written = marks !== undefined && marks.length > 0 ? true : undefined
  const click = (e: MouseEvent) => onClick(e.currentTarget as HTMLElement, e)
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return (
        <div class="ds-field" data-testid="message-part" data-type={part.type} data-written={written}>
          <div class="ds-field-label">{part.type} · {plural(part.text.length, 'char')}</div>
          <pre class="ds-text" data-testid="message-text" onClick={click} title={CLICK_TITLE}><Marked text={part.text} ranges={marks} /></pre>
        </div>
      )
    case 'tool-call':
      return (
        <div class="ds-field" data-testid="message-part" data-type="tool-call" data-written={written}>
          <div class="ds-field-label">tool call <VisibleText text={part.name ?? '(no name)'} /> · <VisibleText text={part.id ?? '(no id)'} /></div>
          <pre class="ds-text" data-testid="message-arguments" onClick={click} title={CLICK_TITLE}><Marked text={part.arguments} ranges={marks} /></pre>
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
      {typeof result.output === 'string' ? <pre class="ds-text"><Marked text={result.output} ranges={undefined} /></pre> : <JsonTree value={result.output} />}
    </div>
  )
}
