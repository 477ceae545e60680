import { describe, expect, it } from 'vitest'
import { asWindows1252 } from '../support/windows-1252.js'
import { base64Encode } from '../../src/exchange/bytes.js'
import {
  bodyFromContent,
  charsetOf,
  isStreamingContentType,
  lossyBinaryText,
  mayBeStream,
  normaliseGetContent,
  withoutZeroTail,
  ZERO_TAIL_MIN,
  type BodyData,
} from '../../src/shells/extension/normalise.js'

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const decodeUtf8 = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(b)

function textOf(body: BodyData): string {
  if (body.kind === 'text') return body.text
  if (body.kind === 'bytes') return decodeUtf8(body.bytes)
  throw new Error('no body')
}

describe('normaliseGetContent: every shape getContent answers in', () => {
  const SSE = 'data: {"x":1}\n\n'

  it('Chrome callback form: (content, encoding)', () => {
    expect(normaliseGetContent([SSE, ''])).toEqual({ content: SSE, encoding: '', mimeType: null })
    expect(normaliseGetContent(['ZGF0YQ==', 'base64'])).toEqual({ content: 'ZGF0YQ==', encoding: 'base64', mimeType: null })
  })

  it('Chromium 156 native browser promise: {content, encoding}', () => {
    expect(normaliseGetContent([{ content: SSE, encoding: '' }])).toEqual({ content: SSE, encoding: '', mimeType: null })
    expect(normaliseGetContent([{ content: 'ZGF0YQ==', encoding: 'base64' }]).encoding).toBe('base64')
  })

  it('webextension-polyfill on a Chrome without browser: [content, encoding]', () => {
    expect(normaliseGetContent([[SSE, '']])).toEqual({ content: SSE, encoding: '', mimeType: null })
    expect(normaliseGetContent([['ZGF0YQ==', 'base64']])).toEqual({ content: 'ZGF0YQ==', encoding: 'base64', mimeType: null })
  })

  it('Firefox: [content, mimeType], the MIME type is not an encoding', () => {
    expect(normaliseGetContent([[SSE, 'text/event-stream']])).toEqual({ content: SSE, encoding: '', mimeType: 'text/event-stream' })
    expect(normaliseGetContent([[SSE, 'application/x-ndjson; charset=utf-8']])).toEqual({
      content: SSE, encoding: '', mimeType: 'application/x-ndjson; charset=utf-8',
    })
  })

  it('a body that is not there: null, undefined, nothing', () => {
    expect(normaliseGetContent([null, '']).content).toBeNull()
    expect(normaliseGetContent([undefined]).content).toBeNull()
    expect(normaliseGetContent([]).content).toBeNull()
    expect(normaliseGetContent([{ content: null, encoding: '' }]).content).toBeNull()
    expect(normaliseGetContent([[null, 'text/event-stream']]).content).toBeNull()
  })

  it('the encoding is case-insensitive', () => {
    expect(normaliseGetContent(['QQ==', 'BASE64']).encoding).toBe('base64')
  })
})

// The codec itself is src/exchange/bytes.ts's, tested in test/exchange/raw.test.ts.
describe('base64 bodies', () => {
  it('a base64 body becomes its bytes, UTF-8 split anywhere intact', () => {
    const wire = 'data: {"content":"€ 😀 中文"}\n\n'
    const body = bodyFromContent({ content: base64Encode(utf8(wire)), encoding: 'base64', mimeType: null }, 'application/octet-stream')
    expect(body.kind).toBe('bytes')
    expect(textOf(body)).toBe(wire)
  })

  it('a base64 body with invalid base64 is passed on as text rather than lost', () => {
    expect(bodyFromContent({ content: 'not base64!', encoding: 'base64', mimeType: null }, null)).toEqual({ kind: 'text', text: 'not base64!' })
  })
})

describe('text Chrome may have decoded as windows-1252 (the store repairs it: test/exchange/windows-1252.test.ts)', () => {
  it('marks the text of a response that named no charset and is text, unchanged', () => {
    const seen = asWindows1252('data: "€"\n\n')
    const raw = { content: seen, encoding: '', mimeType: null }
    for (const type of ['text/event-stream', 'text/plain', null]) expect(bodyFromContent(raw, type)).toEqual({ kind: 'text', text: seen, decodedAs: 'windows-1252' })
    // A named charset was honoured by Chrome: what it shows is what was sent.
    expect(bodyFromContent(raw, 'text/event-stream; charset=utf-8')).toEqual({ kind: 'text', text: seen })
    expect(bodyFromContent(raw, 'text/event-stream; charset=windows-1252')).toEqual({ kind: 'text', text: seen })
    // JSON types are decoded as UTF-8 by default.
    expect(bodyFromContent(raw, 'application/x-ndjson')).toEqual({ kind: 'text', text: seen })
  })

  it('keeps the mark when a NUL tail is cut', () => {
    const text = 'data: x\n\n'
    expect(withoutZeroTail({ kind: 'text', text: text + '\0'.repeat(ZERO_TAIL_MIN), decodedAs: 'windows-1252' })).toEqual({ body: { kind: 'text', text, decodedAs: 'windows-1252' }, zeros: ZERO_TAIL_MIN })
  })
})

describe('charset', () => {
  it('reads the charset parameter', () => {
    expect(charsetOf('text/event-stream; charset=UTF-8')).toBe('utf-8')
    expect(charsetOf('text/plain;charset="utf-8"')).toBe('utf-8')
    expect(charsetOf('text/event-stream')).toBeNull()
    expect(charsetOf(null)).toBeNull()
  })
})

describe('which responses are listed', () => {
  it('stream content types', () => {
    for (const t of ['text/event-stream', 'text/event-stream; charset=utf-8', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/json-lines', 'application/x-jsonlines', 'application/stream+json']) {
      expect(isStreamingContentType(t)).toBe(true)
    }
    for (const t of ['text/plain', 'application/json', 'text/html', null, '']) expect(isStreamingContentType(t)).toBe(false)
  })

  it('what may be a stream and is worth reading', () => {
    expect(mayBeStream('text/plain; charset=utf-8', 'fetch')).toBe(true)
    expect(mayBeStream('application/json', 'xhr')).toBe(true)
    expect(mayBeStream(null, 'fetch')).toBe(true)
    expect(mayBeStream('text/event-stream', 'eventsource')).toBe(true)
    expect(mayBeStream('text/event-stream', 'script')).toBe(true)
    expect(mayBeStream('text/html', 'fetch')).toBe(false)
    expect(mayBeStream('image/png', 'fetch')).toBe(false)
    expect(mayBeStream('text/plain', 'document')).toBe(false)
    expect(mayBeStream('application/javascript', 'script')).toBe(false)
  })
})

describe('withoutZeroTail: the NULs Firefox puts where it kept no body', () => {
  const sse = 'data: {"a":1}\n\n'
  it('cuts a run of ZERO_TAIL_MIN or more NULs from the end of a text, and says how long it was', () => {
    expect(withoutZeroTail({ kind: 'text', text: sse + '\0'.repeat(ZERO_TAIL_MIN) })).toEqual({ body: { kind: 'text', text: sse }, zeros: ZERO_TAIL_MIN })
  })
  it('keeps a shorter run: it may be the body', () => {
    const body = { kind: 'text' as const, text: sse + '\0'.repeat(ZERO_TAIL_MIN - 1) }
    expect(withoutZeroTail(body)).toEqual({ body, zeros: 0 })
  })
  it('cuts zero bytes from the end of bytes the same way', () => {
    const bytes = new Uint8Array([1, 2, 3, ...new Array(ZERO_TAIL_MIN + 5).fill(0)])
    const cut = withoutZeroTail({ kind: 'bytes', bytes })
    expect(cut.zeros).toBe(ZERO_TAIL_MIN + 5)
    expect(cut.body).toEqual({ kind: 'bytes', bytes: new Uint8Array([1, 2, 3]) })
  })
  it('a body that is all NULs is cut to nothing; no body stays none', () => {
    expect(withoutZeroTail({ kind: 'text', text: '\0'.repeat(4096) })).toEqual({ body: { kind: 'text', text: '' }, zeros: 4096 })
    expect(withoutZeroTail({ kind: 'none' })).toEqual({ body: { kind: 'none' }, zeros: 0 })
  })
})

describe('lossyBinaryText: a Connect body handed over as text', () => {
  it('a Connect body handed over as text with U+FFFD says why it cannot be read whole', () => {
    expect(lossyBinaryText({ kind: 'text', text: '\u0000\u0000\u0000\u0000\uFFFD{"a":1}' }, 'application/connect+json')).toBe(
      'DevTools handed over this Connect body as text: envelope lengths over 127 bytes were decoded as U+FFFD and cannot be read back. Turn on Live and reload for its bytes.',
    )
  })

  it('says nothing for bytes, for a text without U+FFFD, or for another Content-Type', () => {
    expect([
      lossyBinaryText({ kind: 'bytes', bytes: new Uint8Array([0xef, 0xbf, 0xbd]) }, 'application/connect+json'),
      lossyBinaryText({ kind: 'text', text: '\u0000\u0000\u0000\u0000\u0007{"a":1}' }, 'application/connect+json'),
      lossyBinaryText({ kind: 'text', text: 'data: \uFFFD\n\n' }, 'text/event-stream'),
    ]).toEqual([null, null, null])
  })
})
