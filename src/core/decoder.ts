// Decoding: the body's bytes or strings → its text, with the map from character offsets to
// byte offsets (ByteOffsets), a leading BOM dropped, and every invalid UTF-8 sequence
// reported. The text goes on to the framer; nothing here knows about frames.

import type { BodyBytes, ByteOffsets } from './body.js'
import { SYMPTOMS } from './symptoms.js'
import type { Diagnostic } from './types.js'
import { Utf8Stream, utf8Length, type DecodedChunk } from './utf8.js'

const ASCII = /^[\x00-\x7f]*$/
/** V8 decodes 64 KiB slices several times faster than one large buffer. */
export const DECODE_SLICE = 1 << 16
const MAX_INVALID_UTF8_LISTED = 100

export class Decoder {
  private readonly utf8 = new Utf8Stream()
  private highSurrogate = ''
  private started = false
  /** Characters decoded so far. */
  private chars = 0
  private invalidUtf8 = 0

  /**
   * `text` receives the decoded text in order; `diagnostics` is the stream's list, shared
   * with the framer so that diagnostics stay in the order things were found.
   */
  constructor(
    private readonly body: BodyBytes,
    private readonly offsets: ByteOffsets,
    private readonly text: (text: string) => void,
    private readonly diagnostics: Diagnostic[],
  ) {}

  /** Decodes bytes already stored in the body (the caller appended them). */
  bytes(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i += DECODE_SLICE) this.decoded(this.utf8.decode(bytes.subarray(i, i + DECODE_SLICE)))
  }

  /** Stores a string chunk in the body (as UTF-8) and passes its text on. */
  string(chunk: string): void {
    // bytes left over from an earlier Uint8Array push end where the text begins
    const rest = this.utf8.end()
    if (rest.byteLength > 0) this.decoded(rest)
    let text = this.highSurrogate + chunk
    this.highSurrogate = ''
    const last = text.charCodeAt(text.length - 1)
    // a surrogate pair split between two string chunks is one character
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = text.slice(-1)
      text = text.slice(0, -1)
    }
    const ascii = ASCII.test(text)
    this.body.appendText(text)
    this.decoded({ text, byteLength: ascii ? text.length : utf8Length(text), ascii, replacements: [] })
  }

  /** The body ended: a held high surrogate and an incomplete UTF-8 sequence become U+FFFD. */
  end(): void {
    if (this.highSurrogate) {
      this.body.appendText(this.highSurrogate) // stored as U+FFFD's 3 bytes
      this.decoded({ text: this.highSurrogate, byteLength: 3, ascii: false, replacements: [] })
      this.highSurrogate = ''
    }
    const rest = this.utf8.end()
    if (rest.byteLength > 0) this.decoded(rest)
  }

  /** Once the stream's own diagnostics are in: how many invalid sequences went unlisted. */
  countUnlisted(): void {
    if (this.invalidUtf8 > MAX_INVALID_UTF8_LISTED) {
      const more = this.invalidUtf8 - MAX_INVALID_UTF8_LISTED
      this.diagnostics.push({
        frame: null, level: 'warning', code: 'invalid-utf8', symptom: SYMPTOMS['invalid-utf8'],
        message: `${more} more invalid UTF-8 sequence${more === 1 ? '' : 's'} not listed (${this.invalidUtf8} in all)`,
      })
    }
  }

  private decoded(chunk: DecodedChunk): void {
    let { text, byteLength, replacements, bytes } = chunk
    if (!this.started && text.length > 0) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) {
        // a BOM at the very start is not part of the body's text (WHATWG)
        text = text.slice(1)
        byteLength -= 3
        this.offsets.skipBytes(3)
        replacements = replacements.map((r) => ({ ...r, char: r.char - 1, byte: r.byte - 3 }))
        bytes = bytes?.subarray(3)
      }
    }
    if (text.length === 0 && byteLength === 0) return
    const byteBase = this.offsets.bytes
    for (const r of replacements) {
      // a body of binary garbage has millions: the first ones are listed, the rest counted
      if (this.invalidUtf8++ >= MAX_INVALID_UTF8_LISTED) continue
      this.diagnostics.push({
        frame: null, level: 'warning', code: 'invalid-utf8', symptom: SYMPTOMS['invalid-utf8'], byteOffset: byteBase + r.byte, offset: this.chars + r.char,
        message: `invalid UTF-8 (${r.bytes}) at byte ${byteBase + r.byte}, shown as U+FFFD`,
      })
    }
    this.offsets.add(text, byteLength, chunk.ascii, replacements, bytes)
    this.chars += text.length
    this.text(text)
  }
}
