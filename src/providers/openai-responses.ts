// OpenAI Responses API streaming: SSE `response.*` events, dispatched on the JSON `type`
// (proxies drop the `event:` line). One choice, index 0, role `assistant`.
//
// Text arrives as parts: an output_text or refusal part of a message item (content_index),
// a summary part (summary_index) or a reasoning_text part (content_index) of a reasoning
// item. Parts of one channel are concatenated in arrival order. Reasoning parts are joined
// with "\n\n": each summary part is its own paragraph, usually opening with a bold title,
// and run together they read "…done.**Next step**". Content and refusal parts are joined
// with nothing, as the SDK's `output_text` joins them.
//
// Authoritative values (`*.done`, the `response` of a terminal event) are sent as
// final-text / final-tool-call deltas; the accumulator compares them and never overwrites.
// A part's final value covers one part: the mapper mirrors each channel's parts
// (responses-parts.ts) and sends each differing part with where it starts in the channel,
// so a `.done` costs its own text, never the channel's.
//
// A call whose `output_index` is not a usable index (-1, "0", 1.5, null, 2^53, missing) is
// kept, in order of arrival, with a warning: its later events are routed by their item_id.

import type { Channel, Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { ChannelMirror } from './responses-parts.js'
import { arr, errorDelta, index, isObject, quote, str, typeField, usageObject, type JsonObject } from './shared.js'

const CHOICE = 0

/** Events that only keep the connection open. */
const KEEPALIVE_TYPES: ReadonlySet<string> = new Set(['keepalive', 'response.keepalive'])

export const openaiResponses: ProviderAdapter = {
  id: 'openai-responses',
  urlPattern: /\/responses\b/,
  isKeepalive: (frame) => KEEPALIVE_TYPES.has(frame.event ?? '') || KEEPALIVE_TYPES.has(typeField(frame.json) ?? ''),
  recognizes(frame) {
    const t = isObject(frame.json) ? str(frame.json['type']) : null
    return t !== null && t.startsWith('response.')
  },
  createMapper(): FrameMapper {
    const mapper = new ResponsesMapper()
    return { map: (frame) => mapper.map(frame) }
  },
}

/** The Responses item types that are calls a client must run, with the tool type they name. */
const CALL_TYPES: ReadonlyMap<unknown, string> = new Map([
  ['function_call', 'function'],
  ['custom_tool_call', 'custom'],
  ['mcp_call', 'mcp'],
])

/** A custom tool's input is free text, not JSON arguments (ToolCallDelta.freeText). */
function freeText(callType: string): { freeText?: true } {
  return callType === 'custom' ? { freeText: true } : {}
}

/** Text events by stem (`<stem>.delta` / `<stem>.done`): channel, part numbering, final field. */
const TEXT_EVENTS: ReadonlyMap<string, { channel: Channel; kind: 'c' | 's'; final: string }> = new Map([
  ['response.output_text', { channel: 'content', kind: 'c', final: 'text' }],
  ['response.refusal', { channel: 'refusal', kind: 'c', final: 'refusal' }],
  ['response.reasoning_summary_text', { channel: 'reasoning', kind: 's', final: 'text' }],
  ['response.reasoning_text', { channel: 'reasoning', kind: 'c', final: 'text' }],
] as const)

/** Tool input events by stem: the field of the `.done` event that holds the whole input. */
const INPUT_EVENTS: ReadonlyMap<string, string> = new Map([
  ['response.function_call_arguments', 'arguments'],
  ['response.mcp_call_arguments', 'arguments'],
  ['response.custom_tool_call_input', 'input'],
])

/** What a client that keys calls by output_index does with a call whose index is unusable. */
const ODD_INDEX_SYMPTOM = 'A client that keys tool calls by output_index (an array position) drops this call, throws, or merges it into another.'

class ResponsesMapper {
  private announced = false
  private readonly mirrors: Record<Channel, ChannelMirror> = {
    content: new ChannelMirror(CHOICE, 'content', ''),
    reasoning: new ChannelMirror(CHOICE, 'reasoning', '\n\n'),
    refusal: new ChannelMirror(CHOICE, 'refusal', ''),
  }
  /** Output indexes already known as tool calls (their type came from output_item.added). */
  private readonly calls = new Set<number>()
  /**
   * Calls whose output_index was unusable, by item id: the id their events are routed by (the
   * call_id, else the item id). Keyed by order of arrival in the reply.
   */
  private readonly odd = new Map<string, string | null>()

  map(frame: ParsedFrame): Delta[] {
    const e = frame.json
    if (!isObject(e)) return []
    const type = str(e['type']) ?? frame.event
    const out: Delta[] = []
    if (type === null) out.push({ type: 'note', level: 'info', message: 'a frame without a `type` was ignored' })
    else if (!this.mapStep(type, e, out)) this.mapEvent(type, e, out)
    return out
  }

  /** `<stem>.delta` / `<stem>.done` of text and tool input; false for any other event. */
  private mapStep(type: string, e: JsonObject, out: Delta[]): boolean {
    const dot = type.lastIndexOf('.')
    const stem = type.slice(0, dot)
    const step = type.slice(dot + 1)
    if (step !== 'delta' && step !== 'done') return false
    const text = TEXT_EVENTS.get(stem)
    if (text) {
      const key = partKey(e, text.kind)
      if (step === 'delta') this.text(out, text.channel, key, e['delta'])
      else this.partDone(out, type, text.channel, key, e[text.final])
      return true
    }
    const input = INPUT_EVENTS.get(stem)
    if (input === undefined) return false
    if (step === 'delta') this.argumentsDelta(e, out)
    else this.argumentsDone(out, type, e, e[input])
    return true
  }

  private mapEvent(type: string, e: JsonObject, out: Delta[]): void {
    switch (type) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        return this.announce(out)
      case 'response.output_item.added':
        return this.itemAdded(e, out)
      case 'response.output_item.done':
        return this.itemDone(e, out)
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return this.terminal(type, e, out)
      case 'error':
        out.push(responseErrorDelta(e))
        return
      default:
        // keepalive, content parts, annotations, built-in tool progress: nothing to merge
        if (type !== 'keepalive' && !type.startsWith('response.')) {
          out.push({ type: 'note', level: 'info', message: `unknown event ${quote(type)} ignored` })
        }
    }
  }

  /** The one choice exists and is the assistant's, said once. */
  private announce(out: Delta[], role: string | null = null): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: role ?? 'assistant' })
  }

  private text(out: Delta[], channel: Channel, key: string, delta: unknown): void {
    if (typeof delta !== 'string' || delta === '') return
    this.announce(out)
    out.push({ type: 'text', choice: CHOICE, channel, text: this.mirrors[channel].append(key, delta) })
  }

  private partDone(out: Delta[], source: string, channel: Channel, key: string, text: unknown): void {
    if (typeof text !== 'string') return
    this.announce(out)
    this.mirrors[channel].finals(new Map([[key, text]]), source, out)
  }

  private itemAdded(e: JsonObject, out: Delta[]): void {
    const item = isObject(e['item']) ? e['item'] : null
    this.announce(out, item && item['type'] === 'message' ? str(item['role']) : null)
    if (item === null) return
    const callType = CALL_TYPES.get(item['type'])
    if (callType === undefined) return
    const args = callArguments(item)
    const call = {
      type: 'tool-call', choice: CHOICE, callType, id: nonEmpty(item['call_id']) ?? nonEmpty(item['id']),
      name: nonEmpty(item['name']), arguments: args === '' ? null : args, ...freeText(callType),
    } as const
    const ref = this.oddRef(str(item['id']))
    const at = ref === undefined ? index(e['output_index']) : null
    if (at !== null) {
      this.calls.add(at)
      out.push({ ...call, key: at })
    } else if (ref !== undefined) out.push({ ...call, key: null, id: ref })
    else this.oddCall(out, 'response.output_item.added', e, str(item['id']), { ...call, key: null })
  }

  /** A finished call item is authoritative for its id, name and arguments. */
  private itemDone(e: JsonObject, out: Delta[]): void {
    const item = isObject(e['item']) ? e['item'] : null
    if (item !== null) this.finalCall(out, 'response.output_item.done', e['output_index'], item, e)
  }

  private argumentsDelta(e: JsonObject, out: Delta[]): void {
    const delta = str(e['delta'])
    if (delta === null || delta === '') return
    this.announce(out)
    const ref = this.oddRef(str(e['item_id']))
    const at = ref === undefined ? index(e['output_index']) : null
    if (at !== null) out.push({ type: 'tool-call', choice: CHOICE, key: at, arguments: delta })
    else if (ref !== undefined) out.push({ type: 'tool-call', choice: CHOICE, key: null, id: ref, arguments: delta })
    else this.oddCall(out, str(e['type']) ?? 'arguments delta', e, str(e['item_id']), { type: 'tool-call', choice: CHOICE, key: null, arguments: delta })
  }

  private argumentsDone(out: Delta[], source: string, e: JsonObject, args: unknown): void {
    this.announce(out)
    const name = nonEmpty(e['name'])
    const itemId = str(e['item_id'])
    const ref = this.oddRef(itemId)
    const at = ref === undefined ? index(e['output_index']) : null
    if (at !== null) out.push({ type: 'final-tool-call', choice: CHOICE, key: at, source, name, arguments: str(args) })
    else if (ref !== undefined) out.push({ type: 'final-tool-call', choice: CHOICE, key: null, source, id: ref, name, arguments: str(args) })
    else this.oddCall(out, source, e, itemId, { type: 'tool-call', choice: CHOICE, key: null, name, arguments: str(args) })
  }

  /**
   * A call item's final values. `outputIndex` is the item's position in the terminal
   * response's output (always usable) or the output_item.done event's own (maybe not).
   */
  private finalCall(out: Delta[], source: string, outputIndex: unknown, item: JsonObject, e: JsonObject | null = null): void {
    const callType = CALL_TYPES.get(item['type'])
    if (callType === undefined) return
    this.announce(out)
    const id = nonEmpty(item['call_id']) ?? nonEmpty(item['id'])
    const name = nonEmpty(item['name'])
    const ref = this.oddRef(str(item['id']))
    const at = ref === undefined ? index(outputIndex) : null
    if (ref !== undefined) {
      out.push({ type: 'final-tool-call', choice: CHOICE, key: null, source, id: ref, name, arguments: callArguments(item) })
      return
    }
    if (at === null) {
      // first seen here, whole: the call is its final value
      this.oddCall(out, source, e ?? {}, str(item['id']), { type: 'tool-call', choice: CHOICE, key: null, callType, id, name, arguments: callArguments(item), ...freeText(callType) })
      return
    }
    // a call first seen here still gets its type (final-tool-call carries none)
    if (!this.calls.has(at)) {
      this.calls.add(at)
      out.push({ type: 'tool-call', choice: CHOICE, key: at, callType, id, name, ...freeText(callType) })
    }
    out.push({ type: 'final-tool-call', choice: CHOICE, key: at, source, id, name, arguments: callArguments(item) })
  }

  /** The routing id of a call kept for its unusable output_index, by item id; undefined when none. */
  private oddRef(itemId: string | null): string | null | undefined {
    return itemId === null ? undefined : this.odd.get(itemId)
  }

  /**
   * A call whose output_index is unusable, seen for the first time: a new call in order of
   * arrival, routed from now on by its id (the call_id, else the item id), with a warning.
   * Without any id, the fragment can only continue the open call.
   */
  private oddCall(out: Delta[], source: string, e: JsonObject, itemId: string | null, delta: Extract<Delta, { type: 'tool-call' }>): void {
    const ref = delta.id ?? itemId
    if (itemId !== null) this.odd.set(itemId, ref)
    const raw = 'output_index' in e ? quote(e['output_index'] ?? null) : 'missing'
    out.push({
      type: 'note', level: 'warning', symptom: ODD_INDEX_SYMPTOM,
      message: `${source}: output_index ${raw} is not a usable index (a non-negative integer); the call${ref === null ? '' : ` ${quote(ref)}`} is kept in order of arrival`,
    })
    out.push({ ...delta, id: ref, whole: ref !== null })
  }

  /** response.completed / incomplete / failed: finals, finish reason, usage, error, done. */
  private terminal(type: string, e: JsonObject, out: Delta[]): void {
    const response = isObject(e['response']) ? e['response'] : {}
    this.announce(out)
    this.compareOutput(type, response, out)
    out.push({ type: 'finish', choice: CHOICE, reason: finishReason(type, response) })
    const usage = usageObject(response['usage'])
    if (usage) out.push({ type: 'usage', usage })
    if (type === 'response.failed') out.push(failedErrorDelta(response))
    out.push({ type: 'done' })
  }

  /** The terminal response's output items against what streamed, part by part. */
  private compareOutput(source: string, response: JsonObject, out: Delta[]): void {
    const output = arr(response['output'])
    output.forEach((item, position) => {
      if (isObject(item)) this.finalCall(out, source, position, item)
    })
    const finals = outputTexts(output)
    for (const channel of ['content', 'reasoning', 'refusal'] as const) {
      if (finals[channel].size > 0) this.mirrors[channel].finals(finals[channel], source, out)
    }
  }
}

/** The text parts of a response's output, by channel, keyed like the streamed parts. */
function outputTexts(output: unknown[]): Record<Channel, Map<string, string>> {
  const finals: Record<Channel, Map<string, string>> = { content: new Map(), reasoning: new Map(), refusal: new Map() }
  const put = (channel: Channel, key: string, text: unknown) => {
    if (typeof text === 'string') finals[channel].set(key, text)
  }
  output.forEach((item, position) => {
    if (!isObject(item)) return
    if (item['type'] === 'message') {
      arr(item['content']).forEach((part, i) => {
        if (!isObject(part)) return
        if (part['type'] === 'output_text') put('content', `@${position}:c${i}`, part['text'])
        if (part['type'] === 'refusal') put('refusal', `@${position}:c${i}`, part['refusal'])
      })
    } else if (item['type'] === 'reasoning') {
      arr(item['summary']).forEach((part, i) => { if (isObject(part)) put('reasoning', `@${position}:s${i}`, part['text']) })
      arr(item['content']).forEach((part, i) => { if (isObject(part)) put('reasoning', `@${position}:c${i}`, part['text']) })
    }
  })
  return finals
}

/**
 * A part's identity: its output item and its place in it. The output index is the item's
 * position in the terminal response's `output`, so the two can be matched; `item_id` is the
 * fallback when a proxy dropped it.
 */
function partKey(e: JsonObject, kind: 'c' | 's'): string {
  const at = index(e['output_index'])
  const item = at !== null ? `@${at}` : `#${str(e['item_id']) ?? ''}`
  return `${item}:${kind}${index(e[kind === 's' ? 'summary_index' : 'content_index']) ?? 0}`
}

/** A call item's arguments: `arguments` (function, MCP) or `input` (custom tools). */
function callArguments(item: JsonObject): string | null {
  return str(item['arguments']) ?? str(item['input'])
}

/** `""` is "not said" (CLIProxyAPI sends `name: ""` in output_item.done): never a value. */
function nonEmpty(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

/** docs/architecture.md#the-reply-contract: an incomplete response's reason, else the final status. */
function finishReason(type: string, response: JsonObject): string {
  const details = isObject(response['incomplete_details']) ? response['incomplete_details'] : {}
  const status = nonEmpty(response['status']) ?? type.slice('response.'.length)
  return (status === 'incomplete' ? nonEmpty(details['reason']) : null) ?? status
}

/** The `error` event: `{code, message, param}` at top level (older proxies nest `error`). */
function responseErrorDelta(e: JsonObject): Delta {
  const nested = errorDelta(e)
  if (nested) return nested
  const code = typeof e['code'] === 'string' || typeof e['code'] === 'number' ? e['code'] : null
  return { type: 'stream-error', message: str(e['message']) ?? 'error event', code, errorType: null, payload: e }
}

/** response.failed: the error is `response.error` `{code, message}`. */
function failedErrorDelta(response: JsonObject): Delta {
  return errorDelta(response) ?? { type: 'stream-error', message: 'response failed', code: null, errorType: null, payload: response }
}
