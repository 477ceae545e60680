// Server-sent events by the WHATWG rules, plus what Deltascope adds (docs/architecture.md#sse): blocks
// with no data are kept as `comment` / `empty` entries, and a final block that the body
// ended without a blank line is still dispatched, flagged `unterminated`.

import type { FrameSink, RawFrame, Splitter } from './framing.js'
import { LineSplitter } from './lines.js'

/** One block's fields as they are read line by line. */
export class SseBlock {
  data: string | null = null
  event: string | null = null
  id: string | null = null
  retry: number | null = null
  comments = 0
  fields = 0

  /** Applies one non-blank line. */
  read(line: string): void {
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
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value)
        break
    }
  }

  /** WHATWG dispatches only when the data buffer is not empty (`data:` alone is no event). */
  get isFrame(): boolean {
    return this.data !== null && this.data !== ''
  }
}

/** Reads one block's text again (the panel re-reads the frame a user opens). */
export function readSseBlock(raw: string): SseBlock {
  const block = new SseBlock()
  for (const line of raw.split(/\r\n|\r|\n/)) if (line !== '') block.read(line)
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
        start, end, line: firstLine, event: b.event, id: b.id, retry: b.retry, data: b.data!, unterminated,
      }
      sink.frame(frame)
    } else {
      sink.entry({ kind: b.fields === 0 ? 'comment' : 'empty', start, end, line: firstLine })
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
      block.read(text)
    },
  })

  return {
    push: (text) => lines.push(text),
    end() {
      lines.end()
      dispatch(true)
    },
  }
}
