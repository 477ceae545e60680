// Small readers shared by the adapters: wire JSON is untrusted, so every access checks its type,
// every value is written back as text without recursion (jsonText: any depth), and every
// message quotes at most an excerpt of the wire.

import { jsonText } from '../core/json-depth.js'
import type { Delta, StreamErrorDelta } from '../core/adapters.js'

export { jsonText }

export type JsonObject = Record<string, unknown>

/**
 * The frame event of a Connect stream's end-of-stream envelope, as the core names it
 * (src/core/connect.ts END_STREAM_EVENT; providers import no core code: test/core/connect.test.ts
 * keeps the two equal).
 */
export const CONNECT_END_STREAM = 'end-stream'

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A frame's JSON `type` (or OpenAI's `object`) when it is a string. */
export function typeField(json: unknown): string | null {
  if (!isObject(json)) return null
  return str(json['type']) ?? str(json['object'])
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

/** A usable array index: a non-negative safe integer (`1e9` is fine: choices live in a Map). */
export function index(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

/** Usage objects are passed through as the provider's own, minus nulls (merged later). */
export function usageObject(v: unknown): JsonObject | null {
  return isObject(v) ? v : null
}

/**
 * `{"error": …}` payloads: OpenAI and OpenRouter (object), Ollama (string), Gemini
 * (`{code, message, status}`). Returns a stream-error delta, or null when there is no error.
 */
export function errorDelta(payload: unknown): StreamErrorDelta | null {
  if (!isObject(payload) || !('error' in payload)) return null
  const e = payload['error']
  if (e === null || e === undefined) return null
  if (typeof e === 'string') return { type: 'stream-error', message: e, payload }
  if (isObject(e)) {
    const code = typeof e['code'] === 'string' || typeof e['code'] === 'number' ? e['code'] : null
    const errorType = str(e['type']) ?? str(e['status'])
    const message = str(e['message']) ?? excerpt(jsonText(e), 1000)
    return { type: 'stream-error', message, code, errorType, payload }
  }
  return { type: 'stream-error', message: excerpt(jsonText(e), 1000), payload }
}

/** Arguments that arrive as an object (Gemini, Ollama) are stored as their JSON text. */
export function argumentsText(v: unknown): string | null {
  if (v === undefined || v === null) return null
  return typeof v === 'string' ? v : jsonText(v)
}

/** A wire value quoted for a message: its JSON, at most `max` characters of it. */
export function quote(v: unknown, max = 60): string {
  return excerpt(typeof v === 'string' ? JSON.stringify(v.length > max ? v.slice(0, max) + '…' : v) : jsonText(v ?? null), max + 3)
}

/**
 * At most `max` characters of `s`, with `…` when cut; a copy, so the text it was cut from is
 * not kept alive by a message.
 */
export function excerpt(s: string, max: number): string {
  return s.length > max ? (' ' + s.slice(0, max)).slice(1) + '…' : s
}

/** What a stream of one choice says once: the choice's opening, and each kind of note (by key). */
export class OnceDeltas {
  private chosen = false
  private readonly noted = new Set<string>()

  constructor(private readonly choice: number) {}

  /** The choice opens, as the assistant's, before its first text. */
  choose(out: Delta[]): void {
    if (this.chosen) return
    this.chosen = true
    out.push({ type: 'choice', choice: this.choice, role: 'assistant' })
  }

  /** An info note, said the first time its key comes. */
  note(out: Delta[], key: string, message: string): void {
    if (!this.first(key)) return
    out.push({ type: 'note', level: 'info', message })
  }

  /** True the first time `key` comes. */
  first(key: string): boolean {
    if (this.noted.has(key)) return false
    this.noted.add(key)
    return true
  }
}
