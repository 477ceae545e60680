// Text that grows by appends (reply channels, tool arguments, tool names), kept as parts and
// joined once, on demand. Comparisons walk the parts instead of joining them, so a stream that
// appends and compares in turn (a `*.done` after every delta, a name fragment in every frame)
// costs the size of what it compares, never the size of all the text so far.

/** Parts per block: every BLOCK parts are joined, so a long text is a few large strings. */
const BLOCK = 1024

export class TextBuffer {
  private blocks: string[] = []
  private parts: string[] = []
  length = 0
  /** Set by an empty-string append too: the field was present. */
  touched = false

  /** `unsettled`: the owner's list of buffers holding parts not settled yet (settle()). */
  constructor(private readonly unsettled: TextBuffer[] | null = null) {}

  append(text: string): void {
    this.touched = true
    if (text.length === 0) return
    if (this.parts.length === 0) this.unsettled?.push(this)
    this.parts.push(text)
    this.length += text.length
    if (this.parts.length === BLOCK) {
      this.blocks.push(this.parts.join(''))
      this.parts = []
    }
  }

  /** Replaces the whole text (a name sent whole again, grown). */
  set(text: string): void {
    this.touched = true
    this.blocks = []
    if (this.parts.length === 0 && text.length > 0) this.unsettled?.push(this)
    this.parts = text.length === 0 ? [] : [text]
    this.length = text.length
  }

  /**
   * Joins the parts appended since the last settle into one block. The merger settles after
   * every batch it reads, so a text (12,000 tool calls' arguments on a long stream) is held as
   * a string per batch, not as every fragment until the next snapshot joins them: the page's
   * ingest of a 64 MB stream took 2.5–3.1 s with it, 2.9–3.4 s without (six runs each, Chromium
   * 156), its memory within the runs' spread either way. (Fragments are JSON.parse's own
   * strings, not slices of the decoded read: measured in Chromium 156 and Node 20.)
   */
  settle(): void {
    if (this.parts.length === 0) return
    this.blocks.push(this.parts.length === 1 ? this.parts[0]! : this.parts.join(''))
    this.parts = []
  }

  /**
   * Keeps the first `n` characters (a no-op when `n` >= length). Pieces past the cut are
   * dropped from the end and the piece across it is sliced, so a cut costs the pieces it
   * removes (each appended once) plus one slice: never a join of the text.
   */
  truncate(n: number): void {
    if (n >= this.length) return
    const keep = Math.max(0, n)
    for (const list of [this.parts, this.blocks]) {
      while (list.length > 0 && this.length > keep) {
        const piece = list[list.length - 1]!
        const over = this.length - keep
        if (over >= piece.length) {
          list.pop()
          this.length -= piece.length
        } else {
          list[list.length - 1] = piece.slice(0, piece.length - over)
          this.length = keep
        }
      }
    }
  }

  toString(): string {
    if (this.parts.length > 0) {
      this.blocks.push(this.parts.length === 1 ? this.parts[0]! : this.parts.join(''))
      this.parts = []
    }
    if (this.blocks.length > 1) this.blocks = [this.blocks.join('')]
    return this.blocks[0] ?? ''
  }

  /** True when the text is exactly `s`: O(|s|) at most, nothing joined. */
  equals(s: string): boolean {
    return s.length === this.length && this.isPrefixOf(s)
  }

  /** True when `s` begins with the whole text: O(|s|) at most. */
  isPrefixOf(s: string): boolean {
    if (this.length > s.length) return false
    const at = prefixOf(this.blocks, s, 0)
    return at >= 0 && prefixOf(this.parts, s, at) >= 0
  }

  /** True when the text begins with `s`: O(|s|), nothing joined. */
  startsWith(s: string): boolean {
    if (s.length > this.length) return false
    const at = startOf(this.blocks, s, 0)
    return at >= s.length || (at >= 0 && startOf(this.parts, s, at) >= s.length)
  }

  /** The first `max` characters (a message's excerpt), nothing joined beyond them. */
  head(max: number): string {
    let out = ''
    for (const list of [this.blocks, this.parts]) {
      for (const piece of list) {
        if (out.length >= max) return out
        out += piece.slice(0, max - out.length)
      }
    }
    return out
  }
}

// Pieces are compared as slices with `===` (a memory compare in V8), not with `startsWith`
// (character by character, about ten times slower on long text).

/** `s` continues with the pieces from `at`: the position after them, or -1. */
function prefixOf(pieces: readonly string[], s: string, at: number): number {
  for (const piece of pieces) {
    if (s.slice(at, at + piece.length) !== piece) return -1
    at += piece.length
  }
  return at
}

/** The pieces, from `s[at]` on, agree with `s` as far as `s` goes: the position reached, or -1. */
function startOf(pieces: readonly string[], s: string, at: number): number {
  for (const piece of pieces) {
    if (at >= s.length) return at
    const n = Math.min(piece.length, s.length - at)
    if ((n === piece.length ? piece : piece.slice(0, n)) !== s.slice(at, at + n)) return -1
    at += n
  }
  return at
}
