// A client's message list held against Reply.messages, message by message: each difference
// names the message (its position in Reply.messages and its id) and the part where it is.
//
// Messages are paired by id when the client keeps the wire's ids (LangGraph, AG-UI, AI SDK);
// otherwise the client's last messages are paired with the reference's, in order (a client's
// list also holds the conversation before the run). The client's input messages (user, system)
// are not the run's and are passed over. A shape that keeps parts in order (UIMessage) is
// compared part by part; the others keep text, reasoning, calls and results apart, so the
// reference's parts of each kind are joined first, and a text difference is placed in the
// reference part it falls in.

import type { PartProvenance, ReplyMessage, ReplyMessagePart, ReplyToolCallPart } from '../library.js'
import type { ClientArguments } from './client-shapes.js'
import type { ClientMessage, ClientPart } from './client-messages.js'
import { sameValue, type Reference, type TextRun } from './compare-reference.js'
import { textDifference } from './compare-text.js'
import type { Difference } from './compare-types.js'
import { show } from './compare-words.js'

/** Roles of a conversation's input: not messages of the run. */
const INPUT_ROLES: ReadonlySet<string> = new Set(['user', 'system', 'developer'])

type Comparable =
  | { type: 'text' | 'reasoning'; text: string }
  | ReplyToolCallPart
  | Extract<ReplyMessagePart, { type: 'tool-result' }>

export function compareMessages(ref: Reference, want: readonly ReplyMessage[], have: readonly ClientMessage[], differences: Difference[]): void {
  const output = have.filter((m) => !INPUT_ROLES.has(m.role ?? '') || m.parts.some((p) => p.type === 'tool-result'))
  const provenance = ref.merger?.partProvenance() ?? null
  const ctx: MessageContext = { ref, provenance, differences }
  const pairs = pair(want, output)
  pairs.forEach((h, i) => {
    const w = want[i]!
    if (h === undefined) {
      differences.push({ field: `messages[${i}]`, expected: w, got: null, offset: null, frame: firstFrame(provenance, i), cause: 'other', message: `${name(i, w)}: the client has no such message.` })
    } else compareMessage(ctx, i, w, h)
  })
  const paired = new Set(pairs.filter((h) => h !== undefined))
  const last = Math.max(-1, ...[...paired].map((h) => output.indexOf(h!)))
  output.forEach((h, at) => {
    // a message after the ones paired is one the reference does not have (before them: the conversation so far)
    if (paired.has(h) || at < last) return
    differences.push({ field: 'messages', expected: null, got: h, offset: null, frame: null, cause: 'other', message: `The client has a message the reference does not have (${h.id === null ? '' : `id ${show(h.id)}, `}role ${show(h.role)}).` })
  })
}

interface MessageContext {
  ref: Reference
  provenance: PartProvenance[] | null
  differences: Difference[]
}

/** The client message paired with each reference message (undefined: none). */
function pair(want: readonly ReplyMessage[], have: readonly ClientMessage[]): Array<ClientMessage | undefined> {
  const byId = new Map<string, ClientMessage>()
  for (const h of have) if (h.id !== null && !byId.has(h.id)) byId.set(h.id, h)
  if (want.some((w) => w.id !== null && byId.has(w.id))) return want.map((w) => (w.id === null ? undefined : byId.get(w.id)))
  const skip = have.length - want.length
  return want.map((_, i) => have[skip + i])
}

function name(i: number, w: ReplyMessage): string {
  return `Message ${i} (${w.id === null ? '' : `id ${show(w.id)}, `}${w.role ?? 'no role'})`
}

function comparable(p: ReplyMessagePart): p is Comparable {
  return p.type === 'text' || p.type === 'reasoning' || p.type === 'tool-call' || p.type === 'tool-result'
}

function compareMessage(ctx: MessageContext, i: number, w: ReplyMessage, h: ClientMessage): void {
  const parts = w.parts.map((p, at) => ({ p, at })).filter((x): x is { p: Comparable; at: number } => comparable(x.p))
  if (h.ordered) {
    // a UIMessage folds a tool's result into its call's part: the result has no place of its
    // own in the order (it may arrive after later calls), so results are paired by call id
    const placed = parts.filter((x) => x.p.type !== 'tool-result')
    const theirsPlaced = h.parts.filter((p) => p.type !== 'tool-result')
    for (let k = 0; k < Math.max(placed.length, theirsPlaced.length); k++) {
      const mine = placed[k]
      const theirs = theirsPlaced[k]
      if (mine === undefined || theirs === undefined || mine.p.type !== theirs.type) {
        const at = mine?.at ?? w.parts.length
        ctx.differences.push({
          field: `messages[${i}].parts[${at}]`, expected: mine?.p ?? null, got: theirs ?? null, offset: null, frame: null, cause: 'other',
          message: `${name(i, w)}, part ${at}: the client has ${theirs === undefined ? 'no part' : `a ${theirs.type} part`} where the reference has ${mine === undefined ? 'none' : `a ${mine.p.type} part`}; the parts after it are not compared.`,
        })
        return
      }
      comparePart(ctx, i, w, mine.at, mine.p, theirs, [mine.at])
    }
    compareResultsById(ctx, i, w, parts, h.parts)
    return
  }
  // the client keeps each kind apart: text and reasoning joined, calls and results in order
  for (const type of ['reasoning', 'text'] as const) {
    const mine = parts.filter((x) => x.p.type === type)
    const theirs = h.parts.filter((p) => p.type === type) as Array<{ text: string }>
    if (mine.length === 0 && theirs.every((p) => p.text === '')) continue
    const joined: Comparable = { type, text: mine.map((x) => (x.p as { text: string }).text).join('') }
    comparePart(ctx, i, w, mine[0]?.at ?? w.parts.length, joined, { type, text: theirs.map((p) => p.text).join('') }, mine.map((x) => x.at))
  }
  for (const type of ['tool-call', 'tool-result'] as const) {
    const mine = parts.filter((x) => x.p.type === type)
    const theirs = h.parts.filter((p) => p.type === type)
    if (mine.length !== theirs.length) {
      ctx.differences.push({
        field: `messages[${i}].parts`, expected: mine.map((x) => x.p), got: theirs, offset: null, frame: null, cause: type === 'tool-call' ? (theirs.length < mine.length ? 'tool-calls-merged' : 'tool-calls-split') : 'other',
        message: `${name(i, w)}: the client has ${theirs.length} ${type === 'tool-call' ? 'tool call' : 'tool result'}${theirs.length === 1 ? '' : 's'}; the reference has ${mine.length}.`,
      })
      continue
    }
    mine.forEach((x, k) => comparePart(ctx, i, w, x.at, x.p, theirs[k]!, [x.at]))
  }
}

/** Tool results of a shape that keeps them with their calls: each reference result against the client's of the same call id. */
function compareResultsById(ctx: MessageContext, i: number, w: ReplyMessage, parts: Array<{ p: Comparable; at: number }>, have: readonly ClientPart[]): void {
  type Result = Extract<ClientPart, { type: 'tool-result' }>
  const theirs = have.filter((p): p is Result => p.type === 'tool-result')
  const mine = parts.filter((x): x is { p: Result & Comparable; at: number } => x.p.type === 'tool-result')
  for (const x of mine) {
    const match = theirs.find((t) => t.toolCallId === x.p.toolCallId)
    if (match !== undefined) comparePart(ctx, i, w, x.at, x.p, match, [x.at])
    else push(ctx, `messages[${i}].parts[${x.at}]`, x.p, null, 'other', `${name(i, w)}, part ${x.at}: the client has no result for call ${show(x.p.toolCallId)}.`)
  }
  for (const t of theirs) {
    if (!mine.some((x) => x.p.toolCallId === t.toolCallId)) push(ctx, `messages[${i}].parts`, null, t, 'other', `${name(i, w)}: the client has a result for call ${show(t.toolCallId)}; the reference has none.`)
  }
}

/** One part (or the parts `at` of one kind, joined) against the client's. */
function comparePart(ctx: MessageContext, i: number, w: ReplyMessage, at: number, mine: Comparable, theirs: ClientPart, joined: number[]): void {
  const where = `${name(i, w)}, part ${at}`
  if (mine.type === 'text' || mine.type === 'reasoning') {
    const got = (theirs as { text: string }).text
    if (got === mine.text) return
    const runs = runsOf(ctx.provenance, i, joined, w)
    const d = textDifference(ctx.ref, { path: `messages[${i}].parts[${at}].text`, label: `${mine.type} of message ${i}`, expected: mine.text, got, runs, isArguments: false })
    // a text joined from several parts: the difference is in the part its offset falls in
    const part = partAt(w, joined, d.offset ?? 0)
    ctx.differences.push({ ...d, field: `messages[${i}].parts[${part}].text`, message: `${name(i, w)}, part ${part} (${mine.type}): ${d.message}` })
    return
  }
  if (mine.type === 'tool-call' && theirs.type === 'tool-call') {
    if (theirs.name !== null && theirs.name !== mine.name) push(ctx, `messages[${i}].parts[${at}].name`, mine.name, theirs.name, 'other', `${where} (tool call): the client's name is ${show(theirs.name)}; the reference's is ${show(mine.name)}.`)
    if (mine.id !== null && theirs.id !== null && theirs.id !== mine.id) push(ctx, `messages[${i}].parts[${at}].id`, mine.id, theirs.id, 'other', `${where} (tool call): the client's id is ${show(theirs.id)}; the reference's is ${show(mine.id)}.`)
    if (theirs.arguments !== undefined && !sameArguments(mine, theirs.arguments)) {
      const got = 'text' in theirs.arguments ? theirs.arguments.text : theirs.arguments.value
      push(ctx, `messages[${i}].parts[${at}].arguments`, mine.arguments, got, 'tool-arguments-differ', `${where} (tool call ${show(mine.name)}): the client holds ${show(got)} as its arguments; the reference's are ${show(mine.arguments)}.`)
    }
    return
  }
  if (mine.type === 'tool-result' && theirs.type === 'tool-result') {
    if (!sameValue(mine.output, theirs.output)) push(ctx, `messages[${i}].parts[${at}].output`, mine.output, theirs.output, 'other', `${where} (result of ${show(mine.toolCallId)}): the client's output is ${show(theirs.output)}; the reference's is ${show(mine.output)}.`)
  }
}

function push(ctx: MessageContext, field: string, expected: unknown, got: unknown, cause: Difference['cause'], message: string): void {
  ctx.differences.push({ field, expected, got, offset: null, frame: null, cause, message })
}

function sameArguments(mine: Extract<Comparable, { type: 'tool-call' }>, theirs: ClientArguments): boolean {
  if ('text' in theirs) return theirs.text === mine.arguments
  return mine.argumentsError === null && sameValue(theirs.value, mine.parsedArguments)
}

/** The runs of parts `parts` of message `i`, placed one after the other as their texts are joined. */
function runsOf(provenance: PartProvenance[] | null, i: number, parts: number[], w: ReplyMessage): TextRun[] | null {
  if (provenance === null) return null
  const runs: TextRun[] = []
  let shift = 0
  for (const part of parts) {
    const text = (w.parts[part] as { text: string }).text
    for (const r of provenance) {
      if (r.message === i && r.part === part) runs.push({ frame: r.frame, start: r.start + shift, end: r.end + shift, text: text.slice(r.start, r.end) })
    }
    shift += text.length
  }
  return runs
}

/** Which of the joined parts holds character `offset` of their joined text. */
function partAt(w: ReplyMessage, parts: number[], offset: number): number {
  let end = 0
  for (const part of parts) {
    end += (w.parts[part] as { text: string }).text.length
    if (offset < end) return part
  }
  return parts[parts.length - 1] ?? w.parts.length
}

function firstFrame(provenance: PartProvenance[] | null, i: number): number | null {
  return provenance?.find((r) => r.message === i)?.frame ?? null
}
