import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { base64Decode, base64Encode, utf8Encode } from '../../src/exchange/bytes.js'
import { exportFileName } from '../../src/exchange/filename.js'
import { toJsonLines, toRawBody } from '../../src/exchange/raw.js'
import { STARTED_AT, sampleBytes } from './support.js'

describe('toRawBody', () => {
  it('names the file from the Content-Type', () => {
    expect(toRawBody('data: 1\n\n', { contentType: 'text/event-stream; charset=utf-8' })).toEqual({
      extension: '.sse', mime: 'text/event-stream', transport: 'sse', text: 'data: 1\n\n',
    })
    expect(toRawBody('{"a":1}\n', { contentType: 'application/x-ndjson' })).toMatchObject({ extension: '.ndjson', mime: 'application/x-ndjson', transport: 'ndjson' })
    expect(toRawBody('{"a":1}\n', { contentType: 'application/jsonl' })).toMatchObject({ extension: '.ndjson' })
  })

  it('else from the transport the merger found, else by sniffing the body', () => {
    expect(toRawBody('data: 1\n\n', { contentType: 'text/plain', transport: 'sse' }).extension).toBe('.sse')
    expect(toRawBody('data: 1\n\n', { contentType: 'text/plain' }).extension).toBe('.sse')
    expect(toRawBody('{"a":1}\n{"a":2}\n').extension).toBe('.ndjson')
    expect(toRawBody('[{"candidates":[]}]', { contentType: 'application/json' })).toMatchObject({ extension: '.json', mime: 'application/json', transport: 'json' })
    expect(toRawBody('hello world', { contentType: null })).toMatchObject({ extension: '.txt', mime: 'text/plain', transport: 'unknown' })
  })

  it('joins chunks and keeps exact bytes when they are not UTF-8', () => {
    const bytes = sampleBytes('ollama.ndjson')
    expect(toRawBody([bytes.slice(0, 10), bytes.slice(10)]).text).toBe(new TextDecoder().decode(bytes))
    const bad = new Uint8Array([...utf8Encode('data: "'), 0xc3, 0x28, ...utf8Encode('"\n\n')])
    const raw = toRawBody([bad.slice(0, 8), bad.slice(8)], { contentType: 'text/event-stream' })
    expect(raw.text).toBe('data: "\uFFFD("\n\n')
    expect(raw.bytes).toEqual(bad)
  })
})

describe('toJsonLines', () => {
  it('one line per data payload, [DONE] and broken frames left out and listed', () => {
    const m = createMerger()
    m.push(sampleBytes('broken.sse'))
    m.end()
    const frames = m.frames()
    const out = toJsonLines(frames)
    const lines = out.text.split('\n')
    expect(lines.pop()).toBe('')
    expect(out.lines).toBe(lines.length)
    expect(out.skipped.map((s) => s.reason).sort()).toEqual([...frames.filter((f) => f.kind !== 'data').map((f) => (f.kind === 'done' ? 'end marker' : 'not JSON'))].sort())
    expect(out.skipped.length).toBeGreaterThanOrEqual(2)
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow()
    expect(lines).toEqual(frames.filter((f) => f.kind === 'data').map((f) => f.data))
  })

  it('writes a one-line payload exactly as received and puts a multi-line one on one line', () => {
    const frames = [
      { seq: 0, kind: 'data' as const, data: '{"n": 12345678901234567890, "s":"é"}', json: { n: 12345678901234567000, s: 'é' } },
      { seq: 1, kind: 'data' as const, data: '{\n  "a": [1,\n 2]\n}', json: { a: [1, 2] } },
      { seq: 2, kind: 'data' as const, data: '{"b":\n1}' },
      { seq: 3, kind: 'done' as const, data: '[DONE]' },
      { seq: 4, kind: 'invalid' as const, data: '{"c":' },
    ]
    expect(toJsonLines(frames)).toEqual({
      text: '{"n": 12345678901234567890, "s":"é"}\n{"a":[1,2]}\n{"b":1}\n',
      lines: 3,
      skipped: [{ seq: 3, reason: 'end marker' }, { seq: 4, reason: 'not JSON' }],
    })
    expect(toJsonLines([])).toEqual({ text: '', lines: 0, skipped: [] })
  })
})

describe('exportFileName', () => {
  it('host, last path segments and start time', () => {
    const req = { url: 'https://api.openai.com/v1/chat/completions?key=x', startedAt: STARTED_AT }
    expect(exportFileName(req, 'fixture')).toBe('api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.deltascope.json')
    expect(exportFileName(req, 'har')).toBe('api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.har')
    expect(exportFileName(req, 'test')).toBe('api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.test.ts')
    expect(exportFileName(req, '.sse')).toBe('api.openai.com_v1-chat-completions_2025-01-02T03-04-05Z.sse')
    expect(exportFileName({ url: 'https://u:p@h.test:8443/v1beta/models/gemini-2.5-flash:streamGenerateContent', startedAt: 0 }, 'jsonl'))
      .toBe('h.test_v1beta-models-gemini-2.5-flash-streamGenerateContent.jsonl')
    expect(exportFileName({ url: '', startedAt: 0 }, '.txt')).toBe('deltascope.txt')
    expect(exportFileName({ url: 'my stream (1).sse', startedAt: 0 }, '.sse')).toBe('my-stream-1-.sse.sse')
  })
})

describe('base64', () => {
  it('matches the platform codec on every length and byte value', () => {
    for (let n = 0; n < 300; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 0xff)
      const b64 = base64Encode(bytes)
      expect(b64).toBe(Buffer.from(bytes).toString('base64'))
      expect(base64Decode(b64)).toEqual(bytes)
    }
  })

  it('accepts whitespace and missing padding, rejects other characters', () => {
    expect(base64Decode('aGVs\nbG8')).toEqual(utf8Encode('hello'))
    expect(base64Decode('')).toEqual(new Uint8Array(0))
    expect(() => base64Decode('aGVsbG8=x')).toThrow('invalid base64: unexpected "=" at position 7')
    expect(() => base64Decode('a')).toThrow('invalid base64: 1 characters cannot encode whole bytes')
    expect(() => base64Decode('aGVsb===')).toThrow('invalid base64: unexpected "=" at position 5')
    expect(() => base64Decode('aGV-')).toThrow('invalid base64: unexpected "-" at position 3')
  })

  // One codec for the HAR import, fixtures and the DevTools capture. The capture layer had its
  // own (atob over a loosened input) that also took the URL-safe alphabet, any run of trailing
  // "=" and Unicode spaces; the stricter rule is kept: Chrome's getContent and the CDP's
  // Network.dataReceived send standard base64 (RFC 4648 §4), so anything else is not theirs.
  it('is the strict standard codec: no URL-safe alphabet, no Unicode spaces, at most "=="', () => {
    expect(base64Decode('ZGF0YQ')).toEqual(utf8Encode('data'))
    expect(base64Decode('ZGF0\r\n\tYQ==')).toEqual(utf8Encode('data'))
    expect(() => base64Decode('-_8=')).toThrow('invalid base64: unexpected "-" at position 0')
    expect(() => base64Decode('+/8_')).toThrow('invalid base64: unexpected "_" at position 3')
    expect(() => base64Decode('ZGF0\u00a0YQ==')).toThrow('invalid base64: unexpected "\u00a0" at position 4')
    expect(() => base64Decode('ZGF0YQ===')).toThrow('invalid base64: unexpected "=" at position 6')
    expect(() => base64Decode('data: {}')).toThrow('invalid base64: unexpected ":" at position 4')
  })

  it('encodes a body larger than one block exactly', () => {
    const big = new Uint8Array(100_003).map((_, i) => (i * 7919) & 0xff)
    const b64 = base64Encode(big)
    expect(b64).toBe(Buffer.from(big).toString('base64'))
    expect(base64Decode(b64)).toEqual(big)
  })
})
