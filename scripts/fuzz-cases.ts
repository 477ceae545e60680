// The fuzzer's cases (npm run fuzz; scripts/fuzz.ts runs them). Every case is made from its
// seed and number alone, so any failure replays with `--seed S --case N`. Five kinds:
//
// - bytes:  random bytes, or random text from the wire formats' alphabet;
// - mutate: a repository fixture (test/fixtures) with 1–8 byte-level mutations;
// - nest:   a fixture whose frames get a deep value (up to 6,000 levels) or an odd one (-1, "0",
//           1.5, null, 2^53, __proto__, a lone surrogate, 100 KB of text) at any position of
//           their JSON, the frames written back in the fixture's own framing;
// - storm:  one to three consecutive frames of a fixture repeated up to 20,000 times (2 MB at
//           most), as they are or with their indexes counting up;
// - splice: pieces of two fixtures end to end.

import { createMerger, type MergeOptions, type Transport } from '../src/index.js'
import { jsonText } from '../src/core/json-depth.js'
import { loadFixtures } from '../test/support/fixtures.js'

export type CaseKind = 'bytes' | 'mutate' | 'nest' | 'storm' | 'splice'

export interface FuzzCase {
  id: number
  kind: CaseKind
  /** What was done, in a few words (for a failure report). */
  label: string
  body: Uint8Array
  /** A storm's body with a quarter of the repeats: time per byte must not grow with the repeats. */
  smaller?: Uint8Array
  options: MergeOptions
}

/** A fixture as frames, to be changed and written back. */
interface Source {
  name: string
  wire: Uint8Array
  options: MergeOptions
  transport: Transport
  frames: Array<{ event: string | null; json: unknown; raw: string; kind: string; data: string }>
}

export type Rng = () => number

/** mulberry32 on a 32-bit hash of (seed, case): each case has its own stream of numbers. */
export function rngFor(seed: number, id: number): Rng {
  let a = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(id + 1, 0xc2b2ae35)) >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const int = (rng: Rng, n: number) => Math.floor(rng() * n)
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)]!
const enc = new TextEncoder()

let sources: Source[] | null = null

/** The repository fixtures, read once and split into frames with the library itself. */
export function fixtureSources(): Source[] {
  if (sources !== null) return sources
  sources = loadFixtures({ tolerant: true }).map((f) => {
    const m = createMerger(f.options)
    m.push(f.wire)
    const reply = m.end()
    return {
      name: f.name, wire: f.wire, options: f.options, transport: reply.transport,
      frames: m.frames().map((fr) => ({ event: fr.event, json: fr.json, raw: fr.raw, kind: fr.kind, data: fr.data })),
    }
  })
  return sources
}

const WEIGHTS: Array<[CaseKind, number]> = [['bytes', 10], ['mutate', 36], ['nest', 38], ['storm', 8], ['splice', 8]]

/** Storms up to 2 MB (npm run fuzz); the quick run inside npm test passes less. */
export function makeCase(seed: number, id: number, maxStorm = 2_000_000): FuzzCase {
  const rng = rngFor(seed, id)
  let r = rng() * WEIGHTS.reduce((n, [, w]) => n + w, 0)
  let kind: CaseKind = 'bytes'
  for (const [k, w] of WEIGHTS) {
    if ((r -= w) < 0) { kind = k; break }
  }
  const all = fixtureSources()
  const source = pick(rng, all)
  switch (kind) {
    case 'bytes': return { id, kind, ...randomBytes(rng) }
    case 'mutate': return { id, kind, ...mutate(rng, source) }
    case 'nest': return { id, kind, ...nest(rng, source) }
    case 'storm': return { id, kind, ...storm(rng, source, maxStorm) }
    case 'splice': return { id, kind, ...splice(rng, source, pick(rng, all)) }
  }
}

type Made = Omit<FuzzCase, 'id' | 'kind'>

const ALPHABET = 'data: event: id: retry: :\n\n\r\n{}[]",:0123456789-.eE truefalsenull\\u00e9[DONE]choices delta content type index tool_calls'

function randomBytes(rng: Rng): Made {
  const n = int(rng, 2048)
  const bytes = new Uint8Array(n)
  const text = rng() < 0.5
  for (let i = 0; i < n; i++) bytes[i] = text ? ALPHABET.charCodeAt(int(rng, ALPHABET.length)) : int(rng, 256)
  return { label: `${n} random ${text ? 'wire characters' : 'bytes'}`, body: bytes, options: {} }
}

/** Byte pieces that break framing, decoding or JSON when inserted anywhere. */
const INSERTS = ['\n', '\r', '\r\n', '\n\n', 'data: ', ':', '[DONE]', '{', '}', '"', '\\', '\ufeff', 'event: error\n', 'retry: 99999999999999999999\n'].map((s) => enc.encode(s))
const BAD_UTF8 = [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]].map((b) => new Uint8Array(b))

function mutate(rng: Rng, source: Source): Made {
  let bytes = source.wire.slice()
  const count = 1 + int(rng, 8)
  const done: string[] = []
  for (let k = 0; k < count; k++) {
    const at = int(rng, bytes.length + 1)
    const op = int(rng, 8)
    const join = (...parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
      let o = 0
      for (const p of parts) { out.set(p, o); o += p.length }
      return out
    }
    if (op === 0 && bytes.length > 0) { const i = Math.min(at, bytes.length - 1); bytes[i] = bytes[i]! ^ (1 << int(rng, 8)); done.push('flip') }
    else if (op === 1) { bytes = join(bytes.subarray(0, at), pick(rng, INSERTS), bytes.subarray(at)); done.push('insert') }
    else if (op === 2) { bytes = join(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + int(rng, 64)))); done.push('delete') }
    else if (op === 3) { const end = Math.min(bytes.length, at + int(rng, 256)); bytes = join(bytes.subarray(0, end), bytes.subarray(at, end), bytes.subarray(end)); done.push('duplicate') }
    else if (op === 4) { bytes = bytes.slice(0, at); done.push('truncate') }
    else if (op === 5) { bytes = join(bytes.subarray(0, at), pick(rng, BAD_UTF8), bytes.subarray(at)); done.push('bad-utf8') }
    else if (op === 6) { const b = new Uint8Array(1 + int(rng, 16)); for (let i = 0; i < b.length; i++) b[i] = int(rng, 256); bytes = join(bytes.subarray(0, at), b, bytes.subarray(at)); done.push('random') }
    else { bytes = join(bytes.subarray(0, at), enc.encode(pick(rng, ['-1', '"0"', '1.5', 'null', '9007199254740992', '1e999', '"__proto__"'])), bytes.subarray(at)); done.push('value') }
  }
  return { label: `${source.name}: ${done.join(', ')}`, body: bytes, options: source.options }
}

const PLACEHOLDER = '\u0000fuzz-placeholder\u0000'
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER)

/** A deep value's JSON text, `depth` levels of arrays, objects or both. */
function deepText(rng: Rng, depth: number): string {
  const leaf = pick(rng, ['1', '"x"', 'null', '{}', '[]', '"\\ud800"'])
  switch (int(rng, 4)) {
    case 0: return '['.repeat(depth) + leaf + ']'.repeat(depth)
    case 1: return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth)
    case 2: return '[{"k":'.repeat(depth >> 1) + leaf + '}]'.repeat(depth >> 1)
    default: return '{"arguments":['.repeat(depth >> 1) + `"s",${leaf}` + ']}'.repeat(depth >> 1)
  }
}

const ODD = ['-1', '"0"', '1.5', 'null', '9007199254740992', '-0', '""', '"\\ud800"', 'true', '[]', '{}', '{"__proto__":{"polluted":1}}', '1e308', '"constructor"']

/** Every position in a JSON value: containers to add to, and keys and indexes to replace. */
function positions(rng: Rng, root: unknown): Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> {
  const out: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = []
  const stack: unknown[] = [root]
  while (stack.length > 0 && out.length < 2000) {
    const node = stack.pop()
    if (Array.isArray(node)) node.forEach((v, i) => { out.push({ parent: node, key: i }); stack.push(v) })
    else if (typeof node === 'object' && node !== null) {
      for (const [k, v] of Object.entries(node)) { out.push({ parent: node as Record<string, unknown>, key: k }); stack.push(v) }
      out.push({ parent: node as Record<string, unknown>, key: pick(rng, ['arguments', 'args', 'input', 'usage', 'error', 'index', 'output_index', 'name']) })
    }
  }
  return out
}

function nest(rng: Rng, source: Source): Made {
  const frames = source.frames.map((f) => ({ ...f, text: f.kind === 'data' ? f.data : f.raw }))
  const data = frames.filter((f) => f.kind === 'data' && typeof f.json === 'object' && f.json !== null)
  const changes: string[] = []
  for (let k = 0, n = 1 + int(rng, 3); k < n && data.length > 0; k++) {
    const frame = pick(rng, data)
    const copy = JSON.parse(frame.text) as unknown
    const spots = positions(rng, copy)
    if (spots.length === 0) continue
    const spot = pick(rng, spots)
    const deep = rng() < 0.6
    const value = deep ? deepText(rng, 1 + int(rng, 6000)) : pick(rng, ODD)
    ;(spot.parent as Record<string | number, unknown>)[spot.key] = PLACEHOLDER
    frame.text = jsonText(copy).replace(QUOTED_PLACEHOLDER, value)
    changes.push(`${deep ? `depth ${value.length >> 1}` : value} at ${String(spot.key)}`)
  }
  return { label: `${source.name}: ${changes.join('; ') || 'unchanged'}`, body: enc.encode(write(source, frames)), options: source.options }
}

/**
 * One to three consecutive frames repeated: as they are, or (half the time) with every
 * `…index` number counting up, so each repeat is another part, call or choice. The same
 * storm with a quarter of the repeats comes along, for the growth check.
 */
function storm(rng: Rng, source: Source, maxBytes: number): Made {
  const frames = source.frames.map((f) => ({ ...f, text: f.kind === 'data' ? f.data : f.raw }))
  if (frames.length === 0) return { label: `${source.name}: no frames`, body: source.wire, options: source.options }
  const at = int(rng, frames.length)
  const width = Math.min(frames.length - at, 1 + int(rng, 3))
  const window = frames.slice(at, at + width)
  const size = window.reduce((n, f) => n + f.text.length + 16, 0)
  // the storm's size, log-uniform from 4 KB to maxBytes
  const budget = 4096 * (maxBytes / 4096) ** rng()
  const times = Math.max(8, Math.min(1 + int(rng, 20_000), Math.floor(budget / size)))
  const vary = rng() < 0.5
  const build = (n: number) => {
    const out = [...frames.slice(0, at + width)]
    for (let i = 1; i < n; i++) out.push(...(vary ? window.map((f) => ({ ...f, text: f.text.replace(/("\w*index"\s*:\s*)\d+/g, `$1${i}`) })) : window))
    out.push(...frames.slice(at + width))
    return enc.encode(write(source, out))
  }
  return {
    label: `${source.name}: frames ${at}–${at + width - 1} ×${times}${vary ? ', indexes counting' : ''}`,
    body: build(times), smaller: build(times >> 2), options: source.options,
  }
}

function splice(rng: Rng, a: Source, b: Source): Made {
  const x = int(rng, a.wire.length + 1)
  const y = int(rng, b.wire.length + 1)
  const body = new Uint8Array(x + b.wire.length - y)
  body.set(a.wire.subarray(0, x))
  body.set(b.wire.subarray(y), x)
  return { label: `${a.name}[0, ${x}) + ${b.name}[${y}, end)`, body, options: rng() < 0.5 ? a.options : {} }
}

/** Frames written back in the source's framing: SSE blocks (event names kept), NDJSON lines, or one JSON array. */
function write(source: Source, frames: ReadonlyArray<{ event: string | null; text: string; kind: string }>): string {
  if (source.transport === 'ndjson') return frames.map((f) => f.text + '\n').join('')
  if (source.transport === 'json') return '[' + frames.map((f) => f.text).join(',\n') + ']'
  if (source.transport === 'data-stream') return frames.map((f) => (f.kind === 'data' && f.event !== null ? `${f.event}:${f.text}` : f.text) + '\n').join('')
  // SSE, and the binary event stream's frames too: their event names keep them Bedrock's
  return frames.map((f) => (f.kind !== 'data' ? f.text : (f.event !== null ? `event: ${f.event}\n` : '') + f.text.split(/\r\n|\r|\n/).map((l) => `data: ${l}`).join('\n')) + '\n\n').join('')
}
