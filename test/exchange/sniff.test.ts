import { describe, expect, it } from 'vitest'
import { utf8Encode } from '../../src/exchange/bytes.js'
import { headerValue, isObject, parseJsonInput } from '../../src/exchange/shared.js'
import { SNIFF_HEAD, classifyBody, classifyBytes, listedReason, sniffBody, sniffsAsStream } from '../../src/exchange/sniff.js'
import { envelope } from '../support/connect.js'
import { bedrockEvent } from '../support/eventstream.js'

// One answer to "is this body a stream?" for the HAR import (sniffsAsStream, a whole body)
// and the DevTools capture (classifyBody, a head that may still grow); the small readers of
// src/exchange/shared.ts.

describe('classifyBody', () => {
  it('sniffs SSE from the first field or comment', () => {
    expect(classifyBody('data: {"a":1}\n\n', true)).toBe('sse')
    expect(classifyBody('event: message_start\ndata: {}\n\n', true)).toBe('sse')
    expect(classifyBody(': keep-alive\n\n', true)).toBe('sse')
    expect(classifyBody('\n\nid: 1\n', true)).toBe('sse')
  })

  it('sniffs NDJSON only from two JSON-object lines', () => {
    expect(classifyBody('{"a":1}\n{"a":2}\n', true)).toBe('ndjson')
    expect(classifyBody('{"a":1}\r\n\r\n{"a":2}', true)).toBe('ndjson')
    expect(classifyBody('{"a":1}\n', true)).toBe('no')
    expect(classifyBody('{"a":1}', true)).toBe('no')
    expect(classifyBody('{\n  "a": 1\n}\n', true)).toBe('no')
    expect(classifyBody('{"a":1}\nnot json\n', true)).toBe('no')
    expect(classifyBody('{"a":1}\n[1]\n', true)).toBe('no')
    expect(classifyBody('{"a":1}\nnull\n', true)).toBe('no')
  })

  // The two copies differed here; the rule kept is the core's framing (src/core/lines.ts,
  // src/core/merger.ts): the capture split lines on LF only and trimmed every Unicode space
  // (so took a BOM inside a line, which JSON.parse in the core then rejects); the HAR import
  // kept a leading BOM (which the core drops) and so refused the body.
  it('reads lines as the core frames them: LF, CR or CRLF; a leading BOM dropped; no other trimming', () => {
    expect(classifyBody('{"a":1}\r{"a":2}\r', true)).toBe('ndjson')
    expect(classifyBody('\uFEFF{"a":1}\n{"a":2}\n', true)).toBe('ndjson')
    expect(classifyBody('{"a":1}\n\uFEFF{"a":2}\n', true)).toBe('no')
    expect(classifyBody('{"a":1}\n\u00a0{"a":2}\n', true)).toBe('no')
    expect(classifyBody('  {"a":1}\t\n {"a":2} \n', true)).toBe('ndjson')
  })

  it('waits while the head is too short, and decides at the end', () => {
    expect(classifyBody('', false)).toBeNull()
    expect(classifyBody('da', false)).toBeNull()
    expect(classifyBody('{"a":1}\n', false)).toBeNull()
    expect(classifyBody('{"a":1}\r', false)).toBeNull()
    expect(classifyBody('{"a":1}\n{"a"', false)).toBeNull()
    expect(classifyBody('{"a":1}\n{"a":2}\n', false)).toBe('ndjson')
    expect(classifyBody('', true)).toBe('no')
  })

  it('lists a JSON array only for Gemini streamGenerateContent', () => {
    expect(classifyBody('[{"candidates":[]}\n,{"candidates":[]}]', true, 'https://x/v1beta/models/g:streamGenerateContent')).toBe('json-stream')
    expect(classifyBody('[1,2,3]', true, 'https://x/api/list')).toBe('no')
  })

  it('ignores plain text and HTML', () => {
    expect(classifyBody('Hello, world', true)).toBe('no')
    expect(classifyBody('<!doctype html>', true)).toBe('no')
  })
})

describe('sniffsAsStream', () => {
  it('sniffs streams, not single JSON documents', () => {
    expect(sniffsAsStream('data: {}\n\n')).toBe(true)
    expect(sniffsAsStream(': ping\n\n')).toBe(true)
    expect(sniffsAsStream('event: x\ndata: 1\n\n')).toBe(true)
    expect(sniffsAsStream('{"a":1}\n{"a":2}\n')).toBe(true)
    expect(sniffsAsStream('{"a":1}')).toBe(false)
    expect(sniffsAsStream('{"a":1}\n')).toBe(false)
    expect(sniffsAsStream('{\n  "a": 1\n}')).toBe(false)
    expect(sniffsAsStream('[1,2]')).toBe(false)
    expect(sniffsAsStream('[{"candidates":[]}]', 'https://x/v1beta/models/m:streamGenerateContent')).toBe(true)
    expect(sniffsAsStream('<html>')).toBe(false)
    expect(sniffsAsStream(utf8Encode('data: x\n\n'))).toBe(true)
  })

  it('reads bytes like text, a leading BOM included', () => {
    expect(sniffsAsStream(utf8Encode('\uFEFF{"a":1}\n{"a":2}\n'))).toBe(true)
    expect(sniffsAsStream(utf8Encode('{"a":1}\r{"a":2}'))).toBe(true)
  })

  it('decides on the first SNIFF_HEAD characters', () => {
    const line = `{"a":"${'x'.repeat(SNIFF_HEAD)}"}\n`
    expect(sniffsAsStream(line + line)).toBe(false)
    expect(sniffsAsStream('{"a":1}\n{"a":2}\n' + line)).toBe(true)
  })
})

describe('shared readers', () => {
  it('isObject: a JSON object, not null or an array', () => {
    expect(isObject({})).toBe(true)
    expect(isObject([])).toBe(false)
    expect(isObject(null)).toBe(false)
    expect(isObject('x')).toBe(false)
  })

  it('parseJsonInput: text (a BOM dropped) or a parsed value; the failure named by the caller', () => {
    const fail = (reason: string) => new Error(`Not a thing: ${reason}`)
    expect(parseJsonInput('\uFEFF{"a":1}', fail)).toEqual({ a: 1 })
    const value = { a: 1 }
    expect(parseJsonInput(value, fail)).toBe(value)
    expect(() => parseJsonInput('{', fail)).toThrow(/^Not a thing: the text is not JSON \(/)
  })

  it('headerValue: the first value, the name compared case-insensitively', () => {
    const headers = [{ name: 'Content-Type', value: 'text/event-stream' }, { name: 'content-type', value: 'text/plain' }]
    expect(headerValue(headers, 'content-type')).toBe('text/event-stream')
    expect(headerValue(headers, 'CONTENT-TYPE')).toBe('text/event-stream')
    expect(headerValue([], 'content-type')).toBeNull()
    expect(headerValue(undefined, 'content-type')).toBeNull()
  })
})

// Capture: an AI SDK v4 data stream arrives as text/plain, a Bedrock body as bytes
// (getContent's base64); either is listed, with the reason it was listed.
describe('the data stream and the AWS event stream', () => {
  const enc = (s: string) => new TextEncoder().encode(s)

  it('lists an AI SDK v4 data stream once its first line is a whole part whose JSON parses', () => {
    expect(classifyBody('f:{"messageId":"m1"}\n0:"Hi"\n', true)).toBe('data-stream')
    expect(classifyBody('0:"Hel', false)).toBeNull()
    expect(classifyBody('0:"Hel', true)).toBe('no')
    expect(classifyBody('a:[link](x)\n', true)).toBe('no')
  })

  it('lists bytes that start with an event-stream prelude whose CRC matches, and waits for its 12 bytes', () => {
    const message = bedrockEvent('messageStart', { role: 'assistant' })
    expect([sniffBody(message), classifyBytes(message.subarray(0, 11), '', false), sniffsAsStream(message.subarray(0, 11))]).toEqual(['eventstream', null, false])
  })

  it('lists bytes that start with a Connect envelope of JSON (flags 0 or 2, a length, "{"), and waits for them', () => {
    const body = envelope('{"heartbeat":{}}')
    expect([sniffBody(body), sniffBody(envelope('{}', 2)), classifyBytes(body.subarray(0, 5), '', false), sniffBody(envelope('[1]'))]).toEqual(['connect', 'connect', null, 'no'])
  })

  it('reads a body starting with NUL whose prelude CRC fails as text, and finds no stream', () => {
    const bad = bedrockEvent('messageStart', { role: 'assistant' }).slice()
    bad[8] = bad[8]! ^ 1
    expect(sniffBody(bad)).toBe('no')
  })

  it('says why a body was listed, with the Content-Type that did not say so', () => {
    expect([listedReason('data-stream', 'text/plain; charset=utf-8'), listedReason('eventstream', null), listedReason('sse', 'application/json')]).toEqual([
      'Listed as a stream because its first line is an AI SDK v4 data-stream part (CODE:JSON) (Content-Type text/plain)',
      'Listed as a stream because its body starts with an AWS event-stream message (the prelude CRC matches) (no Content-Type)',
      'Listed as a stream because its body starts with an SSE field or comment (Content-Type application/json)',
    ])
  })

  it('a text/plain data stream is listed by the whole-body sniffer too (the HAR path)', () => {
    expect(sniffsAsStream(enc('0:"Hello"\nd:{"finishReason":"stop"}\n'))).toBe(true)
  })
})
