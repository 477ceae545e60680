// The Vercel AI SDK v4 data stream (`x-vercel-ai-data-stream: v1`, mostly sent as text/plain):
// one part per line, `CODE:JSON` (docs/architecture.md#data-stream). A line is a frame whose
// event is its code and whose data is the JSON after the first colon. Lines end in LF, CR or
// CRLF, the last may lack its newline, blank lines (spaces and tabs) are skipped.
//
// A line without a colon, or whose code the protocol does not define, is an invalid frame
// with that error (the SDK's own parser throws on both); broken JSON is an invalid frame too,
// found when the merger parses it.

import type { FrameSink, Splitter } from './framing.js'
import { isBlankLine, LineSplitter } from './lines.js'
import type { JsonSyntaxError } from './types.js'

/**
 * Codes of @ai-sdk/ui-utils' data-stream-parts (ai 4.x): 0 text, 2 data, 3 error,
 * 8 message annotations, 9 tool call, a tool result, b tool call streaming start, c tool call
 * delta, d finish message, e finish step, f start step, g reasoning, h source, i redacted
 * reasoning, j reasoning signature, k file; and the older stream parts 1 (function call),
 * 4–7 (assistant stream, tool calls) that ai 3.x sent.
 */
export const DATA_STREAM_CODES: ReadonlySet<string> = new Set('0123456789abcdefghijk'.split(''))

/** The first line of a data stream: a known code, a colon, then a JSON string, object or array. */
export const DATA_STREAM_LINE = /^[0-9a-k]:[\s]*["{[]/

export interface DataStreamLine {
  event: string | null
  data: string
  failure: JsonSyntaxError | null
}

/** Reads one line (without its terminator) as a part: also used to show a stored frame again. */
export function readDataStreamLine(line: string): DataStreamLine {
  const colon = line.indexOf(':')
  if (colon < 0) {
    return { event: null, data: line, failure: { message: `not a data stream part: no "CODE:" prefix in ${excerpt(line)}`, position: 0 } }
  }
  const code = line.slice(0, colon)
  if (!DATA_STREAM_CODES.has(code)) {
    return { event: null, data: line.slice(colon + 1), failure: { message: `unknown data stream part code ${excerpt(code)} (the codes are 0-9 and a-k)`, position: 0 } }
  }
  return { event: code, data: line.slice(colon + 1), failure: null }
}

export function createDataStreamSplitter(sink: FrameSink): Splitter {
  const lines = new LineSplitter({
    line(text, start, end, line) {
      if (isBlankLine(text)) return
      const part = readDataStreamLine(text)
      sink.frame({ start, end, line, event: part.event, id: null, retry: null, data: part.data, unterminated: false, problems: null, failure: part.failure })
    },
  }, sink.text ?? null)
  return { push: (text) => lines.push(text), end: () => lines.end() }
}

function excerpt(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)
}
