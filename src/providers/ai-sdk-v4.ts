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
// - `a` tool results, `j` reasoning signatures and `2` data are not reply text; `i` redacted
//   reasoning, `8` annotations, `h` sources and `k` files are kept out with a note each.
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
  'i': 'redacted reasoning (i)', '8': 'message annotations (8)', 'h': 'sources (h)', 'k': 'files (k)',
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

  map(frame: ParsedFrame): Delta[] {
    const code = frame.event
    const j = frame.json
    const out: Delta[] = []
    switch (code) {
      case '0':
      case 'g':
        this.announce(out)
        if (typeof j === 'string') out.push({ type: 'text', choice: CHOICE, channel: code === '0' ? 'content' : 'reasoning', text: j })
        else out.push(this.misshapen(code, j))
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
        out.push({ type: 'stream-error', message: typeof j === 'string' ? j : excerpt(jsonText(j), 1000), payload: j })
        return out
      case 'a': case 'e': case 'f': case 'j': case '2':
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
    out.push({ type: 'tool-call', choice: CHOICE, key: this.call(id).key, id, name: str((j as JsonObject)['toolName']) })
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
    out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, arguments: fragment })
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
      out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, name, arguments: whole })
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
