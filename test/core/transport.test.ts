// Choosing the transport, one rule per test (docs/architecture.md#choosing-the-transport):
// forced, else the Content-Type when it says, else the first non-blank line.

import { describe, expect, it } from 'vitest'
import { sniffTransport, transportFromContentType } from '../../src/core/transport.js'
import { createMerger, SYMPTOMS, type MergeOptions } from '../../src/index.js'

describe('the Content-Type', () => {
  it('says nothing when absent', () => {
    expect([transportFromContentType(undefined), transportFromContentType('')]).toEqual([null, null])
  })

  it('text/event-stream is SSE, in any case and with parameters', () => {
    expect(['text/event-stream', 'Text/Event-Stream; charset=utf-8', ' text/event-stream ;charset=utf-8'].map(transportFromContentType)).toEqual([
      { transport: 'sse', reason: 'content-type' }, { transport: 'sse', reason: 'content-type' }, { transport: 'sse', reason: 'content-type' },
    ])
  })

  it('a media type that only starts like text/event-stream is not SSE', () => {
    expect(transportFromContentType('text/event-streams')).toBe(null)
  })

  it('the NDJSON family is NDJSON', () => {
    const types = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonl', 'application/json-lines', 'application/jsonlines', 'application/x-jsonlines', 'application/json-seq', 'application/stream+json; charset=utf-8']
    expect(types.map((t) => transportFromContentType(t)?.transport)).toEqual(types.map(() => 'ndjson'))
  })

  it('application/json, text/plain and application/x-ndjsonx say nothing: the body decides', () => {
    expect(['application/json', 'text/plain', 'application/x-ndjsonx'].map(transportFromContentType)).toEqual([null, null, null])
  })

  it("application/vnd.amazon.eventstream is AWS's binary event stream, read from the bytes", () => {
    expect(transportFromContentType('application/vnd.amazon.eventstream')).toEqual({ transport: 'eventstream', reason: 'content-type' })
  })
})

describe('sniffing the start of the body', () => {
  it('a comment is SSE', () => {
    expect(sniffTransport(': ok', false)).toEqual({ transport: 'sse', reason: 'sniffed: starts with an SSE comment' })
  })

  it('"[" is a JSON array, "{" NDJSON', () => {
    expect([sniffTransport('[', false), sniffTransport('{', false)]).toEqual([
      { transport: 'json', reason: 'sniffed: starts with "["' }, { transport: 'ndjson', reason: 'sniffed: the first line is a JSON object' },
    ])
  })

  it('white space before the first character is skipped, line breaks included', () => {
    expect(sniffTransport(' \r\n\t{', false)).toEqual({ transport: 'ndjson', reason: 'sniffed: the first line is a JSON object' })
  })

  it('a NUL or a U+FFFD first is binary', () => {
    expect([sniffTransport('\0x', false), sniffTransport('\uFFFD', false)]).toEqual([
      { transport: 'unknown', reason: 'the body looks binary', binary: true }, { transport: 'unknown', reason: 'the body looks binary', binary: true },
    ])
  })

  it('a first line that starts with a data-stream code, a colon and a JSON string, object or array is the AI SDK v4 data stream', () => {
    const reason = 'sniffed: the first line is a data-stream part (CODE:JSON)'
    expect(['0:"Hel', 'f:{"messageId"', '2:[', 'd:{"finishReason":"stop"}\n'].map((h) => sniffTransport(h, false))).toEqual([
      { transport: 'data-stream', reason }, { transport: 'data-stream', reason }, { transport: 'data-stream', reason }, { transport: 'data-stream', reason },
    ])
  })

  it('a data-stream code is decided only on its third character, and "data:" stays SSE', () => {
    expect([sniffTransport('0:', false), sniffTransport('d', false), sniffTransport('data:{}', false), sniffTransport('l:"x"\n', false)?.transport]).toEqual([
      null, null, { transport: 'sse', reason: 'sniffed: the first line is an SSE field' }, 'unknown',
    ])
  })

  it('a first line that is an SSE field (data, event, id, retry), with or without a colon, is SSE', () => {
    expect(['data: {}\n', 'event:x\n', 'id\n', 'retry: 1\r'].map((h) => sniffTransport(h, false))).toEqual(
      Array(4).fill({ transport: 'sse', reason: 'sniffed: the first line is an SSE field' }),
    )
  })

  it('an unfinished first line is SSE only once its colon is there: "data" may yet become "database"', () => {
    expect([sniffTransport('data', false), sniffTransport('data:', false)]).toEqual([null, { transport: 'sse', reason: 'sniffed: the first line is an SSE field' }])
  })

  it('field names are exact: "database" and "Data" are not SSE fields', () => {
    expect([sniffTransport('database: x\n', false), sniffTransport('Data: x\n', false)]).toEqual([
      { transport: 'unknown', reason: 'not SSE, NDJSON or a JSON array: the first line is "database: x"' },
      { transport: 'unknown', reason: 'not SSE, NDJSON or a JSON array: the first line is "Data: x"' },
    ])
  })

  it('an unfinished first line of under 80 characters waits; at 80 it decides', () => {
    expect([sniffTransport('x'.repeat(79), false), sniffTransport('x'.repeat(80), false)]).toEqual([
      null, { transport: 'unknown', reason: `not SSE, NDJSON or a JSON array: the first line is "${'x'.repeat(80)}"` },
    ])
  })

  it('a first line over 80 characters is quoted to 80 and "…"', () => {
    expect(sniffTransport('y'.repeat(81) + '\n', false)).toEqual({ transport: 'unknown', reason: `not SSE, NDJSON or a JSON array: the first line is "${'y'.repeat(80)}…"` })
  })

  it('nothing but white space waits', () => {
    expect(sniffTransport(' \n', false)).toBe(null)
  })

  it('at the end of the body it always decides: an empty body, one of white space, a last line without newline', () => {
    expect([sniffTransport('', true), sniffTransport(' \n', true), sniffTransport('data', true), sniffTransport('dat', true)]).toEqual([
      { transport: 'unknown', reason: 'the body is empty' },
      { transport: 'unknown', reason: 'the body is only white space' },
      { transport: 'sse', reason: 'sniffed: the first line is an SSE field' },
      { transport: 'unknown', reason: 'not SSE, NDJSON or a JSON array: the first line is "dat"' },
    ])
  })
})

describe('the merger choosing', () => {
  function merged(body: string, options: MergeOptions = {}) {
    const m = createMerger(options)
    for (const c of body) m.push(c) // one character a push: the head is held until it tells
    const reply = m.end()
    return { reply, m }
  }

  it('a forced transport wins over the Content-Type and the body', () => {
    expect(merged('{"a":1}\n', { transport: 'sse', contentType: 'application/x-ndjson' }).reply).toMatchObject({ transport: 'sse', frameCount: 0 })
  })

  it('the Content-Type wins over the body', () => {
    const { reply, m } = merged('data: {}\n', { contentType: 'application/x-ndjson' })
    expect([reply.transport, m.frame(0).kind]).toEqual(['ndjson', 'invalid'])
  })

  it('the body decides when nothing else does, however it was cut', () => {
    expect(merged('\n\ndata: {}\n\n').m.frames().map((f) => [f.data, f.line, f.start])).toEqual([['{}', 3, 2]])
  })

  it('an undecidable body reads no frame, says why as an error, and is not read further', () => {
    const { reply, m } = merged('hello\ndata: {}\n\n')
    expect([reply.transport, reply.frameCount, m.diagnostics().filter((d) => d.level === 'error')]).toEqual(['unknown', 0, [{
      frame: null, level: 'error', code: 'unknown-transport', symptom: SYMPTOMS['unknown-transport'],
      message: 'No frames read: not SSE, NDJSON or a JSON array: the first line is "hello". The body is shown as raw text.',
    }]])
  })

  it('a binary body is named binary-eventstream', () => {
    expect(merged('\0\0\0').m.diagnostics().map((d) => [d.code, d.message])).toEqual([
      ['binary-eventstream', 'No frames read: the body looks binary. The body is shown as raw text.'],
    ])
  })
})
