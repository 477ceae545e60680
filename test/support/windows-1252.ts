// What Chrome shows for a UTF-8 body it decoded as windows-1252, for the tests of the capture's
// marking and the store's repair. windows-1252 as the WHATWG Encoding Standard decodes it (and
// Chrome): 0x80–0x9F below, every other byte its own code point. Written out here because
// Node's TextDecoder('windows-1252') decodes as ISO-8859-1 (0x80 → U+0080, not €).

const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'

export const decodeWindows1252 = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? HIGH[b - 0x80]! : String.fromCharCode(b))).join('')

/** The mojibake of `s`: its UTF-8 bytes decoded as windows-1252. */
export const asWindows1252 = (s: string): string => decodeWindows1252(new TextEncoder().encode(s))
