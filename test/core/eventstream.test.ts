// The AWS event stream, read from the bytes (docs/architecture.md#aws-event-stream), one rule
// per test. The vectors are smithy's own (smithy-lang/smithy-typescript,
// packages/eventstream-codec/src/TestVectors.fixture.ts, from aws-c-event-stream): the
// `success` ones decode, the `failure` ones (a CRC that does not match) are frame errors here.

import { describe, expect, it } from 'vitest'
import { crc32 } from '../../src/core/crc32.js'
import { createMerger, diagnoseMerger, merge, SYMPTOMS, type MergeOptions } from '../../src/index.js'
import { bedrockEvent, bedrockException, concat, encodeMessage } from '../support/eventstream.js'

const u8 = (a: number[]) => Uint8Array.from(a)
const FOO_BAR = [123, 39, 102, 111, 111, 39, 58, 39, 98, 97, 114, 39, 125] // {'foo':'bar'}
const ONE_STR_HEADER = [0, 0, 0, 61, 0, 0, 0, 32, 7, 253, 131, 150, 12, 99, 111, 110, 116, 101, 110, 116, 45, 116, 121, 112, 101, 7, 0, 16, 97, 112, 112, 108, 105, 99, 97, 116, 105, 111, 110, 47, 106, 115, 111, 110, ...FOO_BAR, 141, 156, 8, 177]
const VECTORS = {
  empty_message: u8([0, 0, 0, 16, 0, 0, 0, 0, 5, 194, 72, 235, 125, 152, 200, 255]),
  int32_header: u8([0, 0, 0, 45, 0, 0, 0, 16, 65, 196, 36, 184, 10, 101, 118, 101, 110, 116, 45, 116, 121, 112, 101, 4, 0, 0, 160, 12, ...FOO_BAR, 54, 244, 128, 160]),
  payload_no_headers: u8([0, 0, 0, 29, 0, 0, 0, 0, 253, 82, 140, 90, ...FOO_BAR, 195, 101, 57, 54]),
  payload_one_str_header: u8(ONE_STR_HEADER),
  all_headers: u8([0, 0, 0, 204, 0, 0, 0, 175, 15, 174, 100, 202, 10, 101, 118, 101, 110, 116, 45, 116, 121, 112, 101, 4, 0, 0, 160, 12, 12, 99, 111, 110, 116, 101, 110, 116, 45, 116, 121, 112, 101, 7, 0, 16, 97, 112, 112, 108, 105, 99, 97, 116, 105, 111, 110, 47, 106, 115, 111, 110, 10, 98, 111, 111, 108, 32, 102, 97, 108, 115, 101, 1, 9, 98, 111, 111, 108, 32, 116, 114, 117, 101, 0, 4, 98, 121, 116, 101, 2, 207, 8, 98, 121, 116, 101, 32, 98, 117, 102, 6, 0, 20, 73, 39, 109, 32, 97, 32, 108, 105, 116, 116, 108, 101, 32, 116, 101, 97, 112, 111, 116, 33, 9, 116, 105, 109, 101, 115, 116, 97, 109, 112, 8, 0, 0, 0, 0, 0, 132, 95, 237, 5, 105, 110, 116, 49, 54, 3, 0, 42, 5, 105, 110, 116, 54, 52, 5, 0, 0, 0, 0, 2, 135, 87, 178, 4, 117, 117, 105, 100, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ...FOO_BAR, 171, 165, 241, 12]),
  // failures: a payload byte changed ({'foo' → {afoo), the headers length, the total length, the payload's first byte
  corrupted_headers: u8([...ONE_STR_HEADER.slice(0, 45), 97, ...ONE_STR_HEADER.slice(46)]),
  corrupted_header_len: u8([...ONE_STR_HEADER.slice(0, 7), 33, ...ONE_STR_HEADER.slice(8)]),
  corrupted_length: u8([0, 0, 0, 62, ...ONE_STR_HEADER.slice(4)]),
  corrupted_payload: u8([0, 0, 0, 29, 0, 0, 0, 0, 253, 82, 140, 90, 91, ...FOO_BAR.slice(1), 195, 101, 57, 54]),
}

function read(bytes: Uint8Array, options: MergeOptions = { transport: 'eventstream' }) {
  const m = createMerger(options)
  m.push(bytes)
  const reply = m.end()
  return { m, reply, frames: m.frames() }
}

describe('CRC-32', () => {
  it('is the IEEE CRC-32 of zlib: "123456789" sums to 0xcbf43926, and a sum continues over two parts', () => {
    const bytes = new TextEncoder().encode('123456789')
    expect([crc32(bytes), crc32(bytes.subarray(4), crc32(bytes.subarray(0, 4)))]).toEqual([0xcbf43926, 0xcbf43926])
  })
})

// the CRCs quoted below were computed with Python's zlib.crc32, not by this code
describe("smithy's test vectors", () => {
  it('a message with a string header shows the header and its payload, and the payload is the frame data', () => {
    const { frames } = read(VECTORS.payload_one_str_header)
    expect(frames.map((f) => [f.kind, f.raw, f.data, f.byteStart, f.byteEnd, f.line])).toEqual([
      ['invalid', "content-type: application/json\n\n{'foo':'bar'}", "{'foo':'bar'}", 0, 61, 1],
    ])
  })

  it('every header type is shown with its value: booleans, byte, short, integer, long, bytes as hex, timestamp, uuid', () => {
    expect(read(VECTORS.all_headers).frames[0]!.raw).toBe([
      'event-type: 40972 (integer)', 'content-type: application/json', 'bool false: false (boolean)', 'bool true: true (boolean)',
      'byte: -49 (byte)', 'byte buf: 49276d2061206c6974746c6520746561706f7421 (bytes)', 'timestamp: 1970-01-01T02:24:35.309Z (timestamp)',
      'int16: 42 (short)', 'int64: 42424242 (long)', 'uuid: 01020304-0506-0708-090a-0b0c0d0e0f10 (uuid)', '', "{'foo':'bar'}",
    ].join('\n'))
  })

  it('the success vectors are one frame each, at their exact byte offsets one after another', () => {
    const body = concat(VECTORS.empty_message, VECTORS.int32_header, VECTORS.payload_no_headers, VECTORS.payload_one_str_header, VECTORS.all_headers)
    const { frames, reply } = read(body)
    expect(frames.map((f) => [f.byteStart, f.byteEnd, f.line])).toEqual([[0, 16, 1], [16, 61, 2], [61, 90, 3], [90, 151, 4], [151, 355, 5]])
    // their payloads are not JSON ('foo' in single quotes; an empty one): parse errors, not CRC errors
    expect(reply.errors.map((e) => [e.frame, e.offset])).toEqual([[0, 0], [1, 16], [2, 61], [3, 90], [4, 151]])
    expect(reply.errors.every((e) => !e.message.includes('CRC'))).toBe(true)
  })

  it('a changed payload byte fails the message CRC: a frame error at its byte offset, and the next message is read', () => {
    const next = bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'after' } })
    const { reply, frames } = read(concat(VECTORS.corrupted_headers, next), { transport: 'eventstream', provider: 'bedrock' })
    expect(reply.errors).toEqual([{
      frame: 0, offset: 0, line: 1, raw: "content-type: application/json\n\n{afoo':'bar'}",
      message: 'message CRC mismatch at byte 57 (the message says 0x8d9c08b1, its bytes sum to 0x52c21aa1): the message is not read',
    }])
    expect([frames[1]!.byteStart, reply.choices[0]!.content]).toEqual([61, 'after'])
  })

  it('a changed first payload byte with no headers fails the message CRC too', () => {
    expect(read(VECTORS.corrupted_payload).reply.errors.map((e) => e.message)).toEqual([
      'message CRC mismatch at byte 25 (the message says 0xc3653936, its bytes sum to 0x701b72c3): the message is not read',
    ])
  })

  it('a changed headers length or total length fails the prelude CRC: reading stops and the rest is one error', () => {
    for (const bytes of [VECTORS.corrupted_header_len, VECTORS.corrupted_length]) {
      const after = concat(bytes, VECTORS.payload_no_headers)
      const { reply, frames } = read(after)
      expect(frames.map((f) => [f.kind, f.byteStart, f.byteEnd])).toEqual([['invalid', 0, 90]])
      expect(reply.errors[0]!.message).toMatch(/^prelude CRC mismatch at byte 8 \(the prelude says 0x07fd8396, its bytes sum to 0x[0-9a-f]{8}\): where the next message starts cannot be known, so the rest of the body \(90 bytes from byte 0\) is not read$/)
      expect(reply.errors[0]!.raw).toMatch(/^00 00 00 3[de] 00 00 00 2[01] 07 fd 83 96 0c 63 6f 6e .* … \(90 bytes, not a readable message\)$/)
    }
  })
})

describe('Bedrock messages', () => {
  it("an event message's frame event is its :event-type, and its raw shows its headers then its JSON", () => {
    const { frames } = read(bedrockEvent('messageStart', { p: 'abc', role: 'assistant' }))
    expect([frames[0]!.event, frames[0]!.raw, frames[0]!.json]).toEqual([
      'messageStart', ':event-type: messageStart\n:content-type: application/json\n:message-type: event\n\n{"p":"abc","role":"assistant"}', { p: 'abc', role: 'assistant' },
    ])
  })

  it("an exception message's event is exception:<its :exception-type>, and it is a stream error", () => {
    const { m, frames } = read(concat(bedrockEvent('messageStart', { role: 'assistant' }), bedrockException('throttlingException', 'Too many requests')))
    expect(frames[1]!.event).toBe('exception:throttlingException')
    expect(m.streamErrors()).toEqual([{ frame: 1, message: 'Too many requests', code: null, type: 'throttlingException', payload: { message: 'Too many requests' } }])
  })

  it("an error message (no payload) is error:<:error-code> with its code and message as data, and a stream error", () => {
    const error = encodeMessage({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'An internal error occurred' }, '')
    const { m, frames } = read(concat(bedrockEvent('messageStart', { role: 'assistant' }), error))
    expect([frames[1]!.event, frames[1]!.data]).toEqual(['error:InternalFailure', '{"errorCode":"InternalFailure","errorMessage":"An internal error occurred"}'])
    expect(m.streamErrors().map((e) => [e.message, e.code, e.type])).toEqual([['An internal error occurred', 'InternalFailure', 'error']])
  })

  it('a body that ends inside a message makes what arrived of it one frame error at its byte offset', () => {
    const first = bedrockEvent('messageStart', { role: 'assistant' })
    const second = bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } })
    const { reply, m } = read(concat(first, second.subarray(0, 20)))
    expect(reply.errors.map((e) => [e.frame, e.offset, e.message])).toEqual([[1, first.length, `truncated message at byte ${first.length}: the body ended after 20 of its ${second.length} bytes`]])
    expect(m.diagnostics().map((d) => d.code)).not.toContain('unterminated-frame')
  })

  it('a body that ends inside a prelude says how much of it came', () => {
    expect(read(u8([0, 0, 0])).reply.errors.map((e) => e.message)).toEqual(['truncated message at byte 0: the body ended 3 bytes into its 12-byte prelude'])
  })

  it('a prelude whose CRC matches but whose length is impossible stops the reading too', () => {
    const prelude = (total: number, headers: number) => {
      const p = new Uint8Array(12)
      new DataView(p.buffer).setUint32(0, total)
      new DataView(p.buffer).setUint32(4, headers)
      new DataView(p.buffer).setUint32(8, crc32(p.subarray(0, 8)))
      return p
    }
    expect([
      read(concat(prelude(0xffffffff, 0), new Uint8Array(30))).reply.errors[0]!.message,
      read(concat(prelude(8, 0), new Uint8Array(30))).reply.errors[0]!.message,
      read(concat(prelude(100, 90), new Uint8Array(88))).reply.errors[0]!.message,
    ]).toEqual([
      'impossible message length 4294967295 at byte 0 (a message is 16 bytes to 16 MiB): where the next message starts cannot be known, so the rest of the body (42 bytes from byte 0) is not read',
      'impossible message length 8 at byte 0 (a message is 16 bytes to 16 MiB): where the next message starts cannot be known, so the rest of the body (42 bytes from byte 0) is not read',
      'impossible headers length 90 at byte 4 for a message of 100 bytes: where the next message starts cannot be known, so the rest of the body (100 bytes from byte 0) is not read',
    ])
  })

  it('a header that runs past the headers is a frame error at its byte offset', () => {
    const good = encodeMessage({ ':event-type': 'messageStart' }, '{}')
    const bad = good.slice()
    bad[12] = 200 // the first header's name length now runs past the headers
    const total = bad.length
    new DataView(bad.buffer).setUint32(total - 4, crc32(bad.subarray(0, total - 4)))
    expect(read(bad).reply.errors.map((e) => e.message)).toEqual(['malformed header at byte 12: its name runs past the headers'])
  })
})

describe('transport', () => {
  it('application/vnd.amazon.eventstream reads the body as an event stream', () => {
    expect(read(bedrockEvent('messageStart', { role: 'assistant' }), { contentType: 'application/vnd.amazon.eventstream' }).reply.transport).toBe('eventstream')
  })

  it('without a Content-Type, a body whose first 12 bytes are a prelude with a matching CRC is an event stream', () => {
    const body = bedrockEvent('messageStart', { role: 'assistant' })
    expect([read(body, {}).reply.transport, merge(body).transport]).toEqual(['eventstream', 'eventstream'])
  })

  it('a binary body whose prelude CRC does not match stays binary-eventstream, not read', () => {
    const body = bedrockEvent('messageStart', { role: 'assistant' }).slice()
    body[9] = body[9]! ^ 1
    const { reply, m } = read(body, {})
    expect([reply.transport, m.diagnostics().filter((d) => d.code !== 'invalid-utf8').map((d) => d.code)]).toEqual(['unknown', ['binary-eventstream']])
    expect(SYMPTOMS['binary-eventstream']).toContain('AWS event-stream decoder')
  })

  it('a forced text transport reads even an event stream as text', () => {
    expect(read(bedrockEvent('messageStart', { role: 'assistant' }), { transport: 'ndjson' }).reply.transport).toBe('ndjson')
  })

  it('a stored frame shows the same raw text and data read again from the body as when it was read', () => {
    const body = concat(bedrockEvent('messageStart', { role: 'assistant' }), bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'é€😀' } }))
    const m = createMerger({})
    for (let i = 0; i < body.length; i += 7) m.push(body.subarray(i, i + 7))
    m.end()
    expect([m.frame(1).data, m.replyAt(1).choices[0]!.content]).toEqual(['{"contentBlockIndex":0,"delta":{"text":"é€😀"}}', 'é€😀'])
  })
})

describe('the debugger on an event stream', () => {
  it('reports no character split across reads: its bytes are not text, though CRC bytes can look like UTF-8 sequences', () => {
    const body = concat(bedrockEvent('messageStart', { role: 'assistant' }), bedrockEvent('messageStop', { stopReason: 'end_turn' }))
    const m = createMerger({})
    const chunks = []
    for (let i = 0; i < body.length; i++) { m.push(body.subarray(i, i + 1), i); chunks.push({ data: body.subarray(i, i + 1), t: i }) }
    m.end()
    expect(diagnoseMerger(m, chunks).filter((d) => d.code === 'utf8-split-across-reads')).toEqual([])
  })
})
