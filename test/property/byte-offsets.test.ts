// Byte and character offsets, checked against the bytes themselves. Streams are built from
// tokens — ASCII, multi-byte characters (é € 中 😀, a real U+FFFD), and invalid UTF-8 (lone
// 0xFF / 0x80, overlong C0 AF, surrogates ED A0 80, out-of-range F4 90 80 80, truncated
// sequences) — while recording where every block starts and ends in the byte array. Then:
// - every frame's byteStart/byteEnd is exactly the recorded position of its block;
//   start/end, line, raw and data follow from the bytes (TextDecoder), as do the entries';
// - the decoded text is `new TextDecoder().decode(bytes)` (a leading BOM dropped);
// - each invalid sequence (each U+FFFD the WHATWG decoder emits for invalid input, found by
//   an independent decoder checked against TextDecoder) yields exactly one 'invalid-utf8'
//   diagnostic with its byteOffset, character offset and bytes; a real U+FFFD yields none.
// All of it holds for the whole body pushed at once and for any cutting into chunks.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { MergeOptions } from '../../src/index.js'
import {
  BOM, concat, cut, decodedBody, enc, entryView, expectedInvalidUtf8, expectOffsetsMatchBytes, frameView, hasBom,
  invalidUtf8Diagnostics, mergeChunks, oneByteCuts, randomCuts, whatwgDecode, type Merged,
} from '../support/property.js'

type Token = { bytes: number[]; truncated?: boolean }

const b = (...bytes: number[]): Token => ({ bytes })
const s = (text: string): Token => ({ bytes: [...enc.encode(text)] })

const VALID: Token[] = [s('a'), s('hello'), s(' '), s('{"k":'), s('"'), s('é'), s('€'), s('中文'), s('😀'), s('\uFFFD'), s('\uFEFF')]
const INVALID: Token[] = [
  b(0xff), b(0xfe), b(0x80), b(0xbf), // lone bytes that can never appear
  b(0xc0, 0xaf), b(0xc1, 0xbf), b(0xe0, 0x80, 0x80), // overlong
  b(0xed, 0xa0, 0x80), b(0xed, 0xbf, 0xbf), // UTF-16 surrogates
  b(0xf4, 0x90, 0x80, 0x80), b(0xf5, 0x80), // above U+10FFFF
  { bytes: [0xc3], truncated: true }, { bytes: [0xe2, 0x82], truncated: true }, { bytes: [0xf0, 0x9f, 0x98], truncated: true },
]

/** A line's value: 1–6 tokens; a truncated sequence is followed by 'x' (so it stays one replacement) unless it ends the body. */
const tokens = (invalid: boolean) =>
  fc.array(invalid ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VALID) }, { weight: 2, arbitrary: fc.constantFrom(...INVALID) }) : fc.constantFrom(...VALID), { minLength: 1, maxLength: 6 })

type Eol = '\n' | '\r' | '\r\n'
const EOLS: Eol[] = ['\n', '\r', '\r\n']

interface Line { prefix: string; value: Token[]; eol: Eol | '' }
interface Block { kind: 'frame' | 'comment' | 'empty'; lines: Line[] }

const lineArb = (prefix: string, invalid: boolean) =>
  fc.record({ value: tokens(invalid), eol: fc.constantFrom(...EOLS) }).map((r): Line => ({ prefix, ...r }))

const sseBlockArb = (invalid: boolean): fc.Arbitrary<Block> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.option(lineArb('event: ', invalid), { nil: null }), fc.option(lineArb(': ', invalid), { nil: null }), fc.array(lineArb('data: ', invalid), { minLength: 1, maxLength: 3 }), fc.option(lineArb('id: ', invalid), { nil: null }))
        .map(([ev, comment, data, id]) => ({ kind: 'frame' as const, lines: [ev, comment, ...data, id].filter((l): l is Line => l !== null) })),
    },
    { weight: 1, arbitrary: fc.array(lineArb(':', invalid), { minLength: 1, maxLength: 2 }).map((lines) => ({ kind: 'comment' as const, lines })) },
    { weight: 1, arbitrary: lineArb('event: ', invalid).map((l) => ({ kind: 'empty' as const, lines: [l] })) },
  )

interface Built {
  bytes: Uint8Array
  frames: Array<{ byteStart: number; byteEnd: number; line: number; unterminated: boolean; data: string }>
  entries: Array<{ kind: 'comment' | 'empty'; byteStart: number; byteEnd: number; line: number; beforeFrame: number }>
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** Lays the blocks out as bytes, recording every block's byte range and first line. */
function build(blocks: Block[], blankEols: Eol[], bom: boolean, finalBlank: boolean, finalEol: boolean, transport: 'sse' | 'ndjson'): Built {
  const out: number[] = bom ? [...BOM] : []
  const frames: Built['frames'] = []
  const entries: Built['entries'] = []
  let line = 1
  let lastEol: Eol | '' = ''
  const last = blocks.length - 1
  blocks.forEach((block, bi) => {
    const byteStart = out.length
    const firstLine = line
    const data: string[] = []
    block.lines.forEach((l, li) => {
      const isLastLine = bi === last && li === block.lines.length - 1
      const valueBytes = l.value.flatMap((t, ti) => {
        // a truncated sequence is closed by an ASCII byte, except at the very end of the body
        const endOfBody = isLastLine && ti === l.value.length - 1 && !finalEol && !finalBlank
        return t.truncated && !endOfBody ? [...t.bytes, 0x78] : t.bytes
      })
      out.push(...enc.encode(l.prefix), ...valueBytes)
      if (transport === 'ndjson') data.push(l.prefix + utf8.decode(new Uint8Array(valueBytes)))
      else if (l.prefix === 'data: ') data.push(utf8.decode(new Uint8Array(valueBytes)))
      const eol = isLastLine && !finalEol && !finalBlank ? '' : l.eol
      out.push(...enc.encode(eol))
      if (eol !== '') line++
      lastEol = eol
    })
    const byteEnd = out.length
    const unterminated = bi === last && !finalBlank && transport === 'sse'
    if (block.kind === 'frame' || transport === 'ndjson') {
      frames.push({ byteStart, byteEnd, line: firstLine, unterminated, data: data.join('\n') })
    } else {
      entries.push({ kind: block.kind, byteStart, byteEnd, line: firstLine, beforeFrame: -1 })
    }
    if (bi < last || finalBlank) {
      // the blank line; after a CR it must not be a lone LF, or the two would be one CRLF
      const blank = blankEols[bi % blankEols.length]!
      const eol = lastEol === '\r' && blank === '\n' ? '\r' : blank
      out.push(...enc.encode(eol))
      line++
      lastEol = eol
    }
  })
  // an entry is shown before the next frame
  for (const e of entries) e.beforeFrame = frames.filter((f) => f.byteStart < e.byteStart).length
  return { bytes: new Uint8Array(out), frames, entries }
}

const streamArb = (transport: 'sse' | 'ndjson', invalid: boolean) =>
  fc
    .record({
      blocks: fc.array(
        transport === 'sse' ? sseBlockArb(invalid) : lineArb('{', invalid).map((l): Block => ({ kind: 'frame', lines: [l] })),
        { minLength: 1, maxLength: 6 },
      ),
      blankEols: fc.array(fc.constantFrom(...EOLS), { minLength: 1, maxLength: 3 }),
      bom: fc.boolean(),
      finalBlank: fc.boolean(),
      finalEol: fc.boolean(),
    })
    .map((r) => build(r.blocks, r.blankEols, r.bom, r.finalBlank, r.finalEol, transport))

/** Char offset of a byte boundary: the decoded length of the bytes before it (BOM excluded). */
function charAt(bytes: Uint8Array, byte: number): number {
  return utf8.decode(bytes.subarray(hasBom(bytes) ? 3 : 0, byte)).length
}

function expectLayout(built: Built, m: Merged): void {
  const { bytes } = built
  const text = decodedBody(bytes)
  expect(m.ins.frames.map(frameView)).toEqual(
    built.frames.map((f, seq) => {
      const start = charAt(bytes, f.byteStart)
      const end = charAt(bytes, f.byteEnd)
      return expect.objectContaining({
        seq, start, end, byteStart: f.byteStart, byteEnd: f.byteEnd, line: f.line, raw: text.slice(start, end),
        data: f.data, unterminated: f.unterminated,
      })
    }),
  )
  expect(m.ins.entries.map(entryView)).toEqual(
    built.entries.map((e) => {
      const start = charAt(bytes, e.byteStart)
      const end = charAt(bytes, e.byteEnd)
      return { kind: e.kind, raw: text.slice(start, end), start, end, line: e.line, beforeFrame: e.beforeFrame }
    }),
  )
  expectOffsetsMatchBytes(bytes, m.ins)
}

function cuttings(bytes: Uint8Array, random: number[]): number[][] {
  return [[], random, oneByteCuts(bytes.length)]
}

describe('byte offsets', () => {
  for (const transport of ['sse', 'ndjson'] as const) {
    it(`${transport}: frames and entries lie exactly where their bytes are (multi-byte and invalid UTF-8, BOM, any cutting)`, () => {
      fc.assert(
        fc.property(
          streamArb(transport, true).chain((built) => fc.tuple(fc.constant(built), randomCuts(built.bytes.length, 24), fc.constantFrom<MergeOptions>({}, { transport }))),
          ([built, random, options]) => {
            for (const cuts of cuttings(built.bytes, random)) expectLayout(built, mergeChunks(cut(built.bytes, cuts), options))
          },
        ),
        { numRuns: 150 },
      )
    })
  }

  it('valid UTF-8 only: no invalid-utf8 diagnostic at all, whatever the cutting (a real U+FFFD is not one)', () => {
    fc.assert(
      fc.property(
        streamArb('sse', false).chain((built) => fc.tuple(fc.constant(built), randomCuts(built.bytes.length, 24))),
        ([built, random]) => {
          for (const cuts of cuttings(built.bytes, random)) {
            const m = mergeChunks(cut(built.bytes, cuts))
            expect(invalidUtf8Diagnostics(m.ins)).toEqual([])
            expectLayout(built, m)
          }
        },
      ),
      { numRuns: 80 },
    )
  })
})

describe('invalid-utf8 diagnostics: exactly one per invalid sequence, at its byte', () => {

  it('the independent decoder agrees with TextDecoder on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        expect(whatwgDecode(bytes).text).toBe(utf8.decode(bytes))
      }),
      { numRuns: 300 },
    )
  })

  for (const transport of ['sse', 'ndjson'] as const) {
    it(`${transport}: whole body and any cutting`, () => {
      fc.assert(
        fc.property(
          streamArb(transport, true).chain((built) => fc.tuple(fc.constant(built), randomCuts(built.bytes.length, 24))),
          ([built, random]) => {
            const expected = expectedInvalidUtf8(built.bytes)
            expect(invalidUtf8Diagnostics(mergeChunks([built.bytes]).ins)).toEqual(expected)
            for (const cuts of cuttings(built.bytes, random)) expect(invalidUtf8Diagnostics(mergeChunks(cut(built.bytes, cuts)).ins)).toEqual(expected)
          },
        ),
        { numRuns: 150 },
      )
    })
  }

  it('known sequences, exact diagnostics', () => {
    // data: a ‹FF› ‹C0 AF› ‹ED A0 80› € ‹E2 82›x ‹EF BF BD› ‹F0 9F 98›   (ends inside a sequence)
    const bytes = concat(enc.encode('data: a'), new Uint8Array([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), enc.encode('€'), new Uint8Array([0xe2, 0x82]), enc.encode('x\uFFFD'), new Uint8Array([0xf0, 0x9f, 0x98]))
    const at = (byteOffset: number, offset: number, hex: string) => ({
      frame: null, level: 'warning', code: 'invalid-utf8', byteOffset, offset, message: `invalid UTF-8 (${hex}) at byte ${byteOffset}, shown as U+FFFD`,
    })
    const expected = [
      at(7, 7, '0xFF'), at(8, 8, '0xC0'), at(9, 9, '0xAF'), at(10, 10, '0xED'), at(11, 11, '0xA0'), at(12, 12, '0x80'),
      at(16, 14, '0xE2 0x82'), at(22, 17, '0xF0 0x9F 0x98'),
    ]
    expect(expectedInvalidUtf8(bytes)).toEqual(expected)
    const m = mergeChunks([bytes])
    expect(invalidUtf8Diagnostics(m.ins)).toEqual(expected)
    expect(m.ins.frames.map((f) => [f.byteStart, f.byteEnd, f.start, f.end, f.data, f.unterminated])).toEqual([[0, 25, 0, 18, 'a\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD€\uFFFDx\uFFFD\uFFFD', true]])
  })

  // a decoded chunk as long as its bytes (ASCII plus single-byte invalid bytes) is not taken for pure ASCII
  it('"data: \\xFF\\n\\n" (ASCII + one invalid byte) gets its invalid-utf8 diagnostic', () => {
    const bytes = concat(enc.encode('data: '), new Uint8Array([0xff]), enc.encode('\n\n'))
    expect(invalidUtf8Diagnostics(mergeChunks([bytes]).ins)).toEqual([
      { frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: 6, offset: 6, message: 'invalid UTF-8 (0xFF) at byte 6, shown as U+FFFD' },
    ])
    // and so does every 1-byte push of it
    expect(invalidUtf8Diagnostics(mergeChunks(cut(bytes, oneByteCuts(bytes.length))).ins)).toEqual(expectedInvalidUtf8(bytes))
  })

  // the same through end(): the incomplete sequence at the end, decoded alone, still gets its diagnostic
  it('"data: é\\xC3" (body ends inside a sequence) gets a diagnostic for the 0xC3', () => {
    const bytes = concat(enc.encode('data: é'), new Uint8Array([0xc3]))
    expect(invalidUtf8Diagnostics(mergeChunks([bytes]).ins)).toEqual([
      { frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: 8, offset: 7, message: 'invalid UTF-8 (0xC3) at byte 8, shown as U+FFFD' },
    ])
  })

  // a BOM in the same chunk as the invalid byte is counted once in byteOffset
  it('BOM + "data:é\\xFF" reports the 0xFF at byte 10 (the BOM is counted once)', () => {
    const bytes = concat(BOM, enc.encode('data:é'), new Uint8Array([0xff]), enc.encode('\n\n'))
    expect(invalidUtf8Diagnostics(mergeChunks([bytes]).ins)).toEqual([
      { frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: 10, offset: 6, message: 'invalid UTF-8 (0xFF) at byte 10, shown as U+FFFD' },
    ])
  })
})

describe('a body of binary garbage', () => {
  it('lists the first 100 invalid sequences and counts the rest in one diagnostic', () => {
    const bytes = new Uint8Array(250).fill(0xff)
    const ins = mergeChunks([concat(enc.encode('data: '), bytes, enc.encode('\n\n'))]).ins
    const listed = invalidUtf8Diagnostics(ins)
    expect(listed).toHaveLength(101)
    expect(listed[0]!.message).toBe('invalid UTF-8 (0xFF) at byte 6, shown as U+FFFD')
    expect(listed[99]!.byteOffset).toBe(105)
    expect(listed[100]!.message).toBe('150 more invalid UTF-8 sequences not listed (250 in all)')
  })
})
