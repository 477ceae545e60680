// A recorded response replayed as a fetch Response: the recorded status and headers, and the
// body as the recorded network chunks, byte for byte, at once or at their recorded pace.
// Plain platform fetch types only (Response, Headers, ReadableStream): Node and browsers.

import { base64Decode, utf8Encode } from '../exchange/bytes.js'
import { parseFixture, type Fixture } from '../exchange/fixture.js'

export interface ReplayOptions {
  /**
   * 0 (the default): every chunk at once, no waiting. 1: each chunk at its recorded time since
   * the request started (the wait for the first byte included); 2: twice as fast.
   */
  speed?: number
  /** Aborting errors the body with the signal's reason, as an aborted fetch does. */
  signal?: AbortSignal
}

/**
 * Headers the replayed bytes would contradict: the recorded body is already decoded (no
 * gzip), and its length is the body's, not the wire's. Anything sending them on (an msw
 * handler behind node:http) would otherwise try to inflate plain text.
 */
const DROPPED_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length', 'transfer-encoding'])

/** Statuses whose Response cannot have a body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304])

function fixtureOf(fixture: Fixture | string): Fixture {
  return parseFixture(fixture)
}

/** The chunks as bytes, in order, with their times (ms since the request started; null when unknown). */
function recordedChunks(fixture: Fixture): Array<{ bytes: Uint8Array; t: number | null }> {
  if (fixture.chunks.length > 0) {
    return fixture.chunks.map((c) => ({ bytes: 'base64' in c ? base64Decode(c.base64) : utf8Encode(c.text), t: c.t }))
  }
  const bytes = fixture.body.base64 !== undefined ? base64Decode(fixture.body.base64) : utf8Encode(fixture.body.text)
  return bytes.length > 0 ? [{ bytes, t: null }] : []
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now()
}

/**
 * The fixture's body as a stream yielding exactly its recorded network chunks, in order, byte
 * for byte (the body as one chunk when none were recorded). Throws FixtureError on a fixture
 * that does not parse.
 */
export function replayStream(fixture: Fixture | string, options: ReplayOptions = {}): ReadableStream<Uint8Array> {
  return streamOf(fixtureOf(fixture), options)
}

function streamOf(fixture: Fixture, options: ReplayOptions): ReadableStream<Uint8Array> {
  const chunks = recordedChunks(fixture)
  const speed = typeof options.speed === 'number' && options.speed > 0 && Number.isFinite(options.speed) ? options.speed : 0
  const { signal } = options
  // the request starts now: recorded times count from here
  const started = now()
  let next = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let wake: (() => void) | undefined
  let cancelled = false
  const abort = () => {
    cancelled = true
    clearTimeout(timer)
    wake?.()
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal?.aborted) controller.error(signal.reason)
      else signal?.addEventListener('abort', () => { abort(); controller.error(signal.reason) }, { once: true })
    },
    async pull(controller) {
      const chunk = chunks[next]
      if (chunk === undefined) {
        controller.close()
        return
      }
      next++
      if (speed > 0 && chunk.t !== null) {
        const due = started + chunk.t / speed
        // timers may fire a millisecond early by the monotonic clock: wait again until due
        for (let wait = due - now(); wait > 0 && !cancelled; wait = due - now()) {
          await new Promise<void>((resolve) => { wake = resolve; timer = setTimeout(resolve, Math.ceil(wait)) })
        }
        if (cancelled) return
      }
      // a copy: a consumer that transfers or changes its chunk must not change the next replay
      controller.enqueue(chunk.bytes.slice())
      if (next === chunks.length) controller.close()
    },
    cancel() {
      abort()
    },
  })
}

/**
 * A fetch Response replaying the fixture: the recorded status (200 when none was recorded)
 * and headers (minus the encoding and length of the wire, see DROPPED_HEADERS), and the body
 * as replayStream() yields it.
 */
export function replayResponse(fixture: Fixture | string, options: ReplayOptions = {}): Response {
  const f = fixtureOf(fixture)
  const headers = new Headers()
  for (const h of f.response.headers) {
    if (DROPPED_HEADERS.has(h.name.toLowerCase())) continue
    try {
      headers.append(h.name, h.value)
    } catch {
      // a name fetch refuses (HTTP/2 pseudo-headers such as ":status" in a HAR import)
    }
  }
  if (!headers.has('content-type') && f.response.contentType) headers.set('content-type', f.response.contentType)
  const recorded = f.response.status
  const status = recorded !== null && recorded >= 200 && recorded <= 599 ? recorded : 200
  const body = NULL_BODY_STATUSES.has(status) ? null : streamOf(f, options)
  return new Response(body, { status, headers })
}
