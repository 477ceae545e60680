// NDJSON / JSON Lines: one frame per non-blank line; CRLF and a last line without a
// newline are accepted.

import type { FrameSink, Splitter } from './framing.js'
import { LineSplitter } from './lines.js'

export function createNdjsonSplitter(sink: FrameSink): Splitter {
  const lines = new LineSplitter({
    line(text, start, end, line) {
      if (text.trim() === '') return
      sink.frame({ start, end, line, event: null, id: null, retry: null, data: text, unterminated: false, problems: null })
    },
  })
  return { push: (text) => lines.push(text), end: () => lines.end() }
}
