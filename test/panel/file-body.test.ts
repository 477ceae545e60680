// A body the store reads from a file is read back from the file when asked for (file-body.ts),
// through a few cached blocks.

import { describe, expect, it } from 'vitest'
import { fileBodyReader, fileReaderSync, type ReadSync } from '../../panel/store/file-body.js'

const MB = 1 << 20
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
  it('gives exactly the bytes asked for, within a block and across blocks', () => {
    const f = file(3 * MB + 5)
    const read = fileBodyReader(f.source, f.read, () => {})
    expect(read(10, 20)).toEqual(f.bytes.slice(10, 20))
    expect(read(MB - 3, MB + 4)).toEqual(f.bytes.slice(MB - 3, MB + 4))
    expect(Buffer.from(read(0, 3 * MB + 5)).equals(f.bytes)).toBe(true)
    expect(read(3 * MB, 3 * MB + 5)).toEqual(f.bytes.slice(3 * MB))
  })

  it('reads each block of the file once for a scan in order, in blocks of 1 MiB', () => {
    const f = file(3 * MB + 5)
    const read = fileBodyReader(f.source, f.read, () => {})
    for (let at = 0; at < f.bytes.length; at += 1000) read(at, Math.min(f.bytes.length, at + 1000))
    expect(f.reads).toEqual([[0, MB], [MB, 2 * MB], [2 * MB, 3 * MB], [3 * MB, 3 * MB + 5]])
  })

  it('keeps the four blocks used last, and reads a fifth one again once it was dropped', () => {
    const f = file(6 * MB)
    const read = fileBodyReader(f.source, f.read, () => {})
    for (const n of [0, 1, 2, 3, 0, 4, 0, 1]) read(n * MB, n * MB + 1)
    // 1 was dropped for 4 (0 had been used again), so only it is read twice
    expect(f.reads.map(([from]) => from / MB)).toEqual([0, 1, 2, 3, 4, 1])
  })

  it('says once that the file can no longer be read, and reads the bytes of blocks not read before as "?", as many as asked for', () => {
    const f = file(2 * MB, 2)
    const lost: string[] = []
    const read = fileBodyReader(f.source, f.read, (err) => lost.push(String(err)))
    expect(read(0, 3)).toEqual(f.bytes.slice(0, 3))
    expect(new TextDecoder().decode(read(MB, MB + 4))).toBe('????')
    // the block read before the file went stays as it was read
    expect(read(10, 12)).toEqual(f.bytes.slice(10, 12))
    expect(read(MB - 2, MB + 2)).toEqual(Uint8Array.from([...f.bytes.slice(MB - 2, MB), 0x3f, 0x3f]))
    expect(lost).toEqual(['Error: NotReadableError'])
  })

  it('is not offered where there is no FileReaderSync (the UI thread, Node): the body is then kept', () => {
    expect(fileReaderSync()).toBeNull()
  })
})
