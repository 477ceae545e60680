// Server-sent events by the WHATWG rules, plus what Deltascope adds (docs/architecture.md#sse): blocks
// with no data are kept as `comment` / `empty` entries, and a final block that the body
// ended without a blank line is still dispatched, flagged `unterminated`.

import type { FrameSink, LineProblem, RawFrame, Splitter } from './framing.js'
import { LineSplitter } from './lines.js'

const DIGITS = /^[0-9]+$/

/** One block's fields as they are read line by line. */
export class SseBlock {
  data: string | null = null
  event: string | null = null
  id: string | null = null
  retry: number | null = null
  comments = 0
  fields = 0
  /** Lines the spec says to ignore, reported as eventsource-parser reports them. */
  problems: LineProblem[] | null = null

  /** Applies one non-blank line, which starts at character `offset` on line `lineNo`. */
  read(line: string, offset = 0, lineNo = 1): void {
    if (line.charCodeAt(0) === 0x3a) { this.comments++; return }
    this.fields++
    // the hot paths: no field-name string is sliced out
    if (line.startsWith('data:')) {
      const value = line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5)
      this.data = this.data === null ? value : this.data + '\n' + value
      return
    }
    if (line.startsWith('event:')) {
      this.event = line.charCodeAt(6) === 0x20 ? line.slice(7) : line.slice(6)
      return
    }
    const colon = line.indexOf(':')
    let field = line
    let value = ''
    if (colon >= 0) {
      field = line.slice(0, colon)
      value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1)
    }
    switch (field) {
      case 'data':
        this.data = this.data === null ? value : this.data + '\n' + value
        break
      case 'event':
        this.event = value
        break
      case 'id':
        if (!value.includes('\0')) this.id = value
        break
      case 'retry': {
        // only ASCII digits (WHATWG), and a number that stays exact: 400 digits are not Infinity
        const ms = DIGITS.test(value) ? Number(value) : NaN
        if (Number.isSafeInteger(ms)) this.retry = ms
        else this.problem('invalid-retry', `Invalid \`retry\` value: "${shorten(value)}"`, offset, lineNo)
        break
      }
      default:
        this.problem('unknown-field', `Unknown field "${shorten(field)}"`, offset, lineNo)
    }
  }

  private problem(code: LineProblem['code'], message: string, offset: number, line: number): void {
    (this.problems ??= []).push({ code, message, offset, line })
  }

  /**
   * A frame is a block with data (docs/architecture.md#sse). WHATWG does dispatch
   * `data:` alone, as an event with data "" (its data buffer is then "\n", not empty):
   * Deltascope keeps such a block as an `empty` entry, since no client has anything to parse.
   */
  get isFrame(): boolean {
    return this.data !== null && this.data !== ''
  }
}

/** A field or value quoted in a message: a 5 MB line must not become a 5 MB message. */
function shorten(text: string): string {
  return text.length > 20 ? `${text.slice(0, 20)}…` : text
}

/**
 * Reads one block's text again (the panel re-reads the frame a user opens) by the same line
 * rules; its problems' offsets and lines count from the start of `raw`.
 */
export function readSseBlock(raw: string): SseBlock {
  const block = new SseBlock()
  const lines = new LineSplitter({
    line(text, start, _end, lineNo) {
      if (text.length > 0) block.read(text, start, lineNo)
    },
  })
  lines.push(raw)
  lines.end()
  return block
}

export function createSseSplitter(sink: FrameSink): Splitter {
  let block: SseBlock | null = null
  let start = 0
  let end = 0
  let firstLine = 0

  const dispatch = (unterminated: boolean) => {
    const b = block
    if (b === null) return
    block = null
    if (b.isFrame) {
      const frame: RawFrame = {
        start, end, line: firstLine, event: b.event, id: b.id, retry: b.retry, data: b.data!, unterminated, problems: b.problems,
      }
      sink.frame(frame)
    } else {
      sink.entry({ kind: b.fields === 0 ? 'comment' : 'empty', start, end, line: firstLine, problems: b.problems })
    }
  }

  const lines = new LineSplitter({
    line(text, lineStart, lineEnd, lineNo) {
      if (text.length === 0) { dispatch(false); return }
      if (block === null) {
        block = new SseBlock()
        start = lineStart
        firstLine = lineNo
      }
      end = lineEnd
      block.read(text, lineStart, lineNo)
    },
  }, sink.text ?? null)

  return {
    push: (text) => lines.push(text),
    end() {
      lines.end()
      dispatch(true)
    },
  }
}
