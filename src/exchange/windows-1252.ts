// Undoing Chrome's windows-1252 decoding of a UTF-8 body. Chrome hands an extension the text of
// a text response that names no charset decoded as windows-1252, so "é" arrives as "Ã©". The
// capture layer marks such a request (CapturedRequest.bodyDecodedAs); the panel's store undoes
// the decoding where the text is mojibake, off the thread the extension's pages share. Pure.

import { utf8DecodeStrict } from './bytes.js'

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
 * The UTF-8 bytes behind `text` when it is mojibake: every character maps back to one
 * windows-1252 byte, those bytes are valid UTF-8, and at least one multi-byte sequence is
 * among them. Otherwise null: pure ASCII needs no repair, and genuine Latin-1 text
 * ("café" → 63 61 66 E9) is not valid UTF-8.
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
