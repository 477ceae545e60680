// The SSE reader, one rule per test (WHATWG "event stream interpretation", with the two
// departures of docs/architecture.md#sse: field-only blocks are kept as entries, and a last
// block without its blank line is still a frame, flagged `unterminated`).

import { createParser } from 'eventsource-parser'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RawEntry, RawFrame } from '../../src/core/framing.js'
import { createSseSplitter, readSseBlock } from '../../src/core/sse.js'
import { createMerger, SYMPTOMS } from '../../src/index.js'
import { sseStream } from '../support/property.js'

/** Everything the splitter hands on, in order, for these pushes. */
function split(...chunks: string[]): Array<RawFrame | RawEntry> {
  const out: Array<RawFrame | RawEntry> = []
  const splitter = createSseSplitter({
    frame: (f) => out.push(f),
    entry: (e) => out.push(e),
    problem: () => { throw new Error('SSE reports no framing problem') },
  })
  for (const c of chunks) splitter.push(c)
  splitter.end()
  return out
}

function frames(...chunks: string[]): RawFrame[] {
  return split(...chunks).filter((x): x is RawFrame => 'data' in x)
}

const frame = (over: Partial<RawFrame>): RawFrame => ({
  start: 0, end: 0, line: 1, event: null, id: null, retry: null, data: '', unterminated: false, problems: null, ...over,
})

describe('SSE: blocks and frames', () => {
  it('a block of one data line ended by a blank line is one frame; its end is past its last line, before the blank line', () => {
    expect(split('data: x\n\n')).toEqual([frame({ start: 0, end: 8, data: 'x' })])
  })

  it('one space after the colon is dropped, and only one', () => {
    expect(frames('data:x\n\ndata: x\n\ndata:  x\n\n').map((f) => f.data)).toEqual(['x', 'x', ' x'])
  })

  it('the value is everything after the first colon', () => {
    expect(frames('data: {"a":"b:c"}\n\n').map((f) => f.data)).toEqual(['{"a":"b:c"}'])
  })

  it('data lines of one block are joined with a line feed', () => {
    expect(frames('data: a\ndata: b\ndata:\ndata: c\n\n').map((f) => f.data)).toEqual(['a\nb\n\nc'])
  })

  it('a line without a colon is a field with an empty value', () => {
    expect(frames('data\ndata\n\n').map((f) => f.data)).toEqual(['\n'])
  })

  it('a block whose data is empty ("data:" alone) is an empty entry, not a frame (WHATWG would dispatch data "")', () => {
    expect(split('data:\n\n')).toEqual([{ kind: 'empty', start: 0, end: 6, line: 1, problems: null }])
  })

  it('a block of fields without data is an empty entry', () => {
    expect(split('event: ping\nid: 7\n\n')).toEqual([{ kind: 'empty', start: 0, end: 18, line: 1, problems: null }])
  })

  it('a block of comments only is a comment entry', () => {
    expect(split(': keep-alive\n:\n\n')).toEqual([{ kind: 'comment', start: 0, end: 15, line: 1, problems: null }])
  })

  it('a comment inside a frame changes nothing but stays in its raw text', () => {
    expect(split('data: a\n: note\ndata: b\n\n')).toEqual([frame({ start: 0, end: 23, data: 'a\nb' })])
  })

  it('a frame starts at its first line, blank lines before it are skipped, and its line is that first line', () => {
    expect(split('\n\n\ndata: x\n\n')).toEqual([frame({ start: 3, end: 11, line: 4, data: 'x' })])
  })

  it('several blank lines between blocks dispatch nothing more', () => {
    expect(frames('data: a\n\n\n\n\ndata: b\n\n').map((f) => [f.data, f.line, f.start])).toEqual([['a', 1, 0], ['b', 6, 12]])
  })
})

describe('SSE: fields', () => {
  it('event names the frame; the last event line of the block wins, before or after the data', () => {
    expect(frames('event: a\ndata: x\nevent: b\n\n').map((f) => f.event)).toEqual(['b'])
  })

  it('an empty event value is kept as "" (WHATWG: the default type)', () => {
    expect(frames('event:\ndata: x\n\n').map((f) => f.event)).toEqual([''])
  })

  it('event and id belong to their block only', () => {
    expect(frames('event: a\nid: 1\ndata: x\n\ndata: y\n\n').map((f) => [f.event, f.id])).toEqual([['a', '1'], [null, null]])
  })

  it('an id containing NUL is ignored: the block keeps the id it had', () => {
    expect(frames('id: 1\nid: a\0b\ndata: x\n\n').map((f) => f.id)).toEqual(['1'])
  })

  it('an empty id is the empty string', () => {
    expect(frames('id:\ndata: x\n\n').map((f) => f.id)).toEqual([''])
  })

  it('retry of ASCII digits is a number of milliseconds, leading zeros allowed', () => {
    expect(frames('retry: 3000\ndata: x\n\nretry: 007\ndata: y\n\n').map((f) => f.retry)).toEqual([3000, 7])
  })

  it('retry of anything but ASCII digits is ignored and reported as invalid-retry, as eventsource-parser words it', () => {
    expect(frames('retry: 50x\ndata: x\n\n')).toEqual([frame({
      end: 19, data: 'x', problems: [{ code: 'invalid-retry', message: 'Invalid `retry` value: "50x"', offset: 0, line: 1 }],
    })])
  })

  it('an empty retry, a signed one and one of non-ASCII digits are invalid', () => {
    const problems = frames('retry:\nretry: -1\nretry: ٣\ndata: x\n\n')[0]!.problems
    expect(problems).toEqual([
      { code: 'invalid-retry', message: 'Invalid `retry` value: ""', offset: 0, line: 1 },
      { code: 'invalid-retry', message: 'Invalid `retry` value: "-1"', offset: 7, line: 2 },
      { code: 'invalid-retry', message: 'Invalid `retry` value: "٣"', offset: 17, line: 3 },
    ])
  })

  it('a retry of 400 digits is not Infinity: invalid-retry, the value quoted to 20 characters', () => {
    const [f] = frames(`retry: ${'9'.repeat(400)}\ndata: x\n\n`)
    expect([f!.retry, f!.problems]).toEqual([null, [{ code: 'invalid-retry', message: `Invalid \`retry\` value: "${'9'.repeat(20)}…"`, offset: 0, line: 1 }]])
  })

  it('retry up to 2^53 − 1 is exact and kept; 2^53 is not', () => {
    const [max, over] = frames('retry: 9007199254740991\ndata: x\n\nretry: 9007199254740992\ndata: y\n\n')
    expect([max!.retry, max!.problems, over!.retry, over!.problems!.map((p) => p.code)]).toEqual([9007199254740991, null, null, ['invalid-retry']])
  })

  it('a retry in a block without data is reported on that entry', () => {
    expect(split('retry: soon\n\n')).toEqual([{
      kind: 'empty', start: 0, end: 12, line: 1, problems: [{ code: 'invalid-retry', message: 'Invalid `retry` value: "soon"', offset: 0, line: 1 }],
    }])
  })

  it('a field of any other name is ignored and reported as unknown-field, with its line and offset', () => {
    expect(frames('data: x\nfoo: bar\n\n')[0]!.problems).toEqual([{ code: 'unknown-field', message: 'Unknown field "foo"', offset: 8, line: 2 }])
  })

  it('field names are compared exactly: "Data" and " data" are unknown fields', () => {
    expect(split('Data: x\n data: y\n\n')).toEqual([{
      kind: 'empty', start: 0, end: 17, line: 1, problems: [
        { code: 'unknown-field', message: 'Unknown field "Data"', offset: 0, line: 1 },
        { code: 'unknown-field', message: 'Unknown field " data"', offset: 8, line: 2 },
      ],
    }])
  })

  it('a line of text without a colon is an unknown field named by the whole line, quoted to 20 characters', () => {
    expect(frames('data: x\nthis is not a field at all\n\n')[0]!.problems).toEqual([
      { code: 'unknown-field', message: 'Unknown field "this is not a field …"', offset: 8, line: 2 },
    ])
  })
})

describe('SSE: line endings and chunks', () => {
  it('lines end in LF, CR or CRLF, mixed in one body', () => {
    expect(frames('data: a\rdata: b\r\ndata: c\n\r\n').map((f) => [f.data, f.end])).toEqual([['a\nb\nc', 25]])
  })

  it('a CR at the end of a push and the LF at the start of the next are one line ending', () => {
    expect(frames('data: a\r', '\ndata: b\r', '\n\r', '\n').map((f) => f.data)).toEqual(['a\nb'])
  })

  it('a CR at the end of a push followed by another line is a line ending of its own', () => {
    expect(frames('data: a\r', 'data: b\r', '\r').map((f) => [f.data, f.unterminated])).toEqual([['a\nb', false]])
  })

  it('the same frames whatever the cuts: one character per push', () => {
    const body = 'event: e\r\nid: 1\r\ndata: {"a":1}\r\n\r\n: c\r\n\r\ndata: 2\r\r'
    expect(split(...body)).toEqual(split(body))
  })
})

describe('SSE: the end of the body', () => {
  it('a last block without its blank line is still a frame, flagged unterminated', () => {
    expect(split('data: a\n\ndata: b\n')).toEqual([frame({ end: 8, data: 'a' }), frame({ start: 9, end: 17, line: 3, data: 'b', unterminated: true })])
  })

  it('a last line without any line ending is part of that unterminated frame', () => {
    expect(split('data: a')).toEqual([frame({ end: 7, data: 'a', unterminated: true })])
  })

  it('a last block without data is an entry, not flagged', () => {
    expect(split(': bye')).toEqual([{ kind: 'comment', start: 0, end: 5, line: 1, problems: null }])
  })

  it('an empty body gives nothing', () => {
    expect(split('')).toEqual([])
  })
})

describe('readSseBlock', () => {
  it("reads a frame's raw text again by the same rules; problems count lines and offsets from its start", () => {
    const block = readSseBlock('event: e\r\nfoo\r\ndata: a\ndata: b\n')
    expect([block.event, block.data, block.problems]).toEqual(['e', 'a\nb', [{ code: 'unknown-field', message: 'Unknown field "foo"', offset: 10, line: 2 }]])
  })
})

describe('SSE problems as diagnostics', () => {
  it('an ignored line of a frame is a warning on that frame, with its line and offset', () => {
    const m = createMerger({ transport: 'sse' })
    m.push('data: {}\n\nretry: x\ndata: {}\n\n')
    expect(m.diagnostics().filter((d) => d.code === 'invalid-retry')).toEqual([{
      frame: 1, level: 'warning', code: 'invalid-retry', message: 'Invalid `retry` value: "x" at line 3', symptom: SYMPTOMS['invalid-retry'], offset: 10, line: 3,
    }])
  })

  it('an ignored line of an entry is a warning on the stream as a whole', () => {
    const m = createMerger({ transport: 'sse' })
    m.push('x-trace: 1\n\ndata: {}\n\n')
    expect(m.diagnostics().filter((d) => d.code === 'unknown-field')).toEqual([{
      frame: null, level: 'warning', code: 'unknown-field', message: 'Unknown field "x-trace" at line 1', symptom: SYMPTOMS['unknown-field'], offset: 0, line: 1,
    }])
  })

  it('a byte order mark in the middle of the body is no BOM: its line is an unknown field', () => {
    const m = createMerger()
    m.push(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: {}\n\n\uFEFFdata: {}\n\n')]))
    m.end()
    expect([m.frameCount, m.diagnostics().filter((d) => d.code === 'unknown-field').map((d) => [d.frame, d.message, d.offset])]).toEqual([
      1, [[null, 'Unknown field "\uFEFFdata" at line 3', 10]],
    ])
  })

  it('the first 100 of each code are listed, the rest counted in one diagnostic on the stream', () => {
    const m = createMerger({ transport: 'sse' })
    m.push('foo\n'.repeat(102) + 'data: {}\n\n')
    m.end()
    const unknown = m.diagnostics().filter((d) => d.code === 'unknown-field')
    expect([unknown.length, unknown[0], unknown[100]!.line]).toEqual([101, {
      frame: null, level: 'warning', code: 'unknown-field', symptom: SYMPTOMS['unknown-field'], message: '2 more unknown fields not listed (102 in all)',
    }, 100])
  })

  it('on random streams, the same ignored lines as eventsource-parser reports, with its words, in body order', () => {
    fc.assert(fc.property(sseStream, (s) => {
      const theirs: string[] = []
      const parser = createParser({ onError: (e) => theirs.push(`${e.type}: ${e.message}`) })
      parser.feed(new TextDecoder().decode(s.bytes) + '\n\n') // its last line is read only once a line ending follows
      const m = createMerger({ transport: 'sse' })
      m.push(s.bytes)
      m.end()
      const ours = m.diagnostics()
        .filter((d) => d.code === 'invalid-retry' || d.code === 'unknown-field')
        .sort((x, y) => x.offset! - y.offset!)
        .map((d) => `${d.code}: ${d.message.replace(/ at line \d+$/, '')}`)
      expect(ours).toEqual(theirs)
    }), { numRuns: 300 })
  })
})
