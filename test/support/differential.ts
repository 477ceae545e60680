// Shared plumbing for the differential tests (test/differential/): the official SDKs are
// driven as oracles through a custom `fetch` that answers every request with the bytes
// under test (STREAMS.md §4), so the real SDK SSE decoder and accumulator run and no
// socket is ever opened.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { createMerger } from '../../src/index.js'
import type { Frame, FrameEntry, MergeOptions, Reply } from '../../src/index.js'
import { loadFixtures, type FixtureCase } from './fixtures.js'

// ---------------------------------------------------------------------------
// Bytes → a streamed Response

/** Splits `bytes` into pieces whose sizes cycle through `sizes` (all ≥ 1). */
export function chunkBytes(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  if (sizes.length === 0) return [bytes]
  const out: Uint8Array[] = []
  let at = 0
  let i = 0
  while (at < bytes.length) {
    const size = Math.max(1, sizes[i++ % sizes.length]!)
    out.push(bytes.subarray(at, at + size))
    at += size
  }
  return out
}

/** A text/event-stream Response whose body arrives as the given network chunks, one per pull. */
export function sseResponse(chunks: readonly Uint8Array[]): Response {
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!.slice())
      else controller.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

/** What the oracle fetch saw: the SDK must only ever ask our fake, at the fake base URL. */
export interface FetchLog {
  urls: string[]
}

/**
 * A `fetch` for the SDK clients: answers with the body, records the URL, and refuses
 * anything that is not aimed at the unreachable base URL (127.0.0.1:9).
 */
export function oracleFetch(chunks: readonly Uint8Array[], log: FetchLog): (input: unknown, init?: unknown) => Promise<Response> {
  return async (input: unknown) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url
    log.urls.push(url)
    if (!url.startsWith('http://127.0.0.1:9/')) throw new Error(`oracle fetch: unexpected URL ${url}`)
    return sseResponse(chunks)
  }
}

/** A global fetch that fails loudly: installed for the differential suites so nothing can reach the network. */
export function forbiddenFetch(): never {
  throw new Error('network access is forbidden in differential tests (the SDKs must use the injected fetch)')
}

// ---------------------------------------------------------------------------
// Our side

export interface Ours {
  reply: Reply
  frames: Frame[]
  entries: FrameEntry[]
  diagnostics: ReturnType<ReturnType<typeof createMerger>['inspect']>['diagnostics']
  /** Decoded body length in characters (what entries' and frames' start/end count in). */
  chars: number
}

/** Our merger fed the same network chunks the SDK got. */
export function oursChunked(chunks: readonly Uint8Array[], options: MergeOptions = {}): Ours {
  const m = createMerger(options)
  for (const c of chunks) m.push(c)
  const reply = m.end()
  const inspection = m.inspect()
  return { reply, frames: inspection.frames, entries: inspection.entries, diagnostics: inspection.diagnostics, chars: inspection.chars }
}

/** Usage as we keep it: the provider's object minus null fields (DESIGN §3 rule 6, src/providers/shared.ts usageObject). */
export function withoutNulls(usage: unknown): Record<string, unknown> | null {
  if (usage === null || usage === undefined || typeof usage !== 'object') return null
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(usage as Record<string, unknown>)) if (v !== null && v !== undefined) out[k] = v
  return out
}

// ---------------------------------------------------------------------------
// SSE text builder for generated streams

export interface SseStyle {
  eol: '\n' | '\r\n' | '\r'
  /** `data: x` (true) or `data:x` (false). */
  space: boolean
  /** Comment lines (`: keep-alive`) inserted before these event positions. */
  commentsBefore: readonly number[]
  /** The last event is not followed by a blank line (STREAMS case 42). */
  unterminated: boolean
  /** Each JSON payload is spread over several `data:` lines, broken after `,` / `{` outside strings (STREAMS case 44). */
  multiline: boolean
  /** `id: n` lines on every event. */
  ids: boolean
  /** A UTF-8 BOM before the first byte. */
  bom: boolean
}

/** Breaks JSON text into lines after each `,` or `{` that is outside a string: joined with \n it is the same JSON. */
export function jsonLines(json: string): string[] {
  const lines: string[] = []
  let inString = false
  let from = 0
  for (let i = 0; i < json.length; i++) {
    const c = json[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === ',' || c === '{') {
      lines.push(json.slice(from, i + 1))
      from = i + 1
    }
  }
  lines.push(json.slice(from))
  return lines
}

export interface SseEvent {
  event?: string
  data: string
}

export function buildSse(events: readonly SseEvent[], style: SseStyle): string {
  const { eol } = style
  const sp = style.space ? ' ' : ''
  const comments = new Set(style.commentsBefore)
  let out = style.bom ? '\ufeff' : ''
  events.forEach((e, i) => {
    if (comments.has(i)) out += `: keep-alive${eol}${eol}`
    if (style.ids) out += `id:${sp}${i}${eol}`
    if (e.event !== undefined) out += `event:${sp}${e.event}${eol}`
    const lines = style.multiline && e.data.startsWith('{') ? jsonLines(e.data) : [e.data]
    for (const line of lines) out += `data:${sp}${line}${eol}`
    if (!(style.unterminated && i === events.length - 1)) out += eol
  })
  return out
}

export function sseStyleArb(events: number, allowUnterminated: boolean): fc.Arbitrary<SseStyle> {
  return fc.record({
    eol: fc.constantFrom<SseStyle['eol']>('\n', '\n', '\r\n', '\r'),
    space: fc.boolean(),
    commentsBefore: fc.array(fc.nat({ max: Math.max(0, events - 1) }), { maxLength: 3 }),
    unterminated: allowUnterminated ? fc.boolean() : fc.constant(false),
    multiline: fc.boolean(),
    ids: fc.boolean(),
    bom: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  })
}

/** Network chunk sizes: mostly small (splitting UTF-8 characters and CR/LF pairs), sometimes large. */
export const chunkSizesArb: fc.Arbitrary<number[]> = fc.array(
  fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 7 }) }, { weight: 2, arbitrary: fc.integer({ min: 8, max: 200 }) }, fc.integer({ min: 201, max: 5000 })),
  { minLength: 1, maxLength: 12 },
)

// ---------------------------------------------------------------------------
// Text arbitraries

const SPECIALS = [
  'a', 'b', 'Z', ' ', '\n', '\r\n', '\r', '\t', '"', '\\', '/', '€', 'é', 'e\u0301', '😀', '👍🏽', '中文', '\u2028', '\u0000',
  '\ufeff', 'data: ', ': ', '[DONE]', '\n\n', '{', '}', '</think>', '\u00a0',
]

/** Reply text: plain graphemes, any code point (astral too), or a soup of SSE/JSON-hostile pieces. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 25 }),
  fc.string({ unit: fc.constantFrom(...SPECIALS), maxLength: 20 }),
)

/** Cuts `text` at the given positions (mod length, UTF-16 units: surrogate pairs get split too). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  if (text.length === 0) return cuts.length > 0 ? [''] : []
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let prev = 0
  for (const p of points) {
    out.push(text.slice(prev, p))
    prev = p
  }
  out.push(text.slice(prev))
  return out
}

/** Text with the fragments it streams as (fragments may be empty strings). */
export interface Fragmented {
  text: string
  fragments: string[]
}

export const fragmentedTextArb: fc.Arbitrary<Fragmented> = fc
  .tuple(textArb, fc.array(fc.nat(), { maxLength: 8 }))
  .map(([text, cuts]) => ({ text, fragments: splitAt(text, cuts) }))

/** A JSON object's text (arguments / tool input), as the model would write it. */
export const argumentsObjectArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.dictionary(fc.string({ unit: fc.constantFrom('a', 'b', 'city', '_', 'é', '😀', ' ', '"'), maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.constantFrom<number | undefined>(undefined, 2),
  )
  .map(([obj, indent]) => JSON.stringify(obj, null, indent))

/**
 * Merges several ordered queues into one sequence, keeping each queue's own order; `picks`
 * chooses which non-empty queue goes next (cycled).
 */
export function interleave<T>(queues: readonly (readonly T[])[], picks: readonly number[]): T[] {
  const rest = queues.map((q) => [...q])
  const out: T[] = []
  let step = 0
  for (;;) {
    const open = rest.filter((q) => q.length > 0)
    if (open.length === 0) return out
    const pick = picks.length === 0 ? 0 : picks[step++ % picks.length]!
    out.push(open[pick % open.length]!.shift()!)
  }
}

// ---------------------------------------------------------------------------
// Fixtures, read defensively: others add fixtures while these tests run, and a wire file
// whose .expected.json is not written yet must not break this suite.

export function loadFixturesTolerant(): FixtureCase[] {
  try {
    return loadFixtures()
  } catch {
    const root = new URL('../fixtures/', import.meta.url).pathname
    const wire = /\.(sse|ndjson|jsonl|json|txt)$/
    const out: FixtureCase[] = []
    for (const dir of readdirSync(root).sort()) {
      const path = join(root, dir)
      if (!statSync(path).isDirectory()) continue
      for (const file of readdirSync(path).sort()) {
        if (!wire.test(file) || file.endsWith('.expected.json')) continue
        try {
          const expected = JSON.parse(readFileSync(join(path, `${file.replace(wire, '')}.expected.json`), 'utf8'))
          out.push({
            name: `${dir}/${file}`,
            wire: new Uint8Array(readFileSync(join(path, file))),
            options: expected.options ?? {},
            reply: expected.reply,
            description: expected.description ?? '',
          })
        } catch {
          // incomplete fixture (being written): skipped
        }
      }
    }
    return out
  }
}

/** Fixtures whose stored Reply names this provider (or, lacking one, that live in a folder of that name). */
export function fixturesFor(provider: Reply['provider']): FixtureCase[] {
  return loadFixturesTolerant().filter((f) => (f.reply?.provider ?? f.name.split('/')[0]) === provider)
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
