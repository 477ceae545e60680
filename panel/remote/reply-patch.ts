// A reply sent again after a change, as what changed (protocol.ts): a stream's text only grows
// while it is merged, so each text field goes as the text appended since the last update;
// tool calls as the ones that changed, by position; usage and finish reasons whole; the errors
// as the new ones.

import { choiceMessages } from '../../src/library.js'
import type { Channel, ProviderId, Reply, ReplyChoice, ReplyMessage, Transport } from '../../src/library.js'
import { appendPiece, notePieces, piecesFor, type TextPiece } from '../text-pieces.js'

/** A text field of a choice: the same as before up to `from`, then `text`. */
export interface TextPatch { from: number; text: string }

export interface ChoicePatch {
  index: number
  role: string | null
  content: TextPatch
  reasoning: TextPatch
  refusal: TextPatch
  /**
   * The tool calls: `length` of them, each as it was but the ones `set` at their positions. A
   * stream adds calls and grows a few: with calls reusing indexes (sorted by index, then
   * arrival) the ones that grow are spread through the list, and sending all after the first
   * changed one cloned 9,000 of 12,000 calls on every update. A new call sorted in before
   * others moves them: `from` then gives, for each position, where the call there was before
   * (-1: it is in `set`), so a moved call is not sent again; null when none moved.
   */
  toolCalls: { length: number; set: Array<[number, ReplyChoice['toolCalls'][number]]>; from: Int32Array | null }
  finishReason: string | null
}

/** The reply as the changes since the last update: applied to the previous one by applyPatch. */
export interface ReplyPatch {
  transport: Transport
  provider: ProviderId
  done: boolean
  frameCount: number
  choices: ChoicePatch[]
  /**
   * The messages, whole, when the stream's deltas named them; null when they are the choices
   * as messages (rebuilt on this side from the choices: a plain stream's text is sent once).
   */
  messages: ReplyMessage[] | null
  usage: Record<string, unknown> | null
  /** The errors after the first `errorsFrom` (the ones before are as they were). */
  errorsFrom: number
  errors: Reply['errors']
}

const TEXT: readonly Channel[] = ['content', 'reasoning', 'refusal']

/** A text field's change: appended text when `next` extends `prev` (the usual case), else all of it. */
function textPatch(prev: string | undefined, next: string): TextPatch {
  if (prev !== undefined && next.length >= prev.length && next.startsWith(prev)) return { from: prev.length, text: next.slice(prev.length) }
  return { from: 0, text: next }
}

type ToolCall = ReplyChoice['toolCalls'][number]

/**
 * The same tool call, field by field. `parsedArguments` is what `arguments` parses to (the
 * merger parses the one string), so equal arguments and errors mean equal parsed values:
 * comparing the strings spares serialising every call's arguments on every update.
 */
function sameToolCall(x: ToolCall, y: ToolCall): boolean {
  return x === y || (x.index === y.index && x.id === y.id && x.type === y.type && x.name === y.name && x.arguments === y.arguments &&
    x.argumentsError === y.argumentsError && (x.parsedArguments === null) === (y.parsedArguments === null))
}

/**
 * The calls that differ from the ones at the same positions before, and the new ones (12,000
 * calls: the few that grew); when calls moved, each one found before (the merger hands an
 * unchanged call over as the same object) by where it was.
 */
function toolCallsPatch(prev: readonly ToolCall[], next: readonly ToolCall[]): ChoicePatch['toolCalls'] {
  const set: ChoicePatch['toolCalls']['set'] = []
  let moved = false
  for (let i = 0; i < next.length; i++) {
    if (i < prev.length && sameToolCall(prev[i]!, next[i]!)) continue
    if (!moved && prev.length > 0 && i < next.length - 1) moved = true
    set.push([i, next[i]!])
  }
  // a call changed before the end: some may only have moved (one new call sorted in before them)
  if (!moved) return { length: next.length, set, from: null }
  const was = new Map<ToolCall, number>()
  prev.forEach((call, at) => was.set(call, at))
  const from = new Int32Array(next.length)
  const changed: ChoicePatch['toolCalls']['set'] = []
  let anyMoved = false
  for (let i = 0; i < next.length; i++) {
    const at = was.get(next[i]!)
    if (at !== undefined) { from[i] = at; anyMoved ||= at !== i }
    else if (i < prev.length && sameToolCall(prev[i]!, next[i]!)) from[i] = i
    else { from[i] = -1; changed.push([i, next[i]!]) }
  }
  return anyMoved ? { length: next.length, set: changed, from } : { length: next.length, set, from: null }
}

/** What changed from `prev` (the reply last sent; null: none) to `next`. */
export function diffReply(prev: Reply | null, next: Reply): ReplyPatch {
  const choices = next.choices.map((c): ChoicePatch => {
    const before = prev?.choices.find((p) => p.index === c.index)
    const patch = { index: c.index, role: c.role, finishReason: c.finishReason } as ChoicePatch
    for (const f of TEXT) patch[f] = textPatch(before?.[f], c[f])
    patch.toolCalls = toolCallsPatch(before?.toolCalls ?? [], c.toolCalls)
    return patch
  })
  // errors only grow while a stream is merged (the same objects: a merger read again has others)
  const kept = prev ? prev.errors.length : 0
  const errorsFrom = kept > 0 && kept <= next.errors.length && prev!.errors[kept - 1] === next.errors[kept - 1] && prev!.errors[0] === next.errors[0] ? kept : 0
  return {
    transport: next.transport, provider: next.provider, done: next.done, frameCount: next.frameCount,
    choices, messages: next.messages.some((m) => m.id !== null) ? next.messages : null,
    usage: next.usage, errorsFrom, errors: next.errors.slice(errorsFrom),
  }
}

/** The reply after `patch`, from the one before it (null: none). */
export function applyPatch(prev: Reply | null, patch: ReplyPatch): Reply {
  const choices = patch.choices.map((p): ReplyChoice => {
    const before = prev?.choices.find((c) => c.index === p.index)
    const pieces: Partial<Record<Channel, TextPiece>> = {}
    const text = (f: Channel) => {
      const { from, text: appended } = p[f]
      // appended to the text before (a rope, read only as windows of its pieces: text-pieces.ts)
      if (from > 0 && from === before![f].length) {
        pieces[f] = appendPiece(piecesFor(before!, f), before![f], appended)
        return before![f] + appended
      }
      const whole = from === 0 ? appended : before![f].slice(0, from) + appended
      pieces[f] = appendPiece(null, '', whole)
      return whole
    }
    const choice: ReplyChoice = {
      index: p.index, role: p.role, content: text('content'), reasoning: text('reasoning'), refusal: text('refusal'),
      toolCalls: toolCallsOf(before?.toolCalls ?? [], p.toolCalls),
      finishReason: p.finishReason,
    }
    notePieces(choice, pieces)
    return choice
  })
  const errors = patch.errorsFrom === 0 ? patch.errors : [...prev!.errors.slice(0, patch.errorsFrom), ...patch.errors]
  const messages = patch.messages ?? choiceMessages(choices)
  return { transport: patch.transport, provider: patch.provider, done: patch.done, frameCount: patch.frameCount, choices, messages, usage: patch.usage, errors }
}

function toolCallsOf(before: readonly ToolCall[], patch: ChoicePatch['toolCalls']): ToolCall[] {
  const from = patch.from
  const calls = from === null ? before.slice(0, patch.length) : Array.from(from, (at) => before[at]!)
  for (const [at, call] of patch.set) calls[at] = call
  return calls
}
