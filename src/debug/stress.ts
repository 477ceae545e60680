// stressClient: the user's client run on the same capture under every chunking that breaks
// real clients (stress-chunkings.ts), one run after another, each result compared with the
// reply Deltascope rebuilds from that run's own reads. A run that throws or does not settle
// in time is a failure saying so; nothing a client does makes stressClient throw.

import { base64Encode, concatBytes, utf8DecodeLossy, utf8DecodeStrict } from '../exchange/bytes.js'
import { parseFixture, replayFixture, type Fixture, type FixtureChunk } from '../exchange/fixture.js'
import { compareReply } from './compare.js'
import type { Comparison } from './compare-types.js'
import { replayResponse } from './replay.js'
import { chunk, chunkingNameError, DEFAULT_CHUNKINGS, stressSource, type ChunkingName, type TimedRead } from './stress-chunkings.js'

/** The user's code: given a fetch that answers every request with the replayed response, it returns what it rebuilt. */
export type StressClient = (fetch: typeof globalThis.fetch) => unknown

export interface StressOptions {
  /** Chunking names (CHUNKINGS; `random:<seed>`); default DEFAULT_CHUNKINGS. */
  chunkings?: readonly string[]
  /** A run that has not settled after this many ms fails as timed out. Default 10 000. */
  timeoutMs?: number
}

export interface StressRun {
  chunking: ChunkingName
  /** The client's result equals the reference (false when it threw or timed out). */
  equal: boolean
  /** The client's result against the reply rebuilt from this run's reads; null when it gave no result. */
  comparison: Comparison | null
  ms: number
  /** How many reads the body arrived in. */
  reads: number
  error?: { kind: 'threw' | 'timed-out'; message: string }
}

export interface StressReport {
  ok: boolean
  runs: StressRun[]
  /** Chunkings asked for that this capture cannot have (an SSE re-encoding of NDJSON), and why. */
  notApplicable: Array<{ chunking: ChunkingName; reason: string }>
  firstFailure: StressRun | null
}

const DEFAULT_TIMEOUT_MS = 10_000

/**
 * Runs `client` once per chunking on the recording (a fixture, or its JSON text) and compares
 * each result with the reference. Rejects only on the test's own mistakes: a recording that is
 * no fixture (FixtureError), an unknown chunking or a bad timeout (TypeError).
 */
export async function stressClient(client: StressClient, recording: Fixture | string, options: StressOptions = {}): Promise<StressReport> {
  const fixture = parseFixture(recording)
  const names = chunkingsOf(options.chunkings)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) throw new TypeError(`stress: timeoutMs must be a number of ms above 0 (got ${String(timeoutMs)})`)
  const source = stressSource(fixture)
  const report: StressReport = { ok: true, runs: [], notApplicable: [], firstFailure: null }
  for (const name of names) {
    const chunked = chunk(source, name)
    if (!chunked.applicable) {
      report.notApplicable.push({ chunking: name, reason: chunked.reason })
      continue
    }
    const run = await runOnce(client, name, runFixture(fixture, chunked.reads, chunked.reencoded), chunked.reads.length, timeoutMs)
    report.runs.push(run)
    if (!run.equal && report.firstFailure === null) report.firstFailure = run
  }
  report.ok = report.firstFailure === null
  return report
}

function chunkingsOf(given: readonly string[] | undefined): ChunkingName[] {
  if (given === undefined) return [...DEFAULT_CHUNKINGS]
  if (given.length === 0) throw new TypeError('stress: no chunking given (omit chunkings for every one)')
  for (const name of given) {
    const error = chunkingNameError(name)
    if (error !== null) throw new TypeError(`stress: ${error}`)
  }
  return [...new Set(given)] as ChunkingName[]
}

/** The fixture this run replays and is compared against: the recorded request and headers, this run's reads. */
function runFixture(fixture: Fixture, reads: readonly TimedRead[], reencoded: boolean): Fixture {
  const bytes = concatBytes(reads.map((r) => r.bytes))
  const text = utf8DecodeStrict(bytes)
  const chunks = reads.map((r): FixtureChunk => {
    const piece = utf8DecodeStrict(r.bytes)
    return piece !== null ? { t: r.t, text: piece } : { t: r.t, base64: base64Encode(r.bytes) }
  })
  const run: Fixture = {
    ...fixture,
    body: text !== null ? { text } : { text: utf8DecodeLossy(bytes), base64: base64Encode(bytes) },
    chunks,
  }
  // a re-encoded body is another stream: its reference is rebuilt from its own bytes
  return reencoded ? { ...run, expected: replayFixture(run) } : run
}

const TIMED_OUT = Symbol('timed out')

async function runOnce(client: StressClient, chunking: ChunkingName, fixture: Fixture, reads: number, timeoutMs: number): Promise<StressRun> {
  const controller = new AbortController()
  // any request is answered, whatever its URL: the client is under test, not its routing
  const fetch = (async (input?: unknown, init?: { signal?: AbortSignal | null }): Promise<Response> => {
    const own = init?.signal ?? signalOf(input)
    return replayResponse(fixture, { signal: own ? either(controller.signal, own) : controller.signal })
  }) as typeof globalThis.fetch
  const started = now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs) })
  // a client that throws synchronously is caught like one that rejects; neither rejects here
  const call = Promise.resolve().then(() => client(fetch)).then((value) => ({ value }), (thrown: unknown) => ({ thrown }))
  const outcome = await Promise.race([call, timeout])
  clearTimeout(timer)
  const ms = Math.round((now() - started) * 10) / 10
  if (outcome === TIMED_OUT) {
    // free a client stuck on the body: its reads now fail
    controller.abort(new Error(`deltascope stress: the ${chunking} run timed out`))
    return { chunking, equal: false, comparison: null, ms, reads, error: { kind: 'timed-out', message: `the client did not settle within ${timeoutMs} ms` } }
  }
  if ('thrown' in outcome) return { chunking, equal: false, comparison: null, ms, reads, error: { kind: 'threw', message: errorText(outcome.thrown) } }
  const comparison = compareReply(fixture, outcome.value)
  return { chunking, equal: comparison.equal, comparison, ms, reads }
}

function signalOf(input: unknown): AbortSignal | undefined {
  const signal = typeof input === 'object' && input !== null ? (input as { signal?: unknown }).signal : undefined
  return signal instanceof AbortSignal ? signal : undefined
}

/** A signal aborted when either is. */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  const both = new AbortController()
  const on = (s: AbortSignal) => () => both.abort(s.reason)
  if (a.aborted) both.abort(a.reason)
  else if (b.aborted) both.abort(b.reason)
  else {
    a.addEventListener('abort', on(a), { once: true })
    b.addEventListener('abort', on(b), { once: true })
  }
  return both.signal
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`
  try {
    return String(e)
  } catch {
    return 'a value that cannot be shown'
  }
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now()
}
