// NDJSON / JSON Lines: one frame per non-blank line; CRLF and a last line without a
// newline are accepted. Blank is JSON's white space only (spaces and tabs: a line holds no
// CR or LF): a line of other white space (U+00A0, U+FEFF, U+2028) is no JSON text, so it is
// a frame that fails to parse, shown, not skipped.

import type { FrameSink, Splitter } from './framing.js'
import { LineSplitter } from './lines.js'

export function createNdjsonSplitter(sink: FrameSink): Splitter {
  const lines = new LineSplitter({
    line(text, start, end, line) {
      if (isBlank(text)) return
      sink.frame({ start, end, line, event: null, id: null, retry: null, data: text, unterminated: false, problems: null })
    },
  })
  return { push: (text) => lines.push(text), end: () => lines.end() }
}

/** Only spaces and tabs; a JSON line is answered by its first character, without a regex call. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09) return false
  }
  return true
}
