// LobeChat / LobeHub's own stream protocol (`POST /webapi/chat/<provider>`): every upstream
// provider's stream is rewritten as SSE blocks `id: <id>` / `event: <type>` / `data: <json>`
// (lobehub/lobe-chat src/libs/model-runtime/utils/streams/protocol.ts). The EVENT NAME is the
// channel, and the data is JSON of that channel's shape. One choice (0), the assistant's.
//
// - `text` (a JSON string) is content; `reasoning` (a string) is reasoning; `null` is nothing.
// - `tool_calls`: an array of OpenAI-style fragments `{index, id?, type, function: {name?,
//   arguments}}` merged by `index` (continuations may lack id and name).
// - `stop` (a string): the first non-empty one is the finish reason; the later ones (an
//   Anthropic upstream sends its stop_reason, then "message_stop") are noted. LobeChat has no
//   terminal event: a stream that sent a `stop` or an `error` ends there (`done` at its end).
// - `usage` is LobeChat's own usage object (totalInputTokens, totalOutputTokens…).
// - `error` ({body, type}, or {message, type}) is a stream error.
// - `data` frames carry the upstream provider's raw objects (an Anthropic
//   `{"type":"content_block_stop"}`, an OpenAI chunk with no text): not the reply. This adapter
//   runs before the provider formats, so such a frame names LobeChat, never Anthropic.
// - `reasoning_signature`, `flagged_reasoning_signature`, `grounding`, `base64_image`,
//   `speed`, `content_part`, `reasoning_part` carry no reply text.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { argumentsText, excerpt, index, isObject, jsonText, quote, str, type JsonObject } from './shared.js'

const CHOICE = 0

/** Keys of LobeChat's usage object (ModelTokensUsage): one of them names a `usage` frame. */
const USAGE_KEYS = ['totalTokens', 'totalInputTokens', 'totalOutputTokens', 'inputTextTokens', 'outputTextTokens', 'inputCacheMissTokens'] as const

/** What the data of each event name must be for the frame to be LobeChat's. */
const SHAPES: ReadonlyMap<string, (data: unknown) => boolean> = new Map<string, (data: unknown) => boolean>([
  ['text', (d) => typeof d === 'string' || d === null],
  ['reasoning', (d) => typeof d === 'string' || d === null],
  ['tool_calls', (d) => Array.isArray(d) && d.length > 0 && d.every((c) => isObject(c) && index(c['index']) !== null)],
  ['stop', (d) => typeof d === 'string'],
  ['usage', (d) => isObject(d) && USAGE_KEYS.some((k) => typeof d[k] === 'number')],
  ['speed', (d) => isObject(d) && ('tps' in d || 'ttft' in d)],
  ['reasoning_signature', (d) => typeof d === 'string'],
  ['flagged_reasoning_signature', (d) => typeof d === 'string'],
  ['base64_image', (d) => typeof d === 'string' || isObject(d)],
  ['grounding', (d) => isObject(d)],
  // Anthropic and Responses also send `event: error`, with `type: "error"` and a nested error
  // object or a sequence_number; LobeChat's has a `body` or names its own error type.
  ['error', (d) => isObject(d) && str(d['type']) !== null && d['type'] !== 'error' && !('sequence_number' in d) && ('body' in d || typeof d['message'] === 'string')],
  // The upstream's raw objects: no other listed wire format names an SSE event `data`.
  ['data', () => true],
])

/** Events that carry nothing for the reply: no note. */
const QUIET: ReadonlySet<string> = new Set(['data', 'speed', 'reasoning_signature', 'flagged_reasoning_signature'])

/** Events whose content the Reply has no field for: one info note each (first time). */
const KEPT_OUT: ReadonlySet<string> = new Set(['grounding', 'base64_image', 'content_part', 'reasoning_part'])

export const lobechat: ProviderAdapter = {
  id: 'lobechat',
  urlPattern: /\/webapi\/chat\/[^/?#]+/,
  recognizes(frame) {
    if (frame.event === null) return false
    const shape = SHAPES.get(frame.event)
    return shape !== undefined && shape(frame.json)
  },
  createMapper(): FrameMapper {
    const mapper = new LobeChatMapper()
    return { map: (frame) => mapper.map(frame), flush: () => mapper.flush() }
  },
}

class LobeChatMapper {
  private announced = false
  private stopped: string | null = null
  /** An error event was sent: LobeChat closes the stream after it. */
  private failed = false
  private readonly noted = new Set<string>()

  map(frame: ParsedFrame): Delta[] {
    const out: Delta[] = []
    const data = frame.json
    const event = frame.event ?? 'message'
    switch (event) {
      case 'text':
      case 'reasoning':
        this.text(out, event === 'text' ? 'content' : 'reasoning', data, event)
        return out
      case 'tool_calls':
        this.toolCalls(out, data)
        return out
      case 'stop':
        this.stop(out, data)
        return out
      case 'usage':
        if (isObject(data)) out.push({ type: 'usage', usage: data })
        else out.push({ type: 'note', level: 'warning', message: `usage event whose data is not an object: ${quote(data)}` })
        return out
      case 'error':
        this.failed = true
        out.push(errorOf(data))
        return out
    }
    if (QUIET.has(event)) return out
    if (KEPT_OUT.has(event)) {
      this.noteOnce(out, event, `${event} events kept out of the reply`)
      return out
    }
    this.noteOnce(out, event, `ignored LobeChat event ${quote(event)}`)
    return out
  }

  flush(): Delta[] {
    return this.stopped === null && !this.failed ? [] : [{ type: 'done' }]
  }

  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  private noteOnce(out: Delta[], key: string, message: string): void {
    if (this.noted.has(key) || this.noted.size > 64) return
    this.noted.add(key)
    out.push({ type: 'note', level: 'info', message })
  }

  private text(out: Delta[], channel: 'content' | 'reasoning', data: unknown, event: string): void {
    this.announce(out)
    if (typeof data === 'string') out.push({ type: 'text', choice: CHOICE, channel, text: data })
    else if (data !== null) out.push({ type: 'note', level: 'warning', message: `${event} event whose data is not a string: ${quote(data)}` })
  }

  private toolCalls(out: Delta[], data: unknown): void {
    this.announce(out)
    if (!Array.isArray(data)) {
      out.push({ type: 'note', level: 'warning', message: `tool_calls event whose data is not an array: ${quote(data)}` })
      return
    }
    for (const call of data as unknown[]) {
      if (!isObject(call)) continue
      const fn = isObject(call['function']) ? call['function'] : {}
      out.push({
        type: 'tool-call',
        choice: CHOICE,
        key: index(call['index']),
        id: str(call['id']),
        callType: str(call['type']),
        name: str(fn['name']),
        arguments: argumentsText(fn['arguments']),
      })
    }
  }

  /** The first non-empty stop is the finish reason; any later one only says so. */
  private stop(out: Delta[], data: unknown): void {
    const reason = str(data)
    if (reason === null || reason === '') return
    if (this.stopped === null) {
      this.stopped = reason
      out.push({ type: 'finish', choice: CHOICE, reason })
      return
    }
    this.noteOnce(out, 'stop', `a later stop event ${quote(reason)} after ${quote(this.stopped)}: the first one is the finish reason`)
  }
}

/** `{body, type}` from LobeChat's error chunks; the message is the body's message when it has one. */
function errorOf(data: unknown): Delta {
  if (!isObject(data)) {
    return { type: 'stream-error', message: typeof data === 'string' ? excerpt(data, 1000) : `error event ${quote(data, 200)}`, payload: data }
  }
  const body: JsonObject = isObject(data['body']) ? data['body'] : {}
  const inner = isObject(body['error']) ? body['error'] : {}
  const message = str(body['message']) ?? str(inner['message']) ?? str(data['message']) ?? excerpt(jsonText(data), 1000)
  const code = str(body['errorType']) ?? str(body['code']) ?? null
  return { type: 'stream-error', message: excerpt(message, 1000), code, errorType: str(data['type']), payload: data }
}
