// A body the store reads from a file is read back from the file when asked for (file-body.ts),
// through a few cached blocks.

import { describe, expect, it } from 'vitest'
import { BLOCK, fileBodyReader, fileReaderSync, type ReadSync } from '../../panel/store/file-body.js'

/** A block: 256 KiB. */
const B = BLOCK
/** A file of `size` bytes whose byte i is i % 251, and the reads made of it. */
function file(size: number, failFrom = Infinity) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251)
  const reads: Array<[number, number]> = []
  let calls = 0
  const read: ReadSync = (_source, from, to) => {
    calls++
    if (calls >= failFrom) throw new Error('NotReadableError')
    reads.push([from, to])
    return bytes.slice(from, to)
  }
  return { source: { size, stream: () => new Blob([bytes]).stream() }, bytes, read, reads }
}

describe('a body read back from its file', () => {
  it('reads in blocks of 256 KiB', () => {
    expect(BLOCK).toBe(256 * 1024)
  })

  it('gives exactly the bytes asked for, within a block and across blocks', () => {
    const f = file(3 * B + 5)
    const read = fileBodyReader(f.source, f.read, () => {})
    expect(read(10, 20)).toEqual(f.bytes.slice(10, 20))
    expect(read(B - 3, B + 4)).toEqual(f.bytes.slice(B - 3, B + 4))
    expect(Buffer.from(read(0, 3 * B + 5)).equals(f.bytes)).toBe(true)
    expect(read(3 * B, 3 * B + 5)).toEqual(f.bytes.slice(3 * B))
  })

  it('reads each block of the file once for a scan in order, in blocks of 256 KiB', () => {
    const f = file(3 * B + 5)
    const read = fileBodyReader(f.source, f.read, () => {})
    for (let at = 0; at < f.bytes.length; at += 1000) read(at, Math.min(f.bytes.length, at + 1000))
    expect(f.reads).toEqual([[0, B], [B, 2 * B], [2 * B, 3 * B], [3 * B, 3 * B + 5]])
  })

  it('keeps the four blocks used last, and reads a fifth one again once it was dropped', () => {
    const f = file(6 * B)
    const read = fileBodyReader(f.source, f.read, () => {})
    for (const n of [0, 1, 2, 3, 0, 4, 0, 1]) read(n * B, n * B + 1)
    // 1 was dropped for 4 (0 had been used again), so only it is read twice
    expect(f.reads.map(([from]) => from / B)).toEqual([0, 1, 2, 3, 4, 1])
  })

  it('says once that the file can no longer be read, and reads the bytes of blocks not read before as "?", as many as asked for', () => {
    const f = file(2 * B, 2)
    const lost: string[] = []
    const read = fileBodyReader(f.source, f.read, (err) => lost.push(String(err)))
    expect(read(0, 3)).toEqual(f.bytes.slice(0, 3))
    expect(new TextDecoder().decode(read(B, B + 4))).toBe('????')
    // the block read before the file went stays as it was read
    expect(read(10, 12)).toEqual(f.bytes.slice(10, 12))
    expect(read(B - 2, B + 2)).toEqual(Uint8Array.from([...f.bytes.slice(B - 2, B), 0x3f, 0x3f]))
    expect(lost).toEqual(['Error: NotReadableError'])
  })

  it('is not offered where there is no FileReaderSync (the UI thread, Node): the body is then kept', () => {
    expect(fileReaderSync()).toBeNull()
  })
})
