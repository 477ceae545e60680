// Every fixture under test/fixtures/<provider>/ is a wire file (.sse, .ndjson, .json, .txt, or
// .bin for a binary body such as an AWS event stream)
// beside `<name>.expected.json` holding the exact Reply (the format: test/support/fixtures.ts).
// merge() must produce it exactly, from the whole body and from the bytes pushed one by one.
// The providers come from PROVIDER_IDS: a new wire format without fixtures fails here.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createMerger, merge, PROVIDER_IDS, RULES_PROVIDER_ID } from '../src/index.js'
import { expectedFileText, FIXTURES_DIR, loadFixtures } from './support/fixtures.js'

const fixtures = loadFixtures()
const WS_FIXTURES_DIR = new URL('./ws-fixtures/', import.meta.url).pathname

/** The providers with a folder of fixtures, wire (test/fixtures) or WebSocket (test/ws-fixtures). */
function providersWithFixtures(): Set<string> {
  const wire = new Set(fixtures.map((f) => f.name.split('/')[0]!))
  const ws = readdirSync(WS_FIXTURES_DIR).filter((dir) => readdirSync(`${WS_FIXTURES_DIR}${dir}`).length > 0)
  return new Set([...wire, ...ws])
}

describe('fixtures', () => {
  it('every provider in PROVIDER_IDS but generic has fixtures, under test/fixtures/<id>/ or test/ws-fixtures/<id>/', () => {
    const have = providersWithFixtures()
    const missing = PROVIDER_IDS.filter((id) => id !== 'generic' && !have.has(id))
    expect(missing, `providers without fixtures: ${missing.join(', ')}`).toEqual([])
  })

  it('every fixture folder is a provider in PROVIDER_IDS (or the rules)', () => {
    const known = new Set<string>([...PROVIDER_IDS, RULES_PROVIDER_ID])
    const folders = [FIXTURES_DIR, WS_FIXTURES_DIR].flatMap((root) => readdirSync(root).filter((d) => statSync(`${root}${d}`).isDirectory()))
    const unknown = folders.filter((d) => !known.has(d))
    expect(unknown, `fixture folders that name no provider: ${unknown.join(', ')}`).toEqual([])
  })

  it("every fixture's Reply names the provider of its folder", () => {
    const strays = fixtures.filter((f) => f.reply.provider !== f.name.split('/')[0]).map((f) => `${f.name}: ${f.reply.provider}`)
    expect(strays).toEqual([])
  })

  it('test/support/write-expected.ts would write every stored expected file again (the same fields and values)', () => {
    const differ = fixtures.filter((f) => {
      const stored = JSON.parse(readFileSync(`${FIXTURES_DIR}${f.name.replace(/\.[a-z]+$/, '.expected.json')}`, 'utf8'))
      const written = JSON.parse(expectedFileText(f.wire, f.options, stored))
      return !isDeepStrictEqual({ ...written, options: written.options ?? {} }, { ...stored, options: stored.options ?? {} })
    })
    expect(differ.map((f) => f.name)).toEqual([])
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
