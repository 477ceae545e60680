import { describe, expect, it } from 'vitest'
import { merge } from '../../src/index.js'
import { base64Encode, utf8Encode } from '../../src/exchange/bytes.js'
import { TOOL_VERSION } from '../../src/exchange/fixture.js'
import { HarError, parseHar, toHar } from '../../src/exchange/har.js'
import type { Recording } from '../../src/exchange/types.js'
import { SAMPLES, STARTED_AT, request, sampleBytes, sampleInput, unicodeInput } from './support.js'

const text = (name: string) => new TextDecoder().decode(sampleBytes(name))
const GEMINI_ARRAY = '[{"candidates":[{"content":{"parts":[{"text":"Bonjour"}],"role":"model"},"index":0}]}\n,\n{"candidates":[{"content":{"parts":[{"text":" le monde !"}],"role":"model"},"finishReason":"STOP","index":0}]}\n]'

describe('toHar', () => {
  it('writes a HAR 1.2 entry with the body in content.text, times and chunk boundaries', () => {
    const input: Recording = {
      request: request({ url: 'https://api.openai.com/v1/chat/completions?key=K&x=a%20b' }),
      chunks: [
        { data: 'data: {"choices":[{"index":0,"delta":{"content":"H"}}]}\n\n', t: STARTED_AT + 120 },
        { data: utf8Encode('data: [DONE]\n\n'), t: STARTED_AT + 150.25 },
      ],
    }
    const har = toHar([input])
    expect(har).toEqual({
      log: {
        version: '1.2',
        creator: { name: 'deltascope', version: TOOL_VERSION },
        comment: 'Exported by Deltascope; credentials redacted',
        entries: [{
          startedDateTime: '2025-01-02T03:04:05.678Z',
          time: 150.25,
          request: {
            method: 'POST',
            url: 'https://api.openai.com/v1/chat/completions?key=[REDACTED]&x=a%20b',
            httpVersion: '',
            cookies: [],
            headers: [
              { name: 'Authorization', value: '[REDACTED]' },
              { name: 'Content-Type', value: 'application/json' },
              { name: 'openai-organization', value: '[REDACTED]' },
            ],
            queryString: [{ name: 'key', value: '[REDACTED]' }, { name: 'x', value: 'a b' }],
            postData: { mimeType: 'application/json', text: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}' },
            headersSize: -1,
            bodySize: 76,
          },
          response: {
            status: 200,
            statusText: '',
            httpVersion: '',
            cookies: [],
            headers: [
              { name: 'content-type', value: 'text/event-stream; charset=utf-8' },
              { name: 'set-cookie', value: '[REDACTED]' },
              { name: 'x-request-id', value: 'req_123' },
            ],
            content: {
              size: 71,
              mimeType: 'text/event-stream; charset=utf-8',
              text: 'data: {"choices":[{"index":0,"delta":{"content":"H"}}]}\n\ndata: [DONE]\n\n',
            },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
          cache: {},
          timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 120, receive: 30.25 },
          _deltascope: { chunks: [{ t: 120, bytes: 57 }, { t: 150.25, bytes: 14 }] },
          comment: 'Redacted by Deltascope: url key; request header Authorization; request header openai-organization; response header set-cookie',
        }],
      },
    })
    expect(toHar([input], { includeCredentials: true }).log).not.toHaveProperty('comment')
  })

  it('writes a body that is not UTF-8 as base64', () => {
    const bytes = new Uint8Array([...utf8Encode('data: "a'), 0xfe, ...utf8Encode('"\n\n')])
    const entry = toHar([{ request: request(), chunks: [{ data: bytes, t: null }] }]).log.entries[0]!
    expect(entry.response.content).toEqual({ size: 12, mimeType: 'text/event-stream; charset=utf-8', text: base64Encode(bytes), encoding: 'base64' })
    expect(entry).not.toHaveProperty('_deltascope') // one chunk, no time: nothing to add
    expect(entry.timings).toEqual({ blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 })
  })
})

describe('HAR round trip: toHar → JSON → parseHar', () => {
  const inputs = [...SAMPLES.map((n) => sampleInput(n)), unicodeInput()]
  inputs.push({ request: request({ id: 'raw', status: null, contentType: null, requestBody: null, method: 'GET', responseHeaders: [] }), chunks: [{ data: text('broken.sse'), t: null }] })

  it('gives back the same requests, bodies and timed chunks', () => {
    const json = JSON.stringify(toHar(inputs, { includeCredentials: true }), null, 2)
    const back = parseHar(json)
    expect(back.total).toBe(inputs.length)
    expect(back.warnings).toEqual([])
    expect(back.entries.map((e) => e.index)).toEqual(inputs.map((_, i) => i))
    back.entries.forEach((e, i) => {
      const input = inputs[i]!
      expect(e.request).toEqual({ ...input.request, id: `har-${i}`, source: 'import' })
      const whole = new Uint8Array(input.chunks.flatMap((c) => [...(typeof c.data === 'string' ? utf8Encode(c.data) : c.data)]))
      expect(typeof e.body === 'string' ? utf8Encode(e.body) : e.body).toEqual(whole)
      if (input.chunks.length > 1) {
        expect(e.chunks!.map((c) => c.t)).toEqual(input.chunks.map((c) => c.t))
        expect(e.chunks!.map((c) => (typeof c.data === 'string' ? utf8Encode(c.data) : c.data))).toEqual(input.chunks.map((c) => c.data))
      } else {
        expect(e.chunks).toBeUndefined()
      }
    })
  })

  it('chunks come back as text when each is whole UTF-8, else all as bytes', () => {
    const back = parseHar(JSON.stringify(toHar([sampleInput('ollama.ndjson'), unicodeInput()])))
    expect(back.entries[0]!.chunks!.every((c) => typeof c.data === 'string')).toBe(true)
    expect(back.entries[1]!.chunks!.every((c) => c.data instanceof Uint8Array)).toBe(true)
  })

  it('redacted by default, and the body still merges to the same Reply', () => {
    const back = parseHar(JSON.stringify(toHar(inputs)))
    const gemini = back.entries[3]!
    expect(gemini.request.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=[REDACTED]')
    expect(gemini.request.requestHeaders[0]).toEqual({ name: 'Authorization', value: '[REDACTED]' })
    for (const [i, e] of back.entries.entries()) {
      const input = inputs[i]!
      const opts = input.request.contentType ? { contentType: input.request.contentType } : {}
      expect(merge(e.body, { ...opts, url: e.request.url })).toEqual(merge(sampleOf(input), { ...opts, url: input.request.url }))
    }
  })

  it('ignores _deltascope chunk sizes that do not add up to the body', () => {
    const har = toHar([sampleInput('ollama.ndjson')])
    har.log.entries[0]!._deltascope!.chunks[0]!.bytes += 1
    const back = parseHar(har)
    expect(back.entries[0]!.chunks).toBeUndefined()
    expect(back.entries[0]!.body).toBe(text('ollama.ndjson'))
  })
})

function sampleOf(input: Recording): Uint8Array {
  return new Uint8Array(input.chunks.flatMap((c) => [...(typeof c.data === 'string' ? utf8Encode(c.data) : c.data)]))
}

// ---------------------------------------------------------------------------
// Browser HARs, written from the shapes Chrome DevTools ("Save all as HAR with content") and
// Firefox ("Save All As HAR") produce.

function chromeHar(): unknown {
  const page = 'page_1'
  const common = (resourceType: string, startedDateTime: string) => ({
    _connectionId: '873645',
    _initiator: { type: 'script', stack: { callFrames: [{ functionName: 'send', scriptId: '12', url: 'http://localhost:5173/src/chat.ts', lineNumber: 41, columnNumber: 12 }] } },
    _priority: 'High',
    _resourceType: resourceType,
    cache: {},
    connection: '443',
    pageref: page,
    serverIPAddress: '[2606:4700::6810:7b60]',
    startedDateTime,
    time: 1843.211,
    timings: { blocked: 2.114, dns: -1, ssl: -1, connect: -1, send: 0.316, wait: 412.5, receive: 1428.281, _blocked_queueing: 1.402, _workerStart: -1, _workerReady: -1, _workerFetchStart: -1, _workerRespondWithSettled: -1 },
  })
  const h2Request = (path: string) => [
    { name: ':authority', value: 'api.openai.com' },
    { name: ':method', value: 'POST' },
    { name: ':path', value: path },
    { name: ':scheme', value: 'https' },
    { name: 'accept', value: 'text/event-stream' },
    { name: 'accept-encoding', value: 'gzip, deflate, br, zstd' },
    { name: 'authorization', value: 'Bearer sk-proj-chrome' },
    { name: 'content-type', value: 'application/json' },
  ]
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ startedDateTime: '2025-03-04T10:00:00.000Z', id: page, title: 'http://localhost:5173/', pageTimings: { onContentLoad: 212.4, onLoad: 310.9 } }],
      entries: [
        { // 0: the page itself: not a stream
          ...common('document', '2025-03-04T10:00:00.000Z'),
          request: { method: 'GET', url: 'http://localhost:5173/', httpVersion: 'http/1.1', headers: [{ name: 'Accept', value: 'text/html' }], queryString: [], cookies: [], headersSize: 402, bodySize: 0 },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'text/html' }], cookies: [], content: { size: 58, mimeType: 'text/html', text: '<!doctype html><title>Chat</title><div id="app"></div>' }, redirectURL: '', headersSize: 180, bodySize: 58, _transferSize: 238, _error: null, _fetchedViaServiceWorker: false },
        },
        { // 1: OpenAI chat over fetch, text/event-stream (Chrome's mimeType has no parameters; the header has the charset)
          ...common('fetch', '2025-03-04T10:00:01.250Z'),
          request: {
            method: 'POST', url: 'https://api.openai.com/v1/chat/completions', httpVersion: 'http/2.0', headers: h2Request('/v1/chat/completions'), queryString: [], cookies: [], headersSize: -1, bodySize: 61,
            postData: { mimeType: 'application/json', text: '{"model":"deepseek-reasoner","stream":true,"messages":[]}' },
          },
          response: {
            status: 200, statusText: '', httpVersion: 'http/2.0',
            headers: [{ name: 'content-type', value: 'text/event-stream; charset=utf-8' }, { name: 'openai-processing-ms', value: '203' }, { name: 'set-cookie', value: '__cf_bm=abc; HttpOnly' }],
            cookies: [], content: { size: sampleBytes('openai-chat.sse').length, mimeType: 'text/event-stream', compression: 1800, text: text('openai-chat.sse') },
            redirectURL: '', headersSize: -1, bodySize: -1, _transferSize: 2100, _error: null, _fetchedViaServiceWorker: false,
          },
        },
        { // 2: a JSON API call: one JSON document is not NDJSON
          ...common('xhr', '2025-03-04T10:00:01.300Z'),
          request: { method: 'GET', url: 'http://localhost:5173/api/models', httpVersion: 'http/1.1', headers: [], queryString: [], cookies: [], headersSize: 120, bodySize: 0 },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }], cookies: [], content: { size: 44, mimeType: 'application/json', text: '{\n  "data": [{"id": "gpt-4o"}],\n  "object": "list"\n}' }, redirectURL: '', headersSize: 90, bodySize: 44, _transferSize: 134, _error: null },
        },
        { // 3: Ollama served as application/octet-stream: Chrome saves it base64
          ...common('fetch', '2025-03-04T10:00:02.000Z'),
          request: { method: 'POST', url: 'http://127.0.0.1:11434/api/chat', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }], queryString: [], cookies: [], headersSize: 210, bodySize: 40, postData: { mimeType: 'application/json', text: '{"model":"qwen3:8b","messages":[]}' } },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'application/octet-stream' }, { name: 'Transfer-Encoding', value: 'chunked' }], cookies: [], content: { size: sampleBytes('ollama.ndjson').length, mimeType: 'application/octet-stream', text: base64Encode(sampleBytes('ollama.ndjson')), encoding: 'base64' }, redirectURL: '', headersSize: 120, bodySize: 2000, _transferSize: 2120, _error: null },
        },
        { // 4: EventSource: Chrome leaves the body out
          ...common('eventsource', '2025-03-04T10:00:03.000Z'),
          request: { method: 'GET', url: 'http://localhost:5173/events', httpVersion: 'http/1.1', headers: [{ name: 'Accept', value: 'text/event-stream' }], queryString: [], cookies: [], headersSize: 150, bodySize: 0 },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'text/event-stream' }], cookies: [], content: { size: 0, mimeType: 'text/event-stream' }, redirectURL: '', headersSize: 100, bodySize: -1, _transferSize: 100, _error: 'net::ERR_ABORTED' },
        },
        { // 5: an Anthropic stream relayed by a backend as text/plain: found by sniffing
          ...common('fetch', '2025-03-04T10:00:04.000Z'),
          request: { method: 'POST', url: 'http://localhost:5173/api/chat', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Cookie', value: 'sid=s3cr3t' }], queryString: [], cookies: [{ name: 'sid', value: 's3cr3t' }], headersSize: 300, bodySize: 20, postData: { mimeType: 'application/json', text: '{"prompt":"weather"}' } },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'text/plain;charset=UTF-8' }], cookies: [], content: { size: sampleBytes('anthropic.sse').length, mimeType: 'text/plain', text: text('anthropic.sse') }, redirectURL: '', headersSize: 120, bodySize: 4000, _transferSize: 4120, _error: null },
        },
        { // 6: a script
          ...common('script', '2025-03-04T10:00:00.100Z'),
          request: { method: 'GET', url: 'http://localhost:5173/src/chat.ts', httpVersion: 'http/1.1', headers: [], queryString: [], cookies: [], headersSize: 100, bodySize: 0 },
          response: { status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'Content-Type', value: 'text/javascript' }], cookies: [], content: { size: 30, mimeType: 'text/javascript', text: 'export const id = 1; data: 2' }, redirectURL: '', headersSize: 100, bodySize: 30, _transferSize: 130, _error: null },
        },
      ],
    },
  }
}

function firefoxHar(): unknown {
  const entry = (startedDateTime: string, request: object, response: object) => ({
    pageref: 'page_1',
    startedDateTime,
    request,
    response,
    cache: {},
    timings: { blocked: 0, dns: 0, connect: 0, ssl: 0, send: 0, wait: 151, receive: 903 },
    time: 1054,
    _securityState: 'secure',
    serverIPAddress: '160.79.104.10',
    connection: '443',
  })
  const req = (method: string, url: string, headers: object[], postData?: object) => ({
    bodySize: postData ? 120 : 0, method, url, httpVersion: 'HTTP/2', headers, cookies: [], queryString: [], headersSize: 612, ...(postData ? { postData } : {}),
  })
  const res = (status: number, headers: object[], content: object) => ({
    status, statusText: status === 200 ? 'OK' : '', httpVersion: 'HTTP/2', headers, cookies: [], content, redirectURL: '', headersSize: 345, bodySize: 1500,
  })
  const anthropic = sampleBytes('anthropic.sse')
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  return {
    log: {
      version: '1.2',
      creator: { name: 'Firefox', version: '153.0' },
      browser: { name: 'Firefox', version: '153.0' },
      pages: [{ startedDateTime: '2025-03-04T11:00:00.000+01:00', id: 'page_1', title: 'Chat', pageTimings: { onContentLoad: -1, onLoad: -1 } }],
      entries: [
        entry('2025-03-04T11:00:00.000+01:00', req('GET', 'http://localhost:5173/', [{ name: 'Host', value: 'localhost:5173' }]),
          res(200, [{ name: 'Content-Type', value: 'text/html' }], { mimeType: 'text/html', size: 20, text: '<!doctype html><p>hi' })),
        // Anthropic over fetch: Firefox keeps the SSE text, with the charset in mimeType
        entry('2025-03-04T11:00:01.500+01:00',
          req('POST', 'https://api.anthropic.com/v1/messages', [
            { name: 'Host', value: 'api.anthropic.com' }, { name: 'x-api-key', value: 'sk-ant-firefox' }, { name: 'anthropic-version', value: '2023-06-01' }, { name: 'Content-Type', value: 'application/json' },
          ], { mimeType: 'application/json', params: [], text: '{"model":"claude-sonnet-4-5","stream":true}' }),
          res(200, [{ name: 'content-type', value: 'text/event-stream; charset=utf-8' }, { name: 'request-id', value: 'req_011' }],
            { mimeType: 'text/event-stream; charset=utf-8', size: anthropic.length, text: text('anthropic.sse') })),
        // Gemini without alt=sse: a JSON array streamed as application/json
        entry('2025-03-04T11:00:02.000+01:00',
          req('POST', 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?key=AIza-ff', [{ name: 'Content-Type', value: 'application/json' }], { mimeType: 'application/json', params: [], text: '{}' }),
          res(200, [{ name: 'Content-Type', value: 'application/json; charset=UTF-8' }], { mimeType: 'application/json; charset=UTF-8', size: GEMINI_ARRAY.length, text: GEMINI_ARRAY })),
        // an image, base64: skipped
        entry('2025-03-04T11:00:02.100+01:00', req('GET', 'http://localhost:5173/logo.png', []),
          res(200, [{ name: 'Content-Type', value: 'image/png' }], { mimeType: 'image/png', size: png.length, encoding: 'base64', text: base64Encode(png) })),
        // Ollama NDJSON saved base64
        entry('2025-03-04T11:00:03.000+01:00',
          req('POST', 'http://127.0.0.1:11434/api/chat', [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }], { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'model', value: 'qwen3:8b' }, { name: 'q', value: 'a b&c' }] }),
          res(200, [{ name: 'Content-Type', value: 'application/x-ndjson' }], { mimeType: 'application/x-ndjson', size: sampleBytes('ollama.ndjson').length, encoding: 'base64', text: base64Encode(sampleBytes('ollama.ndjson')) })),
        // a plain JSON POST: skipped
        entry('2025-03-04T11:00:04.000+01:00', req('POST', 'http://localhost:5173/api/feedback', [], { mimeType: 'application/json', params: [], text: '{"ok":1}' }),
          res(204, [], { mimeType: 'application/json', size: 11, text: '{"ok":true}' })),
        // an SSE body cut at Firefox's response body limit
        entry('2025-03-04T11:00:05.000+01:00', req('POST', 'https://api.openai.com/v1/responses', []),
          res(200, [{ name: 'content-type', value: 'text/event-stream' }], { mimeType: 'text/event-stream', size: 2_000_000, text: text('openai-responses.sse') })),
      ],
    },
  }
}

describe('parseHar: Chrome', () => {
  const har = parseHar(JSON.stringify(chromeHar()))

  it('lists the streaming entries only', () => {
    expect(har.total).toBe(7)
    expect(har.entries.map((e) => e.index)).toEqual([1, 3, 5])
    expect(har.warnings).toEqual([
      'entry 4 (GET http://localhost:5173/events): a EventSource response without its body in the HAR (content.text missing; Chrome leaves EventSource bodies out), skipped',
    ])
  })

  it('reads requests with their headers, body, status, content type and start', () => {
    expect(har.entries[0]!.request).toEqual({
      id: 'har-1',
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      status: 200,
      requestHeaders: [
        { name: ':authority', value: 'api.openai.com' },
        { name: ':method', value: 'POST' },
        { name: ':path', value: '/v1/chat/completions' },
        { name: ':scheme', value: 'https' },
        { name: 'accept', value: 'text/event-stream' },
        { name: 'accept-encoding', value: 'gzip, deflate, br, zstd' },
        { name: 'authorization', value: 'Bearer sk-proj-chrome' },
        { name: 'content-type', value: 'application/json' },
      ],
      responseHeaders: [
        { name: 'content-type', value: 'text/event-stream; charset=utf-8' },
        { name: 'openai-processing-ms', value: '203' },
        { name: 'set-cookie', value: '__cf_bm=abc; HttpOnly' },
      ],
      requestBody: '{"model":"deepseek-reasoner","stream":true,"messages":[]}',
      contentType: 'text/event-stream; charset=utf-8',
      startedAt: Date.UTC(2025, 2, 4, 10, 0, 1, 250),
      source: 'import',
    })
    expect(har.entries[0]!.body).toBe(text('openai-chat.sse'))
  })

  it('decodes a base64 body to bytes and finds NDJSON by sniffing', () => {
    const e = har.entries[1]!
    expect(e.body).toEqual(sampleBytes('ollama.ndjson'))
    expect(e.request.contentType).toBe('application/octet-stream')
    expect(merge(e.body, { url: e.request.url }).provider).toBe('ollama')
  })

  it('finds SSE sent as text/plain by sniffing', () => {
    const e = har.entries[2]!
    expect(e.request.contentType).toBe('text/plain;charset=UTF-8')
    expect(merge(e.body).provider).toBe('anthropic')
  })

  it('ids follow the prefix and the source can be set', () => {
    const again = parseHar(chromeHar(), { idPrefix: 'x', source: 'har' })
    expect(again.entries.map((e) => [e.request.id, e.request.source])).toEqual([['x-1', 'har'], ['x-3', 'har'], ['x-5', 'har']])
  })
})

describe('parseHar: Firefox', () => {
  const har = parseHar(JSON.stringify(firefoxHar()))

  it('lists the streaming entries only, and says which body was cut', () => {
    expect(har.total).toBe(7)
    expect(har.entries.map((e) => e.index)).toEqual([1, 2, 4, 6])
    expect(har.warnings).toEqual([
      `entry 6 (POST https://api.openai.com/v1/responses): the HAR holds ${sampleBytes('openai-responses.sse').length} of the body's 2000000 bytes: the body was cut when the HAR was saved`,
    ])
  })

  it('reads the SSE text, a time with a zone offset, and the headers', () => {
    const e = har.entries[0]!
    expect(e.body).toBe(text('anthropic.sse'))
    expect(e.request.startedAt).toBe(Date.UTC(2025, 2, 4, 10, 0, 1, 500))
    expect(e.request.contentType).toBe('text/event-stream; charset=utf-8')
    expect(e.request.requestHeaders[1]).toEqual({ name: 'x-api-key', value: 'sk-ant-firefox' })
    expect(e.request.requestBody).toBe('{"model":"claude-sonnet-4-5","stream":true}')
    expect(merge(e.body, { contentType: e.request.contentType!, url: e.request.url })).toEqual(merge(sampleBytes('anthropic.sse')))
  })

  it("takes Gemini's JSON array stream", () => {
    const e = har.entries[1]!
    expect(e.body).toBe(GEMINI_ARRAY)
    const reply = merge(e.body, { contentType: e.request.contentType!, url: e.request.url })
    expect([reply.transport, reply.provider, reply.choices[0]!.content]).toEqual(['json', 'gemini', 'Bonjour le monde !'])
  })

  it('decodes base64 NDJSON and rebuilds a form body from params', () => {
    const e = har.entries[2]!
    expect(e.body).toEqual(sampleBytes('ollama.ndjson'))
    expect(e.request.requestBody).toBe('model=qwen3%3A8b&q=a%20b%26c')
  })
})

describe('parseHar: errors and edge cases', () => {
  const table: Array<[string, unknown, string]> = [
    ['not JSON', '{"log": [', 'Not a HAR file: the text is not JSON ('],
    ['an array', '[]', 'Not a HAR file: expected a JSON object with a "log", got an array'],
    ['a number', '42', 'Not a HAR file: expected a JSON object with a "log", got number'],
    ['no log', '{"entries": [], "version": "1.2"}', 'Not a HAR file: no "log" object at the top level (found keys "entries", "version")'],
    ['an empty object', '{}', 'Not a HAR file: no "log" object at the top level (found an empty object)'],
    ['no entries', '{"log": {"version": "1.2"}}', 'Not a HAR file: log.entries is missing'],
    ['entries not a list', '{"log": {"entries": {}}}', 'Not a HAR file: log.entries is not an array'],
    ['a fixture', '{"format": "deltascope-fixture", "version": 1}', 'Not a HAR file: this is a Deltascope fixture (import it as such)'],
  ]
  for (const [what, input, message] of table) {
    it(what, () => {
      expect(() => parseHar(input)).toThrow(HarError)
      try {
        parseHar(input)
      } catch (e) {
        expect((e as Error).message.startsWith(message), (e as Error).message).toBe(true)
      }
    })
  }

  it('skips broken entries with a warning and reads the rest', () => {
    const har = { log: { entries: [null, { request: {} }, ...(chromeHar() as { log: { entries: unknown[] } }).log.entries.slice(1, 2)] } }
    const out = parseHar(har)
    expect(out.entries.map((e) => e.index)).toEqual([2])
    expect(out.warnings).toEqual(['entry 0: no request or response object, skipped', 'entry 1: no request or response object, skipped'])
  })

  it('warns about bad base64 and an empty stream body', () => {
    const entry = (content: object) => ({ startedDateTime: 'nonsense', request: { method: 'GET', url: 'https://x.test/s' }, response: { status: 0, headers: [], content } })
    const out = parseHar({ log: { entries: [entry({ mimeType: 'text/event-stream', text: '!!', encoding: 'base64' }), entry({ mimeType: 'text/event-stream', text: '' })] } })
    expect(out.entries).toEqual([])
    expect(out.warnings).toEqual([
      'entry 0 (GET https://x.test/s): content.text is not valid base64 (invalid base64: unexpected "!" at position 0), skipped',
      'entry 1 (GET https://x.test/s): the body in the HAR is empty, skipped',
    ])
  })

})
