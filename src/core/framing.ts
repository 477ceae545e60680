// What the splitters (SSE, NDJSON, JSON array) hand to the merger.

export interface RawFrame {
  /** Character offsets of the frame's text; end is past its last line's terminator. */
  start: number
  end: number
  line: number
  event: string | null
  id: string | null
  retry: number | null
  data: string
  unterminated: boolean
}

export interface RawEntry {
  kind: 'comment' | 'empty'
  start: number
  end: number
  line: number
}

export interface FrameSink {
  frame(frame: RawFrame): void
  entry(entry: RawEntry): void
  /** Something wrong with the framing itself, at a character offset. */
  problem(code: 'truncated-json-array' | 'stray-text', message: string, offset: number): void
}

export interface Splitter {
  push(text: string): void
  end(): void
}
