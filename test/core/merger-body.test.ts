// The merger's kept body, read back (Merger.body / byteLength): what the panel exports from,
// so that it keeps no copy of its own.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/library.js'

const enc = (s: string) => new TextEncoder().encode(s)

describe('the merger gives back the body it keeps', () => {
  it('returns the bytes pushed, in order, whatever the pieces, before and after end()', () => {
    const m = createMerger()
    const body = 'data: {"choices":[{"index":0,"delta":{"content":"h\u00e9"}}]}\n\ndata: [DONE]\n\n'
    const bytes = enc(body)
    m.push(bytes.subarray(0, 7))
    m.push(bytes.subarray(7, 40))
    expect([m.byteLength, [...m.body()]]).toEqual([40, [...bytes.subarray(0, 40)]])
    m.push(bytes.subarray(40))
    m.end()
    expect([m.byteLength, [...m.body()], [...m.body(5, 12)]]).toEqual([bytes.length, [...bytes], [...bytes.subarray(5, 12)]])
  })

  it('keeps text pushed as a string as its UTF-8', () => {
    const m = createMerger()
    m.push('data: {"a":"\u00e9\u{1F30D}"}\n\n')
    expect([...m.body()]).toEqual([...enc('data: {"a":"\u00e9\u{1F30D}"}\n\n')])
  })

  it('gives bytes across its 1 MiB blocks exactly', () => {
    const m = createMerger()
    const line = enc('data: {"x":1}\n\n')
    const n = Math.ceil((3 << 20) / line.length)
    for (let i = 0; i < n; i++) m.push(line)
    const at = (1 << 20) - 3
    expect([m.byteLength, [...m.body(at, at + 15)]]).toEqual([n * line.length, [...line.subarray(at % line.length), ...line.subarray(0, at % line.length)]])
  })

  it('gives an empty range for from >= to, and clamps to what it holds', () => {
    const m = createMerger()
    m.push('data: 1\n\n')
    expect([m.body(4, 4).length, m.body(6, 99).length, m.body(20).length]).toEqual([0, 3, 0])
  })
})
