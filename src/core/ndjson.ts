// NDJSON / JSON Lines: one frame per non-blank line; CRLF and a last line without a
// newline are accepted. Blank is JSON's white space only (spaces and tabs: a line holds no
// CR or LF): a line of other white space (U+00A0, U+FEFF, U+2028) is no JSON text, so it is
// a frame that fails to parse, shown, not skipped.

import type { FrameSink, Splitter } from './framing.js'
import { isBlankLine, LineSplitter } from './lines.js'

export function createNdjsonSplitter(sink: FrameSink): Splitter {
  const lines = new LineSplitter({
    line(text, start, end, line) {
      if (isBlankLine(text)) return
      sink.frame({ start, end, line, event: null, id: null, retry: null, data: text, unterminated: false, problems: null })
    },
  }, sink.text ?? null)
  return { push: (text) => lines.push(text), end: () => lines.end() }
}
