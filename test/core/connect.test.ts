// Connect server streaming, read from the bytes (docs/architecture.md#connect-streaming), one
// rule per test: each envelope is flags (1) · length (4, big-endian) · payload; 0x02 ends the
// stream with its own JSON, 0x01 says the payload is compressed.

import { describe, expect, it } from 'vitest'
import { createMerger, merge, type MergeOptions } from '../../src/index.js'
import { END_STREAM_EVENT } from '../../src/core/connect.js'
import { CONNECT_END_STREAM } from '../../src/providers/shared.js'
import { concatBytes, endStream, envelope } from '../support/connect.js'

const JSON_TYPE: MergeOptions = { contentType: 'application/connect+json' }

function read(bytes: Uint8Array, options: MergeOptions = JSON_TYPE) {
  const m = createMerger(options)
  m.push(bytes)
  const reply = m.end()
  return { m, reply, frames: m.frames() }
}

describe('Connect envelopes', () => {
  it('each envelope is one frame at its exact byte offsets, its payload the data; the end-stream envelope is the event end-stream', () => {
    const a = envelope('{"a":1}')
    const b = envelope('{"heartbeat":{}}')
    const end = endStream('{}')
    const { reply, frames } = read(concatBytes(a, b, end))
    expect(reply.transport).toBe('connect')
    expect(frames.map((f) => [f.kind, f.event, f.data, f.raw, f.byteStart, f.byteEnd, f.line])).toEqual([
      ['data', null, '{"a":1}', '{"a":1}', 0, 12, 1],
      ['data', null, '{"heartbeat":{}}', '{"heartbeat":{}}', 12, 33, 2],
      ['data', 'end-stream', '{}', '{}', 33, 40, 3],
    ])
    expect(reply.errors).toEqual([])
  })

  it('a payload in UTF-8 split across pushes is read whole, whatever the cut', () => {
    const body = concatBytes(envelope('{"t":"你好"}'), envelope('{"t":"🙂"}'))
    for (let cut = 1; cut < body.length; cut++) {
      const m = createMerger(JSON_TYPE)
      m.push(body.subarray(0, cut))
      m.push(body.subarray(cut))
      m.end()
      expect(m.frames().map((f) => f.data)).toEqual(['{"t":"你好"}', '{"t":"🙂"}'])
    }
  })

  it('the end-stream envelope ends the stream, and its error is a provider error with its code and message, whatever the service', () => {
    const { reply } = read(concatBytes(envelope('{"a":1}'), endStream('{"error":{"code":"resource_exhausted","message":"too many requests"}}')))
    expect([reply.provider, reply.done, reply.errors]).toEqual(['generic', true, []])
    const m = createMerger(JSON_TYPE)
    m.push(concatBytes(envelope('{"a":1}'), endStream('{"error":{"code":"resource_exhausted","message":"too many requests"}}')))
    m.end()
    expect(m.diagnostics().filter((d) => d.code === 'provider-error').map((d) => [d.frame, d.message])).toEqual([[1, 'the provider sent an error (code "resource_exhausted"): "too many requests"']])
  })

  it('a compressed envelope (flag 0x01) is a frame error saying so, and the next envelope is read', () => {
    const { reply, frames } = read(concatBytes(envelope(Uint8Array.from([0x1f, 0x8b, 8, 0]), 0x01), envelope('{"b":2}')))
    expect(frames.map((f) => [f.kind, f.data])).toEqual([['invalid', ''], ['data', '{"b":2}']])
    expect(reply.errors.map((e) => [e.frame, e.offset, e.message, e.raw])).toEqual([[0, 0,
      "compressed envelope at byte 0 (flag 0x01): its 4 bytes are compressed with the stream's Connect-Content-Encoding, which is not inflated here",
      '1f 8b 08 00 (4 bytes, not a readable message)']])
  })

  it('a payload that is not JSON is a frame error showing the payload, not the envelope prefix', () => {
    expect(read(concatBytes(envelope('{"a":1}'), envelope('{"a":'))).reply.errors.map((e) => [e.frame, e.offset, e.raw])).toEqual([[1, 12, '{"a":']])
  })

  it('an unknown flag is a frame error naming it', () => {
    expect(read(envelope('{}', 0x80)).reply.errors.map((e) => e.message)).toEqual([
      'unknown envelope flags 0x80 at byte 0 (Connect defines 0x01 compressed and 0x02 end-of-stream): the payload is not read',
    ])
  })

  it('under application/connect+proto, messages are protobuf (frame errors saying so) and the end-stream JSON is read', () => {
    const { reply, frames } = read(concatBytes(envelope(Uint8Array.from([0x0a, 0x02, 0x68, 0x69])), endStream('{}')), { contentType: 'application/connect+proto' })
    expect(reply.transport).toBe('connect')
    expect(frames.map((f) => [f.kind, f.event, f.data])).toEqual([['invalid', null, ''], ['data', 'end-stream', '{}']])
    expect(reply.errors.map((e) => e.message)).toEqual(["protobuf message at byte 0 (application/connect+proto): its 4 bytes cannot be read without the service's schema"])
  })

  it('a body that ends inside an envelope makes what arrived of it one frame error at its byte offset', () => {
    const first = envelope('{"a":1}')
    const second = envelope('{"text":"cut here"}')
    const { reply, m } = read(concatBytes(first, second.subarray(0, 9)))
    expect(reply.errors.map((e) => [e.frame, e.offset, e.message])).toEqual([[1, 12, 'truncated envelope at byte 12: the body ended after 9 of its 24 bytes']])
    expect(m.diagnostics().map((d) => d.code)).not.toContain('unterminated-frame')
    expect(read(Uint8Array.from([0, 0, 0])).reply.errors.map((e) => e.message)).toEqual(['truncated envelope at byte 0: the body ended 3 bytes into its 5-byte prefix (flags and length)'])
  })

  it('a length over 64 MiB cannot be believed: reading stops and the rest of the body is one error', () => {
    const bad = Uint8Array.from([0, 0x7f, 0xff, 0xff, 0xff, 0x7b, 0x7d])
    const { reply } = read(concatBytes(envelope('{"a":1}'), bad))
    expect(reply.errors.map((e) => [e.frame, e.offset, e.message])).toEqual([[1, 12,
      'impossible envelope length 2147483647 at byte 13 (over 67108864 bytes): where the next envelope starts cannot be known, so the rest of the body (7 bytes from byte 12) is not read']])
  })
})

describe("the end-of-stream envelope's event", () => {
  it('is the one the providers read (they import no core code, so they name it themselves)', () => {
    expect(END_STREAM_EVENT).toBe(CONNECT_END_STREAM)
  })
})

describe('choosing Connect', () => {
  it('application/connect+json and application/connect+proto (with parameters) read the body as Connect', () => {
    for (const contentType of ['application/connect+json', 'application/connect+proto', 'Application/Connect+JSON; charset=utf-8']) {
      expect(merge(envelope('{"a":1}'), { contentType }).transport).toBe('connect')
    }
  })

  it('without a Content-Type, a body starting with an envelope of JSON (flags 0 or 2, a length, "{") is Connect', () => {
    const m = createMerger()
    m.push(concatBytes(envelope('{"a":1}'), endStream('{}')))
    expect(m.end().transport).toBe('connect')
  })

  it('a body starting with a NUL that is not an envelope of JSON is not Connect', () => {
    expect(merge(Uint8Array.from([0, 0, 0, 0, 5, 0x5b, 0x5d, 0, 0, 0, 0, 0])).transport).not.toBe('connect')
  })

  it('a forced text transport reads even a Connect body as text', () => {
    expect(merge(envelope('{"a":1}'), { transport: 'ndjson' }).transport).toBe('ndjson')
  })

  it('a stored frame shows the same raw text and data read again from the body as when it was read', () => {
    const m = createMerger(JSON_TYPE)
    m.push(concatBytes(envelope('{"a":"é"}'), endStream('{"error":{"code":"internal"}}')))
    m.end()
    expect(m.frames().map((f) => [f.raw, f.data, f.event])).toEqual([['{"a":"é"}', '{"a":"é"}', null], ['{"error":{"code":"internal"}}', '{"error":{"code":"internal"}}', 'end-stream']])
  })
})
