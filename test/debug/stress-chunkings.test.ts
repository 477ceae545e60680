// The chunkings of a stress run, read as a specification: for one small capture, the exact
// reads each chunking makes, the exact bytes each SSE re-encoding sends, and when one does not
// apply. Every read carries the time its last byte was recorded to arrive.

import { describe, expect, it } from 'vitest'
import { toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { chunk, chunkingNameError, DEFAULT_CHUNKINGS, stressSource, type ChunkingName } from '../../src/debug/stress-chunkings.js'
import { recording } from '../support/requests.js'

const enc = new TextEncoder()
const dec = new TextDecoder('utf-8', { ignoreBOM: true })
const STARTED_AT = 1_750_000_000_000

/** A capture whose body arrived in these reads, read i at 10·(i+1) ms. */
function capture(reads: string[], contentType = 'text/event-stream'): Fixture {
  return toFixture(recording(reads.map((r, i) => [enc.encode(r), 10 * (i + 1)]), {
    id: 'r', responseHeaders: [{ name: 'content-type', value: contentType }], contentType, startedAt: STARTED_AT, source: 'live',
  }), { exportedAt: '2025-06-01T00:00:00.000Z' })
}

/** The reads as [text (lossy), t]; or the reason it does not apply. */
function reads(fixture: Fixture, name: ChunkingName): Array<[string, number | null]> | string {
  const c = chunk(stressSource(fixture), name)
  return c.applicable ? c.reads.map((r) => [dec.decode(r.bytes), r.t]) : c.reason
}

const CRLF = capture(['event: m\r\ndata: {"t":"é"}\r\n\r\n: ping\r\n\r\n', 'data: [DONE]\r\n\r\n'])
const LF = capture(['data: {"t":"é"}\n\ndata:  x\n', 'id: 7\ndata: [DONE]'])
const NDJSON = capture(['{"message":{"content":"é"},"done":false}\n', '{"done":true}\n'], 'application/x-ndjson')

describe('cuts of the same bytes', () => {
  it('recorded: the capture\'s own reads and times', () => {
    expect(reads(CRLF, 'recorded')).toEqual([['event: m\r\ndata: {"t":"é"}\r\n\r\n: ping\r\n\r\n', 10], ['data: [DONE]\r\n\r\n', 20]])
  })

  it('whole: the body in one read, at the time of its last byte', () => {
    expect(reads(CRLF, 'whole')).toEqual([['event: m\r\ndata: {"t":"é"}\r\n\r\n: ping\r\n\r\ndata: [DONE]\r\n\r\n', 20]])
  })

  it('bytes-1: each byte its own read, timed as the recorded read that held it', () => {
    const got = chunk(stressSource(CRLF), 'bytes-1')
    expect(got.applicable && got.reads.map((r) => r.bytes.length)).toEqual(new Array(56).fill(1))
    expect(got.applicable && [got.reads[39]!.t, got.reads[40]!.t]).toEqual([10, 20])
  })

  it('frame-straddle: one boundary near the middle of every frame, never inside a character', () => {
    expect(reads(CRLF, 'frame-straddle')).toEqual([['event: m\r\ndata', 10], [': {"t":"é"}\r\n\r\n: ping\r\n\r\ndata: [', 20], ['DONE]\r\n\r\n', 20]])
  })

  it('utf8-split: a boundary after the first byte of every multi-byte character', () => {
    expect(reads(CRLF, 'utf8-split')).toEqual([['event: m\r\ndata: {"t":"\ufffd', 10], ['\ufffd"}\r\n\r\n: ping\r\n\r\ndata: [DONE]\r\n\r\n', 20]])
  })

  it('line-straddle: a boundary between every \\r and \\n and after every field\'s colon (a comment line is not cut)', () => {
    expect(reads(CRLF, 'line-straddle')).toEqual([
      ['event:', 10], [' m\r', 10], ['\ndata:', 10], [' {"t":"é"}\r', 10], ['\n\r', 10], ['\n: ping\r', 10], ['\n\r', 10],
      ['\ndata:', 20], [' [DONE]\r', 20], ['\n\r', 20], ['\n', 20],
    ])
  })

  it('random:<seed>: reads of 1 to 64 bytes, the same for the same seed, others for another', () => {
    const body = capture(['data: ' + 'x'.repeat(2000) + '\n\n'])
    const sizes = (name: ChunkingName) => { const c = chunk(stressSource(body), name); return c.applicable ? c.reads.map((r) => r.bytes.length) : [] }
    expect(sizes('random:7')).toEqual(sizes('random:7'))
    expect(sizes('random:7')).not.toEqual(sizes('random:8'))
    expect(sizes('random:7').reduce((a, b) => a + b, 0)).toBe(2008)
    expect(Math.min(...sizes('random:7'))).toBeGreaterThanOrEqual(1)
    expect(Math.max(...sizes('random:7'))).toBeLessThanOrEqual(64)
  })
})

describe('SSE re-encodings: one read per block, the same events', () => {
  it('crlf: every line ends in \\r\\n; a last line the body did not end stays unended', () => {
    expect(reads(LF, 'crlf')).toEqual([['data: {"t":"é"}\r\n\r\n', 10], ['data:  x\r\nid: 7\r\ndata: [DONE]', 20]])
  })

  it('cr: every line ends in \\r', () => {
    expect(reads(CRLF, 'cr')).toEqual([['event: m\rdata: {"t":"é"}\r\r', 10], [': ping\r\r', 10], ['data: [DONE]\r\r', 20]])
  })

  it('comments: a ": keepalive" line ahead of every frame, in the body\'s own line ending; a comment-only block is left alone', () => {
    expect(reads(CRLF, 'comments')).toEqual([[': keepalive\r\nevent: m\r\ndata: {"t":"é"}\r\n\r\n', 10], [': ping\r\n\r\n', 10], [': keepalive\r\ndata: [DONE]\r\n\r\n', 20]])
  })

  it('no-space: "field:value", except where the value itself starts with a space (its optional space must stay)', () => {
    expect(reads(LF, 'no-space')).toEqual([['data:{"t":"é"}\n\n', 10], ['data:  x\nid:7\ndata:[DONE]', 20]])
  })

  it('retry-id: "id: N" before a frame that has no id, "retry: 3000" at its end (after a line break when the body ends it unended)', () => {
    expect(reads(CRLF, 'retry-id')).toEqual([['id: 1\r\nevent: m\r\ndata: {"t":"é"}\r\nretry: 3000\r\n\r\n', 10], [': ping\r\n\r\n', 10], ['id: 2\r\ndata: [DONE]\r\nretry: 3000\r\n\r\n', 20]])
    expect(reads(LF, 'retry-id')).toEqual([['id: 1\ndata: {"t":"é"}\nretry: 3000\n\n', 10], ['data:  x\nid: 7\ndata: [DONE]\nretry: 3000', 20]])
  })

  it('a leading BOM stays the first bytes', () => {
    const bom = capture(['\ufeffdata: {"t":"a"}\n\n'])
    expect(reads(bom, 'comments')).toEqual([['\ufeff: keepalive\ndata: {"t":"a"}\n\n', 10]])
  })
})

describe('what does not apply', () => {
  it('NDJSON: no SSE re-encoding, and no line-straddle without \\r\\n; every cut still applies', () => {
    const verdicts = Object.fromEntries(DEFAULT_CHUNKINGS.map((n) => { const r = reads(NDJSON, n); return [n, typeof r === 'string' ? r : r.length] }))
    expect(verdicts).toEqual({
      'recorded': 2, 'whole': 1, 'bytes-1': 56, 'frame-straddle': 3, 'utf8-split': 2,
      'line-straddle': 'the body has no \\r\\n line ending (and only SSE has fields)',
      'crlf': 'the stream is NDJSON, not SSE: only SSE is re-encoded',
      'cr': 'the stream is NDJSON, not SSE: only SSE is re-encoded',
      'comments': 'the stream is NDJSON, not SSE: only SSE is re-encoded',
      'no-space': 'the stream is NDJSON, not SSE: only SSE is re-encoded',
      'retry-id': 'the stream is NDJSON, not SSE: only SSE is re-encoded',
      'random:1': 3, 'random:2': 2, 'random:3': 3,
    })
  })

  it('utf8-split needs a multi-byte character', () => {
    expect(reads(capture(['data: {"t":"a"}\n\n']), 'utf8-split')).toBe('the body has no multi-byte character')
  })
})

describe('names', () => {
  it('the defaults are every chunking and three seeds', () => {
    expect(DEFAULT_CHUNKINGS).toEqual(['recorded', 'whole', 'bytes-1', 'frame-straddle', 'utf8-split', 'line-straddle', 'crlf', 'cr', 'comments', 'no-space', 'retry-id', 'random:1', 'random:2', 'random:3'])
  })

  it('a wrong name says which names there are; a seed is a whole number up to 2^32 - 1', () => {
    expect(chunkingNameError('random:4294967295')).toBeNull()
    expect(chunkingNameError('random:4294967296')).toBe('"random:4294967296": a random chunking is random:<seed>, the seed a whole number from 0 to 4294967295')
    expect(chunkingNameError('random:<seed>')).toBe('"random:<seed>": a random chunking is random:<seed>, the seed a whole number from 0 to 4294967295')
    expect(chunkingNameError('lf')).toBe('unknown chunking "lf" (one of recorded, whole, bytes-1, frame-straddle, utf8-split, line-straddle, crlf, cr, comments, no-space, retry-id, random:<seed>)')
  })
})
