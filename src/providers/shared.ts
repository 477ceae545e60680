// Small readers shared by the adapters: wire JSON is untrusted, so every access checks its type.

import type { StreamErrorDelta } from '../core/types.js'

export type JsonObject = Record<string, unknown>

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
    const message = str(e['message']) ?? JSON.stringify(e)
    return { type: 'stream-error', message, code, errorType, payload }
  }
  return { type: 'stream-error', message: JSON.stringify(e), payload }
}

/** Arguments that arrive as an object (Gemini, Ollama) are stored as their JSON text. */
export function argumentsText(v: unknown): string | null {
  if (v === undefined || v === null) return null
  return typeof v === 'string' ? v : JSON.stringify(v)
}
