// Bytes without Buffer: base64 and UTF-8 helpers that run the same in the panel, the page
// and Node. TextEncoder / TextDecoder are reached through globalThis (as src/core/utf8.ts
// does) so this file also compiles against the plain ES2022 lib.

interface TextDecoderLike {
  decode(input: Uint8Array): string
}
interface TextEncoderLike {
  encode(input: string): Uint8Array
}
type TextDecoderCtor = new (label: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) => TextDecoderLike
type TextEncoderCtor = new () => TextEncoderLike

const g = globalThis as unknown as { TextDecoder: TextDecoderCtor; TextEncoder: TextEncoderCtor }
// ignoreBOM: a BOM is part of the body "exactly as received"
const lossy = new g.TextDecoder('utf-8', { ignoreBOM: true })
const strict = new g.TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new g.TextEncoder()

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const LOOKUP = new Int16Array(128).fill(-1)
const CODES = new Uint8Array(64)
for (let i = 0; i < ALPHABET.length; i++) {
  LOOKUP[ALPHABET.charCodeAt(i)] = i
  CODES[i] = ALPHABET.charCodeAt(i)
}

/** Standard base64 (RFC 4648 §4) with padding. */
export function base64Encode(bytes: Uint8Array): string {
  const parts: string[] = []
  const n = bytes.length
  const block = 3 * 8192
  const codes = new Uint16Array(4 * 8192)
  for (let from = 0; from < n; from += block) {
    const to = Math.min(n, from + block)
    let o = 0
    let i = from
    for (; i + 2 < to; i += 3) {
      const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
      codes[o++] = CODES[v >> 18]!
      codes[o++] = CODES[(v >> 12) & 63]!
      codes[o++] = CODES[(v >> 6) & 63]!
      codes[o++] = CODES[v & 63]!
    }
    if (i < to) {
      const two = i + 1 < to
      const v = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0)
      codes[o++] = CODES[v >> 18]!
      codes[o++] = CODES[(v >> 12) & 63]!
      codes[o++] = two ? CODES[(v >> 6) & 63]! : 61
      codes[o++] = 61
    }
    parts.push(String.fromCharCode.apply(null, codes.subarray(0, o) as unknown as number[]))
  }
  return parts.join('')
}

/** Decodes standard base64; whitespace is ignored, padding is optional. Throws on anything else. */
export function base64Decode(text: string): Uint8Array {
  const clean = /[\t\n\f\r ]/.test(text) ? text.replace(/[\t\n\f\r ]+/g, '') : text
  let end = clean.length
  if (end > 0 && clean.charCodeAt(end - 1) === 61) end--
  if (end > 0 && clean.charCodeAt(end - 1) === 61 && clean.length % 4 === 0) end--
  const out = new Uint8Array(Math.floor((end * 3) / 4))
  let o = 0
  let acc = 0
  let bits = 0
  for (let i = 0; i < end; i++) {
    const c = clean.charCodeAt(i)
    const v = c < 128 ? LOOKUP[c]! : -1
    if (v < 0) throw new Error(`invalid base64: unexpected ${JSON.stringify(clean[i])} at position ${i}`)
    acc = ((acc << 6) | v) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  if (end % 4 === 1) throw new Error(`invalid base64: ${end} characters cannot encode whole bytes`)
  return out
}

export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text)
}

/** WHATWG decoding: invalid sequences become U+FFFD; a BOM is kept. */
export function utf8DecodeLossy(bytes: Uint8Array): string {
  return lossy.decode(bytes)
}

/** Where `needle` first occurs in `haystack` at or after `from`; -1 when nowhere (or when it is empty). */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  if (needle.length === 0) return -1
  const first = needle[0]!
  const last = haystack.length - needle.length
  for (let i = haystack.indexOf(first, from); i >= 0 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let k = 1
    while (k < needle.length && haystack[i + k] === needle[k]) k++
    if (k === needle.length) return i
  }
  return -1
}

/** The text when the bytes are valid UTF-8, else null. A BOM is kept. */
export function utf8DecodeStrict(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes)
  } catch {
    return null
  }
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) { out.set(p, o); o += p.length }
  return out
}

/** A body as received: its text (U+FFFD where bytes are not UTF-8), and the bytes when they are not valid UTF-8. */
export interface AssembledBody {
  text: string
  /** Present only when the body is not valid UTF-8 (then `text` is the lossy decoding). */
  bytes?: Uint8Array
  /** UTF-8 length of the body as received. */
  byteLength: number
}

/** Joins chunks (strings, bytes, or both) into one body. */
export function assembleBody(chunks: ReadonlyArray<string | Uint8Array>): AssembledBody {
  if (chunks.every((c) => typeof c === 'string')) {
    const text = (chunks as string[]).join('')
    return { text, byteLength: utf8Encode(text).length }
  }
  const bytes = concatBytes(chunks.map((c) => (typeof c === 'string' ? utf8Encode(c) : c)))
  return bodyFromBytes(bytes)
}

export function bodyFromBytes(bytes: Uint8Array): AssembledBody {
  const text = utf8DecodeStrict(bytes)
  if (text !== null) return { text, byteLength: bytes.length }
  return { text: utf8DecodeLossy(bytes), bytes, byteLength: bytes.length }
}

/** The body to feed a merger: the exact bytes when they are not valid UTF-8, else the text. */
export function bodyData(body: AssembledBody): string | Uint8Array {
  return body.bytes ?? body.text
}
