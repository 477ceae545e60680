// Vercel AI SDK UI message stream (ai v5+, header `x-vercel-ai-ui-message-stream: v1`): SSE
// `data: {json}` parts ending with `data: [DONE]` (the core handles [DONE]). One choice (0),
// the assistant's, and one message, the client's UIMessage (`start.messageId`; id null when the
// wire names none). Dispatch is on the JSON `type`.
//
// - text-delta / reasoning-delta append `delta` to content / reasoning. In the message each
//   text-start / reasoning-start opens a part of its own (an id is reused by the next step),
//   so parts of one id interleaved with another's stay apart, as the client keeps them; the
//   choice's channels are the parts joined, with nothing in between.
// - Tool calls are keyed by the order in which their toolCallId first appears, across steps;
//   id = toolCallId, name = toolName; the wire never names a call type (the Reply shows
//   `function`). Arguments are the `inputTextDelta` fragments. `tool-input-available` brings
//   the parsed input: with no fragments it is the arguments (as JSON text); after fragments it
//   is compared with them (as JSON values, so `{"a": 1}` and `{"a":1}` agree) and a real
//   difference goes to the accumulator as a final-tool-call, which reports it and keeps the
//   fragments.
// - `error{errorText}` is a stream error; `finish{finishReason?}` is the finish reason and a
//   terminal marker; `abort` is a terminal marker with a warning (the wire gives no reason
//   field for the reply: none is invented).
// - The SDK's own client (processUIMessageStream) throws on a text / reasoning / tool-input
//   delta whose start it has not seen (or whose step has finished); the text is kept here and
//   a warning names the frame.
// - tool-output-available / -error are tool-result parts of the message (an error's output is
//   its errorText); source-url / source-document are source parts, file / reasoning-file file
//   parts, data-* (but transient ones, which the client does not keep) and
//   tool-approval-request data parts, each as the wire gave it. None is reply text.

import { parseJson } from '../core/json-error.js'
import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { argumentsText, excerpt, isObject, jsonText, quote, str, type JsonObject } from './shared.js'

const CHOICE = 0

/** Part types no other wire format uses, with the string field each one must carry. */
const OWN_TYPES: ReadonlyMap<string, string | null> = new Map([
  ['text-start', 'id'], ['text-delta', 'id'], ['text-end', 'id'],
  ['reasoning-start', 'id'], ['reasoning-delta', 'id'], ['reasoning-end', 'id'],
  ['tool-input-start', 'toolCallId'], ['tool-input-delta', 'toolCallId'],
  ['tool-input-available', 'toolCallId'], ['tool-input-error', 'toolCallId'],
  ['tool-output-available', 'toolCallId'], ['tool-output-error', 'toolCallId'],
  ['start-step', null], ['finish-step', null],
])

/** Parts that carry nothing for the reply and are routine: no note. */
const QUIET_TYPES: ReadonlySet<string> = new Set([
  'start-step', 'tool-approval-response', 'message-metadata',
])

/** Message parts kept as the wire gave them, by the kind of part they are. */
const VALUE_PARTS: ReadonlyMap<string, 'source' | 'file' | 'data'> = new Map([
  ['source-url', 'source'], ['source-document', 'source'], ['file', 'file'], ['reasoning-file', 'file'], ['tool-approval-request', 'data'],
])

export const aiSdk: ProviderAdapter = {
  id: 'ai-sdk',
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    const type = str(j['type'])
    // `error` is a common word (Anthropic, Responses), but `errorText` is the SDK's own field:
    // a stream that fails before any content (start, error, [DONE]) is still recognised.
    if (type === 'error') return typeof j['errorText'] === 'string'
    if (type === null || !OWN_TYPES.has(type)) return false
    const field = OWN_TYPES.get(type)
    return field === null || field === undefined || typeof j[field] === 'string'
  },
  createMapper(): FrameMapper {
    const mapper = new AiSdkMapper()
    return { map: (frame) => mapper.map(frame) }
  },
}

interface CallState {
  key: number
  /** The inputTextDelta fragments so far, concatenated (never joined until compared), to compare with tool-input-available. */
  fragments: string
}

/**
 * Fragments longer than this many times the whole input (plus a little) are not parsed to be
 * compared with it: they cannot be the same value short of absurd white space, and parsing
 * them at every tool-input-available would cost the fragments, not the event.
 */
const COMPARE_RATIO = 16

class AiSdkMapper {
  private announced = false
  private readonly calls = new Map<string, CallState>()
  /** Text and reasoning part ids opened by *-start and not yet ended (cleared by finish-step, as the SDK does). */
  private readonly open: Record<'content' | 'reasoning', Set<string>> = { content: new Set(), reasoning: new Set() }
  /** toolCallIds opened by tool-input-start. */
  private readonly started = new Set<string>()
  /** The message's id ('' until `start` names it: the Reply shows null). */
  private message = ''
  /** Per channel and part id, how many parts of that id were started (the next part's number). */
  private readonly generations = new Map<string, number>()

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j)) return []
    const type = str(j['type'])
    const out: Delta[] = []
    switch (type) {
      case 'start': {
        this.announce(out)
        const id = str(j['messageId'])
        if (id !== null && id !== '' && this.message === '') this.message = id
        out.push({ type: 'message', choice: CHOICE, messageId: this.message, role: 'assistant' })
        return out
      }
      case 'text-start': return this.partStart(out, 'content', j)
      case 'text-delta': return this.partDelta(out, 'content', j)
      case 'text-end': return this.partEnd(out, 'content', j)
      case 'reasoning-start': return this.partStart(out, 'reasoning', j)
      case 'reasoning-delta': return this.partDelta(out, 'reasoning', j)
      case 'reasoning-end': return this.partEnd(out, 'reasoning', j)
      case 'tool-input-start': return this.toolStart(out, j)
      case 'tool-input-delta': return this.toolDelta(out, j)
      case 'tool-input-available': return this.toolInput(out, j, 'tool-input-available')
      case 'tool-input-error': {
        this.toolInput(out, j, 'tool-input-error')
        out.push({ type: 'note', level: 'warning', message: `tool call ${describeId(j['toolCallId'])}: input error: ${errorText(j)}` })
        return out
      }
      case 'finish-step':
        this.open.content.clear()
        this.open.reasoning.clear()
        return out
      case 'error':
        out.push({ type: 'stream-error', message: str(j['errorText']) ?? 'error part without errorText', payload: j, messageId: this.message })
        return out
      case 'finish': {
        this.announce(out)
        const reason = str(j['finishReason'])
        if (reason !== null && reason !== '') out.push({ type: 'finish', choice: CHOICE, reason })
        out.push({ type: 'done' })
        return out
      }
      case 'abort': {
        const reason = str(j['reason'])
        out.push({ type: 'note', level: 'warning', message: reason ? `the stream was aborted: ${excerpt(reason, 200)}` : 'the stream was aborted' })
        out.push({ type: 'done' })
        return out
      }
      case 'tool-output-available':
        out.push({ type: 'tool-result', choice: CHOICE, messageId: this.message, toolCallId: str(j['toolCallId']), output: j['output'] ?? null, isError: false })
        return out
      case 'tool-output-error':
        out.push({ type: 'tool-result', choice: CHOICE, messageId: this.message, toolCallId: str(j['toolCallId']), output: str(j['errorText']), isError: true })
        out.push({ type: 'note', level: 'info', message: `tool call ${describeId(j['toolCallId'])}: output error: ${errorText(j)}` })
        return out
      case 'tool-output-denied':
        out.push({ type: 'note', level: 'info', message: `tool call ${describeId(j['toolCallId'])}: output denied` })
        return out
    }
    if (type !== null && type.startsWith('data-')) {
      // a transient data part reaches the client's onData, never its message
      if (j['transient'] !== true) out.push({ type: 'message-part', choice: CHOICE, messageId: this.message, part: 'data', data: j })
      return out
    }
    if (type !== null && QUIET_TYPES.has(type)) return out
    const kind = type === null ? undefined : VALUE_PARTS.get(type)
    if (kind !== undefined) {
      out.push({ type: 'message-part', choice: CHOICE, messageId: this.message, part: kind, data: j })
      return out
    }
    out.push({ type: 'note', level: 'info', message: `ignored AI SDK part type ${quote(j['type'] ?? null)}` })
    return out
  }

  /** The one choice exists and is the assistant's (the SDK's client always builds an assistant message), said once. */
  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  private partStart(out: Delta[], channel: 'content' | 'reasoning', j: JsonObject): Delta[] {
    this.announce(out)
    const id = str(j['id'])
    if (id !== null) {
      this.open[channel].add(id)
      const key = `${channel}\u0000${id}`
      this.generations.set(key, (this.generations.get(key) ?? 0) + 1)
      out.push({ type: 'text', choice: CHOICE, channel, text: '', messageId: this.message, partId: this.partId(channel, id)! })
    }
    return out
  }

  /** The message part a delta of this id writes: the latest one started with it. */
  private partId(channel: 'content' | 'reasoning', id: string | null): string | undefined {
    if (id === null) return undefined
    return `${id}#${this.generations.get(`${channel}\u0000${id}`) ?? 0}`
  }

  private partDelta(out: Delta[], channel: 'content' | 'reasoning', j: JsonObject): Delta[] {
    this.announce(out)
    const id = str(j['id'])
    if (id === null || !this.open[channel].has(id)) out.push(this.unopened(j, channel))
    const text = str(j['delta'])
    if (text !== null) out.push({ type: 'text', choice: CHOICE, channel, text, messageId: this.message, ...partOf(this.partId(channel, id)) })
    return out
  }

  private partEnd(out: Delta[], channel: 'content' | 'reasoning', j: JsonObject): Delta[] {
    const id = str(j['id'])
    if (id === null || !this.open[channel].delete(id)) out.push(this.unopened(j, channel))
    return out
  }

  private unopened(j: JsonObject, channel: 'content' | 'reasoning'): Delta {
    const start = channel === 'content' ? 'text-start' : 'reasoning-start'
    return {
      type: 'note', level: 'warning',
      message: `${String(j['type'])} for part ${describeId(j['id'])} with no open ${start} in this step (the AI SDK client throws here)`,
    }
  }

  /** The call's key: the order in which its toolCallId first appeared. */
  private call(id: string): CallState {
    let call = this.calls.get(id)
    if (!call) {
      call = { key: this.calls.size, fragments: '' }
      this.calls.set(id, call)
    }
    return call
  }

  private toolStart(out: Delta[], j: JsonObject): Delta[] {
    const id = str(j['toolCallId'])
    if (id === null) return out
    this.announce(out)
    this.started.add(id)
    out.push({ type: 'tool-call', choice: CHOICE, key: this.call(id).key, id, name: str(j['toolName']), messageId: this.message })
    return out
  }

  private toolDelta(out: Delta[], j: JsonObject): Delta[] {
    const id = str(j['toolCallId'])
    if (id === null) return out
    this.announce(out)
    if (!this.started.has(id)) {
      out.push({ type: 'note', level: 'warning', message: `tool-input-delta for tool call ${describeId(id)} with no tool-input-start (the AI SDK client throws here)` })
    }
    const call = this.call(id)
    const fragment = str(j['inputTextDelta'])
    if (fragment !== null) call.fragments += fragment
    out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, arguments: fragment, messageId: this.message })
    return out
  }

  /**
   * The whole input (tool-input-available: the parsed value; tool-input-error: the parsed value
   * or the raw text). With no fragments it is the arguments; after fragments it is compared.
   */
  private toolInput(out: Delta[], j: JsonObject, source: string): Delta[] {
    const id = str(j['toolCallId'])
    if (id === null) return out
    this.announce(out)
    const call = this.call(id)
    const name = str(j['toolName'])
    const input = j['input']
    const whole = source === 'tool-input-error' ? argumentsText(input) : input === undefined ? null : jsonText(input)
    const fragments = call.fragments
    if (fragments.length === 0) {
      out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, name, arguments: whole, messageId: this.message })
      return out
    }
    const same = whole === null || whole === fragments || (fragments.length <= COMPARE_RATIO * whole.length + 1024 && sameJson(fragments, input))
    out.push({ type: 'final-tool-call', choice: CHOICE, key: call.key, id, name, arguments: same ? null : whole, source })
    return out
  }
}

/** The fragments, parsed, are the same JSON value as the input (formatting aside). */
function sameJson(fragments: string, input: unknown): boolean {
  const parsed = parseJson(fragments)
  return parsed.ok && jsonText(parsed.value) === jsonText(input)
}

function partOf(id: string | undefined): { partId?: string } {
  return id === undefined ? {} : { partId: id }
}

function describeId(v: unknown): string {
  return typeof v === 'string' ? quote(v) : '(no id)'
}

function errorText(j: JsonObject): string {
  const text = str(j['errorText'])
  return text === null ? 'no errorText' : excerpt(text, 200)
}
