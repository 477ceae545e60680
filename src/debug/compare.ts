// compareReply: a client's result held against the reply Deltascope rebuilds from the same
// bytes by the same rules. Field by field (content, reasoning, refusal, tool calls, finish
// reason per choice, then usage); each difference is mapped through provenance to the frame
// that wrote the expected text and given a documented cause (compare-causes.ts).
//
// The client's result is untrusted: compareReply never throws on it. A result it cannot read
// is one difference of cause `other` naming the shapes it reads.

import type { LibraryMergeOptions, Reply, ReplyChoice } from '../library.js'
import { CLIENT_SHAPES, readClientResult, type ClientChoice, type ClientView } from './client-shapes.js'
import {
  fieldRuns, frameSplitAcrossReads, readReference, replyHistory, sameValue, spannedReads, stopBetween, type ClientEvidence, type History, type Reference, type ReferenceInput,
} from './compare-reference.js'
import { channelMix, textDifference, type Finding } from './compare-text.js'
import { compareMessages } from './compare-messages.js'
import { compareToolCalls } from './compare-tools.js'
import type { Comparison, Difference } from './compare-types.js'
import { reads, show } from './compare-words.js'

export interface CompareOptions {
  /** How to read a reference given as a body: provider, transport, Content-Type, URL (as for merge()). */
  mergeOptions?: LibraryMergeOptions
}

/**
 * Compares what a client produced with the reference reply.
 *
 * `reference`: a Deltascope fixture (object or JSON text: its network chunks are replayed,
 * so causes can name reads), a Reply, or a body (merged here). `clientResult`: plain text, a
 * Reply, or an SDK's final object (see CLIENT_SHAPES). Throws only on a reference that is none
 * of those; never on the client's result.
 */
export function compareReply(reference: ReferenceInput, clientResult: unknown, options: CompareOptions = {}): Comparison {
  const ref = readReference(reference, options.mergeOptions)
  let view: ClientView | null
  try {
    view = readClientResult(clientResult)
  } catch (e) {
    return unreadable(ref.reply, clientResult, `reading it threw (${errorText(e)})`)
  }
  if (view === null) return unreadable(ref.reply, clientResult, 'it is none of the shapes compareReply reads')
  try {
    return new ComparisonBuilder(ref, view).build()
  } catch (e) {
    // a getter or a cycle in the client's object: still a value, never a throw
    return unreadable(ref.reply, clientResult, `comparing it threw (${errorText(e)})`)
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

function unreadable(reply: Reply, clientResult: unknown, why: string): Comparison {
  const shapes = Object.values(CLIENT_SHAPES)
  const accepted = `${shapes.slice(0, -1).join(', ')} or ${shapes[shapes.length - 1]}`
  return {
    equal: false,
    differences: [{
      field: '', expected: reply, got: clientResult, offset: null, frame: null, cause: 'other',
      message: `The client's result could not be read (${why}): compareReply accepts ${accepted}.`,
    }],
    notCompared: [],
  }
}

function emptyChoice(index: number): ReplyChoice {
  return { index, role: null, content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: null }
}

class ComparisonBuilder {
  private readonly differences: Difference[] = []
  private readonly notCompared: string[] = []
  private history: History | null | undefined

  constructor(private readonly ref: Reference, private readonly view: ClientView) {}

  build(): Comparison {
    const reference = new Map(this.ref.reply.choices.map((c) => [c.index, c]))
    const client = new Map(this.view.choices.map((c) => [c.index, c]))
    this.ref.client = this.evidence(reference, client)
    if (this.view.messages !== undefined) {
      // a list of messages: compared with Reply.messages instead of the choices (their text is
      // the messages'); it has no finish reason or usage
      compareMessages(this.ref, this.ref.reply.messages, this.view.messages, this.differences)
      for (const index of reference.keys()) this.notCompared.push(`choices[${index}]`)
      this.notCompared.push('usage')
      return { equal: this.differences.length === 0, differences: this.differences, notCompared: this.notCompared }
    }
    if (this.view.singleChoice) {
      // the shape holds one reply: it is choice 0, whatever the reference's other choices say
      this.compareChoice(reference.get(0) ?? emptyChoice(0), client.get(0)!)
      for (const index of reference.keys()) if (index !== 0) this.notCompared.push(`choices[${index}]`)
    } else {
      const indexes = [...new Set([...reference.keys(), ...client.keys()])].sort((a, b) => a - b)
      for (const index of indexes) this.compareOrMissing(index, reference.get(index), client.get(index))
    }
    this.compareUsage()
    return { equal: this.differences.length === 0, differences: this.differences, notCompared: this.notCompared }
  }

  /** What the client evidently read: the frames of the fields it got right, and the frame that set a finish reason it has. */
  private evidence(reference: Map<number, ReplyChoice>, client: Map<number, ClientChoice>): ClientEvidence {
    const kept: number[] = []
    const finished: number[] = []
    for (const [index, have] of client) {
      const want = reference.get(index)
      if (!want) continue
      for (const channel of ['content', 'reasoning', 'refusal'] as const) {
        if (have[channel] === want[channel]) kept.push(...this.framesOf(index, channel, null, want[channel]))
      }
      want.toolCalls.forEach((call, i) => {
        const args = have.toolCalls?.[i]?.arguments
        const same = args !== undefined && ('text' in args ? args.text === call.arguments : call.argumentsError === null && sameValue(args.value, call.parsedArguments))
        if (same) kept.push(...this.framesOf(index, 'arguments', i, call.arguments))
      })
      if (want.finishReason !== null && have.finishReason === want.finishReason) finished.push(index)
    }
    let last: number | undefined
    return {
      readsWhole: kept.some((frame) => spannedReads(this.ref, frame) !== null),
      lastFrameRead: () => {
        // the finish reason's frame needs a replay of the frames: found only when asked
        last ??= Math.max(-1, ...kept, ...finished.map((i) => this.getHistory()?.finishFrame.get(i) ?? -1))
        return last
      },
    }
  }

  private framesOf(choice: number, channel: 'content' | 'reasoning' | 'refusal' | 'arguments', toolCall: number | null, text: string): number[] {
    return text === '' ? [] : (fieldRuns(this.ref, { choice, channel, toolCall }, text) ?? []).map((r) => r.frame)
  }

  private compareOrMissing(index: number, want: ReplyChoice | undefined, have: ClientChoice | undefined): void {
    const field = `choices[${index}]`
    if (want && have) this.compareChoice(want, have)
    else if (want) {
      this.differences.push({ field, expected: want, got: null, offset: null, frame: null, cause: 'other', message: `The client's result has no choice ${index}.` })
    } else if (have) {
      this.differences.push({ field, expected: null, got: have, offset: null, frame: null, cause: 'other', message: `The client's result has a choice ${index} the reference does not have.` })
    }
  }

  private compareChoice(want: ReplyChoice, have: ClientChoice): void {
    const p = `choices[${want.index}]`
    const mix = channelMix(this.ref, want, have)
    this.compareText(want, 'content', have.content, mix?.content ?? null)
    this.compareText(want, 'reasoning', have.reasoning, mix?.reasoning ?? null)
    this.compareText(want, 'refusal', have.refusal, null)
    if (have.toolCalls === undefined) this.notCompared.push(`${p}.toolCalls`)
    else compareToolCalls({ ref: this.ref, choice: want.index, path: `${p}.toolCalls`, history: () => this.getHistory() }, want.toolCalls, have.toolCalls, this.differences, this.notCompared)
    if (have.finishReason === undefined) this.notCompared.push(`${p}.finishReason`)
    else this.compareFinish(want, have.finishReason)
  }

  private compareText(want: ReplyChoice, channel: 'content' | 'reasoning' | 'refusal', got: string | undefined, mix: Finding | null): void {
    const path = `choices[${want.index}].${channel}`
    if (got === undefined) {
      this.notCompared.push(path)
      return
    }
    const expected = want[channel]
    if (got === expected) return
    const runs = fieldRuns(this.ref, { choice: want.index, channel, toolCall: null }, expected)
    this.differences.push(textDifference(this.ref, { path, label: channel, expected, got, runs, isArguments: false }, mix))
  }

  private compareFinish(want: ReplyChoice, got: string | null): void {
    // "" is no finish reason, as the Reply reads it
    const have = got === '' ? null : got
    if (have === want.finishReason) return
    const frame = this.getHistory()?.finishFrame.get(want.index) ?? null
    const by = frame === null ? '' : ` (set by frame ${frame}${have === null ? missedBecause(this.ref, frame) : ''})`
    this.differences.push({
      field: `choices[${want.index}].finishReason`, expected: want.finishReason, got: have, offset: null, frame,
      cause: 'finish-reason-differs',
      message: have === null
        ? `The client has no finish reason; the reference's is ${show(want.finishReason)}${by}.`
        : `The client's finish reason is ${show(have)}; the reference's is ${show(want.finishReason)}${by}.`,
    })
  }

  private compareUsage(): void {
    const have = this.view.usage
    const want = this.ref.reply.usage
    if (have === undefined) {
      this.notCompared.push('usage')
      return
    }
    if (have === null) {
      if (want !== null && Object.keys(want).length > 0) {
        this.differences.push({ field: 'usage', expected: want, got: null, offset: null, frame: null, cause: 'other', message: 'The client has no usage; the reference has the provider\'s usage.' })
      }
      return
    }
    this.compareUsageKeys('usage', want ?? {}, have)
  }

  /** Compared on the keys the client has; null and absent are alike (the Reply drops nulls). */
  private compareUsageKeys(path: string, want: Record<string, unknown>, have: Record<string, unknown>): void {
    for (const key of Object.keys(have)) {
      const field = `${path}.${key}`
      const got = have[key]
      const expected = want[key]
      if (isPlainObject(got) && isPlainObject(expected)) {
        this.compareUsageKeys(field, expected, got)
        continue
      }
      if (sameValue(expected, got, true)) continue
      this.differences.push({ field, expected: expected ?? null, got, offset: null, ...this.usageFinding(field, expected, got) })
    }
  }

  private usageFinding(field: string, expected: unknown, got: unknown): Pick<Difference, 'frame' | 'cause' | 'message'> {
    const entry = this.getHistory()?.usage.get(field)
    const frame = entry?.frame ?? null
    let how = ''
    const sent = entry?.sent ?? []
    if (sent.length > 1 && sent.every((v) => typeof v === 'number')) {
      const sum = (sent as number[]).reduce((a, b) => a + b, 0)
      if (got === sum) how = `: it summed the ${sent.length} values the stream sent instead of keeping the last`
      else if (sameValue(got, sent[0])) how = ': it kept the first value the stream sent, not the last'
    }
    const by = frame === null ? '' : ` (set by frame ${frame})`
    return { frame, cause: 'other', message: `The client's ${field} is ${show(got)}; the reference's is ${show(expected ?? null)}${by}${how}.` }
  }

  private getHistory(): History | null {
    if (this.history === undefined) this.history = replyHistory(this.ref)
    return this.history
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Why a client may never have read this frame, as a clause (empty when nothing tells). */
function missedBecause(ref: Reference, frame: number): string {
  // the stream's own oddities first: reads split most frames of a stream cut small
  if (ref.merger?.frameInfo(frame).unterminated) return ', which no blank line ended: a client that waits for one never reads it'
  const stop = stopBetween(ref, -1, frame)
  if (stop?.kind === 'broken') return `, after frame ${stop.frame} failed to parse: a client that stops at a broken frame never reads it`
  const split = frameSplitAcrossReads(ref, frame)
  if (split) return `, which arrived split across ${reads(split)}: a client that parses each read on its own drops it`
  return ''
}
