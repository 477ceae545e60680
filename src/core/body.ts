// The decoded body as it grows: its text, kept in a few large pieces for slicing frames'
// raw text, and the map from character offsets to byte offsets.

import { utf8Length, type Replacement } from './utf8.js'

/** Small chunks (live capture, 1-byte pushes) are joined into pieces of about this size. */
const PIECE = 1 << 16
const LARGE = 1 << 12

export class BodyText {
  private pieces: string[] = []
  private starts: number[] = []
  private tail: string[] = []
  private tailStart = 0
  private tailLength = 0
  length = 0

  append(text: string): void {
    if (text.length === 0) return
    if (text.length >= LARGE) {
      // a large chunk is a piece as it is: copying it would cost more than it saves
      this.commitTail()
      this.pieces.push(text)
      this.starts.push(this.tailStart)
      this.tailStart += text.length
      this.length += text.length
      return
    }
    this.tail.push(text)
    this.tailLength += text.length
    this.length += text.length
    if (this.tailLength >= PIECE) this.commitTail()
  }

  private commitTail(): void {
    if (this.tail.length === 0) return
    this.pieces.push(this.tail.length === 1 ? this.tail[0]! : this.tail.join(''))
    this.starts.push(this.tailStart)
    this.tailStart += this.tailLength
    this.tail = []
    this.tailLength = 0
  }

  /** Text before the first piece still held (release() drops whole pieces only). */
  private released = 0

  get releasedBefore(): number {
    return this.released
  }

  /** Drops the pieces that end at or before `offset`: their text can no longer be sliced. */
  release(offset: number): void {
    let drop = 0
    while (drop < this.pieces.length && this.starts[drop]! + this.pieces[drop]!.length <= offset) drop++
    if (drop === 0) return
    this.released = this.starts[drop - 1]! + this.pieces[drop - 1]!.length
    this.pieces = this.pieces.slice(drop)
    this.starts = this.starts.slice(drop)
  }

  slice(start: number, end: number): string {
    if (end <= start) return ''
    if (start < this.released) throw new RangeError(`the body before character ${this.released} was not retained (retainBody: false)`)
    if (end > this.tailStart) this.commitTail()
    let i = this.pieceAt(start)
    const first = this.pieces[i]!
    const firstStart = this.starts[i]!
    if (end - firstStart <= first.length) return first.slice(start - firstStart, end - firstStart)
    const parts = [first.slice(start - firstStart)]
    for (i++; i < this.pieces.length; i++) {
      const p = this.pieces[i]!
      const s = this.starts[i]!
      if (end - s <= p.length) { parts.push(p.slice(0, end - s)); break }
      parts.push(p)
    }
    return parts.join('')
  }

  private pieceAt(offset: number): number {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  toString(): string {
    this.commitTail()
    if (this.pieces.length > 1) {
      this.pieces = [this.pieces.join('')]
      this.starts = [0]
    }
    return this.pieces[0] ?? ''
  }
}

interface Segment {
  char: number
  byte: number
  chars: number
  /** Set for segments that are not pure ASCII: their text, indexed lazily. */
  text: string | null
  /** Replacement characters (char index in segment → bytes they stood for). */
  replaced: Map<number, number> | null
  /** Positions of non-ASCII characters and the bytes each adds beyond one; built on first use. */
  extraAt: Int32Array | null
  extra: Uint8Array | null
  /** How far the cursor has consumed extraAt. */
  ptr: number
}

/**
 * Character → byte offsets, asked for in increasing order only (frames arrive in order), so
 * a cursor walks forward and segments behind it are dropped: linear time, bounded memory.
 */
export class ByteOffsets {
  private segments: Segment[] = []
  private head = 0
  private cursorChar = 0
  private cursorByte = 0
  private totalChars = 0
  private totalBytes = 0

  /** Bytes before the first character (a dropped BOM). */
  skipBytes(n: number): void {
    this.totalBytes += n
    this.cursorByte += n
  }

  add(text: string, byteLength: number, ascii: boolean, replacements: Replacement[]): void {
    if (text.length === 0) { this.totalBytes += byteLength; return }
    const last = this.segments[this.segments.length - 1]
    if (ascii && last && last.text === null && this.segments.length > this.head) {
      last.chars += text.length
    } else {
      let replaced: Map<number, number> | null = null
      if (replacements.length > 0) {
        replaced = new Map()
        for (const r of replacements) replaced.set(r.char, r.byteLength)
      }
      this.segments.push({
        char: this.totalChars, byte: this.totalBytes, chars: text.length, text: ascii ? null : text, replaced,
        extraAt: null, extra: null, ptr: 0,
      })
    }
    this.totalChars += text.length
    this.totalBytes += byteLength
  }

  get bytes(): number {
    return this.totalBytes
  }

  byteAt(char: number): number {
    if (char < this.cursorChar) throw new Error(`byteAt(${char}) behind the cursor ${this.cursorChar}`)
    while (this.head < this.segments.length) {
      const s = this.segments[this.head]!
      const segEnd = s.char + s.chars
      if (char < segEnd || (char === segEnd && this.head === this.segments.length - 1)) {
        this.cursorByte += countBytes(s, this.cursorChar - s.char, char - s.char)
        this.cursorChar = char
        return this.cursorByte
      }
      this.cursorByte += countBytes(s, this.cursorChar - s.char, s.chars)
      this.cursorChar = segEnd
      // a passed segment's text must not stay reachable: drop passed segments in batches
      this.head++
      if (this.head >= 16) {
        this.segments.splice(0, this.head)
        this.head = 0
      }
    }
    return this.cursorByte
  }
}

const NON_ASCII = /[^\x00-\x7f]/g

/** One native regex pass finds the non-ASCII characters; ASCII runs cost nothing in JS. */
function indexSegment(s: Segment): void {
  const text = s.text!
  const at: number[] = []
  const extra: number[] = []
  NON_ASCII.lastIndex = 0
  for (let m = NON_ASCII.exec(text); m !== null; m = NON_ASCII.exec(text)) {
    const i = m.index
    const c = text.charCodeAt(i)
    const r = s.replaced?.get(i)
    at.push(i)
    if (r !== undefined) extra.push(r - 1)
    else if (c < 0x800) extra.push(1)
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      extra.push(2) // a surrogate pair: 4 bytes for 2 characters
      NON_ASCII.lastIndex = i + 2
    } else extra.push(2)
  }
  s.extraAt = Int32Array.from(at)
  s.extra = Uint8Array.from(extra)
}

/** Bytes of the segment's characters [from, to); calls come with increasing `from`. */
function countBytes(s: Segment, from: number, to: number): number {
  if (s.text === null) return to - from
  if (s.extraAt === null) indexSegment(s)
  const at = s.extraAt!
  const extra = s.extra!
  let bytes = to - from
  let p = s.ptr
  while (p < at.length && at[p]! < from) p++
  while (p < at.length && at[p]! < to) bytes += extra[p++]!
  s.ptr = p
  return bytes
}
