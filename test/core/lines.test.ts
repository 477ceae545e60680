// Line splitting (shared by SSE and NDJSON) and the NDJSON reader, one rule per test.

import { describe, expect, it } from 'vitest'
import type { RawFrame } from '../../src/core/framing.js'
import { LineSplitter } from '../../src/core/lines.js'
import { createNdjsonSplitter } from '../../src/core/ndjson.js'
import { createMerger } from '../../src/index.js'

/** Every line as [text, start, end, lineNo], for these pushes. */
function lines(...chunks: string[]): Array<[string, number, number, number]> {
  const out: Array<[string, number, number, number]> = []
  const splitter = new LineSplitter({ line: (text, start, end, lineNo) => out.push([text, start, end, lineNo]) })
  for (const c of chunks) splitter.push(c)
  splitter.end()
  return out
}

function ndjson(...chunks: string[]): RawFrame[] {
  const out: RawFrame[] = []
  const splitter = createNdjsonSplitter({
    frame: (f) => out.push(f),
    entry: () => { throw new Error('NDJSON has no entries') },
    problem: () => { throw new Error('NDJSON reports no framing problem') },
  })
  for (const c of chunks) splitter.push(c)
  splitter.end()
  return out
}

const frame = (start: number, end: number, line: number, data: string): RawFrame => ({
  start, end, line, event: null, id: null, retry: null, data, unterminated: false, problems: null,
})

describe('lines', () => {
  it('a line ends in LF, CR or CRLF; its end is past its terminator', () => {
    expect(lines('a\nb\rc\r\nd\n')).toEqual([['a', 0, 2, 1], ['b', 2, 4, 2], ['c', 4, 7, 3], ['d', 7, 9, 4]])
  })

  it('an empty line is a line: CRLF is one terminator, LF CR two', () => {
    expect(lines('\r\n\n\r')).toEqual([['', 0, 2, 1], ['', 2, 3, 2], ['', 3, 4, 3]])
  })

  it('a line cut across pushes is joined, and starts where its first piece did', () => {
    expect(lines('da', 'ta: ', 'x\nnext', '\n')).toEqual([['data: x', 0, 8, 1], ['next', 8, 13, 2]])
  })

  it('a CR ending a push waits for the next push: an LF there makes it CRLF', () => {
    expect(lines('a\r', '\nb\n')).toEqual([['a', 0, 3, 1], ['b', 3, 5, 2]])
  })

  it('a CR ending a push, then anything but LF, ends its line alone', () => {
    expect(lines('a\r', 'b\n')).toEqual([['a', 0, 2, 1], ['b', 2, 4, 2]])
  })

  it('an empty push changes nothing, not even a pending CR', () => {
    expect(lines('a\r', '', '\n')).toEqual(lines('a\r\n'))
  })

  it('a CR ending the body ends its line', () => {
    expect(lines('a\r')).toEqual([['a', 0, 2, 1]])
  })

  it('a last line without terminator is a line at the end, ending at the end of the body', () => {
    expect(lines('a\nlast')).toEqual([['a', 0, 2, 1], ['last', 2, 6, 2]])
  })

  it('an empty body has no line, and a body ending in a terminator has no empty line after it', () => {
    expect([lines(''), lines('a\n')]).toEqual([[], [['a', 0, 2, 1]]])
  })

  it('the same lines whatever the cuts: one character per push', () => {
    const body = 'x\r\ny\r\rz\n\r\nw'
    expect(lines(...body)).toEqual(lines(body))
  })
})

describe('NDJSON', () => {
  it('each line is a frame; its data is the line without terminator, its end past the terminator', () => {
    expect(ndjson('{"a":1}\n{"b":2}\r\n')).toEqual([frame(0, 8, 1, '{"a":1}'), frame(8, 17, 2, '{"b":2}')])
  })

  it('a last line without newline is a frame, not flagged', () => {
    expect(ndjson('{"a":1}\n{"b":2}')).toEqual([frame(0, 8, 1, '{"a":1}'), frame(8, 15, 2, '{"b":2}')])
  })

  it('blank lines (spaces and tabs only) are skipped, and still counted in line numbers', () => {
    expect(ndjson('\n \t\n{"a":1}\n\n')).toEqual([frame(4, 12, 3, '{"a":1}')])
  })

  it('a line of other white space (U+00A0, U+FEFF) is a frame: JSON.parse fails on it', () => {
    expect(ndjson('\u00a0\n\uFEFF\n').map((f) => f.data)).toEqual(['\u00a0', '\uFEFF'])
  })

  it('white space around a JSON line stays in its data (JSON.parse allows it)', () => {
    expect(ndjson('  {"a":1}\t\n').map((f) => f.data)).toEqual(['  {"a":1}\t'])
  })

  it("through the merger, a frame's raw text keeps its terminator and its data drops it", () => {
    const m = createMerger({ transport: 'ndjson' })
    m.push('{"a":1}\r\nnot json\n')
    m.end()
    expect(m.frames().map((f) => [f.raw, f.data, f.kind, f.byteStart, f.byteEnd])).toEqual([
      ['{"a":1}\r\n', '{"a":1}', 'data', 0, 9],
      ['not json\n', 'not json', 'invalid', 9, 18],
    ])
  })
})
