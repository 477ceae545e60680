// The debugger's rules on the body as it arrived, read by read: a byte order mark, mixed line
// endings, frames and characters split across reads. Byte offsets are into the body as
// received (a BOM counts), as the merger's frame offsets are.

import { utf8Length } from '../library.js'
import type { Merger } from '../library.js'
import type { CapturedChunk } from '../exchange/types.js'
import { frameBefore, frameHolding, type Findings } from './diagnose-findings.js'
import { countLineEndings, type Ending, type LineEndings } from './line-endings.js'

/** Where each read ends in the body's bytes (the body as received: a BOM counts). */
export function readBoundaries(chunks: readonly CapturedChunk[]): number[] {
  const ends: number[] = []
  let at = 0
  let highSurrogate = false
  for (const c of chunks) {
    if (typeof c.data === 'string') {
      let s = c.data
      // a surrogate pair split between two string reads: 2 of its 4 bytes on each side
      if (highSurrogate && isLowSurrogate(s.charCodeAt(0))) { at += 2; s = s.slice(1) }
      highSurrogate = s.length > 0 && isHighSurrogate(s.charCodeAt(s.length - 1))
      at += highSurrogate ? utf8Length(s.slice(0, -1)) + 2 : utf8Length(s)
    } else {
      highSurrogate = false
      at += c.data.byteLength
    }
    ends.push(at)
  }
  return ends
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

/** A UTF-8 byte order mark at the very start of the body. */
export function bom(chunks: Iterable<CapturedChunk>, found: Findings): void {
  const head: number[] = []
  for (const c of chunks) {
    if (typeof c.data === 'string') {
      if (c.data.length === 0) continue
      if (head.length === 0 && c.data.charCodeAt(0) === 0xfeff) head.push(0xef, 0xbb, 0xbf)
      else head.push(-1) // text: only its first character can be the mark
    } else {
      for (let i = 0; i < c.data.length && head.length < 3; i++) head.push(c.data[i]!)
    }
    if (head.length >= 3) break
  }
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    found.add('bom', 'info', null, 'the body starts with a UTF-8 byte order mark (EF BB BF); readers drop it, but only when they look for it', { byteOffset: 0, offset: 0 })
  }
}

/**
 * More than one kind of line ending in one body, counted over its reads. `seen`: the kinds
 * kept as it arrived; a body of one kind is then not read again.
 */
export function mixedLineEndings(merger: Merger, chunks: Iterable<CapturedChunk>, found: Findings, seen: LineEndings | null = null): void {
  if (seen && seen.kinds().length < 2) return
  const { counts, first } = countLineEndings(mapped(chunks, (c) => c.data))
  const kinds = (Object.keys(counts) as Ending[]).filter((k) => counts[k] > 0)
  if (kinds.length < 2) return
  kinds.sort((a, b) => first[a] - first[b])
  const second = kinds[1]!
  const byte = first[second]
  found.add('mixed-line-endings', 'info', frameBefore(merger, byte),
    `line endings of ${kinds.length} kinds: ${kinds.map((k) => `${counts[k]} ${k}`).join(', ')}; the first ${second} at byte ${byte}`,
    { byteOffset: byte })
}

function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Iterable<U> {
  for (const item of items) yield f(item)
}

/** Frames whose bytes straddle a read boundary. */
export function splitFrames(merger: Merger, ends: readonly number[], found: Findings): void {
  const boundaries = ends.slice(0, -1)
  if (boundaries.length === 0) return
  const count = merger.frameCount
  let j = 0
  for (let seq = 0; seq < count && j < boundaries.length; seq++) {
    const f = merger.frameInfo(seq)
    while (j < boundaries.length && boundaries[j]! <= f.byteStart) j++
    if (j >= boundaries.length || boundaries[j]! >= f.byteEnd) continue
    let last = j
    while (last + 1 < boundaries.length && boundaries[last + 1]! < f.byteEnd) last++
    found.add('frame-split-across-reads', 'info', seq,
      `frame ${seq} (bytes ${f.byteStart}–${f.byteEnd}) arrived in ${last - j + 2} reads (${j + 1} to ${last + 2} of ${ends.length})`,
      { byteOffset: boundaries[j]! })
  }
}

/**
 * Frames holding a character cut in two by a read boundary: a read that begins with a UTF-8
 * continuation byte (or, in text reads, a low surrogate after a high one). One diagnostic a frame.
 */
export function splitCharacters(merger: Merger, chunks: readonly CapturedChunk[], ends: readonly number[], found: Findings): void {
  let last: { frame: number | null; count: number; byte: number; read: number } | null = null
  const flush = () => {
    if (last === null) return
    const where = last.frame === null ? 'outside any frame' : `in frame ${last.frame}`
    found.add('utf8-split-across-reads', 'info', last.frame,
      `${last.count === 1 ? 'a character' : `${last.count} characters`} ${where} split across reads, the first between reads ${last.read} and ${last.read + 1} at byte ${last.byte}`,
      { byteOffset: last.byte })
  }
  let previous: CapturedChunk | null = null
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!
    const size = typeof c.data === 'string' ? c.data.length : c.data.byteLength
    if (size === 0) continue
    if (previous !== null && startsMidCharacter(previous, c)) {
      const byte = ends[i - 1]!
      const frame = frameHolding(merger, byte)
      if (last !== null && last.frame === frame && frame !== null) last.count++
      else {
        flush()
        last = { frame, count: 1, byte, read: i }
      }
    }
    previous = c
  }
  flush()
}

function startsMidCharacter(previous: CapturedChunk, c: CapturedChunk): boolean {
  if (typeof c.data !== 'string') return (c.data[0]! & 0xc0) === 0x80
  const p = previous.data
  return typeof p === 'string' && isHighSurrogate(p.charCodeAt(p.length - 1)) && isLowSurrogate(c.data.charCodeAt(0))
}
