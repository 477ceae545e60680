// The harness of the differential tests (test/differential/): the official SDKs are
// driven as oracles through a custom `fetch` that answers every request with the bytes
// under test (docs/wire-formats.md#the-sdks-as-oracles), so the real SDK SSE decoder and accumulator run and no
// socket is ever opened. A suite states only what is its SDK's own: how to call it, its view
// of a reply, which streams it can judge; the fixture suite, the documented-divergence cases
// and the generated-stream runs are written once, here.

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import type { Diagnostic, Frame, FrameEntry, MergeOptions, Reply } from '../../src/index.js'
import { loadFixtures, type FixtureCase } from './fixtures.js'

export const enc = new TextEncoder()

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

/** The SDK clients' base URL: unreachable (port 9, discard), and the only one oracleFetch answers. */
export const ORACLE_BASE = 'http://127.0.0.1:9'

export type OracleFetch = (input: unknown, init?: unknown) => Promise<Response>

/**
 * A `fetch` for the SDK clients: answers with the body, records the URL, and refuses
 * anything that is not aimed at the unreachable base URL (ORACLE_BASE).
 */
export function oracleFetch(chunks: readonly Uint8Array[], log: FetchLog): OracleFetch {
  return async (input: unknown) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url
    log.urls.push(url)
    if (!url.startsWith(`${ORACLE_BASE}/`)) throw new Error(`oracle fetch: unexpected URL ${url}`)
    return sseResponse(chunks)
  }
}

/**
 * Runs one SDK call whose client was given the oracle fetch for `chunks`, and checks that the
 * SDK asked for `url` and nothing else.
 */
export async function askOracle<T>(chunks: readonly Uint8Array[], url: string, call: (fetch: OracleFetch) => Promise<T>): Promise<T> {
  const log: FetchLog = { urls: [] }
  const result = await call(oracleFetch(chunks, log))
  expect(log.urls).toEqual([url])
  return result
}

/** A global fetch that fails loudly: installed for the differential suites so nothing can reach the network. */
export function forbiddenFetch(): never {
  throw new Error('network access is forbidden in differential tests (the SDKs must use the injected fetch)')
}

/** Belt and braces, for a whole test file: the SDKs get our fetch; anything reaching for the global one fails. */
export function forbidGlobalFetch(): void {
  beforeAll(() => {
    vi.stubGlobal('fetch', forbiddenFetch)
  })
  afterAll(() => {
    vi.unstubAllGlobals()
  })
}

// ---------------------------------------------------------------------------
// Our side

export interface Ours {
  reply: Reply
  frames: Frame[]
  entries: FrameEntry[]
  diagnostics: Diagnostic[]
  /** Decoded body length in characters (what entries' and frames' start/end count in). */
  chars: number
}

/** Our merger fed the same network chunks the SDK got. */
export function oursChunked(chunks: readonly Uint8Array[], options: MergeOptions = {}): Ours {
  const m = createMerger(options)
  for (const c of chunks) m.push(c)
  const reply = m.end()
  // the decoded body's length, as the merger counts (a leading BOM dropped, invalid UTF-8 as U+FFFD)
  const whole = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  chunks.reduce((at, c) => (whole.set(c, at), at + c.length), 0)
  const chars = new TextDecoder().decode(whole).length
  return { reply, frames: m.frames(), entries: m.entries(), diagnostics: m.diagnostics(), chars }
}

/**
 * Choice 0 of our reply as an SDK that builds one message (Anthropic, OpenAI Responses) sees
 * it: "" and null where we have no choice at all.
 */
export function firstChoice(reply: Reply) {
  const c = reply.choices[0]
  return {
    role: c?.role ?? null,
    content: c?.content ?? '',
    refusal: c?.refusal ?? '',
    reasoning: c?.reasoning ?? '',
    toolCalls: c?.toolCalls ?? [],
    finishReason: c?.finishReason ?? null,
    usage: reply.usage,
  }
}

/** Usage as we keep it: the provider's object minus null fields (docs/architecture.md#usage, src/providers/shared.ts usageObject). */
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
  /** The last event is not followed by a blank line (docs/wire-formats.md#unterminated-last-event). */
  unterminated: boolean
  /** Each JSON payload is spread over several `data:` lines, broken after `,` / `{` outside strings (docs/wire-formats.md#multi-line-data). */
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
// The suites

/** DIFF_RUNS=n scales the generated runs (for a long local hunt); the default keeps the suite fast. */
export function runs(n: number): number {
  return Math.round(n * Number(process.env['DIFF_RUNS'] ?? 1))
}

/**
 * Fixtures whose stored Reply names this provider (or, lacking one, that live in a folder of
 * that name). Read tolerantly: others add fixtures while these tests run.
 */
export function fixturesFor(provider: Reply['provider']): FixtureCase[] {
  return loadFixtures({ tolerant: true }).filter((f) => (f.reply?.provider ?? f.name.split('/')[0]) === provider)
}

/** What an SDK suite says of its fixtures. `J` is its judgement of one stream. */
export interface FixtureSuite<J> {
  provider: Reply['provider']
  /** The describe() title, e.g. "anthropic fixtures vs @anthropic-ai/sdk MessageStream". */
  title: string
  /** Judges a fixture from our merge of its whole body. */
  judge(ours: Ours, fixture: FixtureCase): J
  /** Why the SDK cannot be the oracle on it, or null when it is compared. */
  excluded(j: J): string | null
  /** Compares the SDK with us on the body cut into these chunks; throws where they disagree. */
  compare(chunks: readonly Uint8Array[], j: J, ours: Ours): Promise<void>
  /**
   * On an excluded stream: whether the SDK, run exactly as for a compared one, agrees with us
   * after all. Default: compare() does not throw.
   */
  agrees?(chunks: readonly Uint8Array[], j: J, ours: Ours): Promise<boolean>
  /** Expected divergences handled inside compare(), shown after the test name. */
  notes?(j: J, ours: Ours): string[]
}

/**
 * One test per fixture: compared, or excluded with its reason, the exclusion earned (the SDK
 * must disagree); and a first test that our merger fed one chunk is merge() of the body.
 */
export function describeFixtures<J>(suite: FixtureSuite<J>): void {
  const fixtures = fixturesFor(suite.provider)
  describe(suite.title, () => {
    const judged = fixtures.map((f) => {
      const ours = oursChunked([f.wire], f.options)
      return { f, ours, j: suite.judge(ours, f) }
    })
    const excluded = judged.filter((x) => suite.excluded(x.j) !== null).length
    it(`found ${fixtures.length} ${suite.provider} fixture(s): ${fixtures.length - excluded} compared, ${excluded} excluded (asserted below)`, () => {
      for (const { f, ours } of judged) expect(ours.reply).toEqual(merge(f.wire, f.options))
    })
    for (const { f, ours, j } of judged) {
      const reason = suite.excluded(j)
      if (reason !== null) {
        it(`${f.name}: the SDK cannot be the oracle here — ${reason}`, async () => {
          const agreed = suite.agrees ? await suite.agrees([f.wire], j, ours) : await suite.compare([f.wire], j, ours).then(() => true, () => false)
          expect(agreed, 'the SDK agrees on this fixture: compare it instead of excluding it').toBe(false)
        })
        continue
      }
      const notes = suite.notes?.(j, ours) ?? []
      it(`${f.name}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`, async () => {
        await suite.compare([f.wire], j, ours)
      })
    }
  })
}

/** A divergence from the SDK that our requirements call for, written out as a stream. */
export interface Divergence<S> {
  name: string
  body: string
  /** What the suite's judgement says of the stream (why it is excluded, or why the SDK must throw). */
  because: RegExp
  /** What the SDK does with it. */
  sdk(run: () => Promise<S>): Promise<void>
  /** What we make of it. */
  ours(reply: Reply): void
}

/**
 * One test per documented divergence: the judgement names it, we do what we should, and the
 * SDK does what it is documented to do (if the SDK changes, these fail).
 */
export function divergenceTests<S>(cases: ReadonlyArray<Divergence<S>>, why: (bytes: Uint8Array, ours: Ours) => string, runSdk: (chunks: readonly Uint8Array[]) => Promise<S>): void {
  for (const c of cases) {
    it(c.name, async () => {
      const bytes = enc.encode(c.body)
      expect(why(bytes, oursChunked([bytes]))).toMatch(c.because)
      c.ours(merge(bytes))
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {}) // the SDKs log unparsable frames
      try {
        await c.sdk(() => runSdk([bytes]))
      } finally {
        errors.mockRestore()
      }
    })
  }
}

/** A generated stream: the generator's value, its SSE events, how they are written, and the network chunk sizes. */
export interface GeneratedSse<G> {
  g: G
  events: SseEvent[]
  style: SseStyle
  sizes: number[]
}

export function generatedSseArb<G>(genArb: fc.Arbitrary<G>, events: (g: G) => SseEvent[], allowUnterminated: boolean): fc.Arbitrary<GeneratedSse<G>> {
  return genArb.chain((g) => {
    const evs = events(g)
    return fc.record({ g: fc.constant(g), events: fc.constant(evs), style: sseStyleArb(evs.length, allowUnterminated), sizes: chunkSizesArb })
  })
}

/**
 * Runs `check` on runs(numRuns) generated streams, each written out, cut into its network
 * chunks and merged by us; chunking must not matter to us (the reply is merge() of the body).
 */
export async function checkGenerated<G>(
  arb: fc.Arbitrary<GeneratedSse<G>>,
  numRuns: number,
  check: (c: { g: G; bytes: Uint8Array; chunks: Uint8Array[]; ours: Ours }) => Promise<void>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, async ({ g, events, style, sizes }) => {
      const bytes = enc.encode(buildSse(events, style))
      const chunks = chunkBytes(bytes, sizes)
      const ours = oursChunked(chunks)
      expect(ours.reply).toEqual(merge(bytes))
      await check({ g, bytes, chunks, ours })
    }),
    { numRuns: runs(numRuns) },
  )
}

/** A generated tool call: id, name, JSON-object arguments and where they are cut into fragments. */
export interface GenToolBase {
  id: string
  name: string
  args: string
  cuts: number[]
}

export function toolCallArb(id: RegExp): fc.Arbitrary<GenToolBase> {
  return fc.record({
    id: fc.stringMatching(id),
    name: fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/),
    args: argumentsObjectArb,
    cuts: fc.array(fc.nat(), { maxLength: 10 }),
  })
}

/** A JSON object, not null or an array (the exchange layer's reader), for the suites' checks of frames. */
export { isObject } from '../../src/exchange/shared.js'
