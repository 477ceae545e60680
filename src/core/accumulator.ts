// The reducer: applies neutral deltas (types.ts) to per-choice state, by the merge rules of
// DESIGN §3. It knows no provider; adapters translate wire shapes into deltas first.

import { Int32Column } from './column.js'
import { parseJson } from './json-error.js'
import type {
  Channel, Delta, Diagnostic, FinalTextDelta, FinalToolCallDelta, Provenance, ReplyChoice,
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

interface ToolState {
  index: number
  arrival: number
  id: string | null
  type: string | null
  name: string | null
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
  readonly tools: ToolState[] = []
  /** The latest call at each wire key: continuation fragments go there. */
  readonly byKey = new Map<number, ToolState>()
  /** The call a keyless fragment continues. */
  lastCall: ToolState | null = null
  finishReason: string | null = null
  constructor(readonly index: number) {}
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

/** `""` and `"null"` are placeholders some servers send on continuation fragments. */
function isRealId(id: string | null | undefined): id is string {
  return typeof id === 'string' && id !== '' && id !== 'null'
}

function nonEmpty(s: string | null | undefined): s is string {
  return typeof s === 'string' && s !== ''
}

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

  constructor(options: { provenance?: boolean } = {}) {
    this.provenance = options.provenance === false ? null : new ProvenanceLog()
  }

  apply(delta: Delta, frame: number): void {
    switch (delta.type) {
      case 'choice': {
        const c = this.choice(delta.choice)
        if (c.role === null && nonEmpty(delta.role)) c.role = delta.role
        return
      }
      case 'text':
        return this.appendText(delta.choice, delta.channel, delta.text, frame)
      case 'tool-call':
        return this.applyToolCall(delta, frame)
      case 'finish':
        if (nonEmpty(delta.reason)) this.choice(delta.choice).finishReason = delta.reason
        return
      case 'usage':
        return this.mergeUsage(delta.usage)
      case 'stream-error':
        this.streamErrors.push({
          frame, message: delta.message, code: delta.code ?? null, type: delta.errorType ?? null, payload: delta.payload,
        })
        return
      case 'done':
        this.done = true
        return
      case 'final-text':
        return this.compareFinalText(delta, frame)
      case 'final-tool-call':
        return this.compareFinalToolCall(delta, frame)
      case 'note':
        this.diagnostics.push({ frame, level: delta.level, code: 'note', message: delta.message })
        return
    }
  }

  private choice(index: number): ChoiceState {
    let c = this.choices.get(index)
    if (!c) {
      c = new ChoiceState(index)
      this.choices.set(index, c)
    }
    return c
  }

  private appendText(choice: number, channel: Channel, text: string, frame: number): void {
    const c = this.choice(choice)
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

  private newCall(c: ChoiceState, index: number): ToolState {
    const call: ToolState = {
      index, arrival: this.arrivals++, id: null, type: null, name: null,
      args: new TextBuffer(), argumentsIfEmpty: null, target: -1,
    }
    call.target = this.targets.push({ choice: c.index, channel: 'arguments', tool: call }) - 1
    c.tools.push(call)
    c.byKey.set(index, call)
    c.lastCall = call
    return call
  }

  /** Which call a fragment belongs to (DESIGN §3 rule 4). */
  private callFor(c: ChoiceState, d: ToolCallDelta): ToolState {
    if (d.whole) return this.newCall(c, d.key ?? c.tools.length)
    if (d.key === null) {
      // without an index, only a fragment that names no other call continues the open one
      const open = c.lastCall
      const otherId = isRealId(d.id) && isRealId(open?.id) && d.id !== open?.id
      const otherName = nonEmpty(d.name) && nonEmpty(open?.name) && d.name !== open?.name
      if (open && !otherId && !otherName) return open
      return this.newCall(c, c.tools.length)
    }
    const existing = c.byKey.get(d.key)
    if (!existing) return this.newCall(c, d.key)
    // Ollama's OpenAI endpoint sends every parallel call at index 0: a new real id is a new call.
    if (isRealId(d.id) && isRealId(existing.id) && d.id !== existing.id) return this.newCall(c, d.key)
    return existing
  }

  private applyToolCall(d: ToolCallDelta, frame: number): void {
    const c = this.choice(d.choice)
    const call = this.callFor(c, d)
    c.lastCall = call
    if (call.id === null && isRealId(d.id)) call.id = d.id
    if (call.type === null && nonEmpty(d.callType)) call.type = d.callType
    if (nonEmpty(d.name)) this.mergeName(call, d.name, frame)
    if (call.argumentsIfEmpty === null && typeof d.argumentsIfEmpty === 'string') call.argumentsIfEmpty = d.argumentsIfEmpty
    if (typeof d.arguments === 'string' && d.arguments.length > 0) {
      const start = call.args.length
      call.args.append(d.arguments)
      this.provenance?.add(frame, call.target, start, call.args.length)
    }
  }

  /**
   * Names: unset → set; equal → ignore (gateways repeat it in every fragment); cumulative
   * (incoming extends it) → replace; a prefix of what we have → ignore; anything else is a
   * fragmented name and is appended, with a diagnostic so the oddity stays visible.
   */
  private mergeName(call: ToolState, name: string, frame: number): void {
    const have = call.name
    if (have === null) { call.name = name; return }
    if (have === name || have.startsWith(name)) return
    if (name.startsWith(have)) { call.name = name; return }
    call.name = have + name
    this.diagnostics.push({
      frame, level: 'warning', code: 'tool-name-changed',
      message: `tool call ${call.index}: name fragment ${JSON.stringify(name)} appended to ${JSON.stringify(have)}`,
    })
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
      this.appendText(d.choice, d.channel, d.text, frame)
      this.diagnostics.push({
        frame, level: 'info', code: 'final-mismatch',
        message: `${d.source}: no ${d.channel} deltas arrived; took the text from the final event`,
      })
      return
    }
    this.diagnostics.push({
      frame, level: 'warning', code: 'final-mismatch',
      message: `${d.source}: the final ${d.channel} differs from the concatenated deltas (${describeDifference(have, d.text)}); the deltas are kept`,
    })
  }

  private compareFinalToolCall(d: FinalToolCallDelta, frame: number): void {
    const c = this.choice(d.choice)
    let call = c.byKey.get(d.key)
    if (!call) call = this.newCall(c, d.key)
    if (call.id === null && isRealId(d.id)) call.id = d.id
    if (call.name === null && nonEmpty(d.name)) call.name = d.name
    if (typeof d.arguments !== 'string') return
    const have = call.args.toString()
    if (have === d.arguments) return
    if (have === '') {
      const start = call.args.length
      call.args.append(d.arguments)
      if (d.arguments.length > 0) this.provenance?.add(frame, call.target, start, call.args.length)
      return
    }
    this.diagnostics.push({
      frame, level: 'warning', code: 'final-mismatch',
      message: `${d.source}: final arguments of tool call ${d.key} differ from the concatenated fragments (${describeDifference(have, d.arguments)}); the fragments are kept`,
    })
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
  return [...c.tools].sort((a, b) => a.index - b.index || a.arrival - b.arrival)
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
  const clip = (s: string) => JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s)
  return `first difference at character ${i}: deltas ${clip(have.slice(i))}, final ${clip(want.slice(i))}`
}
