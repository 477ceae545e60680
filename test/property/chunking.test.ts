// Chunking invariance (docs/architecture.md#testing): however the body's bytes are cut into pushes — at random
// points, one byte at a time, inside multi-byte UTF-8 characters, between CR and LF — the
// Reply is deep-equal to merge() of the whole body, and the frames (every field but the
// arrival time), entries, provenance, stream errors and diagnostics are the same.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import type { MergeOptions } from '../../src/index.js'
import {
  chunkInvariantView, cut, cutsInsideCrlf, cutsInsideMultibyte, enc, jsonArrayStream, mergeChunks, ndjsonStream,
  oneByteCuts, randomCuts, sseStream, wireFixtures, type Merged,
} from '../support/property.js'

const fixtures = wireFixtures()

/** The whole body in one push; also checks merge() gives the same Reply. */
function whole(bytes: Uint8Array, options: MergeOptions): ReturnType<typeof chunkInvariantView> {
  const m = mergeChunks([bytes], options)
  expect(m.reply).toEqual(merge(bytes, options))
  return chunkInvariantView(m)
}

function expectSameAsWhole(base: ReturnType<typeof chunkInvariantView>, chunked: Merged): void {
  expect(chunkInvariantView(chunked)).toEqual(base)
}

/** Every deterministic way of cutting that targets a boundary case, plus the given random cuts. */
function allCuttings(bytes: Uint8Array, random: number[]): Array<[string, number[]]> {
  return [
    ['random', random],
    ['1-byte', oneByteCuts(bytes.length)],
    ['inside multi-byte characters', cutsInsideMultibyte(bytes)],
    ['between CR and LF', cutsInsideCrlf(bytes)],
    ['random + inside characters + CR|LF', [...new Set([...random, ...cutsInsideMultibyte(bytes), ...cutsInsideCrlf(bytes)])].sort((a, b) => a - b)],
  ]
}

const optionsArb = fc.constantFrom<MergeOptions>({}, { transport: 'sse' }, { contentType: 'text/event-stream; charset=utf-8' })

describe('chunking invariance: fixtures', () => {
  it('there are fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  for (const f of fixtures) {
    it(`${f.name}: any cutting of its bytes gives the same Reply, frames and entries`, () => {
      const base = whole(f.wire, f.options)
      for (const [, cuts] of allCuttings(f.wire, [])) expectSameAsWhole(base, mergeChunks(cut(f.wire, cuts), f.options))
      fc.assert(
        fc.property(randomCuts(f.wire.length), (cuts) => {
          expectSameAsWhole(base, mergeChunks(cut(f.wire, cuts), f.options))
        }),
        { numRuns: 8 },
      )
    })
  }
})

describe('chunking invariance: generated SSE streams', () => {
  it('bytes cut anywhere (random, 1-byte, inside characters, between CR and LF) give the same result', () => {
    fc.assert(
      fc.property(
        sseStream.chain((s) => fc.tuple(fc.constant(s), randomCuts(s.bytes.length), optionsArb)),
        ([s, random, options]) => {
          const base = whole(s.bytes, options)
          for (const [, cuts] of allCuttings(s.bytes, random)) expectSameAsWhole(base, mergeChunks(cut(s.bytes, cuts), options))
        },
      ),
      { numRuns: 120 },
    )
  })

  it('a JS string (BOM as U+FEFF, surrogate pairs cut in half) pushed in pieces gives what its UTF-8 bytes give', () => {
    fc.assert(
      fc.property(
        sseStream.chain((s) => fc.tuple(fc.constant(s), randomCuts(s.string.length), optionsArb)),
        ([s, cuts, options]) => {
          const base = whole(s.bytes, options)
          expect(merge(s.string, options)).toEqual(base.reply)
          expectSameAsWhole(base, mergeChunks([s.string], options))
          expectSameAsWhole(base, mergeChunks(cut(s.string, cuts), options))
          expectSameAsWhole(base, mergeChunks(cut(s.string, oneByteCuts(s.string.length)), options))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('an SSE stream with every feature at once, cut at every byte', () => {
    const text =
      ':comment first\r\n\r\n' +
      'event: ping\r\n\r\n' + // field-only block
      'retry: 10\nid: 7\ndata: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"€ 😀 中文"}}]}\r' +
      '\r' +
      'data: {"object":"chat.completion.chunk","choices":[{"index":0,\n' + // multi-line data
      'data:  "delta":{"content":"é"}}]}\r\n\n' +
      ': keep-alive\n\n' +
      'data:{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
      'data: [DONE]' // final block without blank line nor line ending
    for (const bytes of [enc.encode(text), enc.encode('\uFEFF' + text)]) {
      const base = whole(bytes, {})
      expect(base.reply).toEqual({
        transport: 'sse', provider: 'openai-chat', done: true, frameCount: 4,
        choices: [{ index: 0, role: 'assistant', content: '€ 😀 中文é', reasoning: '', refusal: '', toolCalls: [], finishReason: 'stop' }],
        messages: [{ id: null, role: 'assistant', parts: [{ type: 'text', text: '€ 😀 中文é' }] }],
        usage: null, errors: [],
      })
      expect(base.frames.map((f) => [f.kind, f.unterminated])).toEqual([['data', false], ['data', false], ['data', false], ['done', true]])
      expect(base.entries.map((e) => e.kind)).toEqual(['comment', 'empty', 'comment'])
      for (const [, cuts] of allCuttings(bytes, [])) expectSameAsWhole(base, mergeChunks(cut(bytes, cuts), {}))
      const s = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
      expectSameAsWhole(base, mergeChunks(cut(s, oneByteCuts(s.length)), {}))
    }
  })

  // First lines named like an SSE field plus more: sniffing waits for the whole name, whatever the cut.
  it('a first line whose name only starts with an SSE field name, cut anywhere', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('database', 'identity', 'events', 'retryable', 'datum', 'ids'),
        sseStream,
        fc.nat(),
        (name, s, seed) => {
          const bytes = enc.encode(`${name}: x\n\n${s.text}`)
          const base = whole(bytes, {})
          const at = 1 + (seed % (name.length + 2))
          expectSameAsWhole(base, mergeChunks(cut(bytes, [at]), {}))
          expectSameAsWhole(base, mergeChunks(cut(bytes, oneByteCuts(bytes.length)), {}))
        },
      ),
      { numRuns: 30 },
    )
  })

  // sniffing does not decide on a partial first line that is exactly an SSE field name so far
  it('"database: x" cut after "data" is unknown, as when merged whole', () => {
    const body = enc.encode('database: x\n\ndata: {"choices":[]}\n\n')
    const wholeMerge = mergeChunks([body])
    expect(wholeMerge.ins.transport).toBe('unknown') // not SSE, NDJSON or a JSON array
    const m = createMerger()
    m.push(body.subarray(0, 4)) // "data"
    m.push(body.subarray(4))
    m.end()
    expect(m.snapshot().transport).toBe('unknown') // not 'sse' (with 1 frame) from the partial "data"
  })
})

describe('chunking invariance: diagnostics', () => {
  // the unknown-transport message quotes the whole first line, not as far as the first chunk had it
  it('"garbage €" cut after "garbage " quotes the whole first line', () => {
    const body = enc.encode('garbage €\n')
    const expected = 'No frames read: not SSE, NDJSON or a JSON array: the first line is "garbage €". The body is shown as raw text.'
    expect(mergeChunks([body]).ins.diagnostics.find((d) => d.code === 'unknown-transport')?.message).toBe(expected)
    const cutAfter8 = mergeChunks(cut(body, [8]))
    expect(cutAfter8.ins.diagnostics.find((d) => d.code === 'unknown-transport')?.message).toBe(expected) // not "garbage "
  })
})

describe('chunking invariance: generated NDJSON and JSON-array bodies', () => {
  for (const [name, arb, options] of [
    ['NDJSON', ndjsonStream, fc.constantFrom<MergeOptions>({}, { transport: 'ndjson' }, { contentType: 'application/x-ndjson' })],
    ['JSON array', jsonArrayStream, fc.constantFrom<MergeOptions>({}, { transport: 'json' })],
  ] as const) {
    it(`${name}: bytes cut anywhere give the same result`, () => {
      fc.assert(
        fc.property(arb.chain((b) => fc.tuple(fc.constant(b), randomCuts(b.length), options)), ([bytes, random, opts]) => {
          const base = whole(bytes, opts)
          for (const [, cuts] of allCuttings(bytes, random)) expectSameAsWhole(base, mergeChunks(cut(bytes, cuts), opts))
        }),
        { numRuns: 60 },
      )
    })
  }
})
