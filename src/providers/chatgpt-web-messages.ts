// The messages of one ChatGPT web turn and what each one adds to the Reply (patch mode,
// docs/architecture.md#patch-mode). Every channel `c` holds one JSON document whose root is
// `{message, conversation_id, error}`; the reply is read from paths of that message:
// - an assistant message to everyone (`recipient: "all"`) of content type text,
//   multimodal_text or code is content (the string `parts`, or `text`), on the `analysis`
//   channel it is reasoning;
// - `content_type: "thoughts"` is reasoning (each thought's `content`, a blank line between);
// - an assistant message to a tool (`recipient` not "all") is a tool call named after the
//   recipient, its text the arguments; the tool's own messages, user, system and hidden
//   messages are not the reply.
// A message with an id is a message of Reply.messages (its text and its call kept in it, as
// the app shows each message of a turn apart); choice 0 holds their text joined in order.
// Provenance: an append to the end of a message's text is credited as it comes (a `text`
// delta of exactly the appended string); any other change to the text (a replace, a truncate,
// a new root, a snapshot) compares the text before and after: what was cut is a
// `text-truncate` to the common prefix (of that message's text, when it has an id), what is
// new is a `text` delta.

import type { JsonPatchDocument } from '../core/json-patch.js'
import type { Channel, Delta } from '../core/adapters.js'

export const CHOICE = 0

type Kind = 'content' | 'reasoning' | 'tool-call' | 'hidden'

export interface TrackedMessage {
  id: string | null
  kind: Kind
  /** Why a hidden message is hidden (for a note), or the tool's name for a call. */
  label: string
  /** A hidden message worth a note: content of a type the reply has no field for (the turn's user, system and tool messages are not). */
  noteworthy: boolean
  /** The pointer whose appends go straight to the end of the text; null when none does. */
  tail: string | null
  /** How many characters of its text went into the reply. */
  emitted: number
  /** Where its text starts in its reply channel, while nothing else wrote after it; -1 otherwise. */
  start: number
  toolKey: number
  status: string | null
  finishType: string | null
  /** Rewritten past the read budget: later changes other than appends no longer reach the reply. */
  frozen: boolean
}

const TEXT_TYPES = new Set(['text', 'multimodal_text', 'code'])

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

/** True when an operation at this pointer can change which message this is or its text (anything but an append to its tail). */
export function touchesText(pointer: string): boolean {
  return pointer === '' || pointer === '/message' || pointer.startsWith('/message/content') || pointer.startsWith('/message/author') || pointer === '/message/recipient' || pointer === '/message/channel'
}

/** Reads one document's message: its kind and where its text grows. */
export function describe(doc: JsonPatchDocument): Pick<TrackedMessage, 'id' | 'kind' | 'label' | 'tail' | 'noteworthy'> {
  const read = (p: string): unknown => {
    const r = doc.read(p)
    return r.ok ? r.value : undefined
  }
  const type = doc.typeAt('/message/content') === 'object' ? str(read('/message/content/content_type')) : null
  const id = str(read('/message/id'))
  const role = str(read('/message/author/role')) ?? str(read('/message/role'))
  if (doc.typeAt('/message') !== 'object') return { id, kind: 'hidden', label: 'roots without a message', tail: null, noteworthy: false }
  if (role !== 'assistant') return { id, kind: 'hidden', label: `${role ?? 'unknown'} messages`, tail: null, noteworthy: false }
  if (read('/message/metadata/is_visually_hidden_from_conversation') === true) return { id, kind: 'hidden', label: 'messages hidden from the conversation', tail: null, noteworthy: false }
  const recipient = str(read('/message/recipient')) ?? 'all'
  if (type === 'thoughts') {
    const n = doc.sizeAt('/message/content/thoughts')
    return { id, kind: 'reasoning', label: 'thoughts', tail: n > 0 ? `/message/content/thoughts/${n - 1}/content` : null, noteworthy: false }
  }
  if (type === null || !TEXT_TYPES.has(type)) return { id, kind: 'hidden', label: `assistant messages of content type ${type ?? '(none)'}`, tail: null, noteworthy: true }
  const tail = type === 'code' || doc.typeAt('/message/content/text') === 'string' && doc.typeAt('/message/content/parts') !== 'array' ? '/message/content/text' : lastPart(doc)
  if (recipient !== 'all') return { id, kind: 'tool-call', label: recipient, tail, noteworthy: false }
  return { id, kind: str(read('/message/channel')) === 'analysis' ? 'reasoning' : 'content', label: type, tail, noteworthy: false }
}

function lastPart(doc: JsonPatchDocument): string | null {
  const n = doc.sizeAt('/message/content/parts')
  return n > 0 && doc.typeAt(`/message/content/parts/${n - 1}`) === 'string' ? `/message/content/parts/${n - 1}` : null
}

/**
 * Characters of read budget an entry of `parts` or `thoughts` costs to walk: reading the text
 * walks every entry, whatever it holds, so a storm that fills `parts` with objects must pay for
 * its walks as a storm of long texts does (else each frame walks all the entries before it).
 */
export const ENTRY_READ_COST = 64

/**
 * The message's whole text as the reply reads it (joins what was appended), and what reading it
 * cost against the caller's read budget. Only the strings are read: an entry that is not one is
 * skipped without being copied.
 */
export function textOf(doc: JsonPatchDocument, kind: Kind): { text: string; cost: number } {
  if (kind === 'hidden') return { text: '', cost: 0 }
  const stringAt = (p: string): string | null => {
    if (doc.typeAt(p) !== 'string') return null
    const r = doc.read(p)
    return r.ok ? str(r.value) : null
  }
  const strings = (list: string, leaf: string): { parts: string[]; cost: number } => {
    const n = doc.typeAt(list) === 'array' ? doc.sizeAt(list) : 0
    const parts: string[] = []
    for (let i = 0; i < n; i++) {
      const t = stringAt(`${list}/${i}${leaf}`)
      if (t !== null) parts.push(t)
    }
    return { parts, cost: n * ENTRY_READ_COST }
  }
  if (stringAt('/message/content/content_type') === 'thoughts') {
    const { parts, cost } = strings('/message/content/thoughts', '/content')
    const text = parts.join('\n\n')
    return { text, cost: cost + text.length }
  }
  if (doc.typeAt('/message/content/parts') === 'array') {
    const { parts, cost } = strings('/message/content/parts', '')
    const text = parts.join('')
    return { text, cost: cost + text.length }
  }
  const text = stringAt('/message/content/text') ?? ''
  return { text, cost: text.length }
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** What the turn's messages have written into choice 0, and the deltas that write it. */
export class ReplyWriter {
  private readonly length: Record<Channel, number> = { content: 0, reasoning: 0, refusal: 0 }
  private readonly lastWriter: Record<Channel, TrackedMessage | null> = { content: null, reasoning: null, refusal: null }
  private toolCalls = 0
  private announced = false
  /** Ids of the messages already announced to Reply.messages. */
  private readonly opened = new Set<string>()

  track(described: Pick<TrackedMessage, 'id' | 'kind' | 'label' | 'tail' | 'noteworthy'>): TrackedMessage {
    return { ...described, emitted: 0, start: -1, toolKey: -1, status: null, finishType: null, frozen: false }
  }

  /** An append of `text` at the end of the message's text. */
  append(out: Delta[], m: TrackedMessage, text: string): void {
    if (text === '' || m.kind === 'hidden') return
    this.write(out, m, text)
  }

  /** The message's text went from `before` to `after` (and maybe its kind from `was`): cut what changed, write what is new. */
  rewrite(out: Delta[], m: TrackedMessage, before: string, after: string, was: Kind, snapshot = false): void {
    let keep = was === m.kind ? commonPrefix(before, after) : 0
    if (snapshot && was === m.kind && keep < before.length) {
      out.push({ type: 'note', level: 'warning', code: 'snapshot-rewrote', message: `message ${m.id ?? '(no id)'}: this snapshot keeps ${keep} of the previous one's ${before.length} characters and rewrites the rest` })
    }
    if (was !== 'hidden' && keep < m.emitted) keep = this.cut(out, m, was, keep)
    if (was !== m.kind) {
      // its old text stays where it was (or was cut): the new kind's text starts afresh
      m.emitted = 0
      keep = 0
    }
    if (m.kind !== 'hidden') this.announce(out)
    if (m.kind === 'tool-call' && m.toolKey < 0) this.openCall(out, m)
    if (m.kind !== 'hidden' && after.length > keep) this.write(out, m, after.slice(keep))
  }

  /** The message's text was truncated to `length` characters. */
  truncate(out: Delta[], m: TrackedMessage, length: number): void {
    if (m.kind !== 'hidden' && length < m.emitted) this.cut(out, m, m.kind, length)
  }

  private write(out: Delta[], m: TrackedMessage, text: string): void {
    this.announce(out)
    if (m.kind === 'tool-call') {
      if (m.toolKey < 0) this.openCall(out, m)
      out.push({ type: 'tool-call', choice: CHOICE, key: m.toolKey, arguments: text })
      m.emitted += text.length
      return
    }
    if (m.id !== null) {
      this.open(out, m.id)
      out.push({ type: 'text', choice: CHOICE, channel: m.kind === 'reasoning' ? 'reasoning' : 'content', text, messageId: m.id })
      m.emitted += text.length
      return
    }
    const channel: Channel = m.kind === 'reasoning' ? 'reasoning' : 'content'
    if (this.lastWriter[channel] !== m) {
      // its text starts here only if it had none before; otherwise another message wrote between its parts
      m.start = m.emitted === 0 ? this.length[channel] : -1
      this.lastWriter[channel] = m
    }
    out.push({ type: 'text', choice: CHOICE, channel, text })
    this.length[channel] += text.length
    m.emitted += text.length
  }

  private openCall(out: Delta[], m: TrackedMessage): void {
    this.announce(out)
    m.toolKey = this.toolCalls++
    if (m.id !== null) {
      this.open(out, m.id)
      out.push({ type: 'tool-call', choice: CHOICE, key: m.toolKey, id: m.id, name: m.label, callType: 'function', arguments: '', freeText: true, messageId: m.id })
      return
    }
    out.push({ type: 'tool-call', choice: CHOICE, key: m.toolKey, id: m.id, name: m.label, callType: 'function', arguments: '', freeText: true })
  }

  /** The message exists in Reply.messages from its first text or call on. */
  private open(out: Delta[], id: string): void {
    if (this.opened.has(id)) return
    this.opened.add(id)
    out.push({ type: 'message', choice: CHOICE, messageId: id, role: 'assistant' })
  }

  /** Cuts the message's text in the reply to `keep` characters; returns how many it really keeps. */
  private cut(out: Delta[], m: TrackedMessage, kind: Kind, keep: number): number {
    if (kind === 'tool-call') {
      out.push({ type: 'note', level: 'warning', message: `the arguments of tool call ${m.toolKey} (${m.label}) were rewritten: the call keeps the text it had`, symptom: 'A client that rebuilds the call from the appends shows arguments the message no longer has.' })
      return m.emitted
    }
    const channel: Channel = kind === 'reasoning' ? 'reasoning' : 'content'
    if (m.id !== null) {
      // its text is its own message's: cut there, whatever other messages wrote after it
      out.push({ type: 'text-truncate', choice: CHOICE, channel, length: keep, messageId: m.id })
      m.emitted = keep
      return keep
    }
    if (this.lastWriter[channel] !== m || m.start < 0) {
      out.push({ type: 'note', level: 'warning', message: `message ${m.id ?? '(no id)'} rewrote text that another message's text follows in the reply: the reply keeps the old text`, symptom: 'A client that concatenates messages shows text the message no longer has.' })
      return m.emitted
    }
    const length = m.start + keep
    out.push({ type: 'text-truncate', choice: CHOICE, channel, length })
    this.length[channel] = length
    m.emitted = keep
    return keep
  }

  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }
}
