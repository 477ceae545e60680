import { describe, expect, it } from 'vitest'
import { Float64Column, Int32Column, OffsetColumn, Uint8Column } from '../../src/core/column.js'
import { createMerger } from '../../src/index.js'

describe('paged columns', () => {
  it('keep every value across the first page doubling and the fixed pages after it', () => {
    const f = new Float64Column()
    const n = 3 * 16384 + 17
    for (let i = 0; i < n; i++) f.set(i, i * 1.5)
    const wrong: number[] = []
    for (let i = 0; i < n; i++) if (f.get(i) !== i * 1.5) wrong.push(i)
    expect(wrong).toEqual([])
  })

  it('read the fill value for rows never written, also when the first write is far in', () => {
    const t = new Float64Column(NaN)
    t.set(40000, 7)
    t.set(40001, 8)
    expect([t.get(0), t.get(16383), t.get(16384), t.get(39999), t.get(40000), t.get(40001)]).toEqual([NaN, NaN, NaN, NaN, 7, 8])
    // and past the last row written, in the first page and beyond every page
    const u = new Float64Column(NaN)
    expect(u.get(0)).toBeNaN()
    u.set(0, 1)
    expect([u.get(0), u.get(1), u.get(255), u.get(256), u.get(100000)]).toEqual([1, NaN, NaN, NaN, NaN])
    expect([t.get(40002), t.get(49151), t.get(49152), t.get(10 ** 7)]).toEqual([NaN, NaN, NaN, NaN])
  })

  it('store each width exactly (int32 and uint8 wrap like their typed arrays)', () => {
    const i32 = new Int32Column()
    const u8 = new Uint8Column()
    i32.set(0, -1); i32.set(1, 2 ** 31 - 1); i32.set(20000, -7)
    u8.set(0, 9); u8.set(1, 256 + 3)
    expect([i32.get(0), i32.get(1), i32.get(20000), u8.get(0), u8.get(1)]).toEqual([-1, 2 ** 31 - 1, -7, 9, 3])
  })

  it('give the frame table exact rows past its first pages (40,000 frames)', () => {
    const m = createMerger()
    let body = ''
    for (let i = 0; i < 40000; i++) body += `event: e${i % 3}\ndata: {"choices":[{"index":0,"delta":{"content":"${i % 10}"}}]}\n\n`
    m.push(body, 5)
    m.end()
    const frameBytes = Buffer.byteLength(`event: e0\ndata: {"choices":[{"index":0,"delta":{"content":"0"}}]}\n\n`)
    for (const i of [0, 16383, 16384, 32767, 32768, 39999]) {
      const f = m.frame(i)
      expect([f.seq, f.start, f.event, f.time, f.line]).toEqual([i, i * frameBytes, `e${i % 3}`, 5, i * 3 + 1])
    }
    expect(m.snapshot().choices[0]!.content.length).toBe(40000)
  })

  it('keep offsets in four bytes a row, and every row exact once one needs more than 32 bits', () => {
    const c = new OffsetColumn()
    const n = 2 * 16384 + 5
    for (let i = 0; i < n; i++) c.set(i, i * 131_071)
    c.set(n, 2 ** 32 - 1)
    c.set(n + 1, 2 ** 32) // a stream past 4 GiB: the column widens, once
    c.set(n + 2, 5 * 2 ** 40 + 3)
    const wrong: number[] = []
    for (let i = 0; i < n; i++) if (c.get(i) !== i * 131_071) wrong.push(i)
    expect(wrong).toEqual([])
    expect([c.get(n), c.get(n + 1), c.get(n + 2)]).toEqual([2 ** 32 - 1, 2 ** 32, 5 * 2 ** 40 + 3])
  })
})
