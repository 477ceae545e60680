// A body the store reads from a file (body-reader.ts) is not kept: the merger reads a frame's
// bytes back from the file when someone asks for them (MergeOptions.bodyReader), so a 64 MB
// file costs its frame table, not 64 MB more. The core reads synchronously, and so does
// FileReaderSync, which only a worker has; elsewhere (the store on the UI thread, Node) the
// body is kept as before. Reads go through a few cached blocks: reading every frame in order
// (a search, the debugger, an export) costs one file read per block, not one per frame.

import type { BodyReader } from '../../src/library.js'
import type { BodySource, ReadSync } from './types.js'
import { recent } from '../recent.js'

export type { ReadSync } from './types.js'

/**
 * Bytes per cached block, and blocks kept: a frame is rarely longer than a block, and the
 * blocks are held for as long as the request (1 MiB blocks were 4 MB of a 64 MB ingest's peak).
 */
export const BLOCK = 1 << 18
const BLOCKS_KEPT = 4

interface FileReaderSyncLike { readAsArrayBuffer(blob: Blob): ArrayBuffer }
declare const FileReaderSync: (new () => FileReaderSyncLike) | undefined

/** FileReaderSync where there is one (a worker), else null: the body is then kept in memory. */
export function fileReaderSync(): ReadSync | null {
  if (typeof FileReaderSync !== 'function') return null
  const reader = new FileReaderSync()
  return (source, from, to) => {
    if (typeof (source as Blob).slice !== 'function') throw new Error('not a file')
    return new Uint8Array(reader.readAsArrayBuffer((source as Blob).slice(from, to)))
  }
}

/**
 * The merger's reader for `source`. A file that can no longer be read (changed or removed on
 * disk since it was opened) is said once, through `lost`, and the bytes of every block not
 * read before read as '?' from then on: the panel goes on with every count and offset as it
 * was, and the note says why the text shows question marks.
 */
export function fileBodyReader(source: BodySource, read: ReadSync, lost: (err: unknown) => void): BodyReader {
  const cache = new Map<number, Uint8Array>()
  let gone = false
  const block = (n: number): Uint8Array => recent(cache, n, BLOCKS_KEPT, () => {
    const from = n * BLOCK
    const to = Math.min(source.size, from + BLOCK)
    return gone ? unreadable(to - from) : attempt(from, to)
  })
  const attempt = (from: number, to: number): Uint8Array => {
    try {
      const bytes = read(source, from, to)
      if (bytes.length === to - from) return bytes
      throw new Error(`${bytes.length} bytes read for ${to - from}`)
    } catch (err) {
      gone = true
      lost(err)
      return unreadable(to - from)
    }
  }
  return (from, to) => {
    const first = Math.floor(from / BLOCK)
    const last = Math.floor((to - 1) / BLOCK)
    if (first === last) return block(first).subarray(from - first * BLOCK, to - first * BLOCK)
    // across blocks (a frame over a block boundary, a range read whole): a copy
    const out = new Uint8Array(to - from)
    for (let n = first; n <= last; n++) {
      const b = block(n)
      const start = Math.max(from, n * BLOCK)
      const end = Math.min(to, (n + 1) * BLOCK)
      out.set(b.subarray(start - n * BLOCK, end - n * BLOCK), start - from)
    }
    return out
  }
}

/** What an unreadable file's bytes read as: '?', as many as there were. */
function unreadable(n: number): Uint8Array {
  return new Uint8Array(n).fill(0x3f)
}
