// deltascope serve: the real CLI answering real requests. The openai SDK pointed at it gets
// the recorded completion; a raw fetch gets the recorded bytes exactly, under any chunking;
// at --speed 1 the reads arrive at their recorded times; requests are routed by method and
// path and logged; preflights are answered; a capture that cannot be served is an error
// before it listens.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureToJson, toFixture, toHar, type Recording } from '../../src/exchange/index.js'
import { compareReply } from '../../src/testing.js'
import { wire } from '../debug/compare-support.js'
import { recording, STARTED_AT } from '../support/requests.js'
import { chatFixture, chatRecording } from '../testing/stress-clients.js'
import { runCli } from './run.js'
import { startServe } from './serve-support.js'

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-serve-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
function temp(name: string, body: string): string {
  const path = join(tmp, name)
  writeFileSync(path, body)
  return path
}

const CHAT = temp('chat.deltascope.json', fixtureToJson(chatFixture()))
const BODY = chatFixture().chunks.map((c) => ('text' in c ? c.text : '')).join('')

/** An Anthropic capture of a wire fixture, its body in one read at `t` ms. */
function anthropicRecording(name: string, id: string): Recording {
  return recording([[wire(name), 20]], {
    id, url: 'https://api.anthropic.com/v1/messages', responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }], requestBody: '{}', source: 'live',
  })
}

async function readsOf(response: Response): Promise<Array<{ text: string; at: number }>> {
  const reads: Array<{ text: string; at: number }> = []
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return reads
    reads.push({ text: decoder.decode(value, { stream: true }), at: performance.now() })
  }
}

describe('deltascope serve', () => {
  it('prints where it listens, the capture\'s route and the base URL for the SDK; the openai SDK pointed at it gets the recorded completion', async () => {
    const serving = await startServe([CHAT, '--speed', '0'])
    try {
      expect(serving.stdout().split('\n')).toEqual([
        `deltascope serve: listening on ${serving.base} (recorded chunking, speed 0: as fast as the socket takes it)`,
        '  POST /v1/chat/completions  ← chat.deltascope.json (openai-chat, 6 reads over 600 ms)',
        '  (one file: any method and path gets it)',
        'Point your app at it:',
        `  OPENAI_BASE_URL=${serving.base}/v1`,
        'Ctrl-C stops it.',
        '',
      ])
      const client = new OpenAI({ apiKey: 'unused', baseURL: `${serving.base}/v1`, maxRetries: 0 })
      const completion = await client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'weather?' }] }).finalChatCompletion()
      expect(completion.choices[0]!.message.content).toBe('Café ☀ sunny in 日本 🌸')
      expect(compareReply(chatFixture(), completion).equal).toBe(true)
      const line = await serving.logged(/POST \/v1\/chat\/completions → 200/)
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/v1\/chat\/completions → 200 · 6 reads, 653 bytes in \d+ ms · chat\.deltascope\.json · request body \d+ bytes$/)
    } finally {
      expect((await serving.stop()).code).toBe(0)
    }
  })

  it('a raw fetch gets the recorded bytes exactly, under any chunking; the headers made true (no wire length or encoding, no hop-by-hop)', async () => {
    const recording = chatRecording()
    recording.request.responseHeaders = [
      { name: 'content-type', value: 'text/event-stream; charset=utf-8' }, { name: 'x-request-id', value: 'req_1' },
      { name: 'content-encoding', value: 'gzip' }, { name: 'content-length', value: '99' }, { name: 'connection', value: 'close' },
      { name: 'transfer-encoding', value: 'chunked' }, { name: ':status', value: '200' },
    ]
    const file = temp('headers.deltascope.json', fixtureToJson(toFixture(recording, { includeCredentials: true })))
    for (const chunking of ['recorded', 'bytes-1', 'comments']) {
      const serving = await startServe([file, '--chunking', chunking, '--speed', '0'])
      try {
        const response = await fetch(`${serving.base}/anything?at=all`, { method: 'POST', body: '{}' })
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
        expect(response.headers.get('x-request-id')).toBe('req_1')
        expect([response.headers.get('content-encoding'), response.headers.get('content-length'), response.headers.get('transfer-encoding')]).toEqual([null, null, 'chunked'])
        const text = await response.text()
        if (chunking === 'comments') expect(text).toBe(BODY.replace(/data: /g, ': keepalive\ndata: '))
        else expect(text).toBe(BODY)
      } finally {
        await serving.stop()
      }
    }
  })

  it('--speed 1: each read arrives at its recorded time (300 ms apart, ±50 ms, counted from the first read)', async () => {
    const recording = chatRecording()
    const pieces = ['data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n', 'data: {"choices":[{"index":0,"delta":{"content":"b"}}]}\n\n', 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n']
    recording.chunks = pieces.map((data, i) => ({ data, t: STARTED_AT + 100 + 300 * i }))
    const file = temp('paced.deltascope.json', fixtureToJson(toFixture(recording, { includeCredentials: true })))
    const serving = await startServe([file, '--speed', '1'])
    try {
      const reads = await readsOf(await fetch(`${serving.base}/v1/chat/completions`, { method: 'POST' }))
      expect(reads.map((r) => r.text)).toEqual(pieces)
      const since = reads.map((r) => r.at - reads[0]!.at)
      for (const [i, ms] of since.entries()) expect(Math.abs(ms - 300 * i), `read ${i} at ${Math.round(ms)} ms`).toBeLessThanOrEqual(50)
    } finally {
      await serving.stop()
    }
  })

  it('routes several captures by method and path (a HAR\'s entries in turn), answers 404 with the routes otherwise, logs each request', async () => {
    const har = temp('claude.har', JSON.stringify(toHar([
      anthropicRecording('anthropic/usage-merged.sse', 'a1'), anthropicRecording('anthropic/parallel-tool-use.sse', 'a2'),
    ], { includeCredentials: true })))
    const serving = await startServe([CHAT, har, '--speed', '0'])
    try {
      expect(serving.stdout().split('\n').slice(1, 7)).toEqual([
        '  POST /v1/chat/completions  ← chat.deltascope.json (openai-chat, 6 reads over 600 ms)',
        '  POST /v1/messages  ← claude.har #1 (anthropic, 1 read over 20 ms)',
        '  POST /v1/messages  ← claude.har #2 (anthropic, 1 read over 20 ms)',
        'Point your app at it:',
        `  OPENAI_BASE_URL=${serving.base}/v1`,
        `  ANTHROPIC_BASE_URL=${serving.base}`,
      ])
      const post = async (path: string, method = 'POST') => {
        const r = await fetch(serving.base + path, { method })
        return [r.status, await r.text()]
      }
      expect(await post('/v1/messages')).toEqual([200, new TextDecoder().decode(wire('anthropic/usage-merged.sse'))])
      expect(await post('/v1/messages')).toEqual([200, new TextDecoder().decode(wire('anthropic/parallel-tool-use.sse'))])
      expect(await post('/v1/messages')).toEqual([200, new TextDecoder().decode(wire('anthropic/usage-merged.sse'))])
      expect(await post('/v1/chat/completions?x=1')).toEqual([200, BODY])
      expect(await post('/v1/chat/completions', 'GET')).toEqual([404, JSON.stringify({
        error: 'deltascope serve: no capture for GET /v1/chat/completions', routes: ['POST /v1/chat/completions', 'POST /v1/messages'],
      }, null, 2) + '\n'])
      await serving.logged(/GET \/v1\/chat\/completions → 404/)
      const log = serving.stdout().split('\n').slice(8).map((l) => l.replace(/^\S+ /, '').replace(/in \d+ ms/, 'in N ms'))
      expect(log).toEqual([
        'POST /v1/messages → 200 · 1 read, 1230 bytes in N ms · claude.har #1',
        'POST /v1/messages → 200 · 1 read, 2254 bytes in N ms · claude.har #2',
        'POST /v1/messages → 200 · 1 read, 1230 bytes in N ms · claude.har #1',
        'POST /v1/chat/completions?x=1 → 200 · 6 reads, 653 bytes in N ms · chat.deltascope.json',
        'GET /v1/chat/completions → 404: no capture for it',
        '',
      ])
    } finally {
      await serving.stop()
    }
  })

  it('one file is answered on any method and path: a HAR\'s entries by their route, a request no route matches by them in turn', async () => {
    const har = temp('one.har', JSON.stringify(toHar([
      anthropicRecording('anthropic/usage-merged.sse', 'a1'), anthropicRecording('anthropic/parallel-tool-use.sse', 'a2'),
    ], { includeCredentials: true })))
    const serving = await startServe([har, '--speed', '0'])
    try {
      expect(serving.stdout().split('\n')[3]).toBe('  (one file: a request no route matches gets its captures in turn)')
      const text = async (path: string, method = 'POST') => (await fetch(serving.base + path, { method })).text()
      const usage = new TextDecoder().decode(wire('anthropic/usage-merged.sse'))
      const parallel = new TextDecoder().decode(wire('anthropic/parallel-tool-use.sse'))
      expect([await text('/v1/messages'), await text('/chat', 'GET'), await text('/chat'), await text('/v1/messages')]).toEqual([usage, usage, parallel, parallel])
    } finally {
      await serving.stop()
    }
  })

  it('answers a CORS preflight from any origin with what it asked for; every answer allows the origin', async () => {
    const serving = await startServe([CHAT, '--speed', '0'])
    try {
      const preflight = await fetch(`${serving.base}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { 'Origin': 'http://app.test:3000', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type', 'Access-Control-Request-Private-Network': 'true' },
      })
      expect(preflight.status).toBe(204)
      expect(Object.fromEntries([...preflight.headers].filter(([k]) => k.startsWith('access-control-')))).toEqual({
        'access-control-allow-origin': 'http://app.test:3000',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': '*',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-allow-private-network': 'true',
        'access-control-max-age': '600',
      })
      const answer = await fetch(`${serving.base}/v1/chat/completions`, { method: 'POST', headers: { Origin: 'http://app.test:3000' } })
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://app.test:3000')
      await answer.text()
      expect(await serving.logged(/OPTIONS/)).toMatch(/ OPTIONS \/v1\/chat\/completions → 204 preflight from http:\/\/app\.test:3000$/)
    } finally {
      await serving.stop()
    }
  })

  it('a capture that cannot be served is one line on stderr, exit 2, before it listens', async () => {
    const ndjson = temp('ollama.deltascope.json', fixtureToJson(toFixture({
      request: { ...chatRecording().request, url: 'http://127.0.0.1:11434/api/chat', contentType: 'application/x-ndjson', responseHeaders: [] },
      chunks: [{ data: wire('ollama/chat-text.ndjson'), t: STARTED_AT + 5 }],
    }, { includeCredentials: true })))
    const cases: Array<[string[], string]> = [
      [[join(tmp, 'nope.json')], `deltascope: serve: ${join(tmp, 'nope.json')}: no such file\n`],
      [[temp('raw.sse', 'data: {}\n\n')], `deltascope: serve: ${join(tmp, 'raw.sse')}: a raw body, not a fixture or HAR: it has no status, headers or reads to answer with (export a fixture from the panel; \`deltascope stress\` takes a raw body)\n`],
      [[temp('bad.json', '{"format":"deltascope-fixture","version":1}')], `deltascope: serve: ${join(tmp, 'bad.json')}: request: expected an object, got nothing\n`],
      [[ndjson, '--chunking', 'crlf'], 'deltascope: serve: ollama.deltascope.json: --chunking crlf does not apply: the stream is NDJSON, not SSE: only SSE is re-encoded\n'],
    ]
    for (const [args, stderr] of cases) expect(await runCli(['serve', ...args, '--port', '0'])).toEqual({ code: 2, stdout: '', stderr })
  })
})
