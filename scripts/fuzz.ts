// npm run fuzz [-- --cases 100000] [-- --seed 1] [-- --case N] [-- --timeout 20000] [-- --json]
//
// Hostile streams against the merger (a stream is input from anyone): cases from scripts/fuzz-cases.ts, each
// checked for
//   throw      merge(), or a merger fed the same bytes in random pushes, throws;
//   mismatch   the two Replies differ (chunking must never change the Reply);
//   serialise  the Reply, the diagnostics or the stream errors do not JSON.stringify;
//   slow       time per byte far above the fixtures' (with a 16 KB floor): not linear;
//   hang       a case runs past the watchdog's timeout (the cases run in a child process,
//              restarted after the case that hung).
// Seeded: the same seed gives the same cases; `--case N` replays one. Exit 1 on any failure.

import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createMerger, merge, type Reply } from '../src/index.js'
import { fixtureSources, makeCase, rngFor, type CaseKind, type FuzzCase } from './fuzz-cases.js'

export type Check = 'throw' | 'mismatch' | 'serialise' | 'slow' | 'hang'

export interface CaseResult {
  id: number
  kind: CaseKind
  bytes: number
  /** merge() CPU time, ms. */
  ms: number
  /** merge() time per byte against the fixtures' (16 KB floor): about 1 or less when linear. */
  ratio: number
  failure: { check: Check; message: string; label: string } | null
}

export interface FuzzSummary {
  seed: number
  cases: number
  byKind: Record<CaseKind, number>
  counts: Record<Check, number>
  slowest: { id: number; kind: CaseKind; ratio: number; bytes: number; ms: number } | null
  failures: CaseResult[]
  msPerByte: number
  seconds: number
}

/** A case slower than this many times the fixtures' time per byte (after re-timing) is reported. */
export const SLOW_RATIO = 50
/** Past this ratio a case is re-timed (a first run pays for compiling new paths, or a collection). */
const RETIME_RATIO = 4
const FLOOR = 16 * 1024

/**
 * Milliseconds of CPU this process spent since `from` (process.cpuUsage): unlike the wall
 * clock, it does not count the time a loaded machine gave to other processes.
 */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from)
  return (d.user + d.system) / 1000
}

/** The fixtures' merge() CPU time per byte, best of 10 rounds each: the yardstick of linear time. */
export function baselineMsPerByte(): number {
  let ms = 0
  let bytes = 0
  for (const s of fixtureSources()) {
    let best = Infinity
    for (let r = 0; r < 10; r++) {
      const t0 = process.cpuUsage()
      merge(s.wire, s.options)
      best = Math.min(best, cpuMs(t0))
    }
    ms += best
    bytes += s.wire.length
  }
  return ms / bytes
}

function timed(c: FuzzCase, body = c.body): { reply: Reply; ms: number } {
  const t0 = process.cpuUsage()
  const reply = merge(body, c.options)
  return { reply, ms: cpuMs(t0) }
}

/** A storm 4× longer may cost at most this much more per byte (linear: about 1; quadratic: about 4). */
export const GROWTH_LIMIT = 2.5
/** Storms merged faster than this are not compared for growth (the clock's noise). */
const GROWTH_MIN_MS = 20

/**
 * CPU time per byte of a body, steady: merged again and again until 40 ms of CPU are spent
 * (the kernel accounts CPU time in ticks, so a single short run says little), best of two.
 */
function perByte(c: FuzzCase, body: Uint8Array): number {
  let best = Infinity
  for (let r = 0; r < 2; r++) {
    const t0 = process.cpuUsage()
    let runs = 0
    do { merge(body, c.options); runs++ } while (cpuMs(t0) < 40 && runs < 200)
    best = Math.min(best, cpuMs(t0) / runs / Math.max(1, body.length))
  }
  return best
}

/** Runs one case and its checks. */
export function runCase(c: FuzzCase, seed: number, msPerByte: number): CaseResult {
  const result: CaseResult = { id: c.id, kind: c.kind, bytes: c.body.length, ms: 0, ratio: 0, failure: null }
  const fail = (check: Check, message: string): CaseResult => ({ ...result, failure: { check, message: message.slice(0, 500), label: c.label } })
  let whole: { reply: Reply; ms: number }
  try {
    whole = timed(c)
  } catch (e) {
    return fail('throw', `merge(): ${describe(e)}`)
  }
  result.ms = whole.ms
  result.ratio = whole.ms / (msPerByte * Math.max(c.body.length, FLOOR))
  let text: string
  try {
    text = JSON.stringify(whole.reply)
  } catch (e) {
    return fail('serialise', `the Reply: ${describe(e)}`)
  }
  const rng = rngFor(seed ^ 0x5eed, c.id)
  let pushed: Reply
  try {
    const m = createMerger(c.options)
    const cuts = Array.from({ length: Math.floor(rng() * 64) }, () => Math.floor(rng() * (c.body.length + 1))).sort((a, b) => a - b)
    let at = 0
    let t = 0
    for (const cut of [...cuts, c.body.length]) {
      if (rng() < 0.5) m.push(c.body.subarray(at, cut), (t += rng() * 50))
      else m.push(c.body.subarray(at, cut))
      at = cut
    }
    pushed = m.end()
    try {
      JSON.stringify(m.diagnostics())
      JSON.stringify(m.streamErrors())
    } catch (e) {
      return fail('serialise', `diagnostics or stream errors: ${describe(e)}`)
    }
    if (m.frameCount > 0 && m.frameCount <= 500) m.replyAt(Math.floor(rng() * m.frameCount))
  } catch (e) {
    return fail('throw', `createMerger() in random pushes: ${describe(e)}`)
  }
  const other = JSON.stringify(pushed)
  if (other !== text) {
    let i = 0
    while (i < text.length && text.charCodeAt(i) === other.charCodeAt(i)) i++
    return fail('mismatch', `at character ${i} of the Reply's JSON: merge() ${JSON.stringify(text.slice(i, i + 60))}, pushes ${JSON.stringify(other.slice(i, i + 60))}`)
  }
  if (c.smaller !== undefined && result.ms > GROWTH_MIN_MS) {
    // a first look from one run each; a closer one, from steady times, before saying so
    const small = timed(c, c.smaller).ms / Math.max(1, c.smaller.length)
    if (result.ms / c.body.length > GROWTH_LIMIT * small) {
      // twice, steady: a busy machine (other processes in the caches) can fake one growth, rarely two
      let g = Infinity
      let large = 0
      for (let r = 0; r < 2 && g > GROWTH_LIMIT; r++) {
        large = perByte(c, c.body)
        g = Math.min(g, large / perByte(c, c.smaller))
      }
      if (g > GROWTH_LIMIT) return fail('slow', `4× the repeats cost ${g.toFixed(1)}× more per byte (${(large * c.body.length).toFixed(1)} ms for ${c.body.length} bytes): not linear`)
    }
  }
  if (result.ratio > RETIME_RATIO) {
    // one slow run may be compilation or a collection: the best of five decides
    for (let r = 0; r < 4; r++) result.ms = Math.min(result.ms, timed(c).ms)
    result.ratio = result.ms / (msPerByte * Math.max(c.body.length, FLOOR))
    if (result.ratio > SLOW_RATIO) return fail('slow', `${result.ms.toFixed(1)} ms for ${c.body.length} bytes: ${result.ratio.toFixed(1)}× the fixtures' time per byte`)
  }
  return result
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e)
}

export function emptySummary(seed: number, msPerByte: number): FuzzSummary {
  return {
    seed, cases: 0, msPerByte, seconds: 0, slowest: null, failures: [],
    byKind: { bytes: 0, mutate: 0, nest: 0, storm: 0, splice: 0 },
    counts: { throw: 0, mismatch: 0, serialise: 0, slow: 0, hang: 0 },
  }
}

export function record(summary: FuzzSummary, r: CaseResult): void {
  summary.cases++
  summary.byKind[r.kind]++
  if (summary.slowest === null || r.ratio > summary.slowest.ratio) summary.slowest = { id: r.id, kind: r.kind, ratio: r.ratio, bytes: r.bytes, ms: r.ms }
  if (r.failure !== null) {
    summary.counts[r.failure.check]++
    if (summary.failures.length < 50) summary.failures.push(r)
  }
}

/**
 * Cases [from, from + count) in this process (the quick run inside npm test, with smaller
 * storms): no hang watchdog but the test's timeout.
 */
export function runFuzz(options: { seed: number; cases: number; from?: number; msPerByte?: number; maxStorm?: number }): FuzzSummary {
  const started = performance.now()
  const msPerByte = options.msPerByte ?? baselineMsPerByte()
  const summary = emptySummary(options.seed, msPerByte)
  const from = options.from ?? 0
  for (let id = from; id < from + options.cases; id++) record(summary, runCase(makeCase(options.seed, id, options.maxStorm), options.seed, msPerByte))
  summary.seconds = (performance.now() - started) / 1000
  return summary
}

// ---------------------------------------------------------------------------
// The command: the cases run in a child process, watched.

interface Args { cases: number; seed: number; only: number | null; timeout: number; json: boolean }

function parseArgs(argv: string[]): Args {
  const args: Args = { cases: 100_000, seed: 1, only: null, timeout: 20_000, json: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = () => Number(argv[++i])
    if (a === '--cases') args.cases = value()
    else if (a === '--seed') args.seed = value()
    else if (a === '--case') args.only = value()
    else if (a === '--timeout') args.timeout = value()
    else if (a === '--json') args.json = true
    else throw new Error(`unknown argument ${a} (--cases N, --seed S, --case N, --timeout ms, --json)`)
  }
  return args
}

type ChildMessage = { type: 'start'; id: number } | { type: 'result'; result: CaseResult } | { type: 'end' }

/** In the child: cases [from, to), one message when each starts and one with its result. */
function child(seed: number, from: number, to: number, msPerByte: number): void {
  for (let id = from; id < to; id++) {
    process.send!({ type: 'start', id } satisfies ChildMessage)
    process.send!({ type: 'result', result: runCase(makeCase(seed, id), seed, msPerByte) } satisfies ChildMessage)
  }
  process.send!({ type: 'end' } satisfies ChildMessage, () => process.exit(0))
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  if (argv[0] === '--child') return child(Number(argv[1]), Number(argv[2]), Number(argv[3]), Number(argv[4]))
  const args = parseArgs(argv)
  const started = performance.now()
  const msPerByte = baselineMsPerByte()
  const summary = emptySummary(args.seed, msPerByte)
  const from = args.only ?? 0
  const to = args.only !== null ? args.only + 1 : args.cases
  const log = (s: string) => { if (!args.json) process.stdout.write(s) }
  log(`deltascope fuzz: seed ${args.seed}, cases ${from}–${to - 1}, ${fixtureSources().length} fixtures, ${(msPerByte * 1e6).toFixed(1)} ns/byte baseline\n`)
  let next = from
  while (next < to) {
    next = await watch(args, next, to, msPerByte, summary, log)
  }
  summary.seconds = (performance.now() - started) / 1000
  if (args.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n')
  else report(summary)
  process.exitCode = summary.failures.length > 0 ? 1 : 0
}

/** Runs cases from `from` in a child until it ends or a case hangs; returns the next case to run. */
function watch(args: Args, from: number, to: number, msPerByte: number, summary: FuzzSummary, log: (s: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', String(args.seed), String(from), String(to), String(msPerByte)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    let current = from
    let answered = from - 1
    let since = performance.now()
    let settled = false
    const finish = (next: number) => { if (!settled) { settled = true; clearInterval(timer); resolve(next) } }
    const timer = setInterval(() => {
      if (performance.now() - since < args.timeout) return
      const c = makeCase(args.seed, current)
      record(summary, { id: current, kind: c.kind, bytes: c.body.length, ms: args.timeout, ratio: Infinity, failure: { check: 'hang', message: `no result after ${args.timeout} ms`, label: c.label } })
      log(`  hang · case ${current}: no result after ${args.timeout} ms\n`)
      proc.kill('SIGKILL')
      finish(current + 1)
    }, 250)
    proc.on('message', (m: ChildMessage) => {
      if (m.type === 'start') { current = m.id; since = performance.now() }
      else if (m.type === 'result') {
        answered = m.result.id
        record(summary, m.result)
        if (m.result.failure !== null) log(`  ${m.result.failure.check} · case ${m.result.id}: ${m.result.failure.message}\n`)
        if (summary.cases % 5000 === 0) log(`  ${summary.cases} cases, ${summary.failures.length} failures, slowest ${summary.slowest?.ratio.toFixed(2)}×\n`)
      } else finish(to)
    })
    proc.on('exit', (code, signal) => {
      if (settled) return
      // the process died inside a case (out of memory, a crash): that case failed
      if (answered < current) {
        const c = makeCase(args.seed, current)
        record(summary, { id: current, kind: c.kind, bytes: c.body.length, ms: 0, ratio: 0, failure: { check: 'throw', message: `the process died (${signal ?? `exit code ${code}`})`, label: c.label } })
      }
      finish(current + 1)
    })
  })
}

function report(s: FuzzSummary): void {
  const kinds = Object.entries(s.byKind).map(([k, n]) => `${k} ${n}`).join(', ')
  console.log(`\n${s.cases} cases (${kinds}) in ${s.seconds.toFixed(1)} s`)
  console.log(`throws ${s.counts.throw}, hangs ${s.counts.hang}, chunking mismatches ${s.counts.mismatch}, not serialisable ${s.counts.serialise}, slower than linear ${s.counts.slow}`)
  if (s.slowest) console.log(`slowest: case ${s.slowest.id} (${s.slowest.kind}), ${s.slowest.bytes} bytes in ${s.slowest.ms.toFixed(1)} ms: ${s.slowest.ratio.toFixed(2)}× the fixtures' time per byte (limit ${SLOW_RATIO}×)`)
  for (const f of s.failures) {
    console.log(`  ${f.failure!.check} · case ${f.id} (${f.kind}, ${f.bytes} bytes): ${f.failure!.message}\n    ${f.failure!.label.slice(0, 200)}\n    replay: npm run fuzz -- --seed ${s.seed} --case ${f.id}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e)
    process.exitCode = 2
  })
}
