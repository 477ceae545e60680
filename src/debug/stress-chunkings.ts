// The chunkings a stress run replays a capture under: the same bytes cut into other network
// reads, or (SSE only) the same events re-encoded as another server may legally send them.
// Each is named, says which client bug it exposes, and is deterministic: the same capture and
// name give the same reads.

import { concatBytes, utf8Encode } from '../exchange/bytes.js'
import { fixtureChunks, fixtureMergeOptions, type Fixture } from '../exchange/fixture.js'
import { createMerger } from '../library.js'
import type { Transport } from '../library.js'
import { REENCODINGS, reencodeSse, type Reencoding } from './stress-reencode.js'

/** Every chunking by name, with the client bug it exposes (docs/architecture.md#stress). */
export const CHUNKINGS = {
  'recorded': "The capture's own reads at their times: the baseline. A client failing here fails on this very stream for its users.",
  'whole': 'The body in one read (localhost, a buffering proxy): a client that takes one event per read, or flushes its last frame only on a next read, loses frames.',
  'bytes-1': 'Each byte its own read: any state a client does not carry from one read to the next (a partial line, field, character or frame) is lost.',
  'frame-straddle': 'A read boundary inside every frame: a client that parses each read on its own drops every frame (dropped-frames).',
  'utf8-split': 'A read boundary inside every multi-byte character: a client that decodes each read without {stream: true} shows U+FFFD or mojibake (utf8-split).',
  'line-straddle': 'A read boundary between every \\r and \\n, and right after every SSE field name\'s colon: a client that ends a line at a read\'s \\r and then sees an empty line, or looks for "data: " within one read, splits or drops frames.',
  'crlf': 'SSE re-encoded with \\r\\n line endings (legal; some servers and proxies send them): a client that splits events only on "\\n\\n" never finds one.',
  'cr': 'SSE re-encoded with bare \\r line endings (legal, rare): a client that splits lines only on "\\n" sees one endless line.',
  'comments': 'SSE with a ": keepalive" comment line ahead of every event (proxies and servers send them): a client that takes a ":" line as data corrupts or drops the event.',
  'no-space': 'SSE written "data:x", without the optional space (legal; some servers do): a client that looks for "data: " with its space finds nothing, one that cuts 6 characters loses each payload\'s first.',
  'retry-id': 'SSE with an "id:" field before and a "retry:" field after every event\'s data (a resumable stream): a client that takes every line, or the first or last line, as data corrupts the event.',
  'random:<seed>': 'Reads of 1 to 64 bytes, their sizes drawn from the seed: a mix of the cuts above; the same seed gives the same reads.',
} as const

/** A run's chunking: a key of CHUNKINGS, with `random:<seed>` as e.g. `random:7`. */
export type ChunkingName = Exclude<keyof typeof CHUNKINGS, 'random:<seed>'> | `random:${number}`

/** Every chunking above, and three seeds. */
export const DEFAULT_CHUNKINGS: readonly ChunkingName[] = [
  'recorded', 'whole', 'bytes-1', 'frame-straddle', 'utf8-split', 'line-straddle',
  ...REENCODINGS, 'random:1', 'random:2', 'random:3',
]

const RANDOM = /^random:(\d{1,10})$/

/** The name's mistake, or null when it names a chunking. */
export function chunkingNameError(name: string): string | null {
  if (name in CHUNKINGS && name !== 'random:<seed>') return null
  const seed = RANDOM.exec(name)
  if (seed && Number(seed[1]) <= 0xffffffff) return null
  const names = Object.keys(CHUNKINGS).join(', ')
  return name.startsWith('random')
    ? `${JSON.stringify(name)}: a random chunking is random:<seed>, the seed a whole number from 0 to 4294967295`
    : `unknown chunking ${JSON.stringify(name)} (one of ${names})`
}

/** One read of a run: its bytes and the time (ms since the request started) its last byte was recorded to arrive. */
export interface TimedRead {
  bytes: Uint8Array
  t: number | null
}

export type Chunked =
  | { applicable: true; name: ChunkingName; reads: TimedRead[]; reencoded: boolean }
  | { applicable: false; name: ChunkingName; reason: string }

/** The capture, read once for all chunkings: its bytes, recorded reads, framing and frames. */
export interface StressSource {
  body: Uint8Array
  /** The recorded reads: [start, end) in body, with their times. */
  recorded: Array<{ start: number; end: number; t: number | null }>
  transport: Transport | 'unknown'
  /** Each frame's bytes [start, end) in body. */
  frames: Array<{ start: number; end: number }>
}

export function stressSource(fixture: Fixture): StressSource {
  const chunks = fixtureChunks(fixture).map((c) => ({ bytes: typeof c.data === 'string' ? utf8Encode(c.data) : c.data, t: c.t }))
  const merger = createMerger(fixtureMergeOptions(fixture))
  const recorded: StressSource['recorded'] = []
  let at = 0
  for (const c of chunks) {
    if (c.t === null) merger.push(c.bytes)
    else merger.push(c.bytes, c.t)
    recorded.push({ start: at, end: at + c.bytes.length, t: c.t })
    at += c.bytes.length
  }
  const reply = merger.end()
  const frames: StressSource['frames'] = []
  for (let seq = 0; seq < merger.frameCount; seq++) {
    const info = merger.frameInfo(seq)
    frames.push({ start: info.byteStart, end: info.byteEnd })
  }
  return { body: concatBytes(chunks.map((c) => c.bytes)), recorded, transport: reply.transport, frames }
}

const TRANSPORT_NAMES: Record<string, string> = {
  ndjson: 'NDJSON', json: 'a JSON document', 'data-stream': 'an AI SDK data stream', eventstream: 'a binary AWS event stream', unknown: 'not a stream Deltascope recognised',
}

/** The reads of one chunking of the source, or why it does not apply. Throws a TypeError on a name that is no chunking. */
export function chunk(source: StressSource, name: ChunkingName): Chunked {
  const error = chunkingNameError(name)
  if (error !== null) throw new TypeError(`stress: ${error}`)
  const { body } = source
  const notApplicable = (reason: string): Chunked => ({ applicable: false, name, reason })
  const cuts = (points: number[], empty: string): Chunked =>
    points.length === 0 ? notApplicable(empty) : { applicable: true, name, reads: readsAt(source, points), reencoded: false }
  if ((REENCODINGS as readonly string[]).includes(name)) {
    if (source.transport !== 'sse') return notApplicable(`the stream is ${TRANSPORT_NAMES[source.transport] ?? source.transport}, not SSE: only SSE is re-encoded`)
    const reads = reencodeSse(body, name as Reencoding).map((r) => ({ bytes: r.bytes, t: timeAt(source, r.sourceEnd) }))
    return { applicable: true, name, reads, reencoded: true }
  }
  const binary = source.transport === 'eventstream'
  switch (name) {
    case 'recorded':
      return { applicable: true, name, reads: source.recorded.map((r) => ({ bytes: body.slice(r.start, r.end), t: r.t })), reencoded: false }
    case 'whole':
      return { applicable: true, name, reads: body.length > 0 ? [{ bytes: body.slice(), t: timeAt(source, body.length) }] : [], reencoded: false }
    case 'bytes-1':
      return cuts(range(1, body.length), 'the body is empty')
    case 'frame-straddle':
      return cuts(source.frames.map((f) => middle(body, f.start, f.end)).filter((p): p is number => p !== null), 'no frame is two bytes long or more')
    case 'utf8-split':
      if (binary) return notApplicable('the stream is binary: it has no characters to split')
      return cuts(range(0, body.length - 1).filter((i) => body[i]! >= 0xc0).map((i) => i + 1), 'the body has no multi-byte character')
    case 'line-straddle':
      if (binary) return notApplicable('the stream is binary: it has no lines')
      return cuts(lineCuts(body, source.transport === 'sse'), source.transport === 'sse' ? 'the body has no \\r\\n and no field' : 'the body has no \\r\\n line ending (and only SSE has fields)')
    default:
      return cuts(randomCuts(body.length, Number(RANDOM.exec(name)![1])), 'the body is empty')
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = []
  for (let i = from; i < to; i++) out.push(i)
  return out
}

/** A cut near the middle of [start, end), moved back to a character's first byte (a frame cut is not also a character cut); null when none fits. */
function middle(body: Uint8Array, start: number, end: number): number | null {
  let at = start + Math.floor((end - start) / 2)
  while (at > start && (body[at]! & 0xc0) === 0x80) at--
  return at > start ? at : null
}

/** Between each \r and \n; for SSE also right after each field's colon (a comment line starts with its colon: no cut). */
function lineCuts(body: Uint8Array, sse: boolean): number[] {
  const out: number[] = []
  let lineStart = true
  let colonPassed = false
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!
    if (b === 0x0d || b === 0x0a) {
      if (b === 0x0d && body[i + 1] === 0x0a) out.push(i + 1)
      lineStart = true
      colonPassed = false
      continue
    }
    if (sse && b === 0x3a && !colonPassed) {
      if (!lineStart && i + 1 < body.length) out.push(i + 1)
      colonPassed = true
    }
    lineStart = false
  }
  return out
}

/** Cuts making reads of 1 to 64 bytes, sizes drawn from mulberry32(seed). */
function randomCuts(length: number, seed: number): number[] {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const out: number[] = []
  for (let at = 1 + Math.floor(next() * 64); at < length; at += 1 + Math.floor(next() * 64)) out.push(at)
  return out
}

/** The body cut at these sorted offsets; each read timed as the recorded read holding its last byte. */
function readsAt(source: StressSource, points: readonly number[]): TimedRead[] {
  const all = [0, ...points, source.body.length]
  const reads: TimedRead[] = []
  for (let i = 1; i < all.length; i++) {
    if (all[i]! > all[i - 1]!) reads.push({ bytes: source.body.slice(all[i - 1], all[i]), t: timeAt(source, all[i]!) })
  }
  return reads
}

/** When the byte just before `end` was recorded to arrive (the time of the read that held it). */
function timeAt(source: StressSource, end: number): number | null {
  const reads = source.recorded
  let lo = 0
  let hi = reads.length - 1
  // the first read ending at or after `end` (binary search: bytes-1 asks once per byte)
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (reads[mid]!.end >= end) hi = mid
    else lo = mid + 1
  }
  return reads[lo]?.t ?? null
}
