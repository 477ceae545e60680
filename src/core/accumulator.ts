// The reducer: applies neutral deltas (types.ts) to per-choice state, by the merge rules of
// docs/architecture.md#merge-rules. It knows no provider; adapters translate wire shapes into deltas first. Beside the
// reply it records what the deltas say about the stream (content after a finish, a reused
// tool index, a provider error…), each check O(1) per delta; tool-call identity is its own
// module (tool-calls.ts).

import { carriesSomething } from './after-done.js'
import { MAX_JSON_DEPTH, valueTooDeep } from './json-depth.js'
import { checkArguments, LIMIT_REASONS } from './arguments-invalid.js'
import { clip, clipMessage, describeDifference } from './quote.js'
import { MessageTable, type Loose, type PartPlace } from './messages.js'
import { eachProvenance, partProvenance, type ProvenanceTarget } from './provenance-read.js'
import { ProvenanceLog } from './provenance-log.js'
import { Reporter } from './reporter.js'
import { mergeUsage } from './usage.js'
import { SYMPTOMS } from './symptoms.js'
import { TextBuffer } from './text-buffer.js'
import { replyToolCall, sortedCalls, type ToolState } from './reply-tool-call.js'
import { nonEmpty, ToolCallTable } from './tool-calls.js'
import type { Channel, Diagnostic, DiagnosticCode, PartProvenance, Provenance, ProvenanceVisit, ReplyChoice, ReplyMessage, StreamError } from './types.js'
import type { Delta, FinalTextDelta, FinalToolCallDelta, TextDelta, TextTruncateDelta, ToolCallDelta } from './adapters.js'

class ChoiceState {
  role: string | null = null
  readonly channels: Record<Channel, TextBuffer>
  /** Each channel's provenance target, once it has one (-1 before). */
  readonly targets: Record<Channel, number> = { content: -1, reasoning: -1, refusal: -1 }
  readonly calls: ToolCallTable<ToolState>
  finishReason: string | null = null
  /** content-after-finish was reported for this choice (once is enough). */
  afterFinishReported = false
  constructor(readonly index: number, calls: ToolCallTable<ToolState>) {
    this.channels = { content: new TextBuffer(), reasoning: new TextBuffer(), refusal: new TextBuffer() }
    this.calls = calls
  }
}

type Target = ProvenanceTarget

export interface AccumulatedState {
  choices: ReplyChoice[]
  messages: ReplyMessage[]
  usage: Record<string, unknown> | null
  done: boolean
}

export class Accumulator {
  private readonly choices = new Map<number, ChoiceState>()
  /** The run's messages, when deltas name them (messages.ts). */
  private readonly messages: MessageTable
  private usage: Record<string, unknown> | null = null
  private done = false
  private readonly targets: Target[] = []
  /** Null when nobody will ask (merge() returns only the Reply). */
  private readonly provenance: ProvenanceLog | null

  private arrivals = 0
  readonly streamErrors: StreamError[] = []
  private readonly reporter = new Reporter()
  readonly diagnostics: Diagnostic[] = this.reporter.diagnostics
  /** The frame of the first terminal marker; -1 before. */
  private doneFrame = -1
  private afterDoneReported = false
  /** The frame being applied, for the tool-call table's reports. */
  private frame = 0

  constructor(options: { provenance?: boolean } = {}) {
    this.provenance = options.provenance === false ? null : new ProvenanceLog()
    this.messages = new MessageTable()
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
        if (delta.messageId !== undefined) return this.appendMessageText(c, delta, frame)
        return this.appendText(c, delta.channel, delta.text, frame)
      }
      case 'text-truncate':
        return this.truncateText(delta, frame)
      case 'tool-call': {
        const c = this.choice(delta.choice)
        if (c.finishReason !== null) this.afterFinish(c, frame)
        const call = this.applyToolCall(c, delta, frame)
        if (delta.messageId !== undefined) this.messages.placeCall(this.messages.message(c.index, delta.messageId), call)
        return
      }
      case 'message':
        this.choice(delta.choice)
        return this.messages.open(delta)
      case 'tool-result': {
        const m = this.messages.message(this.choice(delta.choice).index, delta.messageId)
        this.messages.addValue(m, { type: 'tool-result', toolCallId: delta.toolCallId, output: this.shallow(delta.output, 'tool result', frame), isError: delta.isError })
        return
      }
      case 'message-part': {
        const m = this.messages.message(this.choice(delta.choice).index, delta.messageId)
        this.messages.addValue(m, { type: delta.part, data: this.shallow(delta.data, `${delta.part} part`, frame) })
        return
      }
      case 'finish':
        if (nonEmpty(delta.reason)) this.finish(this.choice(delta.choice), delta.reason, frame)
        return
      case 'usage':
        this.usage = mergeUsage(this.usage, delta.usage, (key) => {
          this.report(frame, 'too-deep', 'warning', `usage field ${clip(key)} of frame ${frame} is nested deeper than ${MAX_JSON_DEPTH} levels: left out of the Reply; the frame keeps its text`)
        })
        return
      case 'stream-error':
        if (delta.messageId !== undefined) this.messages.addValue(this.messages.message(0, delta.messageId), { type: 'error', message: delta.message })
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

  private report(frame: number, code: DiagnosticCode, level: Diagnostic['level'], message: string | (() => string), symptom = SYMPTOMS[code]): void {
    this.reporter.report(frame, code, level, message, symptom)
  }

  /** A delta that carries something, in a frame after the terminal marker's (once per stream). */
  private checkAfterDone(delta: Delta, frame: number): void {
    if (!carriesSomething(delta, (d) => this.cuts(d))) return
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
      c = new ChoiceState(index, calls)
      this.choices.set(index, c)
    }
    return c
  }

  /** A wire value kept in a message part, or null (said) when it is nested too deep to keep. */
  private shallow(value: unknown, what: string, frame: number): unknown {
    if (!valueTooDeep(value, MAX_JSON_DEPTH - 1)) return value
    this.report(frame, 'too-deep', 'warning', `the ${what} of frame ${frame} is nested deeper than ${MAX_JSON_DEPTH} levels: left out (null); the frame keeps its text`)
    return null
  }

  /** Text of a message: kept in the message's part, whatever other messages stream between. */
  private appendMessageText(c: ChoiceState, d: TextDelta, frame: number): void {
    const m = this.messages.message(c.index, d.messageId!)
    // an empty text with a part id opens that part (an AI SDK text-start: the client shows it, empty)
    if (d.text.length === 0 && d.partId === undefined) return
    const part = this.messages.textPart(m, d.channel, d.partId, (p) => this.targets.push({ choice: c.index, channel: d.channel, part: p }) - 1)
    const start = part.text.length
    part.text.append(d.text)
    if (d.text.length > 0 && this.provenance !== null) this.provenance.add(frame, part.target, start, part.text.length)
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
    if (d.messageId !== undefined) {
      const m = this.messages.message(this.choice(d.choice).index, d.messageId)
      this.messages.truncate(m, d.channel, d.length, (part, keep) => this.provenance?.truncate(part.target, keep))
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
      args: new TextBuffer(), argumentsIfEmpty: null, target: -1, shown: null, lastFrame: this.frame, freeText: false,
    }
    call.target = this.targets.push({ choice, channel: 'arguments', tool: call }) - 1
    return call
  }

  private applyToolCall(c: ChoiceState, d: ToolCallDelta, frame: number): ToolState {
    this.frame = frame
    const call = c.calls.apply(d)
    if (call.argumentsIfEmpty === null && typeof d.argumentsIfEmpty === 'string') call.argumentsIfEmpty = d.argumentsIfEmpty
    if (d.freeText === true) call.freeText = true
    if (typeof d.arguments === 'string' && d.arguments.length > 0) {
      const start = call.args.length
      call.args.append(d.arguments)
      call.lastFrame = frame
      this.provenance?.add(frame, call.target, start, call.args.length)
    }
    return call
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
      call.lastFrame = frame
      this.provenance?.add(frame, call.target, 0, args.length)
      return
    }
    if (args.equals(d.arguments)) return
    const final = d.arguments
    this.report(frame, 'final-mismatch', 'warning', () => `${d.source}: final arguments of tool call ${call.index} differ from the concatenated fragments (${describeDifference(args.toString(), final, 0)}); the fragments are kept`)
  }

  /** The stream ended: the calls whose arguments do not parse are said (arguments-invalid), never during the stream. */
  endCalls(): void {
    for (const c of [...this.choices.values()].sort((a, b) => a.index - b.index)) {
      checkArguments(c.index, c.finishReason, c.calls.calls, (frame, level, message) => this.report(frame, 'arguments-invalid', level, message))
    }
  }

  /** The reply as it stands; arguments are parsed here, once, never during the stream. */
  state(): AccumulatedState {
    const choices = this.replyChoices()
    const messages = this.messagesOf(choices)
    return { choices, messages, usage: this.usage === null ? null : { ...this.usage }, done: this.done }
  }

  private replyChoices(): ReplyChoice[] {
    return [...this.choices.values()].sort((a, b) => a.index - b.index).map((c) => this.replyChoice(c))
  }

  /** Reply.messages; `where` learns which message part each provenance target is. */
  private messagesOf(choices: ReplyChoice[], where?: Map<number, PartPlace>): ReplyMessage[] {
    const loose = (index: number): Loose => {
      const c = this.choices.get(index)!
      const ch = c.channels
      return { texts: { content: ch.content.toString(), reasoning: ch.reasoning.toString(), refusal: ch.refusal.toString() }, targets: c.targets, calls: c.calls.calls }
    }
    return this.messages.messagesOf(choices, loose, where)
  }

  /** A choice's fields; a choice whose deltas name messages has its messages' text joined (messages.ts). */
  private replyChoice(c: ChoiceState): ReplyChoice {
    const joined = this.messages.size > 0 && this.messages.hasMessages(c.index)
    const text = (channel: Channel) => joined ? this.messages.channelText(c.index, channel, c.channels[channel].toString()) : c.channels[channel].toString()
    return {
      index: c.index,
      role: c.role,
      content: text('content'),
      reasoning: text('reasoning'),
      refusal: text('refusal'),
      toolCalls: sortedCalls(c.calls.calls).map(replyToolCall),
      finishReason: c.finishReason,
    }
  }

  provenanceRecords(): Provenance[] {
    const out: Provenance[] = []
    this.eachProvenance((frame, choice, channel, toolCall, start, end) => { out.push({ frame, choice, channel, toolCall, start, end }) })
    return out
  }

  /** The records provenanceRecords() gives, as fields: a 64 MB stream's 240,000 records build no object. */
  eachProvenance(visit: ProvenanceVisit): void {
    if (this.provenance !== null) eachProvenance(this.provenance, this.targets, this.choices.values(), this.messages, visit)
  }

  /** Which frame wrote which run of each message part's text (a tool call's: its arguments), in the order written. */
  partProvenance(): PartProvenance[] {
    if (this.provenance === null) return []
    const where = new Map<number, PartPlace>()
    this.messagesOf(this.replyChoices(), where)
    return partProvenance(this.provenance, where)
  }
}
