// Chunking invariance for the newer framings (docs/architecture.md#testing): an AWS event
// stream (binary messages, some corrupted, truncated or with an untrustworthy prelude), a
// Connect stream (envelopes, compressed, broken or cut ones among them) and an
// AI SDK v4 data stream (CODE:JSON lines, broken ones among them, any line ending, multi-byte
// text): however the bytes are cut into pushes, the Reply, the frames (byte offsets and raw
// text included), stream errors, provenance and diagnostics are those of the whole body.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { merge, type MergeOptions } from '../../src/index.js'
import { concatBytes, envelope } from '../support/connect.js'
import { bedrockEvent, bedrockException, concat, encodeMessage } from '../support/eventstream.js'
import { chunkInvariantView, cut, enc, eol, mergeChunks, oneByteCuts, randomCuts, richText } from '../support/property.js'

function expectChunkInvariant(bytes: Uint8Array, options: MergeOptions, cuts: number[]): void {
  const whole = mergeChunks([bytes], options)
  expect(whole.reply).toEqual(merge(bytes, options))
  expect(chunkInvariantView(mergeChunks(cut(bytes, cuts), options))).toEqual(chunkInvariantView(whole))
}

// ---------------------------------------------------------------- AWS event stream

/** One ConverseStream message (text, reasoning, a tool call's pieces, the end), or an exception. */
const bedrockMessage: fc.Arbitrary<Uint8Array> = fc.oneof(
  richText().map((text) => bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text }, p: 'abcdefgh' })),
  richText(6).map((text) => bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text } }, p: 'ab' })),
  fc.constant(bedrockEvent('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } }, p: 'abc' })),
  richText(6).map((input) => bedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input } }, p: 'abcd' })),
  fc.constant(bedrockEvent('messageStop', { stopReason: 'end_turn', p: 'a' })),
  fc.constant(bedrockEvent('metadata', { usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 }, metrics: { latencyMs: 9 }, p: 'ab' })),
  fc.constant(bedrockException('throttlingException', 'Too many requests, please wait before trying again.')),
  fc.constant(encodeMessage({ ':event-type': 'contentBlockDelta', ':content-type': 'application/json', ':message-type': 'event' }, '{"contentBlockIndex":0,"delta":{"text":')),
)

/** What may go wrong with a message: nothing (mostly), a flipped byte anywhere in it, a cut. */
const damage = fc.oneof(
  { arbitrary: fc.constant<null>(null), weight: 6 },
  { arbitrary: fc.record({ flip: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }), weight: 1 },
)

const eventStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.array(fc.tuple(bedrockMessage, damage), { minLength: 1, maxLength: 8 }),
    fc.option(fc.nat(), { nil: undefined }), // where the body is cut short
  )
  .map(([messages, cutAt]) => {
    const body = concat(...messages.map(([m, d]) => {
      if (d === null) return m
      const copy = m.slice()
      copy[d.flip % copy.length] = copy[d.flip % copy.length]! ^ (1 << d.bit)
      return copy
    }))
    return cutAt === undefined ? body : body.subarray(0, 1 + (cutAt % body.length))
  })

const eventStreamOptions = fc.constantFrom<MergeOptions>({}, { contentType: 'application/vnd.amazon.eventstream' }, { transport: 'eventstream' })

describe('chunking invariance: generated AWS event streams', () => {
  it('any cutting of the bytes, inside preludes, headers, payloads and CRCs, gives the same Reply and frames', () => {
    fc.assert(
      fc.property(eventStream, eventStreamOptions, fc.integer({ min: 1, max: 1 << 20 }), (bytes, options, seed) => {
        expectChunkInvariant(bytes, options, randomCutsFor(bytes.length, seed))
      }),
      { numRuns: 150 },
    )
  })

  it('one-byte pushes give the same Reply and frames as the whole body', () => {
    fc.assert(
      fc.property(eventStream, eventStreamOptions, (bytes, options) => {
        expectChunkInvariant(bytes, options, oneByteCuts(bytes.length))
      }),
      { numRuns: 25 },
    )
  })

  it('every frame covers exactly its message: the frames tile the body from byte 0', () => {
    fc.assert(
      fc.property(eventStream, (bytes) => {
        const m = mergeChunks([bytes], { transport: 'eventstream' })
        let at = 0
        for (const f of m.ins.frames) {
          expect([f.byteStart, f.start]).toEqual([at, at])
          at = f.byteEnd
        }
        expect(at).toBe(m.ins.frames.length === 0 ? 0 : bytes.length)
      }),
      { numRuns: 100 },
    )
  })
})

// ---------------------------------------------------------------- Connect (Kimi)

/** One Kimi Connect message: text or thinking appends, a search, the status, a heartbeat, the end, a broken payload. */
const connectMessage: fc.Arbitrary<Uint8Array> = fc.oneof(
  richText().map((content) => envelope(JSON.stringify({ op: 'append', mask: 'block.text.content', eventOffset: 5, block: { id: '0_1', text: { content } } }))),
  richText(6).map((content) => envelope(JSON.stringify({ op: 'append', mask: 'block.think.content', eventOffset: 4, block: { id: '0_0', think: { content } } }))),
  fc.constant(envelope('{"op":"append","mask":"block.search.keywords","eventOffset":2,"block":{"id":"0_2","search":{"keywords":["天气"]}}}')),
  fc.constant(envelope('{"heartbeat":{}}')),
  fc.constant(envelope('{"op":"set","mask":"message.status","eventOffset":9,"message":{"id":"m","status":"MESSAGE_STATUS_COMPLETED"}}')),
  fc.constant(envelope('{"error":{"code":"unavailable","message":"busy"}}', 2)),
  fc.constant(envelope(Uint8Array.from([0x1f, 0x8b, 8, 0]), 1)),
  fc.constant(envelope('{"op":"append","mask":"block.text.content","block":{"text":')),
)

const connectStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.array(connectMessage, { minLength: 1, maxLength: 10 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([messages, cutAt]) => {
    const body = concatBytes(...messages)
    return cutAt === undefined ? body : body.subarray(0, 1 + (cutAt % body.length))
  })

const connectOptions = fc.constantFrom<MergeOptions>({}, { contentType: 'application/connect+json' }, { transport: 'connect' })

describe('chunking invariance: generated Connect streams', () => {
  it('any cutting of the bytes, inside prefixes and payloads, gives the same Reply and frames', () => {
    fc.assert(
      fc.property(connectStream, connectOptions, fc.integer({ min: 1, max: 1 << 20 }), (bytes, options, seed) => {
        expectChunkInvariant(bytes, options, randomCutsFor(bytes.length, seed))
      }),
      { numRuns: 150 },
    )
  })

  it('one-byte pushes give the same Reply and frames as the whole body', () => {
    fc.assert(
      fc.property(connectStream, connectOptions, (bytes, options) => {
        expectChunkInvariant(bytes, options, oneByteCuts(bytes.length))
      }),
      { numRuns: 25 },
    )
  })

  it('every frame covers exactly its envelope: the frames tile the body from byte 0', () => {
    fc.assert(
      fc.property(connectStream, (bytes) => {
        const m = mergeChunks([bytes], { transport: 'connect' })
        let at = 0
        for (const f of m.ins.frames) {
          expect([f.byteStart, f.start]).toEqual([at, at])
          at = f.byteEnd
        }
        expect(at).toBe(bytes.length)
      }),
      { numRuns: 100 },
    )
  })
})

// ---------------------------------------------------------------- AI SDK v4 data stream

const dataStreamLine: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: richText().map((t) => `0:${JSON.stringify(t)}`), weight: 5 },
  { arbitrary: richText(6).map((t) => `g:${JSON.stringify(t)}`), weight: 2 },
  { arbitrary: richText(6).map((t) => `c:${JSON.stringify({ toolCallId: 'call_1', argsTextDelta: t })}`), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      'f:{"messageId":"step_1"}', 'b:{"toolCallId":"call_1","toolName":"weather"}', '9:{"toolCallId":"call_2","toolName":"f","args":{"a":"€"}}',
      'e:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}',
      'd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}', '3:"An error occurred."',
      'x:"unknown code"', '0:"broken', 'no colon', '', '  ', '8:["note"]',
    ),
    weight: 2,
  },
)

const dataStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.array(fc.tuple(dataStreamLine, eol), { minLength: 1, maxLength: 12 }), fc.boolean())
  .map(([lines, lastEnds]) => enc.encode(lines.map(([l, e], i) => l + (i < lines.length - 1 || lastEnds ? e : '')).join('')))

const dataStreamOptions = fc.constantFrom<MergeOptions>({}, { contentType: 'text/plain; charset=utf-8' }, { transport: 'data-stream' })

describe('chunking invariance: generated AI SDK v4 data streams', () => {
  it('any cutting of the bytes, inside characters and between CR and LF, gives the same Reply and frames', () => {
    fc.assert(
      fc.property(dataStream, dataStreamOptions, fc.integer({ min: 1, max: 1 << 20 }), (bytes, options, seed) => {
        expectChunkInvariant(bytes, options, randomCutsFor(bytes.length, seed))
      }),
      { numRuns: 150 },
    )
  })

  it('one-byte pushes give the same Reply and frames as the whole body', () => {
    fc.assert(
      fc.property(dataStream, dataStreamOptions, (bytes, options) => {
        expectChunkInvariant(bytes, options, oneByteCuts(bytes.length))
      }),
      { numRuns: 25 },
    )
  })
})

/** Up to 32 distinct cut points, from a seed (fast-check shrinks the seed, not the cuts). */
function randomCutsFor(length: number, seed: number): number[] {
  return fc.sample(randomCuts(length, 32), { seed, numRuns: 1 })[0]!
}
