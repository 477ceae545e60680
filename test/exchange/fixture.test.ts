import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createMerger, merge, PROVIDER_IDS } from '../../src/index.js'
import type { Reply } from '../../src/index.js'
import { base64Encode, utf8Encode } from '../../src/exchange/bytes.js'
import {
  FixtureError, TOOL_VERSION, checkFixture, fixtureBody, fixtureChunks, fixtureMergeOptions, fixtureToJson, parseFixture,
  replayFixture, toFixture, type Fixture,
} from '../../src/exchange/fixture.js'
import { SAMPLES, STARTED_AT, request, sampleBytes, sampleInput, unicodeInput } from './support.js'

const EXPORTED_AT = '2025-01-02T03:05:00.000Z'
const enc = (s: string) => utf8Encode(s)

describe('toFixture: exact document', () => {
  const e = enc('data: {"choices":[{"index":0,"delta":{"content":"é"}}]}\n\ndata: [DONE]\n\n')
  const split = e.indexOf(0xc3) + 1 // between the two bytes of é
  const input = {
    request: request(),
    chunks: [
      { data: 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"H"}}]}\n\n', t: STARTED_AT + 5.5 },
      { data: e.slice(0, split), t: STARTED_AT + 12 },
      { data: e.slice(split), t: null },
    ],
  }
  const expected: Reply = {
    transport: 'sse',
    provider: 'openai-chat',
    done: true,
    frameCount: 3,
    choices: [{ index: 0, role: 'assistant', content: 'Hé', reasoning: '', refusal: '', toolCalls: [], finishReason: null }],
    messages: [{ id: null, role: 'assistant', parts: [{ type: 'text', text: 'Hé' }] }],
    usage: null,
    errors: [],
  }

  it('redacts credentials, stores times since the start, text or base64 per chunk, and the Reply', () => {
    const fixture = toFixture(input, { exportedAt: EXPORTED_AT })
    expect(fixture).toEqual({
      format: 'deltascope-fixture',
      version: 1,
      request: {
        method: 'POST',
        url: 'https://api.openai.com/v1/chat/completions',
        headers: [
          { name: 'Authorization', value: '[REDACTED]' },
          { name: 'Content-Type', value: 'application/json' },
          { name: 'openai-organization', value: '[REDACTED]' },
        ],
        body: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}',
      },
      response: {
        status: 200,
        headers: [
          { name: 'content-type', value: 'text/event-stream; charset=utf-8' },
          { name: 'set-cookie', value: '[REDACTED]' },
          { name: 'x-request-id', value: 'req_123' },
        ],
        contentType: 'text/event-stream; charset=utf-8',
      },
      body: {
        text: 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"H"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":"é"}}]}\n\ndata: [DONE]\n\n',
      },
      chunks: [
        { t: 5.5, text: 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"H"}}]}\n\n' },
        { t: 12, base64: base64Encode(e.slice(0, split)) },
        { t: null, base64: base64Encode(e.slice(split)) },
      ],
      expected,
      meta: {
        exportedAt: EXPORTED_AT, tool: 'deltascope', toolVersion: TOOL_VERSION, startedAt: STARTED_AT, redacted: true,
        redactions: [
          { where: 'request header', name: 'Authorization' },
          { where: 'request header', name: 'openai-organization' },
          { where: 'response header', name: 'set-cookie' },
        ],
      },
    })
    expect((fixture.chunks[1] as { base64: string }).base64).toBe('ZGF0YTogeyJjaG9pY2VzIjpbeyJpbmRleCI6MCwiZGVsdGEiOnsiY29udGVudCI6IsM=')
  })

  it('keeps credentials only when asked', () => {
    const fixture = toFixture(input, { exportedAt: EXPORTED_AT, includeCredentials: true })
    expect(fixture.request.headers[0]).toEqual({ name: 'Authorization', value: 'Bearer sk-proj-SECRET' })
    expect(fixture.response.headers[1]).toEqual({ name: 'set-cookie', value: '__cf_bm=SECRET; path=/' })
    expect(fixture.meta.redacted).toBe(false)
  })

  it('redacts keys in the URL and the request body', () => {
    const fixture = toFixture({
      request: request({ url: 'https://x.test/v1/chat/completions?key=K&alt=sse', requestBody: '{"api_key":"sk-1","stream":true}' }),
      chunks: input.chunks,
    }, { exportedAt: EXPORTED_AT })
    expect(fixture.request.url).toBe('https://x.test/v1/chat/completions?key=[REDACTED]&alt=sse')
    expect(fixture.request.body).toBe('{"api_key":"[REDACTED]","stream":true}')
    expect(JSON.stringify(fixture)).not.toMatch(/SECRET|sk-1|key=K/)
  })

  it('stores the expected Reply it is given, and forced options', () => {
    const given = { ...expected, provider: 'generic' as const }
    const fixture = toFixture({ ...input, expected: given, forced: { provider: 'generic' } }, { exportedAt: EXPORTED_AT })
    expect(fixture.expected).toBe(given)
    expect(fixture.forced).toEqual({ provider: 'generic' })
    expect(fixtureMergeOptions(fixture)).toEqual({
      url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream; charset=utf-8', provider: 'generic',
    })
    expect(toFixture({ ...input, forced: {} }, { exportedAt: EXPORTED_AT })).not.toHaveProperty('forced')
  })

  it('serialises in the documented key order, one chunk per line', () => {
    const json = fixtureToJson(toFixture(input, { exportedAt: EXPORTED_AT }))
    expect(json.startsWith('{\n  "format": "deltascope-fixture",\n  "version": 1,\n  "request": {\n    "method": "POST",')).toBe(true)
    expect(json.endsWith('\n}\n')).toBe(true)
    expect(json).toContain('\n  "chunks": [\n    {"t":5.5,"text":"data: {\\"choices\\"')
    expect(json).toContain('\n    {"t":null,"base64":"')
    expect(Object.keys(JSON.parse(json))).toEqual(['format', 'version', 'request', 'response', 'body', 'chunks', 'expected', 'meta'])
    expect(fixtureToJson({ ...toFixture(input, { exportedAt: EXPORTED_AT }), chunks: [] })).toContain('"chunks": [],')
  })

  it('keeps a body that is not UTF-8 as base64 beside its U+FFFD text, and replays it exactly', () => {
    const bytes = new Uint8Array([...enc('data: {"choices":[{"index":0,"delta":{"content":"a'), 0xff, ...enc('b"}}]}\n\ndata: [DONE]\n\n')])
    const fixture = toFixture({ request: request(), chunks: [{ data: bytes, t: STARTED_AT + 1 }] }, { exportedAt: EXPORTED_AT })
    expect(fixture.body).toEqual({
      text: 'data: {"choices":[{"index":0,"delta":{"content":"a\uFFFDb"}}]}\n\ndata: [DONE]\n\n',
      base64: base64Encode(bytes),
    })
    expect(fixture.chunks).toEqual([{ t: 1, base64: base64Encode(bytes) }])
    expect(fixture.expected.choices[0]!.content).toBe('a\uFFFDb')
    const back = parseFixture(fixtureToJson(fixture))
    expect(fixtureBody(back)).toEqual(bytes)
    expect(replayFixture(back)).toEqual(fixture.expected)
  })

  it('a BOM at the start is part of the body as received', () => {
    const fixture = toFixture({ request: request(), chunks: [{ data: new Uint8Array([0xef, 0xbb, 0xbf, ...enc('data: [DONE]\n\n')]), t: null }] }, { exportedAt: EXPORTED_AT })
    expect(fixture.body).toEqual({ text: '\uFEFFdata: [DONE]\n\n' })
    expect(fixture.expected.frameCount).toBe(1)
  })
})

describe('fixture round trip: toFixture → JSON → parseFixture → replay', () => {
  for (const name of SAMPLES) {
    it(name, () => {
      const input = sampleInput(name)
      const fixture = toFixture(input, { exportedAt: EXPORTED_AT })
      const back = parseFixture(fixtureToJson(fixture))
      expect(back).toEqual(fixture)
      expect(checkFixture(back)).toEqual([])

      // the chunks come back exactly, with times since the start
      const chunks = fixtureChunks(back)
      expect(chunks.map((c) => c.t)).toEqual(input.chunks.map((c) => c.t! - STARTED_AT))
      const joined = new Uint8Array(chunks.flatMap((c) => [...(typeof c.data === 'string' ? enc(c.data) : c.data)]))
      expect(joined).toEqual(sampleBytes(name))

      // replayed with their timing, they rebuild the expected Reply, which is what merge() says of the body
      const merger = createMerger(fixtureMergeOptions(back))
      for (const c of chunks) c.t === null ? merger.push(c.data) : merger.push(c.data, c.t)
      expect(merger.end()).toEqual(back.expected)
      expect(back.expected).toEqual(merge(sampleBytes(name), { contentType: input.request.contentType!, url: input.request.url }))
      expect(replayFixture(back)).toEqual(back.expected)
      const frames = createMerger(fixtureMergeOptions(back))
      for (const c of chunks) frames.push(c.data, c.t!)
      frames.end()
      expect(frames.frames().every((f) => f.time !== null && f.time >= 10)).toBe(true)
    })
  }

  it('the samples cover every provider and a broken frame', () => {
    const replies = SAMPLES.map((n) => toFixture(sampleInput(n), { exportedAt: EXPORTED_AT }).expected)
    expect(new Set(replies.map((r) => r.provider))).toEqual(new Set(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama']))
    expect(replies.some((r) => r.errors.length > 0)).toBe(true)
  })

  it('a chunk cut inside a UTF-8 character is stored as base64 and replays all chunks as bytes', () => {
    const input = unicodeInput()
    const fixture = toFixture(input, { exportedAt: EXPORTED_AT })
    expect(fixture.chunks.some((c) => 'base64' in c)).toBe(true)
    expect(fixture.chunks.some((c) => 'text' in c)).toBe(true)
    expect(fixture.body.base64).toBeUndefined()
    expect(fixture.expected.choices[0]!.content).toBe('Héllo 🌍 世界 — ok')
    const back = parseFixture(fixtureToJson(fixture))
    const chunks = fixtureChunks(back)
    expect(chunks.every((c) => c.data instanceof Uint8Array)).toBe(true)
    expect(chunks.map((c) => c.data)).toEqual(input.chunks.map((c) => c.data))
    expect(replayFixture(back)).toEqual(fixture.expected)
  })

  it('a fixture without chunks replays its body as one chunk', () => {
    const fixture = toFixture(sampleInput('ollama.ndjson'), { exportedAt: EXPORTED_AT })
    const bare: Fixture = { ...fixture, chunks: [] }
    expect(fixtureChunks(bare)).toEqual([{ data: fixture.body.text, t: null }])
    expect(replayFixture(bare)).toEqual(fixture.expected)
    expect(fixtureChunks({ ...bare, body: { text: '' } })).toEqual([])
  })

  it('checkFixture says when the chunks do not add up to the body', () => {
    const fixture = toFixture(sampleInput('ollama.ndjson'), { exportedAt: EXPORTED_AT })
    expect(checkFixture({ ...fixture, body: { text: fixture.body.text + 'x' } })).toEqual([
      'the chunks do not add up to body: the chunks are replayed, body is ignored',
    ])
  })

  it('TOOL_VERSION follows package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(TOOL_VERSION).toBe(pkg.version)
  })
})

describe('parseFixture: clear errors', () => {
  const good = toFixture(sampleInput('openai-chat.sse'), { exportedAt: EXPORTED_AT })
  const mutate = (f: (o: any) => void): unknown => {
    const o = JSON.parse(JSON.stringify(good))
    f(o)
    return o
  }
  const table: Array<[string, unknown, string]> = [
    ['not JSON', '{"format": ', 'Not a Deltascope fixture: the text is not JSON ('],
    ['an array', '[1]', 'Not a Deltascope fixture: expected a JSON object, got an array'],
    ['no format', '{"version":1}', 'Not a Deltascope fixture: "format" is missing (expected "deltascope-fixture")'],
    ['another format', '{"format":"har"}', 'Not a Deltascope fixture: format is "har", expected "deltascope-fixture"'],
    ['a newer version', mutate((o) => { o.version = 2 }), 'Unsupported fixture version number 2: this Deltascope reads version 1'],
    ['no request', mutate((o) => { delete o.request }), 'request: expected an object, got nothing'],
    ['url not a string', mutate((o) => { o.request.url = 42 }), 'request.url: expected a string, got number 42'],
    ['a header without value', mutate((o) => { o.request.headers[1] = { name: 'x' } }), 'request.headers[1].value: expected a string, got nothing'],
    ['status as text', mutate((o) => { o.response.status = '200' }), 'response.status: expected an integer or null, got "200"'],
    ['body text missing', mutate((o) => { o.body = {} }), 'body.text: expected a string, got nothing'],
    ['bad body base64', mutate((o) => { o.body.base64 = 'ab$d' }), 'body.base64: invalid base64: unexpected "$" at position 2'],
    ['chunks not an array', mutate((o) => { o.chunks = {} }), 'chunks: expected an array, got an object'],
    ['chunk time as text', mutate((o) => { o.chunks[3].t = '12' }), 'chunks[3].t: expected a number (ms since the request started) or null, got "12"'],
    ['chunk with both', mutate((o) => { o.chunks[0].base64 = 'AA==' }), 'chunks[0]: expected exactly one of "text" and "base64", got both'],
    ['chunk with neither', mutate((o) => { o.chunks[2] = { t: 1 } }), 'chunks[2]: expected exactly one of "text" and "base64", got neither'],
    ['no expected', mutate((o) => { delete o.expected }), 'expected: expected the Reply object, got nothing'],
    ['bad provider', mutate((o) => { o.expected.provider = 'openai' }), `expected.provider: expected one of ${[...PROVIDER_IDS, 'rules'].map((p) => JSON.stringify(p)).join(', ')}, got "openai"`],
    ['bad content', mutate((o) => { o.expected.choices[0].content = null }), 'expected.choices[0].content: expected a string, got null'],
    ['bad tool call', mutate((o) => { o.expected.choices[0].toolCalls = [{ index: 0 }] }), 'expected.choices[0].toolCalls[0].parsedArguments: expected a value or null, got nothing'],
    ['bad meta.tool', mutate((o) => { o.meta.tool = 'other' }), 'meta.tool: expected "deltascope", got "other"'],
    ['bad forced', mutate((o) => { o.forced = { transport: 'websocket' } }), 'forced.transport: expected one of "sse", "ndjson", "json", "data-stream", "eventstream", "connect", "unknown", got "websocket"'],
  ]
  for (const [what, input, message] of table) {
    it(what, () => {
      expect(() => parseFixture(input)).toThrow(FixtureError)
      try {
        parseFixture(input)
      } catch (e) {
        expect((e as Error).message.startsWith(message), (e as Error).message).toBe(true)
      }
    })
  }

  it('accepts a parsed object, a BOM, and unknown extra fields', () => {
    expect(parseFixture(JSON.parse(fixtureToJson(good)))).toEqual(good)
    expect(parseFixture('\uFEFF' + fixtureToJson(good))).toEqual(good)
    expect(parseFixture(mutate((o) => { o.extra = 1; o.meta.note = 'x' }))).toEqual(good)
  })
})
