// Which responses live capture follows, decided from the response headers alone (both browsers
// decide before the first body byte), and the sniffer for those the headers leave open. Pure:
// no browser APIs, unit-tested in Node.

import { headerValue } from '../../exchange/shared.js'
import { classifyBytes, listedReason, type BodyVerdict } from '../../exchange/sniff.js'
import { isStreamingContentType, mayBeStream } from './normalise.js'

/** How much undecided text is sniffed before a maybe-stream is decided on what there is. */
export const SNIFF_LIMIT = 16 * 1024

/**
 * - `stream`: declared a stream (text/event-stream, NDJSON / JSON Lines, AWS's
 *   application/vnd.amazon.eventstream, or the AI SDK's `x-vercel-ai-data-stream` /
 *   `x-vercel-ai-ui-message-stream` header): followed from byte 0;
 * - `maybe`: a fetch / XHR whose type does not rule a stream out (chat backends often answer
 *   text/plain): followed, and announced only once its first lines sniff as a stream;
 * - `no`: not followed.
 */
export type LiveDecision = 'stream' | 'maybe' | 'no'

/**
 * `resourceType` as the browser names it: CDP's `Fetch` / `XHR` / `EventSource` …, or
 * webRequest's `xmlhttprequest` (Firefox's name for both fetch and XHR) / `main_frame` ….
 */
export function liveDecision(
  headers: ReadonlyArray<{ name: string; value: string }>,
  resourceType: string | null | undefined,
  status: number | null = null,
): LiveDecision {
  if (status !== null && status >= 300 && status < 400) return 'no' // a redirect: its body is not the page's
  const contentType = headerValue(headers, 'content-type')
  if (isStreamingContentType(contentType)) return 'stream'
  if (headerValue(headers, 'x-vercel-ai-data-stream') !== null || headerValue(headers, 'x-vercel-ai-ui-message-stream') !== null) return 'stream'
  const rt = (resourceType ?? '').toLowerCase()
  const fetchLike = rt === 'fetch' || rt === 'xhr' || rt === 'xmlhttprequest'
  return fetchLike && mayBeStream(contentType, 'fetch') ? 'maybe' : 'no'
}

/**
 * Reads the start of a maybe-stream until classifyBytes decides: its first 12 bytes (an AWS
 * event-stream prelude?) and its text as UTF-8. Once it has said yes, `reason` says why, for
 * the user (the request's `listedBecause`).
 */
export class HeadSniffer {
  private readonly decoder = new TextDecoder()
  private head = ''
  private first = new Uint8Array(0)
  reason: string | null = null

  constructor(private readonly url: string, private readonly limit = SNIFF_LIMIT, private readonly contentType: string | null = null) {}

  /** The verdict once the bytes so far decide it, else null. */
  push(bytes: Uint8Array): BodyVerdict | null {
    if (this.first.length < 12) {
      const more = new Uint8Array(Math.min(12, this.first.length + bytes.length))
      more.set(this.first)
      more.set(bytes.subarray(0, more.length - this.first.length), this.first.length)
      this.first = more
    }
    this.head += this.decoder.decode(bytes, { stream: true })
    return this.verdict(classifyBytes(this.first, this.head, this.head.length > this.limit, this.url))
  }

  /** The body ended (or failed): decide on what there is. */
  end(): BodyVerdict {
    this.head += this.decoder.decode()
    return this.verdict(classifyBytes(this.first, this.head, true, this.url)) ?? 'no'
  }

  private verdict(v: BodyVerdict | null): BodyVerdict | null {
    if (v !== null && v !== 'no') this.reason = listedReason(v, this.contentType)
    return v
  }
}
