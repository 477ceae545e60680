// Every fixture under test/fixtures/<provider>/ is a wire file (.sse, .ndjson, .json, .txt, or
// .bin for a binary body such as an AWS event stream)
// beside `<name>.expected.json` holding the exact Reply. merge() must produce it exactly,
// from the whole body and from the bytes pushed one by one.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../src/index.js'
import { loadFixtures } from './support/fixtures.js'

const fixtures = loadFixtures()

describe('fixtures', () => {
  it('there are at least 40 of them, for every provider', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40)
    const providers = new Set(fixtures.map((f) => f.reply.provider))
    for (const p of ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama']) expect(providers).toContain(p)
  })

  for (const f of fixtures) {
    it(`${f.name}: ${f.description}`, () => {
      expect(merge(f.wire, f.options)).toEqual(f.reply)
    })
    it(`${f.name}: the same Reply from 1-byte pushes`, () => {
      const m = createMerger(f.options)
      for (let i = 0; i < f.wire.length; i++) m.push(f.wire.subarray(i, i + 1))
      expect(m.end()).toEqual(f.reply)
    })
  }
})
