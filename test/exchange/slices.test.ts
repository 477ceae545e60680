// The one slicer of large bodies (the standalone page's feed, the panel store's backlog,
// importToEvents): one test per rule.

import { describe, expect, it } from 'vitest'
import { piece, pieceEnd, sizeOf, slices, SLICE_SIZE } from '../../src/exchange/slices.js'

describe('slices', () => {
  it('returns a body that fits as it is, the same object, even an empty one', () => {
    const bytes = new Uint8Array([1, 2, 3])
    expect(slices('abc', 3)).toEqual(['abc'])
    expect(slices(bytes, 3)[0]).toBe(bytes)
    expect(slices('')).toEqual([''])
  })

  it('cuts a string every `max` code units, the last piece holding the rest', () => {
    expect(slices('abcdefg', 3)).toEqual(['abc', 'def', 'g'])
  })

  it('ends a piece one code unit early rather than between the halves of a surrogate pair', () => {
    expect(slices('ab🌍cd', 3)).toEqual(['ab', '🌍c', 'd'])
  })

  it('makes a piece of a whole pair, one over the limit, when a limit of 1 would leave it empty', () => {
    expect(slices('a🌍b', 1)).toEqual(['a', '🌍', 'b'])
  })

  it('cuts bytes anywhere, inside a UTF-8 character too, as views on the same buffer', () => {
    const bytes = new TextEncoder().encode('é€') // c3 a9 e2 82 ac
    const out = slices(bytes, 2) as Uint8Array[]
    expect(out.map((b) => Array.from(b))).toEqual([[0xc3, 0xa9], [0xe2, 0x82], [0xac]])
    expect(out.every((b) => b.buffer === bytes.buffer)).toBe(true)
  })

  it('cuts at SLICE_SIZE (256 KiB) by default', () => {
    expect(SLICE_SIZE).toBe(262_144)
    expect(slices('x'.repeat(2 * SLICE_SIZE + 1)).map(sizeOf)).toEqual([262_144, 262_144, 1])
  })

  it('pieceEnd says where the piece starting at an offset ends, and piece cuts it without copying a whole body', () => {
    expect(pieceEnd('abcdef', 2, 3)).toBe(5)
    expect(pieceEnd('abcdef', 4, 3)).toBe(6)
    expect(pieceEnd('a🌍b', 0, 2)).toBe(1)
    const body = 'abcdef'
    expect(piece(body, 0, 6)).toBe(body)
    expect(piece(body, 2, 5)).toBe('cde')
  })
})
