// The reducer: applies neutral deltas (types.ts) to per-choice state, by the merge rules of
// docs/architecture.md#merge-rules. It knows no provider; adapters translate wire shapes into deltas first. Beside the
// reply it records what the deltas say about the stream (content after a finish, a reused
// tool index, a provider error…), each check O(1) per delta; tool-call identity is its own
// module (tool-calls.ts).

import { MAX_JSON_DEPTH, valueTooDeep } from './json-depth.js'
import { clip, clipMessage, describeDifference } from './quote.js'
import { ProvenanceLog } from './provenance-log.js'
import { SYMPTOMS } from './symptoms.js'
import { TextBuffer } from './text-buffer.js'
import { replyToolCall, sortedCalls, type ToolState } from './reply-tool-call.js'
import { nonEmpty, ToolCallTable } from './tool-calls.js'
import type {
  Channel, Delta, Diagnostic, DiagnosticCode, FinalTextDelta, FinalToolCallDelta, Provenance, ProvenanceVisit, ReplyChoice,
  StreamError, TextTruncateDelta, ToolCallDelta,
} from './types.js'

class ChoiceState {
  role: string | null = null
  readonly channels: Record<Channel, TextBuffer>
  /** Each channel's provenance target, once it has one (-1 before). */
  readonly targets: Record<Channel, number> = { content: -1, reasoning: -1, refusal: -1 }
  readonly calls: ToolCallTable<ToolState>
  finishReason: string | null = null
  /** content-after-finish was reported for this choice (once is enough). */
  afterFinishReported = false
  constructor(readonly index: number, calls: ToolCallTable<ToolState>, unsettled: TextBuffer[]) {
    this.channels = { content: new TextBuffer(unsettled), reasoning: new TextBuffer(unsettled), refusal: new TextBuffer(unsettled) }
    this.calls = calls
  }
}

type Target =
  | { choice: number; channel: Channel }
  | { choice: number; channel: 'arguments'; tool: ToolState }

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
  /** The text buffers appended to since the last settle() (TextBuffer.settle). */
  private readonly unsettled: TextBuffer[] = []

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

  /** A terminal marker was applied (cheap: state() builds the reply). */
  get ended(): boolean {
    return this.done
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
      case 'text-truncate':
        return this.truncateText(delta, frame)
      case 'tool-call': {
        const c = this.choice(delta.choice)
        if (c.finishReason !== null) this.afterFinish(c, frame)
        return this.applyToolCall(c, delta, frame)
      }
      case 'finish':
        if (nonEmpty(delta.reason)) this.finish(this.choice(delta.choice), delta.reason, frame)
        return
      case 'usage':
        return this.mergeUsage(delta.usage, frame)
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
        // an adapter's words: bounded, whatever it quoted
        this.report(frame, delta.code ?? 'note', delta.level, clipMessage(delta.message), delta.symptom ?? SYMPTOMS[delta.code ?? 'note'])
        return
    }
  }

  /**
   * A frame the adapter (or this reducer) failed on: the router reports it here and goes on
   * with the next frame, so one bad frame never stops the merge.
   */
  frameFailed(frame: number, what: string, error: unknown, consequence = 'the frame was skipped'): void {
    const name = error instanceof Error ? error.name : typeof error
    const text = error instanceof Error ? error.message : String(error)
    this.report(frame, 'frame-failed', 'error', () => `frame ${frame}: ${what} failed (${name}: ${clipMessage(text, 200)}); ${consequence} and merging went on`)
  }

  /**
   * Records a diagnostic. The first LISTED of a code are listed; the rest are counted in one
   * summary, updated in place, so a stream with a million odd frames costs one entry more.
   * A message given as a function is only built when it is listed.
   */
  private report(frame: number, code: DiagnosticCode, level: Diagnostic['level'], message: string | (() => string), symptom = SYMPTOMS[code]): void {
    let seen = this.reported.get(code)
    if (seen === undefined) {
      seen = { count: 0, summary: null }
      this.reported.set(code, seen)
    }
    const count = ++seen.count
    if (count <= LISTED) {
      this.diagnostics.push({ frame, level, code, message: typeof message === 'string' ? message : message(), symptom })
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
      case 'text-truncate':
        if (!this.cuts(delta)) return
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
    let payload = delta.payload
    if (valueTooDeep(payload, MAX_JSON_DEPTH - 1)) {
      payload = null
      this.report(frame, 'too-deep', 'warning', `the error payload of frame ${frame} is nested deeper than ${MAX_JSON_DEPTH} levels: left out (payload null); the frame keeps its text`)
    }
    this.streamErrors.push({ frame, message: delta.message, code, type, payload })
    const what = [type === null ? null : `type ${clip(type)}`, code === null ? null : `code ${typeof code === 'number' ? code : clip(code)}`]
      .filter((s) => s !== null).join(', ')
    this.report(frame, 'provider-error', 'error', `the provider sent an error${what ? ` (${what})` : ''}: ${clip(delta.message, 200)}`)
  }

  private choice(index: number): ChoiceState {
    let c = this.choices.get(index)
    if (!c) {
      const calls = new ToolCallTable<ToolState>(index, (at) => this.newCall(index, at), (code, message) => this.report(this.frame, code, 'warning', message))
      c = new ChoiceState(index, calls, this.unsettled)
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

  /**
   * Keeps the first `length` characters of a channel; the provenance runs past the cut go.
   * A channel (or choice) that does not exist stays absent: there is nothing to cut.
   */
  private truncateText(d: TextTruncateDelta, frame: number): void {
    if (typeof d.length !== 'number' || !(d.length >= 0) || !Number.isInteger(d.length)) {
      this.frameFailed(frame, 'applying its "text-truncate" delta', new RangeError(`length ${clip(String(d.length))} is not a whole number of characters`), 'that delta was skipped')
      return
    }
    if (!this.cuts(d)) return
    const c = this.choices.get(d.choice)!
    c.channels[d.channel].truncate(d.length)
    const target = c.targets[d.channel]
    if (target >= 0) this.provenance?.truncate(target, d.length)
  }

  /** True when the truncate shortens a channel's text. */
  private cuts(d: TextTruncateDelta): boolean {
    const buffer = this.choices.get(d.choice)?.channels[d.channel]
    return buffer !== undefined && buffer.length > d.length
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
      args: new TextBuffer(this.unsettled), argumentsIfEmpty: null, target: -1, shown: null,
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

  /** Last non-null value wins, field by field; never summed. A field nested too deep is left out, and said. */
  private mergeUsage(usage: Record<string, unknown>, frame: number): void {
    const merged = this.usage ?? {}
    for (const key of Object.keys(usage)) {
      const value = usage[key]
      if (value === null || value === undefined) continue
      if (typeof value === 'object' && valueTooDeep(value, MAX_JSON_DEPTH - 1)) {
        this.report(frame, 'too-deep', 'warning', `usage field ${clip(key)} of frame ${frame} is nested deeper than ${MAX_JSON_DEPTH} levels: left out of the Reply; the frame keeps its text`)
        continue
      }
      // a wire key named "__proto__" is data, never the object's prototype (defineProperty is
      // several times slower than assignment, so it is kept for that one key)
      if (key === '__proto__') Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true })
      else merged[key] = value
    }
    this.usage = merged
  }

  /**
   * A final text, compared in time proportional to it (never to the channel): a part's final
   * (`span`) against the part as the adapter saw it built; a whole channel's by length first,
   * then piece by piece. The mismatch's words are only built when the diagnostic is listed.
   */
  private compareFinalText(d: FinalTextDelta, frame: number): void {
    const differs = (have: string, at: number) => `${d.source}: the final ${d.channel} differs from the concatenated deltas (${describeDifference(have, d.text, at)}); the deltas are kept`
    if (d.span !== undefined) {
      const { start, have } = d.span
      if (have !== d.text) this.report(frame, 'final-mismatch', 'warning', () => differs(have, start))
      return
    }
    const buffer = this.choices.get(d.choice)?.channels[d.channel]
    if (buffer === undefined || buffer.length === 0) {
      if (d.text === '') return
      this.appendText(this.choice(d.choice), d.channel, d.text, frame)
      this.report(frame, 'final-mismatch', 'info', `${d.source}: no ${d.channel} deltas arrived; took the text from the final event`)
      return
    }
    if (!buffer.equals(d.text)) this.report(frame, 'final-mismatch', 'warning', () => differs(buffer.toString(), 0))
  }

  private compareFinalToolCall(d: FinalToolCallDelta, frame: number): void {
    this.frame = frame
    const call = this.choice(d.choice).calls.final(d)
    if (typeof d.arguments !== 'string') return
    const args = call.args
    if (args.length === 0) {
      if (d.arguments.length === 0) return
      args.append(d.arguments)
      this.provenance?.add(frame, call.target, 0, args.length)
      return
    }
    if (args.equals(d.arguments)) return
    const final = d.arguments
    this.report(frame, 'final-mismatch', 'warning', () => `${d.source}: final arguments of tool call ${call.index} differ from the concatenated fragments (${describeDifference(args.toString(), final, 0)}); the fragments are kept`)
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
      toolCalls: sortedCalls(c.calls.calls).map(replyToolCall),
      finishReason: c.finishReason,
    }
  }

  /** Settles every text appended to since the last call: the merger calls it after each batch it merged. */
  settle(): void {
    for (const b of this.unsettled) b.settle()
    this.unsettled.length = 0
  }

  provenanceRecords(): Provenance[] {
    const out: Provenance[] = []
    this.eachProvenance((frame, choice, channel, toolCall, start, end) => { out.push({ frame, choice, channel, toolCall, start, end }) })
    return out
  }

  /** The records provenanceRecords() gives, as fields: a 64 MB stream's 240,000 records build no object. */
  eachProvenance(visit: ProvenanceVisit): void {
    const log = this.provenance
    if (log === null) return
    const positions = new Map<ToolState, number>()
    for (const c of this.choices.values()) sortedCalls(c.calls.calls).forEach((t, i) => positions.set(t, i))
    for (let i = 0; i < log.count; i++) {
      if (!log.holdsText(i)) continue
      const t = this.targets[log.targetAt(i)]!
      visit(log.frameAt(i), t.choice, t.channel, t.channel === 'arguments' ? positions.get(t.tool)! : null, log.startAt(i), log.endAt(i))
    }
  }

}
