import { describe, expect, it } from 'vitest'
import { base64Encode } from '../../src/exchange/bytes.js'
import {
  bodyFromContent,
  charsetOf,
  encodeWindows1252,
  isStreamingContentType,
  mayBeStream,
  normaliseGetContent,
  repairWindows1252,
  withoutZeroTail,
  ZERO_TAIL_MIN,
  type BodyData,
} from '../../src/capture/normalise.js'

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const decodeUtf8 = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(b)
// windows-1252 as the WHATWG Encoding Standard decodes it (and Chrome): 0x80–0x9F below, every
// other byte its own code point. Written out here because Node's TextDecoder('windows-1252')
// decodes as ISO-8859-1 (0x80 → U+0080, not €), which is not what Chrome shows.
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ'
const decodeWindows1252 = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? HIGH[b - 0x80]! : String.fromCharCode(b))).join('')
/** What Chrome shows for a UTF-8 body it decoded as windows-1252. */
const asWindows1252 = (s: string): string => decodeWindows1252(utf8(s))

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
    expect(body).toMatchObject({ kind: 'bytes', why: 'base64' })
    expect(textOf(body)).toBe(wire)
  })

  it('a base64 body with invalid base64 is passed on as text rather than lost', () => {
    expect(bodyFromContent({ content: 'not base64!', encoding: 'base64', mimeType: null }, null)).toEqual({ kind: 'text', text: 'not base64!' })
  })
})

describe('windows-1252 repair of charset-less text bodies', () => {
  it('knows the real mojibake strings', () => {
    expect(asWindows1252('€')).toBe('â‚¬')
    expect(asWindows1252('é')).toBe('Ã©')
    expect(asWindows1252('😀')).toBe('ðŸ˜€')
  })

  it('repairs the euro sign, accents, emoji and Chinese', () => {
    expect(decodeUtf8(repairWindows1252('â‚¬')!)).toBe('€')
    expect(decodeUtf8(repairWindows1252('cafÃ©')!)).toBe('café')
    expect(decodeUtf8(repairWindows1252('ðŸ˜€')!)).toBe('😀')
    for (const s of ['中文', '你好，世界', '“quotes” – dash … ™', 'Grüße, señor, Ærøskøbing', '🧪🚀 mixed ASCII and 中文 and €']) {
      expect(decodeUtf8(repairWindows1252(asWindows1252(s))!)).toBe(s)
    }
  })

  it('repairs bytes that windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)', () => {
    // "ǝ" is C7 9D, "ā" is C4 81, "ō" is C5 8D, "Ə" is C6 8F, "А" (Cyrillic) is D0 90.
    const s = 'ǝ ā ō Ə А'
    expect(decodeUtf8(repairWindows1252(asWindows1252(s))!)).toBe(s)
  })

  it('repairs a whole SSE body so the frames parse', () => {
    const wire = 'data: {"choices":[{"delta":{"content":"Prix : 5 € — 中文 😀"}}]}\n\ndata: [DONE]\n\n'
    const seen = asWindows1252(wire)
    const body = bodyFromContent({ content: seen, encoding: '', mimeType: null }, 'text/event-stream')
    expect(body).toMatchObject({ kind: 'bytes', why: 'windows-1252-repair' })
    expect(textOf(body)).toBe(wire)
  })

  it('leaves pure ASCII alone', () => {
    expect(repairWindows1252('data: {"a":"b"}\n\n')).toBeNull()
    expect(bodyFromContent({ content: 'data: x\n\n', encoding: '', mimeType: null }, 'text/event-stream')).toEqual({ kind: 'text', text: 'data: x\n\n' })
  })

  it('does not "repair" genuine Latin-1 / windows-1252 text', () => {
    for (const s of ['café', 'naïve façade', 'Grüße', 'Ærøskøbing', '5 €', '“smart quotes”', '© 2024 ®', 'Ã', 'â‚', 'prix: 10 ¤']) {
      expect(repairWindows1252(s)).toBeNull()
    }
  })

  it('does not touch text with characters windows-1252 cannot hold (it was decoded as UTF-8)', () => {
    for (const s of ['中文', '😀', 'Привет', 'café 中文', 'Ã© 中']) expect(repairWindows1252(s)).toBeNull()
  })

  it('only repairs when the response named no charset and is text', () => {
    const seen = asWindows1252('data: "€"\n\n')
    const raw = { content: seen, encoding: '', mimeType: null }
    expect(bodyFromContent(raw, 'text/event-stream').kind).toBe('bytes')
    expect(bodyFromContent(raw, 'text/plain').kind).toBe('bytes')
    expect(bodyFromContent(raw, null).kind).toBe('bytes')
    // A named charset was honoured by Chrome: what it shows is what was sent.
    expect(bodyFromContent(raw, 'text/event-stream; charset=utf-8')).toEqual({ kind: 'text', text: seen })
    expect(bodyFromContent(raw, 'text/event-stream; charset=windows-1252')).toEqual({ kind: 'text', text: seen })
    // JSON types are decoded as UTF-8 by default.
    expect(bodyFromContent(raw, 'application/x-ndjson')).toEqual({ kind: 'text', text: seen })
  })

  it('encodeWindows1252 maps the 0x80–0x9F block and refuses what is outside the code page', () => {
    expect(encodeWindows1252('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')).toEqual(
      new Uint8Array([0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e, 0x9f]),
    )
    expect(encodeWindows1252('ÿ\u00a0')).toEqual(new Uint8Array([0xff, 0xa0]))
    expect(encodeWindows1252('Ā')).toBeNull()
    // Every byte survives windows-1252 decoding and re-encoding.
    const all = new Uint8Array(256).map((_, i) => i)
    expect(encodeWindows1252(decodeWindows1252(all))).toEqual(all)
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
    const cut = withoutZeroTail({ kind: 'bytes', bytes, why: 'base64' })
    expect(cut.zeros).toBe(ZERO_TAIL_MIN + 5)
    expect(cut.body).toEqual({ kind: 'bytes', bytes: new Uint8Array([1, 2, 3]), why: 'base64' })
  })
  it('a body that is all NULs is cut to nothing; no body stays none', () => {
    expect(withoutZeroTail({ kind: 'text', text: '\0'.repeat(4096) })).toEqual({ body: { kind: 'text', text: '' }, zeros: 4096 })
    expect(withoutZeroTail({ kind: 'none' })).toEqual({ body: { kind: 'none' }, zeros: 0 })
  })
})
