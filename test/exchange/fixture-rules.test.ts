// User rules travel inside a fixture (forced.rules): a replay reads the stream the same way.

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { merge, type Rules } from '../../src/index.js'
import { FixtureError, fixtureMergeOptions, fixtureToJson, parseFixture, replayFixture, toFixture } from '../../src/exchange/fixture.js'
import { importText } from '../../src/exchange/import.js'
import { diagnose } from '../../src/debug/diagnose.js'
import { STARTED_AT, request } from './support.js'

const TGI = new URL('../fixtures/rules/tgi-generate-stream.sse', import.meta.url).pathname
const wire = readFileSync(TGI, 'utf8')
const rules: Rules = { version: 1, mode: 'append', text: 'token.text', skip: 'token.special', done: 'generated_text' }
const recording = {
  request: request({ url: 'http://tgi.local/generate_stream', contentType: 'text/event-stream' }),
  chunks: [{ data: wire.slice(0, 500), t: STARTED_AT + 10 }, { data: wire.slice(500), t: STARTED_AT + 20 }],
  forced: { rules },
}

describe('rules in a fixture', () => {
  it('the export stores the rules under forced.rules and the Reply they read', () => {
    const fixture = toFixture(recording, { exportedAt: '2025-01-02T03:05:00.000Z' })
    expect(fixture.forced).toEqual({ rules })
    expect(fixture.expected).toEqual(merge(wire, { rules, url: 'http://tgi.local/generate_stream', contentType: 'text/event-stream' }))
    expect(fixture.expected.provider).toBe('rules')
    expect(fixture.expected.choices[0]!.content).toBe(' Deep learning is a learning process that involves learning to learn.')
  })

  it('parsing the exported JSON gives the rules back, and a replay reads with them', () => {
    const fixture = parseFixture(fixtureToJson(toFixture(recording)))
    expect(fixture.forced).toEqual({ rules })
    expect(fixtureMergeOptions(fixture).rules).toEqual(rules)
    expect(replayFixture(fixture)).toEqual(fixture.expected)
  })

  it('an imported fixture keeps its rules, and the debugger reads its recording with them (no unknown-provider)', () => {
    const imported = importText(fixtureToJson(toFixture(recording)), 'tgi.json')
    if (imported.kind === 'error') throw new Error(imported.message)
    const back = imported.items[0]!
    expect(back.forced).toEqual({ rules })
    expect(diagnose(back).map((d) => d.code)).not.toContain('unknown-provider')
  })

  it('a fixture whose rules are not valid is refused, the field named', () => {
    const json = JSON.parse(fixtureToJson(toFixture(recording))) as Record<string, unknown>
    json['forced'] = { rules: { version: 1, mode: 'append', text: 'a[' } }
    expect(() => parseFixture(json)).toThrow(new FixtureError('forced.rules: text: "a[" is not a path: "[" at character 2 has no "]"'))
  })
})
