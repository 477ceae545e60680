// What the splitters (SSE, NDJSON, JSON array, data stream, AWS event stream) hand to the
// framer, and on to the merger.

import type { TextSource } from './lines.js'
import type { JsonSyntaxError } from './types.js'

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
  /** Lines of the block the reader ignored (SSE only; null when none). */
  problems: LineProblem[] | null
  /**
   * The framing itself failed here (an unknown data-stream code, a bad event-stream CRC): the
   * frame is invalid with this error, and its data is not parsed.
   */
  failure?: JsonSyntaxError | null
  /** The frame as shown, when it is not the body's text (a binary event-stream message). */
  raw?: string
}

export interface RawEntry {
  kind: 'comment' | 'empty'
  start: number
  end: number
  line: number
  problems: LineProblem[] | null
}

/** A line a reader ignored, as eventsource-parser reports it (SSE: an invalid retry, an unknown field). */
export interface LineProblem {
  code: 'invalid-retry' | 'unknown-field'
  message: string
  /** Character offset of the line's first character. */
  offset: number
  /** 1-based line number. */
  line: number
}

export interface FrameSink {
  frame(frame: RawFrame): void
  entry(entry: RawEntry): void
  /** Something wrong with the framing itself, at a character offset. */
  problem(code: 'truncated-json-array' | 'stray-text', message: string, offset: number): void
  /** Where a long line's text can be read again (lines.ts): given, its pieces are not kept. */
  text?: TextSource | null
}

export interface Splitter {
  push(text: string): void
  end(): void
}
