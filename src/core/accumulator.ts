// The reducer: applies neutral deltas (types.ts) to per-choice state, by the merge rules of
// docs/architecture.md#merge-rules. It knows no provider; adapters translate wire shapes into deltas first. Beside the
// reply it records what the deltas say about the stream (content after a finish, a reused
// tool index, a provider error…), each check O(1) per delta; tool-call identity is its own
// module (tool-calls.ts).

import { Int32Column } from './column.js'
import { parseJson } from './json-error.js'
import { SYMPTOMS } from './symptoms.js'
import { nonEmpty, ToolCallTable, type CallIdentity } from './tool-calls.js'
import type {
  Channel, Delta, Diagnostic, DiagnosticCode, FinalTextDelta, FinalToolCallDelta, Provenance, ReplyChoice,
  ReplyToolCall, StreamError, ToolCallDelta,
} from './types.js'

/**
 * Text built from parts joined once, on demand (never by repeated concatenation). Every
 * BLOCK parts are joined into one string, so a long reply holds a few large strings rather
 * than a million small ones for the garbage collector to walk.
 */
class TextBuffer {
  private blocks: string[] = []
  private parts: string[] = []
  length = 0
  /** Set by an empty-string delta too: the field was present. */
  touched = false

  append(text: string): void {
    this.touched = true
    if (text.length === 0) return
    this.parts.push(text)
    this.length += text.length
    if (this.parts.length === BLOCK) {
      this.blocks.push(this.parts.join(''))
      this.parts = []
    }
  }

  toString(): string {
    if (this.parts.length > 0) {
      this.blocks.push(this.parts.length === 1 ? this.parts[0]! : this.parts.join(''))
      this.parts = []
    }
    if (this.blocks.length > 1) this.blocks = [this.blocks.join('')]
    return this.blocks[0] ?? ''
  }
}

const BLOCK = 1024

interface ToolState extends CallIdentity {
  arrival: number
  args: TextBuffer
  argumentsIfEmpty: string | null
  /** Provenance target of the arguments buffer. */
  target: number
}

class ChoiceState {
  role: string | null = null
  readonly channels: Record<Channel, TextBuffer> = {
    content: new TextBuffer(), reasoning: new TextBuffer(), refusal: new TextBuffer(),
  }
  /** Each channel's provenance target, once it has one (-1 before). */
  readonly targets: Record<Channel, number> = { content: -1, reasoning: -1, refusal: -1 }
  readonly calls: ToolCallTable<ToolState>
  finishReason: string | null = null
  /** content-after-finish was reported for this choice (once is enough). */
  afterFinishReported = false
  constructor(readonly index: number, calls: ToolCallTable<ToolState>) {
    this.calls = calls
  }
}

type Target =
  | { choice: number; channel: Channel }
  | { choice: number; channel: 'arguments'; tool: ToolState }

/** Provenance as parallel integer arrays: one record per append, not one object. */
class ProvenanceLog {
  private readonly frame = new Int32Column()
  private readonly target = new Int32Column()
  private readonly start = new Int32Column()
  private readonly end = new Int32Column()
  count = 0

  add(frame: number, target: number, start: number, end: number): void {
    const i = this.count++
    this.frame.set(i, frame)
    this.target.set(i, target)
    this.start.set(i, start)
    this.end.set(i, end)
  }

  record(i: number): { frame: number; target: number; start: number; end: number } {
    return { frame: this.frame.get(i), target: this.target.get(i), start: this.start.get(i), end: this.end.get(i) }
  }
}

/** Diagnostics of one code listed before the rest are only counted, in one summary. */
const LISTED = 100

/** Finish reasons that say the token limit cut the reply (OpenAI, Ollama; Anthropic; Gemini; Responses). */
const LIMIT_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'MAX_TOKENS', 'max_output_tokens'])

export interface AccumulatedState {
  choices: ReplyChoice[]
  usage: Record<string, unknown> | null
  done: boolean
}

export class Accumulator {
  private readonly choices = new Map<number, ChoiceState>()
  private usage: Record<string, unknown> | null = null
  private done = false
  private readonly targets: Target[] = []
  /** Null when nobody will ask (merge() returns only the Reply). */
  private readonly provenance: ProvenanceLog | null

  private arrivals = 0
  readonly streamErrors: StreamError[] = []
  readonly diagnostics: Diagnostic[] = []
  /** Per code: how many were reported, and the summary standing for those past LISTED. */
  private readonly reported = new Map<DiagnosticCode, { count: number; summary: Diagnostic | null }>()
  /** The frame of the first terminal marker; -1 before. */
  private doneFrame = -1
  private afterDoneReported = false
  /** The frame being applied, for the tool-call table's reports. */
  private frame = 0

  constructor(options: { provenance?: boolean } = {}) {
    this.provenance = options.provenance === false ? null : new ProvenanceLog()
  }

  apply(delta: Delta, frame: number): void {
    if (this.doneFrame >= 0 && frame > this.doneFrame && !this.afterDoneReported) this.checkAfterDone(delta, frame)
    switch (delta.type) {
      case 'choice': {
        const c = this.choice(delta.choice)
        if (c.role === null && nonEmpty(delta.role)) c.role = delta.role
        return
      }
      case 'text': {
        const c = this.choice(delta.choice)
        if (c.finishReason !== null && delta.text.length > 0) this.afterFinish(c, frame)
        return this.appendText(c, delta.channel, delta.text, frame)
      }
      case 'tool-call': {
        const c = this.choice(delta.choice)
        if (c.finishReason !== null) this.afterFinish(c, frame)
        return this.applyToolCall(c, delta, frame)
      }
      case 'finish':
        if (nonEmpty(delta.reason)) this.finish(this.choice(delta.choice), delta.reason, frame)
        return
      case 'usage':
        return this.mergeUsage(delta.usage)
      case 'stream-error':
        return this.streamError(delta, frame)
      case 'done':
        this.done = true
        if (this.doneFrame < 0) this.doneFrame = frame
        return
      case 'final-text':
        return this.compareFinalText(delta, frame)
      case 'final-tool-call':
        return this.compareFinalToolCall(delta, frame)
      case 'note':
        this.report(frame, 'note', delta.level, delta.message, delta.symptom)
        return
    }
  }

  /**
   * Records a diagnostic. The first LISTED of a code are listed; the rest are counted in one
   * summary, updated in place, so a stream with a million odd frames costs one entry more.
   */
  private report(frame: number, code: DiagnosticCode, level: Diagnostic['level'], message: string, symptom = SYMPTOMS[code]): void {
    let seen = this.reported.get(code)
    if (seen === undefined) {
      seen = { count: 0, summary: null }
      this.reported.set(code, seen)
    }
    const count = ++seen.count
    if (count <= LISTED) {
      this.diagnostics.push({ frame, level, code, message, symptom })
      return
    }
    if (seen.summary === null) {
      seen.summary = { frame, level, code, message: '', symptom }
      this.diagnostics.push(seen.summary)
    }
    const more = count - LISTED
    seen.summary.message = `${more} more ${code} not listed (${count} in all), the first of them at frame ${seen.summary.frame}`
  }

  /** A delta that carries something, in a frame after the terminal marker's (once per stream). */
  private checkAfterDone(delta: Delta, frame: number): void {
    switch (delta.type) {
      case 'done':
      case 'note':
      case 'choice':
        return
      case 'text':
        if (delta.text.length === 0) return
        break
      case 'finish':
        if (!nonEmpty(delta.reason)) return
        break
    }
    this.afterDoneReported = true
    this.report(frame, 'data-after-done', 'warning', `frame ${frame} carries ${delta.type === 'text' ? delta.channel : delta.type} after the terminal marker of frame ${this.doneFrame}`)
  }

  /** Text or a tool call for a choice that already has its finish reason (once per choice). */
  private afterFinish(c: ChoiceState, frame: number): void {
    if (c.afterFinishReported) return
    c.afterFinishReported = true
    this.report(frame, 'content-after-finish', 'warning', `choice ${c.index} gets more after its finish reason ${clip(c.finishReason ?? '')}`)
  }

  /** rule 5: the last non-empty reason wins; a second one and a token limit are worth saying. */
  private finish(c: ChoiceState, reason: string, frame: number): void {
    const have = c.finishReason
    if (have !== null) {
      this.report(frame, 'duplicate-finish', 'info', have === reason
        ? `choice ${c.index}: finish reason ${clip(reason)} again`
        : `choice ${c.index}: finish reason ${clip(reason)} after ${clip(have)}; the last one is kept`)
    }
    if (have !== reason && LIMIT_REASONS.has(reason)) {
      this.report(frame, 'truncated-by-limit', 'warning', `choice ${c.index} stopped at the token limit (finish reason ${clip(reason)})`)
    }
    c.finishReason = reason
  }

  private streamError(delta: Extract<Delta, { type: 'stream-error' }>, frame: number): void {
    const code = delta.code ?? null
    const type = delta.errorType ?? null
    this.streamErrors.push({ frame, message: delta.message, code, type, payload: delta.payload })
    const what = [type === null ? null : `type ${clip(type)}`, code === null ? null : `code ${typeof code === 'number' ? code : clip(code)}`]
      .filter((s) => s !== null).join(', ')
    this.report(frame, 'provider-error', 'error', `the provider sent an error${what ? ` (${what})` : ''}: ${clip(delta.message, 200)}`)
  }

  private choice(index: number): ChoiceState {
    let c = this.choices.get(index)
    if (!c) {
      const calls = new ToolCallTable<ToolState>(index, (at) => this.newCall(index, at), (code, message) => this.report(this.frame, code, 'warning', message))
      c = new ChoiceState(index, calls)
      this.choices.set(index, c)
    }
    return c
  }

  private appendText(c: ChoiceState, channel: Channel, text: string, frame: number): void {
    const buffer = c.channels[channel]
    const start = buffer.length
    buffer.append(text)
    if (text.length > 0 && this.provenance !== null) this.provenance.add(frame, this.channelTarget(c, channel), start, buffer.length)
  }

  private channelTarget(c: ChoiceState, channel: Channel): number {
    let t = c.targets[channel]
    if (t < 0) {
      t = this.targets.push({ choice: c.index, channel }) - 1
      c.targets[channel] = t
    }
    return t
  }

  /** A new call's state (the tool-call table decides when there is one). */
  private newCall(choice: number, index: number): ToolState {
    const call: ToolState = {
      index, arrival: this.arrivals++, id: null, type: null, name: null, hasArguments: false, keyless: false,
      args: new TextBuffer(), argumentsIfEmpty: null, target: -1,
    }
    call.target = this.targets.push({ choice, channel: 'arguments', tool: call }) - 1
    return call
  }

  private applyToolCall(c: ChoiceState, d: ToolCallDelta, frame: number): void {
    this.frame = frame
    const call = c.calls.apply(d)
    if (call.argumentsIfEmpty === null && typeof d.argumentsIfEmpty === 'string') call.argumentsIfEmpty = d.argumentsIfEmpty
    if (typeof d.arguments === 'string' && d.arguments.length > 0) {
      const start = call.args.length
      call.args.append(d.arguments)
      this.provenance?.add(frame, call.target, start, call.args.length)
    }
  }

  /** Last non-null value wins, field by field; never summed. */
  private mergeUsage(usage: Record<string, unknown>): void {
    const merged = this.usage ?? {}
    for (const key of Object.keys(usage)) {
      const value = usage[key]
      if (value === null || value === undefined) continue
      // a wire key named "__proto__" is data, never the object's prototype (defineProperty is
      // several times slower than assignment, so it is kept for that one key)
      if (key === '__proto__') Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true })
      else merged[key] = value
    }
    this.usage = merged
  }

  private compareFinalText(d: FinalTextDelta, frame: number): void {
    const have = this.choices.get(d.choice)?.channels[d.channel].toString() ?? ''
    if (have === d.text) return
    if (have === '') {
      this.appendText(this.choice(d.choice), d.channel, d.text, frame)
      this.report(frame, 'final-mismatch', 'info', `${d.source}: no ${d.channel} deltas arrived; took the text from the final event`)
      return
    }
    this.report(frame, 'final-mismatch', 'warning', `${d.source}: the final ${d.channel} differs from the concatenated deltas (${describeDifference(have, d.text)}); the deltas are kept`)
  }

  private compareFinalToolCall(d: FinalToolCallDelta, frame: number): void {
    this.frame = frame
    const call = this.choice(d.choice).calls.final(d)
    if (typeof d.arguments !== 'string') return
    const have = call.args.toString()
    if (have === d.arguments) return
    if (have === '') {
      const start = call.args.length
      call.args.append(d.arguments)
      if (d.arguments.length > 0) this.provenance?.add(frame, call.target, start, call.args.length)
      return
    }
    this.report(frame, 'final-mismatch', 'warning', `${d.source}: final arguments of tool call ${d.key} differ from the concatenated fragments (${describeDifference(have, d.arguments)}); the fragments are kept`)
  }

  /** The reply as it stands; arguments are parsed here, once, never during the stream. */
  state(): AccumulatedState {
    const choices = [...this.choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => this.replyChoice(c))
    return { choices, usage: this.usage === null ? null : { ...this.usage }, done: this.done }
  }

  private replyChoice(c: ChoiceState): ReplyChoice {
    return {
      index: c.index,
      role: c.role,
      content: c.channels.content.toString(),
      reasoning: c.channels.reasoning.toString(),
      refusal: c.channels.refusal.toString(),
      toolCalls: sortedCalls(c).map(replyToolCall),
      finishReason: c.finishReason,
    }
  }

  provenanceRecords(): Provenance[] {
    const out: Provenance[] = []
    if (this.provenance === null) return out
    const positions = new Map<ToolState, number>()
    for (const c of this.choices.values()) sortedCalls(c).forEach((t, i) => positions.set(t, i))
    for (let i = 0; i < this.provenance.count; i++) {
      const r = this.provenance.record(i)
      const t = this.targets[r.target]!
      out.push({
        frame: r.frame,
        choice: t.choice,
        channel: t.channel,
        toolCall: t.channel === 'arguments' ? positions.get(t.tool)! : null,
        start: r.start,
        end: r.end,
      })
    }
    return out
  }
}

function sortedCalls(c: ChoiceState): ToolState[] {
  return [...c.calls.calls].sort((a, b) => a.index - b.index || a.arrival - b.arrival)
}

function replyToolCall(t: ToolState): ReplyToolCall {
  const fragments = t.args.toString()
  const args = fragments === '' && t.argumentsIfEmpty !== null ? t.argumentsIfEmpty : fragments
  const parsed = parseJson(args)
  return {
    index: t.index,
    id: t.id,
    type: t.type ?? 'function',
    name: t.name,
    arguments: args,
    parsedArguments: parsed.ok ? parsed.value : null,
    argumentsError: parsed.ok ? null : parsed.error.message,
  }
}

function describeDifference(have: string, want: string): string {
  let i = 0
  while (i < have.length && i < want.length && have.charCodeAt(i) === want.charCodeAt(i)) i++
  return `first difference at character ${i}: deltas ${clip(have.slice(i))}, final ${clip(want.slice(i))}`
}

/** A wire string quoted, at most `max` characters of it. */
function clip(s: string, max = 40): string {
  return JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s)
}
