// A body that is one JSON array streamed element by element (Gemini without `alt=sse`):
// each top-level element is a frame, dispatched as soon as it closes.

import type { FrameSink, Splitter } from './framing.js'

const enum State { Start, Between, Element, AfterElement, After }

export function createJsonArraySplitter(sink: FrameSink): Splitter {
  let state = State.Start
  let parts: string[] = []
  let elementStart = 0
  let elementLine = 1
  let depth = 0
  let inString = false
  let escaped = false
  let scalar = false
  let line = 1
  let offset = 0
  let strayAt = -1

  const finish = (endOffset: number, unterminated: boolean) => {
    const data = parts.join('')
    parts = []
    sink.frame({ start: elementStart, end: endOffset, line: elementLine, event: null, id: null, retry: null, data, unterminated, problems: null })
  }

  const stray = (at: number) => {
    if (strayAt < 0) strayAt = at
  }
  const flushStray = () => {
    if (strayAt >= 0) sink.problem('stray-text', `text outside the array's elements at character ${strayAt}`, strayAt)
    strayAt = -1
  }

  function push(text: string): void {
    const base = offset
    offset += text.length
    let segment = state === State.Element ? 0 : -1 // where the open element's text starts in this chunk
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c === 0x0a) line++
      switch (state) {
        case State.Start:
          if (c === 0x5b) state = State.Between
          else if (!isSpace(c)) stray(base + i)
          break
        case State.Between:
        case State.AfterElement:
          if (isSpace(c)) break
          if (c === 0x5d) { state = State.After; flushStray(); break }
          if (c === 0x2c) {
            if (state === State.Between) stray(base + i)
            state = State.Between
            break
          }
          if (state === State.AfterElement) stray(base + i)
          flushStray()
          state = State.Element
          elementStart = base + i
          elementLine = line
          segment = i
          depth = 0
          inString = false
          escaped = false
          scalar = c !== 0x7b && c !== 0x5b
          i-- // read this character as part of the element
          if (c === 0x0a) line--
          break
        case State.Element: {
          if (inString) {
            if (escaped) escaped = false
            else if (c === 0x5c) escaped = true
            else if (c === 0x22) inString = false
            break
          }
          if (c === 0x22) { inString = true; break }
          if (scalar) {
            if (c === 0x2c || c === 0x5d || isSpace(c)) {
              parts.push(text.slice(segment, i))
              finish(base + i, false)
              state = State.AfterElement
              i--
              if (c === 0x0a) line--
            }
            break
          }
          if (c === 0x7b || c === 0x5b) depth++
          else if (c === 0x7d || c === 0x5d) {
            depth--
            if (depth === 0) {
              parts.push(text.slice(segment, i + 1))
              finish(base + i + 1, false)
              state = State.AfterElement
            }
          }
          break
        }
        case State.After:
          if (!isSpace(c)) stray(base + i)
          break
      }
    }
    if (state === State.Element) parts.push(segment === 0 ? text : text.slice(segment))
  }

  return {
    push,
    end() {
      if (state === State.Element) finish(offset, true)
      flushStray()
      if (state !== State.After) sink.problem('truncated-json-array', 'the body ended before the JSON array was closed with "]"', offset)
    },
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}
