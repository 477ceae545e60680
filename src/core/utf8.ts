// Streaming UTF-8 decoding that knows where every character came from.
//
// Each chunk is decoded on its own (TextDecoder, non-streaming) after an incomplete
// trailing sequence has been carried over to the next chunk, so a chunk's text maps onto
// exactly its bytes. That lets byte offsets be derived from character offsets cheaply:
// an all-ASCII chunk maps one to one, and only chunks with U+FFFD from invalid bytes need
// the exact (and slow, JS) WHATWG decoder to say how many bytes each replacement covered.

export interface Replacement {
  /** Character index of the U+FFFD inside the chunk's text. */
  char: number
  /** Byte index inside the chunk's bytes (carry included). */
  byte: number
  /** How many input bytes it replaced. */
  byteLength: number
  /** Those bytes, as hex. */
  bytes: string
}

export interface DecodedChunk {
  text: string
  /** Bytes this text stands for. */
  byteLength: number
  /** Every character is one byte. */
  ascii: boolean
  /** U+FFFD characters that stand for invalid input (not for a real EF BF BD). */
  replacements: Replacement[]
  /** The bytes this text was decoded from, when it came from bytes. */
  bytes?: Uint8Array
}

interface TextDecoderLike {
  decode(input: Uint8Array): string
}
type TextDecoderCtor = new (label: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) => TextDecoderLike

const decoder: TextDecoderLike = new (globalThis as unknown as { TextDecoder: TextDecoderCtor }).TextDecoder('utf-8', { ignoreBOM: true })

const EMPTY = new Uint8Array(0)

export class Utf8Stream {
  private carry: Uint8Array = EMPTY

  decode(chunk: Uint8Array): DecodedChunk {
    let bytes = chunk
    if (this.carry.length > 0) {
      bytes = new Uint8Array(this.carry.length + chunk.length)
      bytes.set(this.carry)
      bytes.set(chunk, this.carry.length)
    }
    const cut = incompleteTail(bytes)
    this.carry = cut < bytes.length ? bytes.slice(cut) : EMPTY
    return decodeWhole(cut < bytes.length ? bytes.subarray(0, cut) : bytes)
  }

  /** What is left at the end of the body: an incomplete sequence becomes U+FFFD. */
  end(): DecodedChunk {
    const rest = this.carry
    this.carry = EMPTY
    return decodeWhole(rest)
  }
}

/** Below this size a chunk is decoded in JS: a TextDecoder call costs more than the bytes. */
const SMALL = 256

function decodeWhole(bytes: Uint8Array): DecodedChunk {
  if (bytes.length === 0) return { text: '', byteLength: 0, ascii: true, replacements: [] }
  if (bytes.length <= SMALL) return decodeSmall(bytes)
  const text = decoder.decode(bytes)
  // a lone invalid byte becomes one U+FFFD: same length as the input, yet not ASCII
  const hasReplacement = text.includes('\uFFFD')
  const ascii = text.length === bytes.length && !hasReplacement
  const replacements = hasReplacement ? findReplacements(bytes) : []
  return { text, byteLength: bytes.length, ascii, replacements, bytes }
}

/** Index where an incomplete (but possibly valid) final sequence starts; length when none. */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k]!
    if ((b & 0xc0) === 0x80) continue // continuation byte: look further back
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 1
    return need > k ? n - k : n
  }
  return n
}

/** A small chunk decoded by the same WHATWG walk (its text equals TextDecoder's). */
function decodeSmall(bytes: Uint8Array): DecodedChunk {
  let ascii = true
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) { ascii = false; break }
  if (ascii) return { text: String.fromCharCode.apply(null, bytes as unknown as number[]), byteLength: bytes.length, ascii, replacements: [] }
  const units: number[] = []
  const replacements = walkUtf8(bytes, units)
  return { text: String.fromCharCode.apply(null, units), byteLength: bytes.length, ascii: false, replacements, bytes }
}

/**
 * The WHATWG UTF-8 decoder, run only on chunks that produced U+FFFD, to learn which
 * replacements stand for invalid bytes and how many bytes each covered. Its output text is
 * identical to TextDecoder's, so character indexes line up.
 */
export function findReplacements(bytes: Uint8Array): Replacement[] {
  return walkUtf8(bytes, null)
}

/** Walks the bytes by the WHATWG rules; pushes UTF-16 code units into `units` when given. */
function walkUtf8(bytes: Uint8Array, units: number[] | null): Replacement[] {
  const out: Replacement[] = []
  let char = 0
  let needed = 0
  let seen = 0
  let codePoint = 0
  let lower = 0x80
  let upper = 0xbf
  let seqStart = 0
  const replace = (from: number, to: number) => {
    // only the first few are described: the merger lists at most 100 in all
    out.push({ char, byte: from, byteLength: to - from, bytes: out.length < 100 ? hex(bytes, from, to) : '' })
    units?.push(0xfffd)
    char++
  }
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if (needed === 0) {
      seqStart = i
      if (b <= 0x7f) { units?.push(b); char++; continue }
      if (b >= 0xc2 && b <= 0xdf) { needed = 1; codePoint = b & 0x1f }
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0
        if (b === 0xed) upper = 0x9f
        needed = 2; codePoint = b & 0xf
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90
        if (b === 0xf4) upper = 0x8f
        needed = 3; codePoint = b & 0x7
      } else replace(i, i + 1)
      continue
    }
    if (b < lower || b > upper) {
      needed = seen = codePoint = 0
      lower = 0x80; upper = 0xbf
      replace(seqStart, i)
      i-- // reprocess this byte as the start of a new sequence
      continue
    }
    lower = 0x80; upper = 0xbf
    codePoint = (codePoint << 6) | (b & 0x3f)
    if (++seen === needed) {
      if (units !== null) {
        if (codePoint > 0xffff) units.push(0xd800 + ((codePoint - 0x10000) >> 10), 0xdc00 + ((codePoint - 0x10000) & 0x3ff))
        else units.push(codePoint)
      }
      char += codePoint > 0xffff ? 2 : 1
      needed = seen = codePoint = 0
    }
  }
  if (needed !== 0) replace(seqStart, bytes.length)
  return out
}

function hex(bytes: Uint8Array, from: number, to: number): string {
  const parts: string[] = []
  for (let i = from; i < to; i++) parts.push('0x' + bytes[i]!.toString(16).toUpperCase().padStart(2, '0'))
  return parts.join(' ')
}

const NON_ASCII = /[^\x00-\x7f]/g

/**
 * UTF-8 length of a string range (lone surrogates count as the 3 bytes of U+FFFD). A regex
 * jumps over ASCII runs natively; only the non-ASCII characters are looked at in JS.
 */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = to - from
  NON_ASCII.lastIndex = from
  while (NON_ASCII.test(text)) {
    const i = NON_ASCII.lastIndex - 1
    if (i >= to) break
    const c = text.charCodeAt(i)
    if (c < 0x800) bytes += 1
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2 // 4 bytes for the pair's 2 characters
      NON_ASCII.lastIndex = i + 2
    } else bytes += 2
  }
  return bytes
}
