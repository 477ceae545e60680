// Decoding, one rule per test: the streaming UTF-8 decoder (WHATWG: every invalid sequence is
// one U+FFFD, "maximal subpart" by maximal subpart), UTF-8 lengths, and what the merger
// does with a BOM, invalid bytes and surrogates cut between pushes.

import { describe, expect, it } from 'vitest'
import { findReplacements, utf8Length, Utf8Stream } from '../../src/core/utf8.js'
import { createMerger, SYMPTOMS } from '../../src/index.js'

const bytes = (...b: number[]) => new Uint8Array(b)
const enc = new TextEncoder()
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]))

/** The text and replacements of these chunks decoded in turn, then end(). */
function decode(...chunks: Uint8Array[]) {
  const s = new Utf8Stream()
  return [...chunks.map((c) => s.decode(c)), s.end()].map((d) => ({ text: d.text, byteLength: d.byteLength, ascii: d.ascii, replacements: d.replacements }))
}

const fffd = (char: number, byte: number, hex: string) => ({ char, byte, byteLength: hex.split(' ').length, bytes: hex })

describe('Utf8Stream', () => {
  it('an ASCII chunk maps one character to one byte', () => {
    expect(decode(enc.encode('data: x\n'))[0]).toEqual({ text: 'data: x\n', byteLength: 8, ascii: true, replacements: [] })
  })

  it('a character cut between chunks is decoded once, in the chunk that completes it, with the bytes carried over', () => {
    expect(decode(bytes(0x61, 0xe2, 0x82), bytes(0xac, 0x62))).toEqual([
      { text: 'a', byteLength: 1, ascii: true, replacements: [] },
      { text: '€b', byteLength: 4, ascii: false, replacements: [] },
      { text: '', byteLength: 0, ascii: true, replacements: [] },
    ])
  })

  it('a byte that cannot start a sequence is one U+FFFD', () => {
    expect(decode(bytes(0x61, 0xff, 0x62))[0]).toEqual({ text: 'a\uFFFDb', byteLength: 3, ascii: false, replacements: [fffd(1, 1, '0xFF')] })
  })

  it('a sequence the body ends inside is one U+FFFD, given at end()', () => {
    expect(decode(bytes(0xe2, 0x82))).toEqual([
      { text: '', byteLength: 0, ascii: true, replacements: [] },
      { text: '\uFFFD', byteLength: 2, ascii: false, replacements: [fffd(0, 0, '0xE2 0x82')] },
    ])
  })

  it('a sequence broken by a byte that cannot continue it is one U+FFFD, and that byte is read again', () => {
    expect(decode(bytes(0xe2, 0x82, 0x41))[0]!.replacements).toEqual([fffd(0, 0, '0xE2 0x82')])
  })

  it('an overlong form (C0 80) is two U+FFFD: C0 starts nothing, 80 continues nothing', () => {
    expect(decode(bytes(0xc0, 0x80))[0]).toMatchObject({ text: '\uFFFD\uFFFD', replacements: [fffd(0, 0, '0xC0'), fffd(1, 1, '0x80')] })
  })

  it('an encoded surrogate (ED A0 80) is three U+FFFD', () => {
    expect(decode(bytes(0xed, 0xa0, 0x80))[0]!.replacements).toEqual([fffd(0, 0, '0xED'), fffd(1, 1, '0xA0'), fffd(2, 2, '0x80')])
  })

  it('a code point above U+10FFFF (F4 90 80 80) is four U+FFFD', () => {
    expect(decode(bytes(0xf4, 0x90, 0x80, 0x80))[0]!.text).toBe('\uFFFD'.repeat(4))
  })

  it('a real U+FFFD in the body (EF BF BD) is a character, not a replacement', () => {
    expect(decode(bytes(0xef, 0xbf, 0xbd))[0]).toEqual({ text: '\uFFFD', byteLength: 3, ascii: false, replacements: [] })
  })

  it('replacements count characters in UTF-16 units: after an emoji the next index is 2', () => {
    expect(decode(cat(enc.encode('😀'), bytes(0xff)))[0]!.replacements).toEqual([fffd(2, 4, '0xFF')])
  })

  it('a chunk over 256 bytes (TextDecoder) finds the same replacements as a small one (decoded in JS)', () => {
    const small = cat(enc.encode('é'), bytes(0xe2, 0x82, 0x41, 0xff))
    const large = cat(enc.encode('x'.repeat(300)), small)
    const shift = (r: ReturnType<typeof fffd>) => ({ ...r, char: r.char + 300, byte: r.byte + 300 })
    expect(decode(large)[0]!.replacements).toEqual(decode(small)[0]!.replacements.map(shift))
    expect(decode(large)[0]!.text).toBe('x'.repeat(300) + 'é\uFFFDA\uFFFD')
  })

  it('findReplacements names the bytes each U+FFFD stands for', () => {
    expect(findReplacements(bytes(0x61, 0xf0, 0x9f, 0x98, 0x62))).toEqual([fffd(1, 1, '0xF0 0x9F 0x98')])
  })
})

describe('utf8Length', () => {
  it('counts 1 to 4 bytes a code point', () => {
    expect(['a', 'é', '€', '😀', 'a€😀'].map((t) => utf8Length(t))).toEqual([1, 2, 3, 4, 8])
  })

  it('counts a lone surrogate as the 3 bytes of U+FFFD, as TextEncoder writes it', () => {
    expect([utf8Length('\uD800'), utf8Length('\uDC00x'), enc.encode('\uD800').length]).toEqual([3, 4, 3])
  })

  it('measures a range; a pair cut by the range end counts its high half alone', () => {
    expect([utf8Length('a😀b', 1, 3), utf8Length('a😀b', 1, 2), utf8Length('a😀b', 3)]).toEqual([4, 3, 1])
  })
})

describe('the merger decoding a body', () => {
  function merged(...chunks: Array<string | Uint8Array>) {
    const m = createMerger()
    for (const c of chunks) m.push(c)
    m.end()
    return m
  }

  it('a BOM at the very start is dropped: character offsets start after it, byte offsets count it', () => {
    const m = merged(cat(bytes(0xef, 0xbb, 0xbf), enc.encode('data: {}\n\n')))
    expect(m.frames().map((f) => [f.raw, f.start, f.end, f.byteStart, f.byteEnd])).toEqual([['data: {}\n', 0, 9, 3, 12]])
  })

  it('a BOM pushed as the string U+FEFF is dropped the same way', () => {
    expect(merged('\uFEFFdata: {}\n\n').frameInfo(0)).toMatchObject({ start: 0, byteStart: 3 })
  })

  it('a BOM cut between pushes is still dropped', () => {
    expect(merged(bytes(0xef), bytes(0xbb, 0xbf), enc.encode('data: {}\n\n')).frameInfo(0)).toMatchObject({ start: 0, byteStart: 3 })
  })

  it('only the first BOM is dropped: a second one is text', () => {
    const m = merged('\uFEFF\uFEFF{"a":1}\n')
    expect(m.frames().map((f) => [f.data, f.kind])).toEqual([['\uFEFF{"a":1}', 'invalid']])
  })

  it('invalid bytes are reported with their bytes, their byte offset and their character offset', () => {
    const m = merged(cat(bytes(0xef, 0xbb, 0xbf), enc.encode('data: "é'), bytes(0xff), enc.encode('"\n\n')))
    expect(m.diagnostics().filter((d) => d.code === 'invalid-utf8')).toEqual([{
      frame: null, level: 'warning', code: 'invalid-utf8', symptom: SYMPTOMS['invalid-utf8'], byteOffset: 12, offset: 8,
      message: 'invalid UTF-8 (0xFF) at byte 12, shown as U+FFFD',
    }])
  })

  it('the first 100 invalid sequences are listed, the rest counted in one diagnostic', () => {
    const m = merged(cat(enc.encode('data: "'), new Uint8Array(103).fill(0xff), enc.encode('"\n\n')))
    const invalid = m.diagnostics().filter((d) => d.code === 'invalid-utf8')
    expect([invalid.length, invalid[99]!.byteOffset, invalid[100]!.message]).toEqual([101, 106, '3 more invalid UTF-8 sequences not listed (103 in all)'])
  })

  it('a surrogate pair cut between two string pushes is one character', () => {
    const m = merged('data: "\uD83D', '\uDE00"\n\n')
    expect(m.frames().map((f) => [f.data, f.byteEnd])).toEqual([['"😀"', 13]])
  })

  it('a high surrogate the string body ends with is stored as U+FFFD (3 bytes)', () => {
    const m = merged('data: 1\uD83D')
    expect(m.frames().map((f) => [f.raw, f.byteEnd, f.unterminated])).toEqual([['data: 1\uFFFD', 10, true]])
  })

  it('an incomplete sequence from a byte push is not completed by a string push: it is U+FFFD', () => {
    const m = merged(enc.encode('data: "'), bytes(0xe2, 0x82), '"\n\n')
    expect([m.frame(0).data, m.diagnostics().filter((d) => d.code === 'invalid-utf8').map((d) => d.message)]).toEqual([
      '"\uFFFD"', ['invalid UTF-8 (0xE2 0x82) at byte 7, shown as U+FFFD'],
    ])
  })
})
