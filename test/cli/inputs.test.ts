// Every command reads a raw body, a Deltascope fixture or a HAR, recognised from the content:
// the real CLI on fixtures and HARs written to temp files.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import {
  fixtureChunks, fixtureMergeOptions, fixtureToJson, replayFixture, toFixture, toHar, type Fixture, type Recording,
} from '../../src/exchange/index.js'
import { createMerger, merge } from '../../src/index.js'
import { capturedRequest } from '../support/requests.js'
import { ROOT, runCli } from './run.js'

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n'
const sample = (name: string) => readFileSync(join(ROOT, 'samples', name), 'utf8')

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-inputs-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string | Uint8Array): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}

const STARTED_AT = 1_733_140_800_000
const EXPORTED_AT = '2025-01-02T03:04:05.000Z'

/** A recording of a sample: its body cut every `size` characters, one read every 40 ms after a 100 ms wait. */
function recording(name: string, url: string, size = 300, timed = true): Recording {
  const body = sample(name)
  const parts = body.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!
  return {
    request: capturedRequest({
      id: name, url, requestHeaders: [{ name: 'Authorization', value: 'Bearer sk-secret' }],
      responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }], requestBody: '{"stream":true}', startedAt: STARTED_AT, source: 'live',
    }),
    chunks: parts.map((data, i) => ({ data, t: timed ? STARTED_AT + 100 + 40 * i : null })),
  }
}

const OPENAI_URL = 'https://api.openai.com/v1/chat/completions'
const ANTHROPIC_URL = 'https://api.anthropic.com/v1/messages'
const openai = recording('openai-chat.sse', OPENAI_URL)
const anthropic = recording('anthropic.sse', ANTHROPIC_URL, 1000, false)

const fixture = toFixture(openai, { exportedAt: EXPORTED_AT })
const FIXTURE = temp('chat.deltascope.json', fixtureToJson(fixture))

/** A HAR with a JSON response first (not a stream: not counted), then the two streams. */
function har(): string {
  const h = toHar([openai, anthropic], { exportedAt: EXPORTED_AT })
  const config = structuredClone(h.log.entries[0]!)
  config.request.url = 'https://example.com/config.json'
  config.request.method = 'GET'
  config.response.content = { size: 11, mimeType: 'application/json', text: '{"ok":true}' }
  config.response.headers = [{ name: 'Content-Type', value: 'application/json' }]
  delete config._deltascope
  h.log.entries.unshift(config)
  return JSON.stringify(h, null, 2)
}
const HAR = temp('session.har', har())

describe.concurrent('inputs: raw body, fixture or HAR, recognised from the content', { timeout: 120_000 }, () => {
  it('a fixture merges as the body it holds (not as NDJSON lines of its JSON)', async () => {
    const r = await runCli(['merge', FIXTURE])
    expect(r).toEqual(await runCli(['merge', 'samples/openai-chat.sse']))
    expect(r.code).toBe(0)
  })

  it('merge --json of a fixture is its replay, which is its expected Reply', async () => {
    const r = await runCli(['merge', '--json', FIXTURE])
    expect(r).toEqual({ code: 0, stdout: json(replayFixture(fixture)), stderr: '' })
    expect(JSON.parse(r.stdout)).toEqual(fixture.expected)
  })

  it('frames --json of a fixture: its chunks replayed with their times (ms since the request started)', async () => {
    const m = createMerger(fixtureMergeOptions(fixture))
    for (const c of fixtureChunks(fixture)) m.push(c.data, c.t!)
    m.end()
    const r = await runCli(['frames', '--json', FIXTURE])
    const frames = JSON.parse(r.stdout) as Array<{ time: number | null }>
    expect(frames).toEqual(m.frames().map(({ json: _json, ...rest }) => rest))
    expect(frames[0]!.time).toBe(140)
    expect(frames[frames.length - 1]!.time).toBe(100 + 40 * (openai.chunks.length - 1))
  })

  it('reads a fixture on stdin', async () => {
    const r = await runCli(['merge', '--json', '-'], { input: fixtureToJson(fixture) })
    expect(r).toEqual({ code: 0, stdout: json(fixture.expected), stderr: '' })
  })

  it("a fixture's forced provider and transport are used; the command line wins over them", async () => {
    const forced: Fixture = { ...toFixture({ ...openai, forced: { provider: 'generic' } }, { exportedAt: EXPORTED_AT }) }
    const path = temp('forced.deltascope.json', fixtureToJson(forced))
    const r = await runCli(['merge', '--json', path])
    expect(JSON.parse(r.stdout)).toEqual(forced.expected)
    expect(JSON.parse(r.stdout).provider).toBe('generic')
    const over = await runCli(['merge', '--json', '-p', 'openai-chat', path])
    expect(JSON.parse(over.stdout)).toEqual(merge(sample('openai-chat.sse'), { provider: 'openai-chat' }))
  })

  it('a HAR: its first streaming entry (a JSON response is not counted), --entry N the N-th', async () => {
    const first = await runCli(['merge', '--json', HAR])
    expect(first).toEqual({ code: 0, stdout: json(merge(sample('openai-chat.sse'), { url: OPENAI_URL })), stderr: '' })
    const second = await runCli(['merge', '--json', '--entry', '2', HAR])
    expect(second).toEqual({ code: 0, stdout: json(merge(sample('anthropic.sse'), { url: ANTHROPIC_URL })), stderr: '' })
    expect(JSON.parse(second.stdout).provider).toBe('anthropic')
    const frames = await runCli(['frames', '--entry', '2', HAR])
    expect(frames.stdout.split('\n')[1]).toMatch(/^ {4}0 +\d+ +message_start/)
  })

  it('--entry out of range lists the streaming entries', async () => {
    expect(await runCli(['merge', '--entry', '3', HAR])).toEqual({
      code: 2,
      stdout: '',
      stderr: `deltascope: --entry 3: ${HAR} has 2 streaming entries: 1 = POST ${OPENAI_URL} (200, text/event-stream); 2 = POST ${ANTHROPIC_URL} (200, text/event-stream)\n`,
    })
    expect(await runCli(['timing', '--entry', '2', FIXTURE])).toEqual({
      code: 2, stdout: '', stderr: `deltascope: --entry 2: ${FIXTURE} is a fixture: it holds one request (--entry 1)\n`,
    })
    expect(await runCli(['merge', '--entry', '1', 'samples/gemini.sse'])).toEqual({
      code: 2, stdout: '', stderr: 'deltascope: --entry picks an entry of a HAR, but samples/gemini.sse is a raw stream\n',
    })
  })

  it('a broken fixture or a HAR without streams: exit 2, one line naming the problem', async () => {
    const bad = temp('bad.deltascope.json', '{"format":"deltascope-fixture","version":1,"request":{}}')
    expect(await runCli(['merge', bad])).toEqual({ code: 2, stdout: '', stderr: `deltascope: ${bad}: response: expected an object, got nothing\n` })
    const cut = temp('cut.deltascope.json', fixtureToJson(fixture).slice(0, 500))
    const r = await runCli(['diagnose', cut])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`^deltascope: ${cut}: Not a Deltascope fixture: the text is not JSON \\(.+\\)\\n$`))
    const none = temp('none.har', JSON.stringify({ log: { version: '1.2', entries: [] } }))
    expect(await runCli(['frames', none])).toEqual({
      code: 2, stdout: '', stderr: `deltascope: ${none}: No streaming response in this HAR: none of its 0 entries is text/event-stream, NDJSON, or a body that reads as SSE or NDJSON\n`,
    })
  })

  it('NDJSON whose first object has a "log" key is still a stream', async () => {
    const body = '{"log":{"n":1},"message":{"role":"assistant","content":"Hi"},"done":false}\n{"message":{"role":"assistant","content":"!"},"done":true}\n'
    const path = temp('log.ndjson', body)
    const r = await runCli(['merge', '--json', path])
    expect(r).toEqual({ code: 0, stdout: json(merge(body)), stderr: '' })
  })

  it("an import's warnings go to stderr; the output is unchanged", async () => {
    const odd: Fixture = { ...fixture, body: { text: 'not the chunks' } }
    const path = temp('odd.deltascope.json', fixtureToJson(odd))
    expect(await runCli(['merge', '--json', path])).toEqual({
      code: 0,
      stdout: json(fixture.expected),
      stderr: 'deltascope: warning: the chunks do not add up to body: the chunks are replayed, body is ignored\n',
    })
  })
})

describe.concurrent('a stream piped in live is not held back to be recognised', { timeout: 120_000 }, () => {
  /** Writes `first` to `frames -` and keeps stdin open: resolves with stdout once `expected` shows. */
  function firstRow(first: string, expected: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [inject('cliBundle'), 'frames', '-'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
      let out = ''
      const timer = setTimeout(() => { child.kill(); reject(new Error(`no row before the end of stdin: ${JSON.stringify(out)}`)) }, 60_000)
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8')
        if (out.includes(expected)) {
          clearTimeout(timer)
          child.stdin.end()
          resolve(out)
        }
      })
      child.on('error', reject)
      child.stdin.write(first)
    })
  }

  it('SSE', async () => {
    const out = await firstRow('data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', 'content:"Hi"')
    expect(out.split('\n')[1]).toMatch(/^ {4}0 +1 +- +data +\d+ +content:"Hi"$/)
  })

  it('NDJSON (its first object closes without a fixture or HAR key)', async () => {
    const out = await firstRow('{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n', 'content:"Hi"')
    expect(out.split('\n')[1]).toMatch(/^ {4}0 +1 +- +data +\d+ .*content:"Hi"/)
  })
})
