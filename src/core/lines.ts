// Splits decoded text into lines ending in LF, CR or CRLF, across chunks, without ever
// re-scanning text an earlier push saw: only the new chunk is searched, and a partial line
// is kept as pieces joined once when its end arrives.

export interface LineSink {
  /** `start`/`end` are absolute character offsets; `end` is past the line terminator. */
  line(text: string, start: number, end: number, lineNo: number): void
}

export class LineSplitter {
  private partial: string[] = []
  private partialStart = -1
  /** A line that ended in CR at the very end of a chunk: is the next char its LF? */
  private pendingCr: { text: string; start: number; cr: number } | null = null
  private lineNo = 1
  private offset = 0

  constructor(private readonly sink: LineSink) {}

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
        this.partial.push(pos === 0 ? text : text.slice(pos))
        return
      }
      const start = this.partialStart < 0 ? base + pos : this.partialStart
      const line = this.partial.length === 0 ? text.slice(pos, eol) : this.partial.join('') + text.slice(pos, eol)
      this.partial = []
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
    if (this.partial.length > 0) {
      const line = this.partial.join('')
      const start = this.partialStart
      this.partial = []
      this.partialStart = -1
      this.emit(line, start, this.offset)
    }
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
