// Vercel AI SDK v4 data stream (ai ≤ 4, header `x-vercel-ai-data-stream: v1`, mostly sent as
// text/plain; still what LlamaIndex's create-llama and LangChain adapters send): one
// `CODE:JSON` part per line, framed by the core (src/core/data-stream.ts): the frame's event
// is the code, its JSON the part's value. Kept apart from `ai-sdk` (the v5 UI message
// stream: SSE with a JSON `type`): a v4 frame always has a one-character code for its event,
// a v5 frame never has an event. One choice (0), the assistant's.
//
// - `0` text and `g` reasoning (strings) append to content and reasoning, across steps.
// - Tool calls are keyed by the order in which their toolCallId first appears: `b`
//   (tool_call_streaming_start) brings the name, `c` (tool_call_delta) an `argsTextDelta`
//   fragment, `9` (tool_call) the whole call with `args` as an object. A `9` without
//   fragments is the arguments (as JSON text); after fragments it is compared with them as
//   JSON values, and a real difference goes to the accumulator as a final-tool-call, which
//   reports it and keeps the fragments (the SDK's client takes the `9`'s args).
// - `d` (finish_message) is the finish reason, the usage and the terminal marker. `e`
//   (finish_step) ends one step: its finishReason (`tool-calls` before a tool round trip) is
//   the step's, not the message's. `f` (start_step) carries a message id.
// - `3` is an error (a JSON string): a stream error.
// - Reply.messages holds the one assistant message as the SDK's client (`callChatApi`,
//   `processChatResponse` of @ai-sdk/ui-utils 1) builds it: its id the `f` part's messageId
//   (null when none came before the reply began: the client makes one up), a text part and a
//   reasoning part per step (`e` starts new ones; a continued step, `isContinued`, goes on with
//   its text part), calls placed where they first appear, `a` their results, `h` sources and
//   `k` files as parts.
// - `j` reasoning signatures and `2` data are not reply text; `i` redacted reasoning and `8`
//   annotations are kept out with a note each.
// - 1 and 4–7 belong to older streams (function calls, the assistant stream): noted, not read.

import { parseJson } from '../core/json-error.js'
import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { excerpt, isObject, jsonText, quote, str, usageObject, type JsonObject } from './shared.js'

const CHOICE = 0

/** What each code's value must be for a frame to be this protocol's. */
const VALUE_SHAPE: Readonly<Record<string, 'string' | 'object' | 'array' | 'call'>> = {
  '0': 'string', 'g': 'string', '3': 'string',
  '2': 'array', '8': 'array',
  '9': 'call', 'a': 'call', 'b': 'call', 'c': 'call',
  'd': 'object', 'e': 'object', 'f': 'object', 'h': 'object', 'i': 'object', 'j': 'object', 'k': 'object',
}

/** Parts kept out of the reply that a client shows somewhere: one note per code. */
const KEPT_OUT: Readonly<Record<string, string>> = {
  'i': 'redacted reasoning (i)', '8': 'message annotations (8)',
}

/** Fragments far longer than the whole call are not parsed to be compared with it (see ai-sdk.ts). */
const COMPARE_RATIO = 16

export const aiSdkV4: ProviderAdapter = {
  id: 'ai-sdk-v4',
  recognizes(frame) {
    const shape = frame.event === null ? undefined : VALUE_SHAPE[frame.event]
    const j = frame.json
    switch (shape) {
      case 'string': return typeof j === 'string'
      case 'array': return Array.isArray(j)
      case 'object': return isObject(j)
      case 'call': return isObject(j) && typeof j['toolCallId'] === 'string'
      default: return false
    }
  },
  createMapper(): FrameMapper {
    const mapper = new DataStreamMapper()
    return { map: (frame) => mapper.map(frame) }
  },
}

interface CallState {
  key: number
  /** The argsTextDelta fragments so far, to compare with the `9` part. */
  fragments: string
}

class DataStreamMapper {
  private announced = false
  private readonly calls = new Map<string, CallState>()
  private readonly noted = new Set<string>()
  /** The message's id: the first `f`'s messageId, '' once the reply began without one (null: not yet known). */
  private messageId: string | null = null
  /** Steps ended so far, for the text and reasoning part ids (a continued step keeps its text part). */
  private textStep = 0
  private reasoningStep = 0

  map(frame: ParsedFrame): Delta[] {
    const code = frame.event
    const j = frame.json
    const out: Delta[] = []
    switch (code) {
      case '0':
      case 'g':
        this.announce(out)
        if (typeof j !== 'string') { out.push(this.misshapen(code, j)); return out }
        out.push(code === '0'
          ? { type: 'text', choice: CHOICE, channel: 'content', text: j, messageId: this.message(out), partId: `text ${this.textStep}` }
          : { type: 'text', choice: CHOICE, channel: 'reasoning', text: j, messageId: this.message(out), partId: `reasoning ${this.reasoningStep}` })
        return out
      case 'b': return this.toolStart(out, j)
      case 'c': return this.toolDelta(out, j)
      case '9': return this.toolCall(out, j)
      case 'd': {
        this.announce(out)
        if (!isObject(j)) { out.push(this.misshapen(code, j)); return out }
        const reason = str(j['finishReason'])
        if (reason !== null && reason !== '') out.push({ type: 'finish', choice: CHOICE, reason })
        const usage = usageObject(j['usage'])
        if (usage !== null) out.push({ type: 'usage', usage })
        out.push({ type: 'done' })
        return out
      }
      case '3':
        out.push({ type: 'stream-error', message: typeof j === 'string' ? j : excerpt(jsonText(j), 1000), payload: j, ...(this.messageId === null ? {} : { messageId: this.message(out) }) })
        return out
      case 'f': return this.startStep(out, j)
      case 'e':
        if (isObject(j)) {
          this.reasoningStep++
          if (j['isContinued'] !== true) this.textStep++
        }
        return out
      case 'a': return this.toolResult(out, j)
      case 'h':
      case 'k':
        this.announce(out)
        if (!isObject(j)) { out.push(this.misshapen(code, j)); return out }
        out.push({ type: 'message-part', choice: CHOICE, messageId: this.message(out), part: code === 'h' ? 'source' : 'file', data: j })
        return out
      case 'j': case '2':
        return out
    }
    if (code !== null && KEPT_OUT[code] !== undefined) {
      if (!this.noted.has(code)) {
        this.noted.add(code)
        out.push({ type: 'note', level: 'info', message: `${KEPT_OUT[code]} kept out of the reply` })
      }
      return out
    }
    out.push({ type: 'note', level: 'warning', message: `data stream part ${quote(code)} (an older stream's) is not read` })
    return out
  }

  /** The one choice exists and is the assistant's (the SDK's client builds an assistant message), said once. */
  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  private misshapen(code: string, j: unknown): Delta {
    return { type: 'note', level: 'warning', message: `part ${code} carries ${quote(j)}, not the value its code calls for (the SDK's client throws here)` }
  }

  /** The message the reply's parts go to, named (once) when the first of them comes. */
  private message(out: Delta[]): string {
    if (this.messageId === null) {
      this.messageId = ''
      out.push({ type: 'message', choice: CHOICE, messageId: '', role: 'assistant' })
    }
    return this.messageId
  }

  /** `f` (start_step): its messageId names the message, when nothing of it came before. */
  private startStep(out: Delta[], j: unknown): Delta[] {
    const id = isObject(j) ? str(j['messageId']) : null
    if (id === null) return out
    if (this.messageId === null) {
      this.messageId = id
      this.announce(out)
      out.push({ type: 'message', choice: CHOICE, messageId: id, role: 'assistant' })
    } else if (id !== this.messageId && !this.noted.has('f')) {
      this.noted.add('f')
      out.push({ type: 'note', level: 'info', message: `a later step names the message ${quote(id)}, not ${quote(this.messageId)}: the SDK's client renames its message to the last step's id; Reply.messages keeps the first` })
    }
    return out
  }

  /** `a` (tool_result): the call's result, a part of the message. */
  private toolResult(out: Delta[], j: unknown): Delta[] {
    const id = isObject(j) ? str(j['toolCallId']) : null
    if (id === null) { out.push(this.misshapen('a', j)); return out }
    if (!this.calls.has(id)) {
      out.push({ type: 'note', level: 'warning', message: `tool result for ${quote(id)} with no tool call before it (the SDK's client throws here)` })
      return out
    }
    out.push({ type: 'tool-result', choice: CHOICE, messageId: this.message(out), toolCallId: id, output: (j as JsonObject)['result'] ?? null, isError: false })
    return out
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

  private toolStart(out: Delta[], j: unknown): Delta[] {
    const id = isObject(j) ? str(j['toolCallId']) : null
    if (id === null) { out.push(this.misshapen('b', j)); return out }
    this.announce(out)
    out.push({ type: 'tool-call', choice: CHOICE, key: this.call(id).key, id, name: str((j as JsonObject)['toolName']), messageId: this.message(out) })
    return out
  }

  private toolDelta(out: Delta[], j: unknown): Delta[] {
    const id = isObject(j) ? str(j['toolCallId']) : null
    if (id === null) { out.push(this.misshapen('c', j)); return out }
    this.announce(out)
    const known = this.calls.has(id)
    const call = this.call(id)
    if (!known) out.push({ type: 'note', level: 'warning', message: `tool call delta for ${quote(id)} with no tool call streaming start (b) before it` })
    const fragment = str((j as JsonObject)['argsTextDelta'])
    if (fragment !== null) call.fragments += fragment
    out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, arguments: fragment, messageId: this.message(out) })
    return out
  }

  /** The whole call: the arguments when no fragment came, else compared with them. */
  private toolCall(out: Delta[], j: unknown): Delta[] {
    const id = isObject(j) ? str(j['toolCallId']) : null
    if (id === null) { out.push(this.misshapen('9', j)); return out }
    this.announce(out)
    const call = this.call(id)
    const name = str((j as JsonObject)['toolName'])
    const args = (j as JsonObject)['args']
    const whole = args === undefined ? null : jsonText(args)
    const fragments = call.fragments
    if (fragments.length === 0) {
      out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, name, arguments: whole, messageId: this.message(out) })
      return out
    }
    const same = whole === null || whole === fragments || (fragments.length <= COMPARE_RATIO * whole.length + 1024 && sameJson(fragments, args))
    out.push({ type: 'final-tool-call', choice: CHOICE, key: call.key, id, name, arguments: same ? null : whole, source: 'tool_call (9)' })
    return out
  }
}

/** The fragments, parsed, are the same JSON value as the args (formatting aside). */
function sameJson(fragments: string, args: unknown): boolean {
  const parsed = parseJson(fragments)
  return parsed.ok && jsonText(parsed.value) === jsonText(args)
}
