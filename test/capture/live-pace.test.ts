// Whether Chrome's Live capture copies a response, from its first reads (src/capture/live-pace.ts).

import { describe, expect, it } from 'vitest'
import { BULK_BYTES, LONG_LOOK_MS, LOOK_MS, PaceWatch, QUIET_BYTES, SMALL_FIRST_READ } from '../../src/capture/live-pace.js'

describe('PaceWatch', () => {
  it('follows at once a response whose first read is small (a reply\'s first frames)', () => {
    expect(new PaceWatch().read(180, 0)).toBe('follow')
    expect(new PaceWatch().read(SMALL_FIRST_READ, 0)).toBe('follow')
  })

  it('watches a response whose first read is larger while no more than BULK_BYTES came', () => {
    const w = new PaceWatch()
    expect(w.read(SMALL_FIRST_READ + 1, 0)).toBe('look')
    expect(w.read(BULK_BYTES - SMALL_FIRST_READ - 1, 5)).toBe('look')
  })

  it('follows a response at its first look when no more than QUIET_BYTES came', () => {
    const w = new PaceWatch()
    w.read(QUIET_BYTES / 2, 0)
    w.read(QUIET_BYTES / 2, 1)
    expect(w.look(LOOK_MS)).toBe('follow')
  })

  it('looks on at a response that brought more, and follows it at LONG_LOOK_MS if it is no download', () => {
    const w = new PaceWatch()
    w.read(QUIET_BYTES + 1, 0)
    expect(w.look(LOOK_MS)).toBe('look')
    expect(w.look(LONG_LOOK_MS - 1)).toBe('look')
    expect(w.look(LONG_LOOK_MS)).toBe('follow')
    w.read(BULK_BYTES, 200)
    expect(w.look(LONG_LOOK_MS)).toBe('bulk')
  })

  it('calls a response a download once more than BULK_BYTES came before it is copied', () => {
    const w = new PaceWatch()
    expect(w.read(65_536, 0)).toBe('look')
    for (let i = 1; i < BULK_BYTES / 65_536; i++) expect(w.read(65_536, i)).toBe('look')
    expect(w.seen).toBe(BULK_BYTES)
    expect(w.read(1, 20)).toBe('bulk')
    expect(w.describe()).toBe('0.5 MB in its first 20 ms')
  })

  it('cuts bufferedData back into the reads it came in, each with its time', () => {
    const w = new PaceWatch()
    w.read(3, 10)
    w.read(2, 15)
    w.read(4, 40)
    const pieces = w.split(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), 99)
    expect(pieces.map((p) => [[...p.data], p.t])).toEqual([[[1, 2, 3], 10], [[4, 5], 15], [[6, 7, 8, 9], 40]])
  })

  it('bytes past the reads it heard of are one more piece at `now`; reads past the bytes are left out', () => {
    const w = new PaceWatch()
    w.read(2, 10)
    expect(w.split(new Uint8Array([1, 2, 3]), 50).map((p) => [[...p.data], p.t])).toEqual([[[1, 2], 10], [[3], 50]])
    w.read(5, 20)
    expect(w.split(new Uint8Array([1, 2, 3]), 50).map((p) => [[...p.data], p.t])).toEqual([[[1, 2], 10], [[3], 20]])
    expect(w.split(new Uint8Array(0), 50)).toEqual([])
  })
})
