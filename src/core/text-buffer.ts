// Text that grows by appends (reply channels, tool arguments, tool names), kept as its UTF-16
// code units in a typed array and read as one string on demand (kept until the next change).
// Not as the appended strings: everything a merger keeps as JavaScript objects passes through
// V8's young generation, which grows as the bytes surviving it do, and a 64 MB stream's
// 2.3 million characters of text and 50,000 argument fragments grew it to its largest (the
// page's ingest: 30–50 MB of its peak; docs/benchmarks.md). A text appended in one piece (a
// tool's name, a 40 MB frame's content) stays that string until a second piece comes: copying
// it would only cost. Comparisons read the code units: nothing is joined or built to compare.

/** Code units a buffer starts with (a tool name fits). */
const FIRST = 16
const NONE = new Uint16Array(0)
/**
 * Decodes code units without a surrogate exactly (a lone surrogate would become U+FFFD: text
 * with surrogates is read another way); null on a big-endian machine or without TextDecoder.
 */
const UTF16 = ((): { decode(b: Uint8Array): string } | null => {
  type Decoder = new (label: string, options: { ignoreBOM: boolean }) => { decode(b: Uint8Array): string }
  const Decoder = (globalThis as unknown as { TextDecoder?: Decoder }).TextDecoder
  // ignoreBOM: a text that begins with U+FEFF keeps it
  return Decoder && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? new Decoder('utf-16le', { ignoreBOM: true }) : null
})()
/** Past this many code units a buffer grows by this many at a time, not by doubling. */
const GROW_STEP = 1 << 23
/** Code units per String.fromCharCode call (its arguments are bounded). */
const CHARS_PER_CALL = 8192

export class TextBuffer {
  private units: Uint16Array = NONE
  length = 0
  /** Set by an empty-string append too: the field was present. */
  touched = false
  /** A code unit in the surrogate range was appended (read without TextDecoder). */
  private surrogates = false
  /** The text as a string, while nothing changed since it was read. */
  private cached: string | null = ''
  /** The text is `cached` alone (appended in one piece, or read since it last changed): `units` holds none of it. */
  private whole = true

  append(text: string): void {
    this.touched = true
    if (text.length === 0) return
    if (this.length === 0) {
      this.cached = text
      this.length = text.length
      this.whole = true
      this.surrogates = false
      return
    }
    if (this.whole) {
      // a second piece, or one after the text was read: the text so far goes into code units
      // too, with room for a quarter more (a text read now and then as it grows comes back here)
      const first = this.cached!
      const needed = first.length + text.length
      this.units = new Uint16Array(Math.max(FIRST, needed + (needed >> 2)))
      this.whole = false
      this.length = 0
      this.surrogates = false
      this.write(first)
    }
    this.write(text)
    this.cached = null
  }

  /** Replaces the whole text (a name sent whole again, grown). */
  set(text: string): void {
    this.length = 0
    this.cached = ''
    this.whole = true
    this.append(text)
  }

  /** Keeps the first `n` characters (a no-op when `n` >= length). */
  truncate(n: number): void {
    if (n >= this.length) return
    this.length = Math.max(0, n)
    if (this.whole) this.cached = this.cached!.slice(0, this.length)
    else this.cached = null
  }

  /**
   * The text as one string. Once read, the text is kept as that string alone until it changes:
   * whoever read it holds the string too (a reply, the merger's final Reply), and its code
   * units would be a second copy (a 64 MB stream's reply and 12,000 calls' arguments: 10 MB
   * more at the end of the page's ingest). The next append writes it back into code units.
   */
  toString(): string {
    if (this.cached === null) {
      this.cached = this.decode(0, this.length)
      this.units = NONE
      this.whole = true
    }
    return this.cached
  }

  /** True when the text is exactly `s`: O(|s|) at most, nothing built. */
  equals(s: string): boolean {
    if (s.length !== this.length) return false
    return this.cached !== null ? this.cached === s : this.sameAs(s, this.length)
  }

  /** True when `s` begins with the whole text: O(|s|) at most. */
  isPrefixOf(s: string): boolean {
    if (this.length > s.length) return false
    return this.cached !== null ? s.startsWith(this.cached) : this.sameAs(s, this.length)
  }

  /** True when the text begins with `s`: O(|s|), nothing built. */
  startsWith(s: string): boolean {
    if (s.length > this.length) return false
    return this.cached !== null ? this.cached.startsWith(s) : this.sameAs(s, s.length)
  }

  /** The first `max` characters (a message's excerpt), nothing decoded beyond them. */
  head(max: number): string {
    return this.whole ? this.cached!.slice(0, max) : this.decode(0, Math.min(max, this.length))
  }

  /** The first `n` code units are `s`'s. */
  private sameAs(s: string, n: number): boolean {
    const units = this.units
    for (let i = 0; i < n; i++) if (units[i] !== s.charCodeAt(i)) return false
    return true
  }

  /** Appends `text`'s code units to `units`. */
  private write(text: string): void {
    const n = text.length
    const end = this.length + n
    if (end > this.units.length) this.grow(end)
    const units = this.units
    let surrogates = this.surrogates
    for (let i = 0, at = this.length; i < n; i++, at++) {
      const c = text.charCodeAt(i)
      units[at] = c
      if ((c & 0xf800) === 0xd800) surrogates = true
    }
    this.surrogates = surrogates
    this.length = end
  }

  private grow(needed: number): void {
    const size = this.units.length
    const next = new Uint16Array(Math.max(needed, FIRST, size < GROW_STEP ? size * 2 : size + GROW_STEP))
    next.set(this.units.subarray(0, this.length))
    this.units = next
  }

  private decode(from: number, to: number): string {
    if (to <= from) return ''
    // a short text is read in one call (a decoder's call costs more than the characters)
    if (UTF16 !== null && !this.surrogates && to - from > CHARS_PER_CALL) return UTF16.decode(new Uint8Array(this.units.buffer, this.units.byteOffset + from * 2, (to - from) * 2))
    let out = ''
    for (let at = from; at < to; at += CHARS_PER_CALL) {
      out += String.fromCharCode.apply(null, this.units.subarray(at, Math.min(to, at + CHARS_PER_CALL)) as unknown as number[])
    }
    return out
  }
}
