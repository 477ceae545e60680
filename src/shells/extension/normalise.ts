// Pure helpers for the capture layer (no browser APIs, unit-tested in Node):
// - the result of `devtools.network.Request.getContent()` in its three shapes;
// - which text bodies Chrome may have decoded as windows-1252 (the response named no charset:
//   the store undoes it, src/exchange/windows-1252.ts);
// - which finished responses are streams worth listing (content type; the body's start is
//   read by classifyBody in src/exchange/sniff.ts, shared with the HAR import).
// Base64 is src/exchange/bytes.ts's, headerValue src/exchange/shared.ts's.

import { transportFromContentType } from '../../library.js'
import { base64Decode } from '../../exchange/bytes.js'

/**
 * A response body as the capture layer hands it on: text, or bytes for the core to decode.
 * `decodedAs`: Chrome may have decoded the text as windows-1252 (a text response naming no
 * charset); the panel's store undoes that where it is mojibake.
 */
export type BodyData =
  | { kind: 'text'; text: string; decodedAs?: 'windows-1252' }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'none' }

export interface RawContent {
  content: string | null
  /** `base64`, or '' when the content is text. */
  encoding: string
  /** Firefox reports the MIME type where Chrome reports the encoding. */
  mimeType: string | null
}

/**
 * Normalises what `getContent` gave, whichever form was used:
 * - Chrome callback: the callback's arguments `(content, encoding)`;
 * - Chromium's native `browser` promise: `[{content, encoding}]`;
 * - webextension-polyfill on a Chrome without `browser`: `[[content, encoding]]`;
 * - Firefox: `[[content, mimeType]]` (the second item is a MIME type, not an encoding).
 * Pass the callback's `arguments` as an array, or `[value]` for a promise's value.
 */
export function normaliseGetContent(args: readonly unknown[]): RawContent {
  let content: unknown = args[0]
  let second: unknown = args[1]
  if (args.length === 1) {
    const v = args[0]
    if (Array.isArray(v)) {
      content = v[0]
      second = v[1]
    } else if (v !== null && typeof v === 'object') {
      const o = v as { content?: unknown; encoding?: unknown; mimeType?: unknown }
      content = o.content
      second = o.encoding ?? o.mimeType
    }
  }
  const text = typeof content === 'string' ? content : null
  const tag = typeof second === 'string' ? second.trim() : ''
  if (tag.includes('/')) return { content: text, encoding: '', mimeType: tag }
  return { content: text, encoding: tag.toLowerCase(), mimeType: null }
}

/** The `charset` parameter of a Content-Type, lower-cased, or null. */
export function charsetOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)
  return m ? m[1]!.toLowerCase() : null
}

/** Chrome decodes these as windows-1252 when the Content-Type names no charset. */
function mayBeDecodedAsWindows1252(contentType: string | null | undefined): boolean {
  if (charsetOf(contentType) !== null) return false
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return mime === '' || mime.startsWith('text/')
}

/**
 * The body to hand on, from `getContent`'s normalised result and the response Content-Type.
 * Base64 becomes bytes; text is passed on unchanged, marked when Chrome may have decoded it
 * as windows-1252 (the repair is the store's: it is linear in the body, and this runs on the
 * thread the extension's pages share).
 */
export function bodyFromContent(raw: RawContent, contentType: string | null | undefined): BodyData {
  if (raw.content === null) return { kind: 'none' }
  if (raw.encoding === 'base64') {
    try {
      return { kind: 'bytes', bytes: base64Decode(raw.content) }
    } catch {
      return { kind: 'text', text: raw.content }
    }
  }
  if (mayBeDecodedAsWindows1252(contentType)) return { kind: 'text', text: raw.content, decodedAs: 'windows-1252' }
  return { kind: 'text', text: raw.content }
}

/**
 * A run of NUL characters (or zero bytes) at least this long at the end of a body is not the
 * server's: Firefox 153's devtools.network hands over a large finished body at its full
 * length, but only its first part is the body, the rest NUL (measured: a 2.2 MB SSE body
 * came with its last 1.4 MB NUL). No stream ends in a kilobyte of NULs.
 */
export const ZERO_TAIL_MIN = 1024

/** The body without a zero tail (ZERO_TAIL_MIN or longer), and how long that tail was (0: none). */
export function withoutZeroTail(body: BodyData): { body: BodyData; zeros: number } {
  if (body.kind === 'none') return { body, zeros: 0 }
  const length = body.kind === 'text' ? body.text.length : body.bytes.length
  let end = length
  if (body.kind === 'text') while (end > 0 && body.text.charCodeAt(end - 1) === 0) end--
  else while (end > 0 && body.bytes[end - 1] === 0) end--
  const zeros = length - end
  if (zeros < ZERO_TAIL_MIN) return { body, zeros: 0 }
  return { body: body.kind === 'text' ? { ...body, text: body.text.slice(0, end) } : { ...body, bytes: body.bytes.subarray(0, end) }, zeros }
}

/**
 * Why a binary stream DevTools handed over as text cannot be read whole, or null: a Connect
 * body (application/connect+json is JSON to the browser) decoded as UTF-8 loses every
 * envelope-length byte over 0x7f to U+FFFD, and those envelopes then read as cut. Live capture
 * gets its bytes.
 */
export function lossyBinaryText(body: BodyData, contentType: string | null | undefined): string | null {
  if (body.kind !== 'text' || !body.text.includes('\uFFFD')) return null
  const t = transportFromContentType(contentType ?? undefined)
  if (t === null || t.transport !== 'connect') return null
  return 'DevTools handed over this Connect body as text: envelope lengths over 127 bytes were decoded as U+FFFD and cannot be read back. Turn on Live and reload for its bytes.'
}

// ---------------------------------------------------------------------------
// Which responses are listed

/**
 * Content types that are streams by declaration (AWS event streams and Connect streams too:
 * Bedrock and Kimi send them as binary, read from the bytes).
 */
export function isStreamingContentType(contentType: string | null | undefined): boolean {
  const t = transportFromContentType(contentType ?? undefined)
  return t !== null && (t.transport === 'sse' || t.transport === 'ndjson' || t.transport === 'eventstream' || t.transport === 'connect')
}

const NEVER_STREAMS = /^(image|audio|video|font)\/|^text\/(html|css|javascript)|^application\/(javascript|ecmascript|wasm|pdf|zip|x-javascript|manifest\+json)/

/**
 * A response whose body should be read and sniffed: a fetch / XHR (or unknown type) whose
 * declared type does not already rule a stream out (chat backends often send text/plain).
 */
export function mayBeStream(contentType: string | null | undefined, resourceType: string | null | undefined): boolean {
  if (isStreamingContentType(contentType)) return true
  const rt = (resourceType ?? '').toLowerCase()
  if (rt !== '' && rt !== 'fetch' && rt !== 'xhr' && rt !== 'eventsource' && rt !== 'other') return false
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return !NEVER_STREAMS.test(mime)
}
