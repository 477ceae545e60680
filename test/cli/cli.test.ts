// The real CLI, run as a child process on the samples and on temp files.

import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { HELP } from '../../src/cli/args.js'
import { createMerger, merge, PROVIDER_IDS, type MergeOptions } from '../../src/index.js'
import { openaiChunk as chunk } from '../support/streams.js'
import { ROOT, runCli } from './run.js'

const lines = (...l: string[]) => l.join('\n') + '\n'
const bytes = (path: string) => new Uint8Array(readFileSync(join(ROOT, path)))
const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n'

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string | Uint8Array): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}

const SAMPLES = readdirSync(join(ROOT, 'samples')).sort()

describe.concurrent('deltascope merge', { timeout: 120_000 }, () => {
  it('the samples are all there', () => {
    expect(SAMPLES).toEqual(['anthropic.sse', 'broken.sse', 'gemini.sse', 'ollama.ndjson', 'openai-chat.sse', 'openai-responses.sse'])
  })

  it.each(SAMPLES)('--json on samples/%s prints exactly merge() of the file', async (name) => {
    const path = `samples/${name}`
    const expected = merge(bytes(path))
    const r = await runCli(['merge', '--json', path])
    expect(r.stdout).toBe(json(expected))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(name === 'broken.sse' ? 1 : 0)
  })

  it('samples/openai-chat.sse for a person (the README example)', async () => {
    const r = await runCli(['merge', 'samples/openai-chat.sse'])
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: lines(
        'openai-chat · sse · 18 frames · done',
        '',
        'choice 0 · assistant',
        '  reasoning',
        "  │ The user wants the weather in Paris for tomorrow. I don't know it, so I should call get_weather.",
        '  content',
        "  │ I'll look up tomorrow's forecast for Paris.",
        '  tool call 0 · get_weather · id call_0_5b3e8f2a',
        '  │ {',
        '  │   "city": "Paris",',
        '  │   "date": "tomorrow",',
        '  │   "unit": "celsius"',
        '  │ }',
        '  finish tool_calls',
        '',
        'usage',
        '  prompt_tokens                               142',
        '  completion_tokens                           61',
        '  total_tokens                                203',
        '  prompt_tokens_details.cached_tokens         128',
        '  completion_tokens_details.reasoning_tokens  24',
        '  prompt_cache_hit_tokens                     128',
        '  prompt_cache_miss_tokens                    14',
      ),
    })
  })

  it('samples/broken.sse: the broken frame with its line and the parser message, exit 1', async () => {
    const r = await runCli(['merge', 'samples/broken.sse'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(lines(
      'openai-chat · sse · 11 frames · done · 1 broken frame',
      '',
      'choice 0 · assistant',
      '  content',
      '  │ Bonjour! Paris is today.',
      '  finish stop',
      '',
      'usage',
      '  prompt_tokens      25',
      '  completion_tokens  8',
      '  total_tokens       33',
      '',
      'broken frames (1)',
      "  frame 5 · line 11: Unexpected end of JSON input at position 197 (expected ',' or a closing bracket)",
      '  │ data: {"id":"chatcmpl-AZb81kQ2rT","object":"chat.completion.chunk","created":1733141100,"model":"gpt-4o-2024- … ,"system_fingerprint":"fp_a7d06e42a7","choices":[{"index":0,"delta":{"content":"sunny "}',
    ))
  })

  it('a provider stream error exits 1 even when the stream then ends properly', async () => {
    const body = chunk({ role: 'assistant', content: 'Hel' }) +
      'data: {"error":{"code":502,"message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n' +
      'data: [DONE]\n\n'
    const r = await runCli(['merge', temp('stream-error.sse', body)])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(lines('', 'stream errors (1)', '  frame 1 · line 3: Provider disconnected (code 502)'))
    expect(r.stdout).toContain('  │ Hel\n  finish error\n')
  })

  it('a stream without a terminal event exits 1 and says so', async () => {
    const path = temp('cut.sse', chunk({ role: 'assistant', content: 'Hel' }) + chunk({ content: 'lo' }))
    const r = await runCli(['merge', path])
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')[0]).toBe('openai-chat · sse · 2 frames · not done: no terminal event')
    expect(r.stdout).toMatch(/\ndiagnostics\n {2}warning {2}.*terminal event/)
    const asJson = await runCli(['merge', '--json', path])
    expect(asJson.code).toBe(1)
    expect(JSON.parse(asJson.stdout).done).toBe(false)
  })

  it('diagnostics alone (unterminated last frame, invalid UTF-8) do not fail the run', async () => {
    const body = Buffer.concat([
      // a real é in the same chunk: see the report on chunks whose only non-ASCII bytes are invalid
      Buffer.from(chunk({ role: 'assistant', content: 'café ' }), 'utf8'),
      Buffer.from('data: {"choices":[{"index":0,"delta":{"content":"x'), Buffer.from([0xff]), Buffer.from('y"},"finish_reason":"stop"}]}\n\n'),
      Buffer.from('data: [DONE]'),
    ])
    const path = temp('diagnostics.sse', body)
    const r = await runCli(['merge', path])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('  │ café x\uFFFDy\n')
    const diagnostics = r.stdout.slice(r.stdout.indexOf('\ndiagnostics\n'))
    expect(diagnostics).toMatch(/ {2}warning {2}.*invalid UTF-8/)
    expect(diagnostics).toMatch(/ {2}warning {2}frame 2 · line 5: .*blank line/)
    const expected = merge(new Uint8Array(body))
    expect((await runCli(['merge', '--json', path])).stdout).toBe(json(expected))
  })

  it('reads stdin for -', async () => {
    const r = await runCli(['merge', '--json', '-'], { input: bytes('samples/anthropic.sse') })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(json(merge(bytes('samples/anthropic.sse'))))
    const text = await runCli(['merge', '-'], { input: bytes('samples/gemini.sse') })
    expect(text.stdout).toBe((await runCli(['merge', 'samples/gemini.sse'])).stdout)
  })

  it.each<[string[], MergeOptions, string]>([
    [['--provider', 'generic'], { provider: 'generic' }, 'samples/openai-chat.sse'],
    [['-t', 'ndjson'], { transport: 'ndjson' }, 'samples/ollama.ndjson'],
    [['--transport', 'sse'], { transport: 'sse' }, 'samples/ollama.ndjson'],
    [['--content-type', 'application/x-ndjson', '--url', 'http://localhost:11434/api/chat'], { contentType: 'application/x-ndjson', url: 'http://localhost:11434/api/chat' }, 'samples/ollama.ndjson'],
  ])('%j is passed to the merger', async (flags, options, path) => {
    const r = await runCli(['merge', '--json', ...flags, path])
    expect(r.stdout).toBe(json(merge(bytes(path), options)))
  })

  it('no colour when stdout is not a terminal', async () => {
    const r = await runCli(['merge', 'samples/broken.sse'])
    expect(r.stdout).not.toContain('\x1b')
  })
})

describe.concurrent('deltascope frames', { timeout: 120_000 }, () => {
  it.each(SAMPLES)('--json on samples/%s: every frame, in order, without the parsed json', async (name) => {
    const path = `samples/${name}`
    const m = createMerger()
    m.push(bytes(path))
    const reply = m.end()
    const r = await runCli(['frames', '--json', path])
    const frames = JSON.parse(r.stdout) as unknown[]
    expect(frames.length).toBe(reply.frameCount)
    expect(frames).toEqual(m.frames().map(({ json: _json, ...rest }) => rest))
    expect(r.code).toBe(name === 'broken.sse' ? 1 : 0)
  })

  it('--json on an empty body is []', async () => {
    const r = await runCli(['frames', '--json', temp('empty.sse', '')])
    expect(r.stdout).toBe('[]\n')
    expect(r.code).toBe(1)
  })

  it('one row per frame, then the verdict', async () => {
    const r = await runCli(['frames', 'samples/broken.sse'])
    expect(r.code).toBe(1)
    const rows = r.stdout.split('\n')
    expect(rows[0]).toBe('  seq    line  event                         kind       bytes  data')
    expect(rows.slice(1, 12)).toEqual([
      '    0       1  -                             data         285  role:"assistant"',
      '    1       3  -                             data         258  content:"Bonjour"',
      '    2       5  -                             data         253  content:"! "',
      '    3       7  -                             data         257  content:"Paris "',
      '    4       9  -                             data         254  content:"is "',
      "    5      11  -                             invalid      204  Unexpected end of JSON input at position 197 (expected ',' or a closing bracket)",
      '    6      13  -                             data         256  content:"today"',
      '    7      15  -                             data         252  content:"."',
      '    8      17  -                             data         241  finish_reason:"stop"',
      '    9      19  -                             data         236  prompt_tokens:25 completion_tokens:8 total_tokens:33',
      '   10      21  -                             done          13  [DONE]',
    ])
    expect(rows.slice(12, 16)).toEqual(['', 'openai-chat · sse · 11 frames · done · 1 broken frame', '', 'broken frames (1)'])
  })

  it('event names are shown, long ones keep their end', async () => {
    const r = await runCli(['frames', 'samples/openai-responses.sse'])
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n')[20]).toBe('   19      58  …nction_call_arguments.delta  data         209  delta:"{\\"city\\":"')
  })

  it('a reader that goes away early is not an error', async () => {
    let body = ''
    for (let i = 0; i < 40_000; i++) body += chunk({ content: `t${i} ` })
    const path = temp('long.sse', body + 'data: [DONE]\n\n')
    const r = await runCli(['frames', path], { onStdout: (_c, stdout) => stdout.destroy() })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
  })
})

describe.concurrent('usage errors and unreadable files: exit 2, one line on stderr', { timeout: 120_000 }, () => {
  it.each<[string[], string]>([
    [['merge', 'nope.sse'], 'deltascope: cannot read nope.sse: no such file\n'],
    [['frames', 'samples'], 'deltascope: cannot read samples: is a directory\n'],
    [['merge', '--bogus', 'samples/gemini.sse'], 'deltascope: unknown option --bogus; see deltascope --help\n'],
    [['merge'], 'deltascope: merge: missing FILE (a path, or - for stdin); see deltascope --help\n'],
    [[], 'deltascope: missing command (merge, frames, check, diagnose, timing, stress, serve or ws-fixture); see deltascope --help\n'],
    [['cat', 'x'], 'deltascope: unknown command "cat" (merge, frames, check, diagnose, timing, stress, serve or ws-fixture); see deltascope --help\n'],
    [['merge', '-p', 'claude', 'x'], `deltascope: --provider must be one of ${PROVIDER_IDS.join(', ')} (got "claude"); see deltascope --help\n`],
  ])('%j', async (args, stderr) => {
    expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr })
  })

  it('--help and --version', async () => {
    expect(await runCli(['--help'])).toEqual({ code: 0, stdout: HELP, stderr: '' })
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('runs as `npx tsx src/cli/main.ts`', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/cli/main.ts', 'merge', '--json', 'samples/gemini.sse'], { cwd: ROOT })
    expect(stdout).toBe(json(merge(bytes('samples/gemini.sse'))))
  })
})

describe.concurrent('hostile input: never an internal error', { timeout: 120_000 }, () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
  const deepArguments = temp('deep-arguments.sse',
    chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: deep(100_000) } }] }) +
    chunk({}, 'tool_calls') + 'data: [DONE]\n\n')
  const deepFrame = temp('deep-frame.sse', `data: {"choices":[{"index":0,"delta":{"content":"x"}}],"x":${deep(100_000)}}\n\ndata: [DONE]\n\n`)
  const deepResult = temp('deep-result.json', deep(100_000))
  const noise = temp('noise.bin', new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)))
  const commands = [['merge'], ['merge', '--json'], ['frames'], ['frames', '--json'], ['diagnose'], ['timing'], ['check', '--against', deepResult], ['check', '--json', '--against', deepResult]]

  it.each([deepArguments, deepFrame, noise].flatMap((file) => commands.map((c) => [...c, file])))('%j', async (...args) => {
    const r = await runCli(args)
    expect(r.stderr).toBe('')
    expect([0, 1]).toContain(r.code)
  })

  it('tool-call arguments nested past the stack: shown as received; --json is still the Reply', async () => {
    const r = await runCli(['merge', deepArguments])
    expect(r.stdout).toContain(`  │ ${deep(100_000)}\n`)
    const asJson = await runCli(['merge', '--json', deepArguments])
    expect(JSON.parse(asJson.stdout).choices[0].toolCalls[0].arguments).toBe(deep(100_000))
  })
})
