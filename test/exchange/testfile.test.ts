import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureToJson, toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { CLIENT_BEGIN, CLIENT_END, toTestFile } from '../../src/exchange/testfile.js'
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

  it('starts with what it replays and imports the testing helpers from deltascope/testing', () => {
    const text = toTestFile(fixture)
    expect(text.split('\n').slice(0, 13)).toEqual([
      '// Deltascope client test, generated from a captured request: edit freely.',
      '// POST https://api.openai.com/v1/chat/completions → 200 text/event-stream; charset=utf-8',
      '// 2 network chunks over 1208 ms, exported 2025-01-02T03:05:00.000Z.',
      '//',
      '// fetch is mocked to replay the captured response exactly (status, headers, the network',
      '// chunks byte for byte); your client reads it in runMyClient(); what it rebuilt must equal',
      '// what Deltascope rebuilt from the same frames. Set REPLAY_SPEED to 1 to deliver the chunks',
      '// at their recorded times (0 delivers them at once).',
      "import { afterEach, expect, it, vi } from 'vitest'",
      'import { compareReply, parseFixture, replayResponse, stressClient } from "deltascope/testing"',
      '',
      'const REPLAY_SPEED = 0',
      '',
    ])
    expect(text).toContain('it("my client rebuilds the reply of POST api.openai.com/v1/chat/completions", async () => {')
    expect(text).toContain("vi.stubGlobal('fetch', async () => replayResponse(fixture, { speed: REPLAY_SPEED }))")
    expect(text).toContain('}, 10_000 + 1209 * REPLAY_SPEED)')
  })

  it('marks the one function the user replaces, which fails until they do', () => {
    const text = toTestFile(fixture)
    const begin = text.indexOf(CLIENT_BEGIN)
    const end = text.indexOf(CLIENT_END)
    expect(begin).toBeGreaterThan(0)
    expect(end).toBeGreaterThan(begin)
    expect(text.slice(begin, end)).toContain("throw new Error('Deltascope: put your client in runMyClient() (see the comment above it)')")
  })

  it('embeds the whole fixture as JSON text, parsed at run time (so "__proto__" keys stay data)', () => {
    const weird: Fixture = { ...fixture, expected: { ...fixture.expected, usage: JSON.parse('{"__proto__":{"x":1}}') } }
    const text = toTestFile(weird)
    expect(text).toContain(`const fixture = parseFixture(${JSON.stringify(fixtureToJson(weird))})`)
  })

  it('keeps the comment lines single even with odd URLs', () => {
    const odd = { ...fixture, request: { ...fixture.request, url: 'https://x.test/a\n// injected\u2028b' } }
    const text = toTestFile(odd)
    expect(text.split('\n')[1]).toBe('// POST https://x.test/a // injected b → 200 text/event-stream; charset=utf-8')
    expect(text).not.toContain('\n// injected')
  })

  it('writes a stress test beside the replay test: the same client under every chunking, its global fetch the run\'s replay', () => {
    const text = toTestFile(fixture)
    expect(text).toContain("it('my client rebuilds the same reply under every chunking that breaks clients', async () => {")
    expect(text).toContain("    vi.stubGlobal('fetch', fetch)\n    return await runMyClient()\n  }, fixture, { timeoutMs: 5_000 })")
    const without = toTestFile(fixture, { stress: false })
    expect(without).not.toContain('stressClient')
    expect(without).toContain('import { compareReply, parseFixture, replayResponse } from "deltascope/testing"')
  })

  it('reads the fixture file instead when asked', () => {
    const text = toTestFile(fixture, { fixtureFile: './chat.deltascope.json' })
    expect(text).toContain("import { readFileSync } from 'node:fs'")
    expect(text).toContain('const fixture = parseFixture(readFileSync(new URL("./chat.deltascope.json", import.meta.url), \'utf8\'))')
    expect(text).not.toContain('"transport":"sse"')
  })
})

/** The generated file with runMyClient()'s body replaced, and extra imports. */
function withClient(text: string, imports: string, client: string): string {
  const begin = text.indexOf(CLIENT_BEGIN)
  const end = text.indexOf(CLIENT_END)
  return text.slice(0, begin).replace("import { afterEach", `${imports}\nimport { afterEach`) + client + '\n' + text.slice(end)
}

const OPENAI_CLIENT = `async function runMyClient(): Promise<unknown> {
  const client = new OpenAI({ apiKey: 'test', baseURL: 'https://api.openai.com/v1' })
  return await client.chat.completions.stream({ model: 'm', messages: [] }).finalChatCompletion()
}`

const ANTHROPIC_CLIENT = `async function runMyClient(): Promise<unknown> {
  const client = new Anthropic({ apiKey: 'test', baseURL: 'https://api.anthropic.com' })
  return await client.messages.stream({ model: 'm', max_tokens: 10, messages: [] }).finalMessage()
}`

/** A client with the classic bug: it parses each network read on its own. */
const NAIVE_CLIENT = `async function runMyClient(): Promise<unknown> {
  const response = await fetch(fixture.request.url)
  const reader = response.body!.getReader()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    for (const line of new TextDecoder().decode(value).split('\\n')) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue
      try { text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '' } catch { /* split across reads: lost */ }
    }
  }
  return text
}`

describe('toTestFile: the generated files run the user\'s client under vitest and typecheck', () => {
  const dir = join(ROOT, 'test', 'exchange', `.generated-${process.pid}`)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('passes for a correct client, fails with the differences for a buggy one, and fails until a client is put in', async () => {
    mkdirSync(dir, { recursive: true })
    const importFrom = '../../../src/testing.js'
    const unicode = toFixture(unicodeInput(), { exportedAt: EXPORTED_AT })
    const anthropic = toFixture(sampleInput('anthropic.sse'), { exportedAt: EXPORTED_AT })
    const deepseek = toFixture(sampleInput('openai-chat.sse'), { exportedAt: EXPORTED_AT })
    const files: Record<string, string> = {
      'untouched.gen.ts': toTestFile(unicode, { importFrom }),
      'openai-sdk.gen.ts': withClient(toTestFile(unicode, { importFrom }), "import OpenAI from 'openai'", OPENAI_CLIENT),
      // real time: chunk i arrives 10 + 7·i ms after the start
      'openai-sdk-realtime.gen.ts': withClient(toTestFile(unicode, { importFrom }), "import OpenAI from 'openai'", OPENAI_CLIENT)
        .replace('const REPLAY_SPEED = 0', 'const REPLAY_SPEED = 1'),
      'anthropic-sdk-file.gen.ts': withClient(toTestFile(anthropic, { importFrom, fixtureFile: './anthropic.deltascope.json' }), "import Anthropic from '@anthropic-ai/sdk'", ANTHROPIC_CLIENT),
      'naive.gen.ts': withClient(toTestFile(unicode, { importFrom }), '', NAIVE_CLIENT),
      'openai-sdk-reasoning.gen.ts': withClient(toTestFile(deepseek, { importFrom }), "import OpenAI from 'openai'", OPENAI_CLIENT),
    }
    writeFileSync(join(dir, 'anthropic.deltascope.json'), fixtureToJson(anthropic))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    writeFileSync(join(dir, 'vitest.config.ts'), "export default { test: { include: ['*.gen.ts'] } }\n")
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      extends: '../../../tsconfig.base.json',
      compilerOptions: { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'], noEmit: true },
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
      testResults: Array<{ name: string; assertionResults: Array<{ status: string; duration: number; failureMessages: string[] }> }>
    }
    const byFile = Object.fromEntries(results.testResults.map((r) => [r.name.split('/').pop()!, r.assertionResults[0]!]))
    const stressOf = Object.fromEntries(results.testResults.map((r) => [r.name.split('/').pop()!, r.assertionResults[1]!]))
    // the replay test and the stress test beside it fail and pass together: the SDKs pass every
    // chunking, the naive client fails where frames are split, openai-node's reasoning bug shows in both
    const statuses = {
      'untouched.gen.ts': 'failed',
      'openai-sdk.gen.ts': 'passed',
      'openai-sdk-realtime.gen.ts': 'passed',
      'anthropic-sdk-file.gen.ts': 'passed',
      'naive.gen.ts': 'failed',
      'openai-sdk-reasoning.gen.ts': 'failed',
    }
    expect(Object.fromEntries(Object.entries(byFile).map(([k, v]) => [k, v.status]))).toEqual(statuses)
    expect(vitest.code).not.toBe(0)
    expect(byFile['untouched.gen.ts']!.failureMessages[0]).toContain('Deltascope: put your client in runMyClient()')
    expect(byFile['naive.gen.ts']!.failureMessages[0]).toContain('choices[0].content: ')
    expect(byFile['naive.gen.ts']!.failureMessages[0]).toContain('[dropped-frames, frame ')
    // openai-node keeps only the last reasoning_content piece: a real client bug, named
    expect(byFile['openai-sdk-reasoning.gen.ts']!.failureMessages[0]).toContain('choices[0].reasoning: ')
    expect(byFile['openai-sdk-reasoning.gen.ts']!.failureMessages[0]).toContain('[overwritten, frame ')
    expect(Object.fromEntries(Object.entries(stressOf).map(([k, v]) => [k, v.status]))).toEqual(statuses)
    expect(stressOf['untouched.gen.ts']!.failureMessages[0]).toContain('recorded: threw (Error: Deltascope: put your client in runMyClient()')
    expect(stressOf['naive.gen.ts']!.failureMessages[0]).toContain('frame-straddle: choices[0].content: ')
    expect(stressOf['naive.gen.ts']!.failureMessages[0]).toContain('[dropped-frames, frame ')
    const last = unicode.chunks.at(-1)!.t!
    expect(byFile['openai-sdk-realtime.gen.ts']!.duration).toBeGreaterThanOrEqual(last - 20)
  }, 180_000)
})
