// Decoding: the body's bytes or strings → its text, with the map from character offsets to
// byte offsets (ByteOffsets), a leading BOM dropped, and every invalid UTF-8 sequence
// reported. The text goes on to the framer; nothing here knows about frames. A body the
// framer takes as bytes (an AWS event stream, asked before the first bytes are decoded) is
// not decoded at all: its bytes go to the framer as they are.

import type { BodyBytes, ByteOffsets } from './body.js'
import { SYMPTOMS } from './symptoms.js'
import type { Diagnostic } from './types.js'
import { Utf8Stream, utf8Length, type DecodedChunk } from './utf8.js'

const ASCII = /^[\x00-\x7f]*$/
/** V8 decodes 64 KiB slices several times faster than one large buffer. */
export const DECODE_SLICE = 1 << 16
const MAX_INVALID_UTF8_LISTED = 100
/** Enough of the body's start to tell a binary event stream (its 12-byte prelude). */
const BINARY_HEAD = 12

/** Where a body goes when it is read as bytes, not text (the framer). */
export interface ByteRoute {
  /** True: the body is bytes (pushBytes); false: decode it as text; null: hold them, too few to tell. */
  wantsBytes(head: Uint8Array, final: boolean): boolean | null
  pushBytes(bytes: Uint8Array): void
}

export class Decoder {
  private readonly utf8 = new Utf8Stream()
  private highSurrogate = ''
  private started = false
  /** Characters decoded so far. */
  private chars = 0
  private invalidUtf8 = 0
  /** null until the route decides; held: the first bytes while it cannot yet. */
  private mode: 'text' | 'bytes' | null
  private held: Uint8Array = new Uint8Array(0)

  /**
   * `text` receives the decoded text in order; `diagnostics` is the stream's list, shared
   * with the framer so that diagnostics stay in the order things were found.
   */
  constructor(
    private readonly body: BodyBytes,
    private readonly offsets: ByteOffsets,
    private readonly text: (text: string) => void,
    private readonly diagnostics: Diagnostic[],
    private readonly route: ByteRoute | null = null,
  ) {
    this.mode = route === null ? 'text' : null
  }

  /** Decodes bytes already stored in the body (the caller appended them). */
  bytes(bytes: Uint8Array): void {
    if (this.mode === null) {
      const head = this.hold(bytes)
      if (!this.decide(head, false)) return
      bytes = head
    }
    if (this.mode === 'bytes') { this.passBytes(bytes); return }
    for (let i = 0; i < bytes.length; i += DECODE_SLICE) this.decoded(this.utf8.decode(bytes.subarray(i, i + DECODE_SLICE)))
  }

  /** The held bytes and `more`, as one array (only the first few bytes are ever held). */
  private hold(more: Uint8Array): Uint8Array {
    if (this.held.length === 0) return more
    const all = new Uint8Array(this.held.length + more.length)
    all.set(this.held)
    all.set(more, this.held.length)
    return all
  }

  /** The body is read as text (its bytes decoded, none kept here): not while undecided, nor a binary body. */
  get decodesText(): boolean {
    return this.mode === 'text'
  }

  /** Asks the route about the body's first bytes; false while it cannot tell (the bytes are held). */
  private decide(head: Uint8Array, final: boolean): boolean {
    const wants = this.route!.wantsBytes(head.subarray(0, BINARY_HEAD), final)
    if (wants === null) {
      this.held = head.slice()
      return false
    }
    this.mode = wants ? 'bytes' : 'text'
    this.held = new Uint8Array(0)
    return true
  }

  private passBytes(bytes: Uint8Array): void {
    this.offsets.addOneToOne(bytes.length)
    this.route!.pushBytes(bytes)
  }

  /** Bytes held while undecided, when the body goes on as a string or ends: decided now. */
  private settle(): void {
    if (this.mode !== null) return
    const head = this.held
    this.decide(head, true)
    if (head.length > 0) this.bytes(head)
  }

  /** Stores a string chunk in the body (as UTF-8) and passes its text on. */
  string(chunk: string): void {
    this.settle()
    if (this.mode === 'bytes') {
      // text pushed into a binary body: its UTF-8 bytes are what the reader sees
      const before = this.body.length
      this.body.appendText(chunk)
      if (this.body.length > before) this.passBytes(this.body.bytes(before, this.body.length).slice())
      return
    }
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
    this.settle()
    if (this.mode === 'bytes') return
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
