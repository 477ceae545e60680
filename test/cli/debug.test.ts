// check, diagnose and timing: the real CLI on raw bodies, fixtures and HARs. The library's
// own sentences (a difference's message, a diagnostic's symptom) come from the library.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareReply } from '../../src/debug/compare.js'
import { diagnose } from '../../src/debug/diagnose.js'
import { timing } from '../../src/debug/timing.js'
import { fixtureToJson, toFixture, toHar, type Recording } from '../../src/exchange/index.js'
import { merge, SYMPTOMS } from '../../src/index.js'
import { capturedRequest } from '../support/requests.js'
import { ROOT, runCli } from './run.js'

const lines = (...l: string[]) => l.join('\n') + '\n'
const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n'
const sample = (name: string) => readFileSync(join(ROOT, 'samples', name), 'utf8')

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-debug-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string | Uint8Array): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}

const STARTED_AT = 1_733_140_800_000
const URL = 'https://api.openai.com/v1/chat/completions'

/** A sample's body cut every 300 characters, read 100 ms after the request and then every 40 ms (with `pause` ms before read `at`). */
function recording(name: string, pause: { at: number; ms: number } | null = null): Recording {
  const parts = sample(name).match(/[\s\S]{1,300}/g)!
  let t = STARTED_AT + 100
  return {
    request: capturedRequest({ id: 'r', url: URL, startedAt: STARTED_AT, source: 'live' }),
    chunks: parts.map((data, i) => {
      if (i > 0) t += 40 + (pause !== null && pause.at === i ? pause.ms : 0)
      return { data, t }
    }),
  }
}

/** A raw body as the CLI reads it: one chunk without a time, the path as URL. */
function raw(path: string): Recording {
  return {
    request: capturedRequest({ id: 'r', method: '', url: path, status: null, contentType: null, startedAt: 0, source: 'import' }),
    chunks: [{ data: new Uint8Array(readFileSync(join(ROOT, path))), t: null }],
  }
}

const chat = recording('openai-chat.sse')
const fixture = toFixture(chat, { exportedAt: '2025-01-02T03:04:05.000Z' })
const FIXTURE = temp('chat.deltascope.json', fixtureToJson(fixture))
const reply = merge(sample('openai-chat.sse'))
const choice = reply.choices[0]!

/** What openai-node's finalChatCompletion() gives for the sample. */
const completion = {
  id: 'chatcmpl-9f2c4e1a7b', object: 'chat.completion', created: 1733140800, model: 'deepseek-reasoner',
  choices: [{
    index: 0,
    message: {
      role: 'assistant', content: choice.content, reasoning_content: choice.reasoning, refusal: null,
      tool_calls: choice.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    },
    finish_reason: choice.finishReason,
  }],
  usage: reply.usage,
}
const COMPLETION = temp('completion.json', JSON.stringify(completion, null, 2))
const TYPO = temp('typo.txt', choice.content.replace('forecast', 'forcast'))

describe.concurrent('deltascope check', { timeout: 120_000 }, () => {
  it("equal: each compared field ✓, exit 0", async () => {
    expect(await runCli(['check', FIXTURE, '--against', COMPLETION])).toEqual({
      code: 0,
      stderr: '',
      stdout: lines(
        '✓ choices[0].content',
        '✓ choices[0].reasoning',
        '✓ choices[0].refusal',
        '✓ choices[0].toolCalls',
        '✓ choices[0].finishReason',
        '✓ usage',
        '',
        'equal: the result matches the reply on 6 compared fields',
      ),
    })
  })

  it('plain text: content only; the first difference in context, its frame and raw text, its cause; exit 1', async () => {
    const [d] = compareReply(fixture, choice.content.replace('forecast', 'forcast')).differences
    expect(d).toMatchObject({ field: 'choices[0].content', offset: 27, frame: 8, cause: 'other' })
    expect(await runCli(['check', FIXTURE, '--against', TYPO])).toEqual({
      code: 1,
      stderr: '',
      stdout: lines(
        '✗ choices[0].content',
        'not compared (the result does not carry them): choices[0].reasoning, choices[0].refusal, choices[0].toolCalls, choices[0].finishReason, usage',
        '',
        'different: 1 difference',
        '',
        'choices[0].content at character 27',
        "  expected  I'll look up tomorrow's forecast for Paris.",
        "  got       I'll look up tomorrow's forcast for Paris.",
        '                                       ^',
        `  what      ${d!.message}`,
        '  cause     other: no documented cause explains it',
        '  frame     8 · line 19',
        '            │ data: {"id":"chatcmpl-9f2c4e1a7b","object":"chat.completion.chunk","created":1733140800,"model":"deepseek-rea … "tomorrow\'s forecast ","reasoning_content":null},"logprobs":null,"finish_reason":null}]}',
      ),
    })
  })

  it('a raw body: a client that stopped early (truncated), the cut shown as (end)', async () => {
    const body = sample('broken.sse')
    const path = temp('cut.txt', 'Bonjour! Paris ')
    const [d] = compareReply(body, 'Bonjour! Paris ').differences
    const r = await runCli(['check', 'samples/broken.sse', '--against', path])
    expect(r.code).toBe(1)
    expect(r.stdout.slice(r.stdout.indexOf('choices[0].content at'))).toBe(lines(
      'choices[0].content at character 15',
      '  expected  Bonjour! Paris is today.',
      '  got       Bonjour! Paris (end)',
      '                           ^',
      `  what      ${d!.message}`,
      "  cause     truncated: The reference's text cut at a frame boundary: the client stopped early (often at a broken frame, an error or a missing terminal event).",
      '  frame     4 · line 9',
      '            │ data: {"id":"chatcmpl-AZb81kQ2rT","object":"chat.completion.chunk","created":1733141100,"model":"gpt-4o-2024- … "index":0,"delta":{"content":"is "},"logprobs":null,"finish_reason":null}],"usage":null}',
    ))
  })

  it('long text: about 30 characters each side of the difference, control characters escaped', async () => {
    const long = `${'a'.repeat(50)}\u001b[31mX${'b'.repeat(50)}`
    const body = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: long }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`
    const stream = temp('long.sse', body)
    const got = temp('long.txt', long.replace('X', 'Y'))
    const r = await runCli(['check', stream, '--against', got])
    const at = r.stdout.split('\n').findIndex((l) => l.startsWith('choices[0].content at'))
    expect(r.stdout.split('\n').slice(at, at + 4)).toEqual([
      'choices[0].content at character 55',
      `  expected  …${'a'.repeat(25)}\\u001b[31mX${'b'.repeat(29)}…`,
      `  got       …${'a'.repeat(25)}\\u001b[31mY${'b'.repeat(29)}…`,
      `            ${' '.repeat(1 + 25 + 10)}^`,
    ])
  })

  it('--json prints the comparison and nothing else', async () => {
    const r = await runCli(['check', '--json', FIXTURE, '--against', TYPO])
    expect(r).toEqual({ code: 1, stderr: '', stdout: json(compareReply(fixture, readFileSync(TYPO, 'utf8'))) })
    const equal = await runCli(['check', '--json', 'samples/openai-chat.sse', '--against', COMPLETION])
    expect(equal).toEqual({ code: 0, stderr: '', stdout: json({ equal: true, differences: [], notCompared: [] }) })
  })

  it('a HAR entry, and RESULT on stdin', async () => {
    const har = temp('chat.har', JSON.stringify(toHar([chat]), null, 2))
    const r = await runCli(['check', har, '--against', '-'], { input: JSON.stringify(completion) })
    expect(r.code).toBe(0)
    expect(r.stdout.endsWith('equal: the result matches the reply on 6 compared fields\n')).toBe(true)
  })

  it('a result none of the shapes: exit 1, said in one place', async () => {
    const r = await runCli(['check', 'samples/gemini.sse', '--against', temp('foo.json', '{"foo":1}')])
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n').slice(0, 6)).toEqual([
      '✗ the result', '', 'different: the result could not be read', '', 'the result',
      expect.stringMatching(/^ {2}expected {2}\{"transport":"sse","provider":"gemini".{20,}…$/),
    ])
  })

  it.each<[string[], string]>([
    [['check', 'samples/gemini.sse', '--against', 'nope.json'], 'deltascope: cannot read nope.json: no such file\n'],
    [['check', 'samples/gemini.sse', '--against', 'samples'], 'deltascope: cannot read samples: is a directory\n'],
    [['check', 'samples/gemini.sse'], "deltascope: check: missing --against RESULT (the client's result: a JSON file or text); see deltascope --help\n"],
  ])('%j: exit 2, one line', async (args, stderr) => {
    expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr })
  })
})

describe.concurrent('deltascope diagnose', { timeout: 120_000 }, () => {
  const body = 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n' +
    '{"choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n' +
    'data: {"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop"}]}\n\n'
  const path = temp('no-prefix.sse', body)

  it('one line per diagnostic (level, code, frame, message), its symptom below; a warning exits 1', async () => {
    const [end, prefix] = diagnose({ ...raw('samples/gemini.sse'), chunks: [{ data: body, t: null }] })
    expect([end!.code, prefix!.code]).toEqual(['no-terminal-event', 'missing-data-prefix'])
    expect(await runCli(['diagnose', path])).toEqual({
      code: 1,
      stderr: '',
      stdout: lines(
        `warning  no-terminal-event    ${end!.message}`,
        `                              ${end!.symptom}`,
        `warning  missing-data-prefix  frame 1 · line 3: ${prefix!.message}`,
        `                              ${prefix!.symptom}`,
        '',
        '2 findings: 2 warnings',
      ),
    })
  })

  it('--json prints {"diagnostics": [...]} and nothing else', async () => {
    const r = await runCli(['diagnose', '--json', path])
    expect(r).toEqual({ code: 1, stderr: '', stdout: json({ diagnostics: diagnose({ ...raw('samples/gemini.sse'), request: { ...raw('samples/gemini.sse').request, url: path }, chunks: [{ data: body, t: null }] }) }) })
    const fromFixture = await runCli(['diagnose', '--json', FIXTURE])
    expect(fromFixture.stdout).toBe(json({ diagnostics: diagnose(chat) }))
  })

  it('a clean stream: no findings, exit 0; broken frames are pointed to merge', async () => {
    expect(await runCli(['diagnose', 'samples/openai-chat.sse'])).toEqual({ code: 0, stderr: '', stdout: 'no findings\n' })
    expect(await runCli(['diagnose', 'samples/broken.sse'])).toEqual({
      code: 0, stderr: '', stdout: lines('no findings', 'also 1 broken frame: deltascope merge lists them'),
    })
  })

  it('arguments that do not parse: an error when the finish reason says the calls are complete (exit 1); beside truncated-by-limit when the limit cut them', async () => {
    const call = (d: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...d }] }, finish_reason: null }] })}\n\n`
    const finish = (reason: string) => `data: {"choices":[{"index":0,"delta":{},"finish_reason":"${reason}"}]}\n\ndata: [DONE]\n\n`
    const calls = call({ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Par' } })
    const message = 'tool call 0 ("get_weather", id "call_1") of choice 0: its arguments (12 characters, the last fragment in frame 0) do not parse: Unexpected end of JSON input at position 12 (expected the rest of the value)'
    const complete = await runCli(['diagnose', temp('args-complete.sse', calls + finish('tool_calls'))])
    expect(complete).toEqual({
      code: 1, stderr: '',
      stdout: lines(
        `error    arguments-invalid  frame 0 · line 1: ${message}; yet finish reason "tool_calls" says the calls are complete`,
        ' '.repeat(28) + SYMPTOMS['arguments-invalid'],
        '',
        '1 finding: 1 error',
      ),
    })
    const cut = await runCli(['diagnose', temp('args-length.sse', calls + finish('length'))])
    expect(cut).toEqual({
      code: 1, stderr: '',
      stdout: lines(
        `warning  arguments-invalid   frame 0 · line 1: ${message}; cut at the token limit (finish reason "length")`,
        ' '.repeat(29) + SYMPTOMS['arguments-invalid'],
        `warning  truncated-by-limit  frame 1 · line 3: choice 0 stopped at the token limit (finish reason "length")`,
        ' '.repeat(29) + SYMPTOMS['truncated-by-limit'],
        '',
        '2 findings: 2 warnings',
      ),
    })
  })

  it('--stall: the stall threshold (ms) on a fixture with chunk times', async () => {
    const paused = recording('openai-chat.sse', { at: 5, ms: 1500 })
    const path = temp('paused.deltascope.json', fixtureToJson(toFixture(paused, { exportedAt: '2025-01-02T03:04:05.000Z' })))
    const stalls = (d: Array<{ code: string }>) => d.filter((x) => x.code === 'stall').length
    const byDefault = JSON.parse((await runCli(['diagnose', '--json', path])).stdout).diagnostics
    expect(stalls(byDefault)).toBe(1)
    const lower = JSON.parse((await runCli(['diagnose', '--json', '--stall', '30', path])).stdout).diagnostics
    expect(lower).toEqual(JSON.parse(JSON.stringify(diagnose(paused, { stallMs: 30 }))))
    expect(stalls(lower)).toBeGreaterThan(1)
  })
})

describe.concurrent('deltascope timing', { timeout: 120_000 }, () => {
  it('a fixture: a small aligned table, ms since the request started', async () => {
    const paused = recording('openai-chat.sse', { at: 5, ms: 1500 })
    const path = temp('timed.deltascope.json', fixtureToJson(toFixture(paused, { exportedAt: '2025-01-02T03:04:05.000Z' })))
    const t = timing(paused)
    expect(t).toMatchObject({ ttfb: 100, firstFrame: 140, total: 2280, frames: 18, stalls: [{ ms: 1540 }] })
    expect(await runCli(['timing', path])).toEqual({
      code: 0,
      stderr: '',
      stdout: lines(
        'ttfb             100 ms',
        'first frame      140 ms',
        `first reasoning  ${t.firstReasoning} ms`,
        `first content    ${t.firstContent} ms`,
        `first tool call  ${t.firstToolCall} ms`,
        'total            2280 ms',
        'frames           18',
        `gaps             max 1540 ms · p50 ${t.gaps.p50} ms · p95 1540 ms`,
        `stalls (1)       1540 ms after frame ${t.stalls[0]!.afterFrame}`,
        `frames/s         ${Math.round(t.framesPerSecond! * 10) / 10}`,
        `content chars/s  ${Math.round(t.contentCharsPerSecond! * 10) / 10}`,
      ),
    })
  })

  it('--json prints the figures as they are', async () => {
    expect(await runCli(['timing', '--json', FIXTURE])).toEqual({ code: 0, stderr: '', stdout: json(timing(chat)) })
  })

  it('a raw body: times unknown, said so', async () => {
    expect(await runCli(['timing', 'samples/gemini.sse'])).toEqual({
      code: 0,
      stderr: '',
      stdout: lines(
        'times unknown: the input has no chunk times (a raw body); export a fixture with Live capture on',
        'frames  3',
      ),
    })
    const r = await runCli(['timing', '--json', 'samples/gemini.sse'])
    expect(r.stdout).toBe(json(timing(raw('samples/gemini.sse'))))
    expect(JSON.parse(r.stdout).timesUnknown).toBe(true)
  })
})
