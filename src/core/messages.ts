// A run's messages (docs/architecture.md#messages): the deltas that name a message id are kept
// in that message, whatever streams between them, so two messages whose chunks interleave
// (a LangGraph fan-out, AG-UI subagents) come out apart, each in the order it was written.
// Messages are listed in the order they are first named. The accumulator owns the text
// buffers' provenance and the tool calls; this table only places them. A choice whose deltas
// name no message is shown as one message (messagesOf).

import { TextBuffer } from './text-buffer.js'
import { replyToolCall, sortedCalls, type ToolState } from './reply-tool-call.js'
import type { Channel, ReplyChoice, ReplyMessage, ReplyMessagePart } from './types.js'
import type { MessageDelta } from './adapters.js'

/** A run of one channel's text inside a message. */
export interface TextPart {
  kind: 'text'
  channel: Channel
  /** The wire's part id (AI SDK), null when the wire has none. */
  id: string | null
  text: TextBuffer
  /** Provenance target (the accumulator's). */
  target: number
  /** Where the part's text starts in its choice's channel text, set by placeText(). */
  offset: number
}

type PartState =
  | TextPart
  | { kind: 'call'; call: ToolState }
  | { kind: 'value'; part: ReplyMessagePart }

export interface MessageState {
  readonly choice: number
  readonly id: string
  role: string | null
  name: string | null
  readonly parts: PartState[]
  /** Text parts by their wire part id; null until one has an id. */
  byPartId: Map<string, TextPart> | null
}

/** Part types of the channels, as message parts. */
const PART_TYPE: Record<Channel, 'text' | 'reasoning' | 'refusal'> = { content: 'text', reasoning: 'reasoning', refusal: 'refusal' }
const CHANNELS: readonly Channel[] = ['reasoning', 'content', 'refusal']

/** Where a provenance target is shown: its message and part, in Reply.messages. */
export interface PartPlace { message: number; part: number }

export class MessageTable {
  /** In the order first named. */
  readonly list: MessageState[] = []
  private readonly byId = new Map<string, MessageState>()
  /** Calls placed in a message: the rest are their choice's. */
  private readonly placed = new Set<ToolState>()

  get size(): number {
    return this.list.length
  }

  message(choice: number, id: string, after?: string): MessageState {
    let m = this.byId.get(id)
    if (m === undefined) {
      m = { choice, id, role: null, name: null, parts: [], byPartId: null }
      this.byId.set(id, m)
      const owner = after === undefined ? undefined : this.byId.get(after)
      let at = owner === undefined ? -1 : this.list.indexOf(owner)
      if (at < 0) this.list.push(m)
      else {
        at++
        while (at < this.list.length && this.list[at]!.role === 'tool') at++
        this.list.splice(at, 0, m)
      }
    }
    return m
  }

  /** A message delta: the first non-empty role and name are kept. */
  open(d: MessageDelta): void {
    const m = this.message(d.choice, d.messageId, d.after)
    if (m.role === null && typeof d.role === 'string' && d.role !== '') m.role = d.role
    if (m.name === null && typeof d.name === 'string' && d.name !== '') m.name = d.name
  }

  /**
   * The text part a fragment goes to: the one of its part id; without an id, the message's
   * last part when it is text of the same channel; otherwise a new part (`create` gives its
   * provenance target).
   */
  textPart(m: MessageState, channel: Channel, partId: string | undefined, target: (part: TextPart) => number): TextPart {
    if (partId !== undefined) {
      const known = m.byPartId?.get(partId)
      if (known !== undefined && known.channel === channel) return known
    } else {
      const last = m.parts[m.parts.length - 1]
      if (last !== undefined && last.kind === 'text' && last.channel === channel && last.id === null) return last
    }
    const part: TextPart = { kind: 'text', channel, id: partId ?? null, text: new TextBuffer(), target: -1, offset: 0 }
    part.target = target(part)
    m.parts.push(part)
    if (partId !== undefined) (m.byPartId ??= new Map()).set(partId, part)
    return part
  }

  /**
   * Keeps the first `length` characters of the message's text of one channel (its text parts
   * joined); calls `cut(part, keep)` for each part that loses text. False when nothing is cut.
   */
  truncate(m: MessageState, channel: Channel, length: number, cut: (part: TextPart, keep: number) => void): boolean {
    let before = 0
    let cutAny = false
    for (const p of m.parts) {
      if (p.kind !== 'text' || p.channel !== channel) continue
      const keep = Math.max(0, length - before)
      before += p.text.length
      if (keep >= p.text.length) continue
      p.text.truncate(keep)
      cut(p, keep)
      cutAny = true
    }
    return cutAny
  }

  /** A call becomes a part of the message that first names it (once). */
  placeCall(m: MessageState, call: ToolState): void {
    if (this.placed.has(call)) return
    this.placed.add(call)
    m.parts.push({ kind: 'call', call })
  }

  addValue(m: MessageState, part: ReplyMessagePart): void {
    m.parts.push({ kind: 'value', part })
  }

  /**
   * A choice's channel text: what was appended without a message (`own`), then its messages'
   * text parts of that channel joined in message order (no separator: the rule of
   * docs/wire-formats.md#messages).
   */
  channelText(choice: number, channel: Channel, own: string): string {
    let text = own
    for (const p of this.textParts(choice, channel)) text += p.text.toString()
    return text
  }

  /** Sets each text part's offset in its choice's channel text (`ownLength`: the text appended without a message). */
  placeText(choice: number, channel: Channel, ownLength: number): void {
    let offset = ownLength
    for (const p of this.textParts(choice, channel)) {
      p.offset = offset
      offset += p.text.length
    }
  }

  /** True when a choice has messages (its channels are then joined from them). */
  hasMessages(choice: number): boolean {
    return this.list.some((m) => m.choice === choice)
  }

  private *textParts(choice: number, channel: Channel): Generator<TextPart> {
    for (const m of this.list) {
      if (m.choice !== choice) continue
      for (const p of m.parts) if (p.kind === 'text' && p.channel === channel) yield p
    }
  }

  /**
   * Reply.messages: each choice's messages in the order first named; a choice with none is one
   * message of its own (its reasoning, content, refusal and calls), as is what a choice has
   * outside its messages (`loose`: text appended and calls made without a message id).
   * `where` (when given) learns the place of each provenance target.
   */
  messagesOf(choices: readonly ReplyChoice[], loose: (choice: number) => Loose, where?: Map<number, PartPlace>): ReplyMessage[] {
    const out: ReplyMessage[] = []
    for (const c of choices) {
      const own = this.list.filter((m) => m.choice === c.index)
      const rest = loose(c.index)
      const calls = sortedCalls(rest.calls).filter((t) => !this.placed.has(t))
      if (own.length === 0 || calls.length > 0 || CHANNELS.some((ch) => rest.texts[ch] !== '')) {
        out.push(choiceMessage(c, rest, calls, out.length, where))
      }
      for (const m of own) out.push(replyMessage(m, out.length, where))
    }
    return out
  }
}

/** What a choice has outside its messages: each channel's text and target, its calls. */
export interface Loose {
  texts: Record<Channel, string>
  /** A channel's provenance target, -1 when it has none. */
  targets: Record<Channel, number>
  calls: Iterable<ToolState>
}

/** A choice (or what it has outside its messages) as one message: reasoning, content, refusal, then calls. */
function choiceMessage(c: ReplyChoice, rest: Loose, calls: ToolState[], index: number, where?: Map<number, PartPlace>): ReplyMessage {
  const parts: ReplyMessagePart[] = []
  for (const channel of CHANNELS) {
    const text = rest.texts[channel]
    if (text === '') continue
    if (rest.targets[channel] >= 0) where?.set(rest.targets[channel], { message: index, part: parts.length })
    parts.push({ type: PART_TYPE[channel], text })
  }
  for (const t of calls) {
    where?.set(t.target, { message: index, part: parts.length })
    parts.push(callPart(t))
  }
  return { id: null, role: c.role, parts }
}

function replyMessage(m: MessageState, index: number, where?: Map<number, PartPlace>): ReplyMessage {
  const parts: ReplyMessagePart[] = []
  for (const p of m.parts) {
    if (p.kind === 'text') {
      where?.set(p.target, { message: index, part: parts.length })
      parts.push({ type: PART_TYPE[p.channel], text: p.text.toString() })
    } else if (p.kind === 'call') {
      where?.set(p.call.target, { message: index, part: parts.length })
      parts.push(callPart(p.call))
    } else parts.push(p.part)
  }
  // '' is a message the wire named no id for (an AI SDK stream whose start has none)
  const id = m.id === '' ? null : m.id
  return m.name === null ? { id, role: m.role, parts } : { id, role: m.role, name: m.name, parts }
}

function callPart(t: ToolState): ReplyMessagePart {
  const r = replyToolCall(t)
  return { type: 'tool-call', id: r.id, name: r.name, arguments: r.arguments, parsedArguments: r.parsedArguments, argumentsError: r.argumentsError }
}

/**
 * Each choice as one message, from the Reply's choices alone: what Reply.messages holds for a
 * stream whose deltas name no message (a fixture written before messages, the panel's
 * updates, which send a plain stream's text once, in its choices).
 */
export function choiceMessages(choices: readonly ReplyChoice[]): ReplyMessage[] {
  return choices.map((c) => {
    const parts: ReplyMessagePart[] = []
    if (c.reasoning !== '') parts.push({ type: 'reasoning', text: c.reasoning })
    if (c.content !== '') parts.push({ type: 'text', text: c.content })
    if (c.refusal !== '') parts.push({ type: 'refusal', text: c.refusal })
    for (const t of c.toolCalls) parts.push({ type: 'tool-call', id: t.id, name: t.name, arguments: t.arguments, parsedArguments: t.parsedArguments, argumentsError: t.argumentsError })
    return { id: null, role: c.role, parts }
  })
}
