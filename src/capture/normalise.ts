// Pure helpers for the capture layer (no browser APIs, unit-tested in Node):
// - the result of `devtools.network.Request.getContent()` in its three shapes;
// - the repair of bodies Chrome decoded as windows-1252 because the response named no charset;
// - which finished responses are streams worth listing (content type; the body's start is
//   read by classifyBody in src/exchange/sniff.ts, shared with the HAR import).
// Base64 is src/exchange/bytes.ts's, headerValue src/exchange/shared.ts's.

import { transportFromContentType } from '../library.js'
import { base64Decode, utf8DecodeStrict } from '../exchange/bytes.js'

/** A response body as the capture layer hands it on: text, or bytes for the core to decode. */
export type BodyData =
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array; why: 'base64' | 'windows-1252-repair' }
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

// windows-1252 as the WHATWG Encoding Standard (and so Chrome) decodes it: bytes 0x80–0x9F
// map to these code points; the five bytes the code page leaves undefined map to U+0081,
// U+008D, U+008F, U+0090, U+009D. Every other byte is its own code point.
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]
const CP1252_ENCODE = new Map<number, number>(CP1252_HIGH.map((cp, i) => [cp, 0x80 + i]))

/** The windows-1252 bytes of `text`, or null when a character has no windows-1252 byte. */
export function encodeWindows1252(text: string): Uint8Array | null {
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80 || (c >= 0xa0 && c <= 0xff)) out[i] = c
    else {
      const b = CP1252_ENCODE.get(c)
      if (b === undefined) return null
      out[i] = b
    }
  }
  return out
}

/**
 * Undoes Chrome's windows-1252 decoding of a UTF-8 body. Returns the UTF-8 bytes when the
 * text is mojibake: every character maps back to one windows-1252 byte, those bytes are valid
 * UTF-8, and at least one multi-byte sequence is among them. Otherwise null: pure ASCII needs
 * no repair, and genuine Latin-1 text ("café" → 63 61 66 E9) is not valid UTF-8.
 */
export function repairWindows1252(text: string): Uint8Array | null {
  let nonAscii = false
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) { nonAscii = true; break }
  }
  if (!nonAscii) return null
  const bytes = encodeWindows1252(text)
  if (bytes === null || utf8DecodeStrict(bytes) === null) return null
  return bytes
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
 * Base64 becomes bytes; windows-1252 mojibake of a charset-less text response becomes its
 * UTF-8 bytes; other text is passed on unchanged.
 */
export function bodyFromContent(raw: RawContent, contentType: string | null | undefined): BodyData {
  if (raw.content === null) return { kind: 'none' }
  if (raw.encoding === 'base64') {
    try {
      return { kind: 'bytes', bytes: base64Decode(raw.content), why: 'base64' }
    } catch {
      return { kind: 'text', text: raw.content }
    }
  }
  if (mayBeDecodedAsWindows1252(contentType)) {
    const repaired = repairWindows1252(raw.content)
    if (repaired !== null) return { kind: 'bytes', bytes: repaired, why: 'windows-1252-repair' }
  }
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
  return { body: body.kind === 'text' ? { kind: 'text', text: body.text.slice(0, end) } : { ...body, bytes: body.bytes.subarray(0, end) }, zeros }
}

// ---------------------------------------------------------------------------
// Which responses are listed

/** Content types that are streams by declaration (AWS event streams too: Bedrock sends them as binary, read from the bytes). */
export function isStreamingContentType(contentType: string | null | undefined): boolean {
  const t = transportFromContentType(contentType ?? undefined)
  return t !== null && (t.transport === 'sse' || t.transport === 'ndjson' || t.transport === 'eventstream')
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
