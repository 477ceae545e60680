// Captured requests and recordings for tests: one default request, and the few fields a test
// depends on written as overrides where it builds one.

import type { CaptureEvent, CapturedChunk, CapturedRequest, Recording } from '../../src/exchange/types.js'

/** The default request's start: 2025-06-01 12:00 UTC. Read times in `recording()` count from it. */
export const STARTED_AT = Date.UTC(2025, 5, 1, 12, 0, 0)
export const OPENAI_CHAT_URL = 'https://api.openai.com/v1/chat/completions'

/**
 * A finished OpenAI chat request: id 'r1', POST, status 200, no headers or request body, SSE,
 * started at STARTED_AT, imported. `overrides` replace what they name.
 */
export function capturedRequest(overrides: Partial<CapturedRequest> = {}): CapturedRequest {
  return {
    id: 'r1', method: 'POST', url: OPENAI_CHAT_URL, status: 200, requestHeaders: [], responseHeaders: [],
    requestBody: null, contentType: 'text/event-stream', startedAt: STARTED_AT, source: 'import',
    ...overrides,
  }
}

/** The capture event that lists `capturedRequest(overrides)`. */
export function requestEvent(overrides: Partial<CapturedRequest> = {}): CaptureEvent {
  return { type: 'request', request: capturedRequest(overrides) }
}

/** A read of the body: its data, and the ms since the request started at which it came (null: unknown). */
export type Read = readonly [data: string | Uint8Array, msSinceStart: number | null]

/** A recording of `capturedRequest(request)` whose body came in these reads. */
export function recording(reads: readonly Read[], request: Partial<CapturedRequest> = {}): Recording {
  const captured = capturedRequest(request)
  const at = (t: number | null) => (t === null ? null : captured.startedAt + t)
  return { request: captured, chunks: reads.map(([data, t]): CapturedChunk => ({ data, t: at(t) })) }
}
