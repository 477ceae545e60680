import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { utf8Encode } from '../../src/exchange/bytes.js'
import { fixtureToJson, toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { toTestFile } from '../../src/exchange/testfile.js'
import { STARTED_AT, request, sampleInput, unicodeInput } from './support.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXPORTED_AT = '2025-01-02T03:05:00.000Z'

describe('toTestFile: text', () => {
  const fixture = toFixture({
    request: request(),
    chunks: [
      { data: 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}\n\n', t: STARTED_AT + 8 },
      { data: 'data: [DONE]\n\n', t: STARTED_AT + 1208.4 },
    ],
  }, { exportedAt: EXPORTED_AT })

  it('starts with what it replays and imports from deltascope', () => {
    const text = toTestFile(fixture)
    expect(text.split('\n').slice(0, 11)).toEqual([
      '// Deltascope replay test, generated from a captured request: edit freely.',
      '// POST https://api.openai.com/v1/chat/completions → 200 text/event-stream; charset=utf-8',
      '// 2 network chunks over 1208 ms, exported 2025-01-02T03:05:00.000Z.',
      '//',
      '// Replays the chunks in arrival order, with their times, into a fresh merger and checks',
      '// the reply it rebuilds against the one Deltascope showed. Set REPLAY_SPEED to 1 to wait',
      '// between chunks as the network did (0 replays as fast as possible).',
      "import { describe, expect, it } from 'vitest'",
      "import { createMerger, merge, type MergeOptions, type Reply } from \"deltascope\"",
      '',
      'const REPLAY_SPEED = 0',
    ])
    expect(text).toContain('const options: MergeOptions = {"url":"https://api.openai.com/v1/chat/completions","contentType":"text/event-stream; charset=utf-8"}')
    expect(text).toContain('  {"t":8,"text":"data: {\\"choices\\":[{\\"index\\":0,\\"delta\\":{\\"role\\":\\"assistant\\",\\"content\\":\\"Hi\\"}}]}\\n\\n"},\n  {"t":1208.4,"text":"data: [DONE]\\n\\n"},\n]')
    expect(text).toContain('const expected: Reply = {\n  "transport": "sse",')
    expect(text).toContain('describe("Deltascope replay: POST api.openai.com/v1/chat/completions", () => {')
    expect(text).toContain('}, 10_000 + 1209 * REPLAY_SPEED)')
  })

  it('keeps the comment lines single even with odd URLs', () => {
    const odd = { ...fixture, request: { ...fixture.request, url: 'https://x.test/a\n// injected\u2028b' } }
    const text = toTestFile(odd)
    expect(text.split('\n')[1]).toBe('// POST https://x.test/a // injected b → 200 text/event-stream; charset=utf-8')
    expect(text).not.toContain('\n// injected')
  })

  it('embeds "__proto__" keys through JSON.parse so they stay data', () => {
    const weird: Fixture = { ...fixture, expected: { ...fixture.expected, usage: JSON.parse('{"__proto__":{"x":1}}') } }
    expect(toTestFile(weird)).toContain('const expected: Reply = JSON.parse("')
  })

  it('reads the fixture file instead when asked', () => {
    const text = toTestFile(fixture, { fixtureFile: './chat.deltascope.json', importFrom: 'deltascope' })
    expect(text).toContain("import { readFileSync } from 'node:fs'")
    expect(text).toContain('readFileSync(new URL("./chat.deltascope.json", import.meta.url), \'utf8\')')
    expect(text).not.toContain('"transport": "sse"')
  })
})

describe('toTestFile: the generated files pass under vitest and typecheck', () => {
  const dir = join(ROOT, 'test', 'exchange', `.generated-${process.pid}`)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('replays into the real merger (and fails when the Reply is wrong)', async () => {
    mkdirSync(dir, { recursive: true })
    const importFrom = '../../../src/index.js'
    const binary = new Uint8Array([...utf8Encode('data: {"choices":[{"index":0,"delta":{"content":"a'), 0xff, ...utf8Encode('"}}]}\n\ndata: [DONE]\n\n')])
    const fixtures: Record<string, Fixture> = {
      anthropic: toFixture(sampleInput('anthropic.sse'), { exportedAt: EXPORTED_AT }),
      unicode: toFixture(unicodeInput(), { exportedAt: EXPORTED_AT }),
      binary: toFixture({ request: request(), chunks: [{ data: binary.slice(0, 40), t: STARTED_AT + 1 }, { data: binary.slice(40), t: STARTED_AT + 2 }] }, { exportedAt: EXPORTED_AT }),
      gemini: toFixture(sampleInput('gemini.sse'), { exportedAt: EXPORTED_AT }),
      nochunks: { ...toFixture(sampleInput('ollama.ndjson'), { exportedAt: EXPORTED_AT }), chunks: [] },
    }
    const files: Record<string, string> = {
      'anthropic.gen.ts': toTestFile(fixtures.anthropic!, { importFrom }),
      // real time: 10 + 7·i ms apart
      'unicode-realtime.gen.ts': toTestFile(fixtures.unicode!, { importFrom }).replace('const REPLAY_SPEED = 0', 'const REPLAY_SPEED = 1'),
      'binary.gen.ts': toTestFile(fixtures.binary!, { importFrom }),
      'gemini-file.gen.ts': toTestFile(fixtures.gemini!, { importFrom, fixtureFile: './gemini.deltascope.json' }),
      'nochunks-file.gen.ts': toTestFile(fixtures.nochunks!, { importFrom, fixtureFile: './nochunks.deltascope.json' }),
      'nochunks.gen.ts': toTestFile(fixtures.nochunks!, { importFrom }),
      'wrong.gen.ts': toTestFile({ ...fixtures.anthropic!, expected: { ...fixtures.anthropic!.expected, frameCount: 1 } }, { importFrom }),
    }
    writeFileSync(join(dir, 'gemini.deltascope.json'), fixtureToJson(fixtures.gemini!))
    writeFileSync(join(dir, 'nochunks.deltascope.json'), fixtureToJson(fixtures.nochunks!))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    writeFileSync(join(dir, 'vitest.config.ts'), "export default { test: { include: ['*.gen.ts'] } }\n")
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      extends: '../../../tsconfig.base.json',
      compilerOptions: { lib: ['ES2022', 'DOM'], types: ['node'], noEmit: true },
      include: ['*.gen.ts'],
    }))

    const run = (cmd: string, args: string[]) => new Promise<{ code: number; out: string }>((resolve) => {
      execFile(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr })
      })
    })
    const report = join(dir, 'report.json')
    const [vitest, tsc] = await Promise.all([
      run(join(ROOT, 'node_modules/.bin/vitest'), ['run', '--root', dir, '--config', join(dir, 'vitest.config.ts'), '--reporter=json', `--outputFile=${report}`]),
      run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')]),
    ])
    expect(tsc.out).toBe('')
    expect(tsc.code).toBe(0)

    const results = JSON.parse(readFileSync(report, 'utf8')) as {
      testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string; duration: number }> }>
    }
    const byFile = Object.fromEntries(results.testResults.map((r) => [r.name.split('/').pop()!, r.assertionResults.map((a) => a.status)]))
    expect(byFile).toEqual({
      'anthropic.gen.ts': ['passed', 'passed'],
      'unicode-realtime.gen.ts': ['passed', 'passed'],
      'binary.gen.ts': ['passed', 'passed'],
      'gemini-file.gen.ts': ['passed', 'passed'],
      'nochunks-file.gen.ts': ['passed', 'passed'],
      'nochunks.gen.ts': ['passed', 'passed'],
      'wrong.gen.ts': ['failed', 'failed'],
    })
    expect(vitest.code).not.toBe(0) // because of wrong.gen.ts
    const realtime = results.testResults.find((r) => r.name.endsWith('unicode-realtime.gen.ts'))!
    const last = fixtures.unicode!.chunks.at(-1)!.t!
    expect(realtime.assertionResults[0]!.duration).toBeGreaterThanOrEqual(last - 20)
  }, 180_000)
})
