// Splits decoded text into lines ending in LF, CR or CRLF, across chunks, without ever
// re-scanning text an earlier push saw: only the new chunk is searched, and a partial line
// is kept as pieces joined once when its end arrives.

/**
 * Where the text of a long line can be read again (the body's bytes, decoded once): its
 * pieces are then dropped as they pass instead of being kept and joined. A line of 200 MB
 * costs its text once, when it ends, not also the pieces it arrived in.
 */
export interface TextSource {
  /** True when the text from character `start` on can be read again. */
  canRead(start: number): boolean
  /** The text of characters [start, end), exactly as it was pushed. */
  read(start: number, end: number): string
}

export interface LineSink {
  /** `start`/`end` are absolute character offsets; `end` is past the line terminator. */
  line(text: string, start: number, end: number, lineNo: number): void
}

/**
 * Pieces of a partial line are joined in groups of this many. The decoder's pieces are 64 KiB
 * strings, three to a 256 KiB page of V8's old space: a line of 200 MB kept as such pieces
 * took a quarter more memory than its text; joined young, the pieces die in a scavenge and
 * the line is kept as strings of 1 MiB, each on pages of its own size.
 */
const GROUP = 16

export class LineSplitter {
  private partial: string[] = []
  /** Groups of GROUP pieces of the partial line, joined (a long line's text comes before `partial`). */
  private groups: string[] = []
  private partialStart = -1
  /** A line that ended in CR at the very end of a chunk: is the next char its LF? */
  private pendingCr: { text: string; start: number; cr: number } | null = null
  private lineNo = 1
  private offset = 0

  /** The partial line's pieces were dropped: its text is read again from `source` when it ends. */
  private rereading = false

  constructor(private readonly sink: LineSink, private readonly source: TextSource | null = null) {}

  push(text: string): void {
    const base = this.offset
    const n = text.length
    this.offset += n
    let pos = 0
    if (this.pendingCr !== null && n > 0) {
      const p = this.pendingCr
      this.pendingCr = null
      const end = text.charCodeAt(0) === 10 ? p.cr + 2 : p.cr + 1
      this.emit(p.text, p.start, end)
      pos = end - base
    }
    let nextLf = -1
    let nextCr = -1
    while (pos < n) {
      if (nextLf < pos) { nextLf = text.indexOf('\n', pos); if (nextLf < 0) nextLf = n }
      if (nextCr < pos) { nextCr = text.indexOf('\r', pos); if (nextCr < 0) nextCr = n }
      const eol = nextLf < nextCr ? nextLf : nextCr
      if (eol >= n) {
        if (this.partialStart < 0) this.partialStart = base + pos
        if (this.rereading) return
        this.partial.push(pos === 0 ? text : text.slice(pos))
        if (this.partial.length === GROUP) {
          if (this.source?.canRead(this.partialStart)) this.rereading = true
          else this.groups.push(this.partial.join(''))
          this.partial = []
        }
        return
      }
      const start = this.partialStart < 0 ? base + pos : this.partialStart
      const line = this.partialStart < 0 ? text.slice(pos, eol) : this.held(text, pos, eol, base + eol)
      this.partial = []
      this.groups = []
      this.rereading = false
      this.partialStart = -1
      if (eol === nextCr) {
        if (eol + 1 === n) { this.pendingCr = { text: line, start, cr: base + eol }; return }
        pos = text.charCodeAt(eol + 1) === 10 ? eol + 2 : eol + 1
      } else pos = eol + 1
      this.emit(line, start, base + pos)
    }
  }

  /** The body ended: a pending CR line and a last line without terminator are lines too. */
  end(): void {
    if (this.pendingCr !== null) {
      const p = this.pendingCr
      this.pendingCr = null
      this.emit(p.text, p.start, p.cr + 1)
    }
    if (this.partialStart >= 0) {
      const line = this.held('', 0, 0, this.offset)
      const start = this.partialStart
      this.partial = []
      this.groups = []
      this.rereading = false
      this.partialStart = -1
      this.emit(line, start, this.offset)
    }
  }

  /** The partial line's text followed by text[from, to), which ends at character `end`: joined once, or read again. */
  private held(text: string, from: number, to: number, end: number): string {
    if (this.rereading) return this.source!.read(this.partialStart, end)
    const rest = text.slice(from, to)
    if (this.groups.length === 0) return this.partial.length === 1 && rest === '' ? this.partial[0]! : this.partial.join('') + rest
    return [...this.groups, ...this.partial, rest].join('')
  }

  private emit(text: string, start: number, end: number): void {
    this.sink.line(text, start, end, this.lineNo++)
  }
}

/** Only spaces and tabs (or nothing): a line-framed body skips it. Answered without a regex call. */
export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09) return false
  }
  return true
}
