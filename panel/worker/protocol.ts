// Merging off the UI thread (issue 18): the messages between the panel's UI thread and the
// worker that runs its mergers (host.ts in the worker, client.ts on the UI side). Plain data
// only, small on the way back: a request's row facts, its reply as the parts that changed
// (text appended since the last update, the small fields whole), and a window of frames
// when the UI asks for the rows it shows. Bodies go to the worker as bytes (transferred,
// not copied, when the UI owns their buffer) and stay there: the worker's merger holds each
// byte once.

import type { Frame, MergeOptions, ProviderId, Reply, ReplyChoice, Transport } from '../../src/library.js'

export type ToWorker =
  | { type: 'open'; id: string; options: MergeOptions }
  | { type: 'push'; id: string; data: Uint8Array | string; t: number | null }
  | { type: 'end'; id: string }
  /** Frames [from, to) of a request, answered by a `frames` message with the same `call`. */
  | { type: 'frames'; id: string; call: number; from: number; to: number }
  /** Drops the request's merger and everything derived from it. */
  | { type: 'release'; id: string }

export type FromWorker =
  | { type: 'update'; id: string; facts: MergeFacts; reply: ReplyPatch }
  | { type: 'frames'; id: string; call: number; frames: Frame[] }
  /** The merger threw (a push after its end, …): that request stops, the worker goes on. */
  | { type: 'failed'; id: string; message: string }

/** What the request list shows of a request, as the worker's merger counts it. */
export interface MergeFacts {
  frameCount: number
  /** Body bytes merged. */
  bytes: number
  /** Frames whose data failed to parse, and other frame errors (the Reply's errors). */
  errors: number
  done: boolean
  provider: ProviderId
  transport: Transport
  /** end() was called: the reply is final. */
  ended: boolean
}

/** A text field of a choice: the same as before up to `from`, then `text`. */
export interface TextPatch { from: number; text: string }

export interface ChoicePatch {
  index: number
  role: string | null
  content: TextPatch
  reasoning: TextPatch
  refusal: TextPatch
  /** Tool calls are few and small next to the text: sent whole when they changed, else null. */
  toolCalls: ReplyChoice['toolCalls'] | null
  finishReason: string | null
}

/** The reply as the changes since the last update: applied to the previous one by applyPatch. */
export interface ReplyPatch {
  transport: Transport
  provider: ProviderId
  done: boolean
  frameCount: number
  choices: ChoicePatch[]
  usage: Record<string, unknown> | null
  /** The errors after the first `errorsFrom` (the ones before are as they were). */
  errorsFrom: number
  errors: Reply['errors']
}

const TEXT = ['content', 'reasoning', 'refusal'] as const

/** A text field's change: appended text when `next` extends `prev` (the usual case), else all of it. */
function textPatch(prev: string | undefined, next: string): TextPatch {
  if (prev !== undefined && next.length >= prev.length && next.startsWith(prev)) return { from: prev.length, text: next.slice(prev.length) }
  return { from: 0, text: next }
}

/** What changed from `prev` (the reply last sent; null: none) to `next`. */
export function diffReply(prev: Reply | null, next: Reply): ReplyPatch {
  const choices = next.choices.map((c): ChoicePatch => {
    const before = prev?.choices.find((p) => p.index === c.index)
    const patch = { index: c.index, role: c.role, finishReason: c.finishReason } as ChoicePatch
    for (const f of TEXT) patch[f] = textPatch(before?.[f], c[f])
    patch.toolCalls = before && JSON.stringify(before.toolCalls) === JSON.stringify(c.toolCalls) ? null : c.toolCalls
    return patch
  })
  // errors only grow while a stream is merged
  const errorsFrom = prev && prev.errors.length <= next.errors.length ? prev.errors.length : 0
  return {
    transport: next.transport, provider: next.provider, done: next.done, frameCount: next.frameCount,
    choices, usage: next.usage, errorsFrom, errors: next.errors.slice(errorsFrom),
  }
}

/** The reply after `patch`, from the one before it (null: none). */
export function applyPatch(prev: Reply | null, patch: ReplyPatch): Reply {
  const choices = patch.choices.map((p): ReplyChoice => {
    const before = prev?.choices.find((c) => c.index === p.index)
    const text = (f: (typeof TEXT)[number]) => (p[f].from === 0 ? p[f].text : before![f].slice(0, p[f].from) + p[f].text)
    return {
      index: p.index, role: p.role, content: text('content'), reasoning: text('reasoning'), refusal: text('refusal'),
      toolCalls: p.toolCalls ?? before?.toolCalls ?? [], finishReason: p.finishReason,
    }
  })
  const errors = patch.errorsFrom === 0 ? patch.errors : [...prev!.errors.slice(0, patch.errorsFrom), ...patch.errors]
  return { transport: patch.transport, provider: patch.provider, done: patch.done, frameCount: patch.frameCount, choices, usage: patch.usage, errors }
}
