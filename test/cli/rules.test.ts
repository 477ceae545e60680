// deltascope … --rules FILE: a stream no adapter reads, read with user rules.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/args.js'
import { fixtureToJson, toFixture } from '../../src/exchange/fixture.js'
import { merge, type Rules } from '../../src/index.js'
import { capturedRequest } from '../support/requests.js'
import { ROOT, runCli } from './run.js'

const TGI = 'test/fixtures/rules/tgi-generate-stream.sse'
const rules: Rules = { version: 1, mode: 'append', text: 'token.text', skip: 'token.special', done: 'generated_text' }
const tmp = mkdtempSync(join(tmpdir(), 'deltascope-rules-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}
const rulesFile = temp('tgi.rules.json', JSON.stringify(rules))

describe('--rules', { timeout: 120_000 }, () => {
  it('is parsed as a file name for every stream command', () => {
    expect(parseCliArgs(['merge', '--rules', 'r.json', 'a.sse'])).toEqual({ ok: true, command: { kind: 'merge', file: 'a.sse', json: false, options: {}, entry: null, rulesFile: 'r.json' } })
    expect(parseCliArgs(['diagnose', '--rules', '-', '-'])).toEqual({ ok: false, message: '--rules and FILE cannot both be stdin' })
  })

  it('merge --json prints exactly merge() with the rules', async () => {
    const r = await runCli(['merge', '--json', '--rules', rulesFile, TGI])
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(JSON.stringify(merge(readFileSync(join(ROOT, TGI)), { rules }), null, 2) + '\n')
    expect(r.code).toBe(0)
  })

  it('without rules the same stream is generic: nothing rebuilt, exit 1 (no terminal event)', async () => {
    const r = await runCli(['merge', '--json', TGI])
    expect(JSON.parse(r.stdout)).toMatchObject({ provider: 'generic', choices: [] })
    expect(r.code).toBe(1)
  })

  it('a bad rules file is one line on stderr naming each bad field, exit 2', async () => {
    const bad = temp('bad.json', '{"version": 1, "mode": "append", "text": "a[", "colour": 1}')
    const r = await runCli(['merge', '--rules', bad, TGI])
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`deltascope: ${bad}: not usable rules: colour: not a rules field (known: version, mode, name, events, operations, choices, text, reasoning, toolCalls, finishReason, usage, error, done, skip); text: "a[" is not a path: "[" at character 2 has no "]"\n`)
    expect(r.code).toBe(2)
  })

  it('a rules file that is not JSON, or missing, is refused the same way', async () => {
    const notJson = temp('notjson.json', 'text: token.text')
    const r = await runCli(['merge', '--rules', notJson, TGI])
    expect(r.stderr).toMatch(new RegExp(`^deltascope: ${notJson}: not usable rules: not JSON: `))
    expect(r.code).toBe(2)
    const missing = await runCli(['merge', '--rules', join(tmp, 'nope.json'), TGI])
    expect(missing.stderr).toMatch(/^deltascope: .*nope\.json.*no such file/)
    expect(missing.code).toBe(2)
  })

  it('diagnose and check read with the rules', async () => {
    const d = await runCli(['diagnose', '--json', '--rules', rulesFile, TGI])
    expect(JSON.parse(d.stdout)).toEqual({ diagnostics: [] })
    expect(d.code).toBe(0)
    const against = temp('client.txt', ' Deep learning is a learning process that involves learning to learn.')
    const c = await runCli(['check', '--json', '--rules', rulesFile, TGI, '--against', against])
    expect(JSON.parse(c.stdout)).toMatchObject({ equal: true })
    expect(c.code).toBe(0)
  })

  it('a fixture that carries its rules is replayed with them, no --rules needed', async () => {
    const fixture = toFixture({
      request: capturedRequest({ id: 'r', url: 'http://tgi.local/generate_stream', startedAt: 0 }),
      chunks: [{ data: readFileSync(join(ROOT, TGI), 'utf8'), t: null }],
      forced: { rules },
    })
    const path = temp('tgi.fixture.json', fixtureToJson(fixture))
    const r = await runCli(['merge', '--json', path])
    expect(JSON.parse(r.stdout)).toEqual(fixture.expected)
    expect(fixture.expected.provider).toBe('rules')
  })
})
