// deltascope stress: the real CLI running a client module on a capture under every chunking.
// The clients are ES modules written to a temporary folder: the openai SDK as a user writes it
// (plain .mjs), and the hand-written clients of test/testing/stress-clients.ts (loaded through
// tsx), one bug each. Times (ms) vary from run to run and are masked.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureToJson } from '../../src/exchange/fixture.js'
import type { StressReport } from '../../src/testing.js'
import { fixtureOf, wire } from '../debug/compare-support.js'
import { chatFixture } from '../testing/stress-clients.js'
import { ROOT, runCli } from './run.js'

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-stress-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}

const url = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href)
const CHAT = temp('chat.deltascope.json', fixtureToJson(chatFixture()))
const OLLAMA = temp('ollama.deltascope.json', fixtureToJson(fixtureOf('ollama/chat-thinking.ndjson', [wire('ollama/chat-thinking.ndjson')])))

const OPENAI_CLIENT = temp('openai-client.mjs', `import OpenAI from ${url('node_modules/openai/index.mjs')}
export default async function (fetch) {
  const client = new OpenAI({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch })
  return await client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [] }).finalChatCompletion()
}
`)

/** A client of test/testing/stress-clients.ts with this bug (run with tsx). */
const buggy = (bug: string) => temp(`${bug}.mts`, `import { chatClient } from ${url('test/testing/stress-clients.ts')}\nexport default chatClient(${JSON.stringify(bug)})\n`)
const TSX = { nodeArgs: ['--import', 'tsx'] }

const masked = (text: string) => text.replace(/(reads?) +\d+ ms/g, '$1 N ms')

describe('deltascope stress', () => {
  it('the openai SDK passes every chunking of a clean capture: a ✓ row each, exit 0', async () => {
    const r = await runCli(['stress', CHAT, '--client', OPENAI_CLIENT])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(masked(r.stdout)).toBe([
      `${OPENAI_CLIENT} on ${CHAT}: 14 runs, all equal`,
      '',
      '  ✓ recorded            6 reads N ms',
      '  ✓ whole               1 read N ms',
      '  ✓ bytes-1           653 reads N ms',
      '  ✓ frame-straddle      7 reads N ms',
      '  ✓ utf8-split          6 reads N ms',
      '  ✓ line-straddle       7 reads N ms',
      '  ✓ crlf                6 reads N ms',
      '  ✓ cr                  6 reads N ms',
      '  ✓ comments            6 reads N ms',
      '  ✓ no-space            6 reads N ms',
      '  ✓ retry-id            6 reads N ms',
      '  ✓ random:1           21 reads N ms',
      '  ✓ random:2           19 reads N ms',
      '  ✓ random:3           22 reads N ms',
      '',
    ].join('\n'))
  })

  it('a client that parses each read on its own: ✗ with the cause, the frame and the sentence; what the chunking exercises; exit 1', async () => {
    const r = await runCli(['stress', CHAT, '--client', buggy('parse-each-read'), '--chunkings', 'recorded,frame-straddle'], TSX)
    expect(r.code).toBe(1)
    expect(masked(r.stdout)).toBe([
      `${join(tmp, 'parse-each-read.mts')} on ${CHAT}: 2 runs, 1 failed`,
      '',
      '  ✓ recorded            6 reads N ms',
      '  ✗ frame-straddle      7 reads N ms  dropped-frames at frame 1 · choices[0].content (+1 more)',
      '      The client dropped frames 1–3: their text ("Café ", …) is missing from the content; frame 1 arrived split across reads 1 and 2, frame 2 across reads 2 and 3, frame 3 across reads 3 and 4: a client that parses each read on its own drops them.',
      '',
      'What the failing chunkings exercise:',
      '  frame-straddle  A read boundary inside every frame: a client that parses each read on its own drops every frame (dropped-frames).',
      '',
    ].join('\n'))
  })

  it('a client that hangs: timed out, after --timeout ms', async () => {
    const r = await runCli(['stress', CHAT, '--client', buggy('done-line-only'), '--chunkings', 'no-space', '--timeout', '200'], TSX)
    expect(r.code).toBe(1)
    expect(masked(r.stdout).split('\n')[2]).toBe('  ✗ no-space            6 reads N ms  timed out: the client did not settle within 200 ms')
  })

  it('--json prints the report', async () => {
    const r = await runCli(['stress', CHAT, '--client', buggy('decode-each-read'), '--chunkings', 'utf8-split', '--json'], TSX)
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as StressReport
    expect(report.ok).toBe(false)
    expect(report.notApplicable).toEqual([])
    expect(report.runs.map((run) => [run.chunking, run.equal, run.reads, run.comparison!.differences.map((d) => [d.field, d.cause, d.frame])])).toEqual([
      ['utf8-split', false, 6, [['choices[0].content', 'utf8-split', 1]]],
    ])
    expect(report.firstFailure).toEqual(report.runs[0])
  })

  it('says which chunkings do not apply to an NDJSON capture, and why', async () => {
    const client = temp('ollama-client.mjs', `export default async function (fetch) {
  const text = await (await fetch('http://127.0.0.1:11434/api/chat')).text()
  const lines = text.split('\\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
  return { message: { role: 'assistant', content: lines.map((l) => l.message?.content ?? '').join('') }, done: true, done_reason: lines.at(-1).done_reason }
}
`)
    const r = await runCli(['stress', OLLAMA, '--client', client], TSX)
    expect(r.code).toBe(0)
    const rows = masked(r.stdout).split('\n')
    expect(rows[0]).toBe(`${client} on ${OLLAMA}: 8 runs, all equal`)
    expect(rows.slice(10)).toEqual([
      '  – line-straddle   not applicable: the body has no \\r\\n line ending (and only SSE has fields)',
      '  – crlf            not applicable: the stream is NDJSON, not SSE: only SSE is re-encoded',
      '  – cr              not applicable: the stream is NDJSON, not SSE: only SSE is re-encoded',
      '  – comments        not applicable: the stream is NDJSON, not SSE: only SSE is re-encoded',
      '  – no-space        not applicable: the stream is NDJSON, not SSE: only SSE is re-encoded',
      '  – retry-id        not applicable: the stream is NDJSON, not SSE: only SSE is re-encoded',
      '',
    ])
  })

  it('a client module that does not load, or exports no function, is a one-line error (exit 2)', async () => {
    expect(await runCli(['stress', CHAT, '--client', join(tmp, 'missing.mjs')])).toMatchObject({ code: 2, stdout: '' })
    expect((await runCli(['stress', CHAT, '--client', join(tmp, 'missing.mjs')])).stderr).toMatch(/^deltascope: --client .*missing\.mjs: cannot load it \(Cannot find module .*\)\n$/)
    const none = temp('no-default.mjs', 'export const client = () => 1\n')
    expect(await runCli(['stress', CHAT, '--client', none])).toEqual({
      code: 2, stdout: '', stderr: `deltascope: --client ${none}: its default export must be a function, async (fetch) => result (got no default export)\n`,
    })
  })
})
