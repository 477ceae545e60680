import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import type { CaptureEvent, CapturedRequest } from '../../src/exchange/types.js'
import { createMerger, merge } from '../../src/index.js'
import type { Reply } from '../../src/index.js'
import { utf8Encode } from '../../src/exchange/bytes.js'
import { fixtureToJson, toFixture } from '../../src/exchange/fixture.js'
import { toHar } from '../../src/exchange/har.js'
import { importBytes, importText, importToEvents, type ImportResult } from '../../src/exchange/import.js'
import { SAMPLES, STARTED_AT, sampleBytes, sampleInput, unicodeInput } from './support.js'
import { concatBytes, envelope } from '../support/connect.js'

const NOW = Date.UTC(2025, 5, 1)
const text = (name: string) => new TextDecoder().decode(sampleBytes(name))

/** What a panel store does with the events: one merger per request. */
function apply(events: CaptureEvent[]): { requests: CapturedRequest[]; replies: Map<string, Reply>; notes: string[]; times: Map<string, Array<number | null>> } {
  const mergers = new Map<string, ReturnType<typeof createMerger>>()
  const requests: CapturedRequest[] = []
  const replies = new Map<string, Reply>()
  const times = new Map<string, Array<number | null>>()
  const notes: string[] = []
  for (const e of events) {
    if (e.type === 'request') {
      expect(mergers.has(e.request.id)).toBe(false)
      requests.push(e.request)
      mergers.set(e.request.id, createMerger({ url: e.request.url, ...(e.request.contentType ? { contentType: e.request.contentType } : {}) }))
      times.set(e.request.id, [])
    } else if (e.type === 'chunk') {
      const m = mergers.get(e.id)!
      if (e.t === null) m.push(e.data)
      else m.push(e.data, e.t)
      times.get(e.id)!.push(e.t)
    } else if (e.type === 'finished') replies.set(e.id, mergers.get(e.id)!.end())
    else if (e.type === 'note') notes.push(e.message)
  }
  return { requests, replies, notes, times }
}

function ok(result: ImportResult): Extract<ImportResult, { items: unknown }> {
  if (result.kind === 'error') throw new Error(`unexpected error: ${result.message}`)
  return result
}

describe('importText: fixtures', () => {
  const input = sampleInput('anthropic.sse')
  const fixture = toFixture(input, { exportedAt: '2025-01-02T03:05:00.000Z' })
  const json = fixtureToJson(fixture)

  it('reads the request, the chunks at their absolute times and the expected Reply', () => {
    const result = ok(importText(json, 'chat.deltascope.json', { now: NOW }))
    expect(result.kind).toBe('fixture')
    expect(result.warnings).toEqual([])
    expect(result.items).toHaveLength(1)
    const item = result.items[0]!
    expect(item.request).toEqual({
      ...input.request,
      id: item.request.id,
      source: 'import',
      requestHeaders: fixture.request.headers,
      responseHeaders: fixture.response.headers,
    })
    expect(item.request.id).toMatch(/^import-[0-9a-f]{8}-0$/)
    expect(item.chunks.map((c) => c.t)).toEqual(input.chunks.map((c) => c.t))
    expect(item.expected).toEqual(fixture.expected)
  })

  it('its events rebuild the expected Reply in a store', () => {
    const result = importText(json)
    const store = apply(importToEvents(result))
    const id = ok(result).items[0]!.request.id
    expect(store.replies.get(id)).toEqual(fixture.expected)
    expect(store.times.get(id)).toEqual(input.chunks.map((c) => c.t))
  })

  it('a fixture without meta.startedAt starts at its export time', () => {
    const { startedAt: _, ...meta } = fixture.meta
    const item = ok(importText(JSON.stringify({ ...fixture, meta }))).items[0]!
    expect(item.request.startedAt).toBe(Date.parse('2025-01-02T03:05:00.000Z'))
    expect(item.chunks[0]!.t).toBe(Date.parse('2025-01-02T03:05:00.000Z') + 10)
  })

  it('names the wrong field of a broken fixture', () => {
    const broken = JSON.parse(json)
    broken.chunks[2].t = 'soon'
    expect(importText(JSON.stringify(broken))).toEqual({
      kind: 'error', message: 'chunks[2].t: expected a number (ms since the request started) or null, got "soon"',
    })
    expect(importText(json.slice(0, 200))).toMatchObject({ kind: 'error', message: expect.stringMatching(/^Not a Deltascope fixture: the text is not JSON \(/) })
    expect(importText('{"format":"deltascope-fixture","version":7}')).toEqual({ kind: 'error', message: 'Unsupported fixture version number 7: this Deltascope reads version 1' })
  })

  it('warns when the chunks do not add up to the body', () => {
    const result = ok(importText(JSON.stringify({ ...fixture, body: { text: 'other' } })))
    expect(result.warnings).toEqual(['the chunks do not add up to body: the chunks are replayed, body is ignored'])
  })
})

describe('importText: HAR files', () => {
  it("a Deltascope HAR: every request, with its chunks' times", () => {
    const inputs = SAMPLES.map((n) => sampleInput(n))
    const har = JSON.stringify(toHar(inputs), null, 2)
    const result = ok(importText(har, 'capture.har'))
    expect(result.kind).toBe('har')
    const ids = result.items.map((i) => i.request.id)
    expect(new Set(ids).size).toBe(inputs.length)
    const store = apply(importToEvents(result))
    expect(store.requests.map((r) => r.url)).toEqual(inputs.map((i) => i.request.url.replace('key=AIzaSy-secret', 'key=[REDACTED]')))
    inputs.forEach((input, i) => {
      expect(store.times.get(ids[i]!)).toEqual(input.chunks.map((c) => c.t))
      expect(store.replies.get(ids[i]!)).toEqual(toFixture(input).expected)
    })
  })

  it('a browser HAR: the streaming entries, each body as one chunk of unknown time', () => {
    const entry = (url: string, mimeType: string, body: string) => ({
      startedDateTime: '2025-03-04T10:00:00.000Z', request: { method: 'POST', url, headers: [] }, response: { status: 200, headers: [], content: { mimeType, size: body.length, text: body } },
    })
    const har = JSON.stringify({
      log: {
        version: '1.2', creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          entry('https://x.test/', 'text/html', '<p>'),
          entry('https://api.openai.com/v1/chat/completions', 'text/event-stream', text('openai-chat.sse')),
          entry('https://x.test/api/chat', 'application/x-ndjson', text('ollama.ndjson')),
          entry('https://x.test/events', 'text/event-stream', ''),
        ],
      },
    })
    const result = ok(importText(har))
    expect(result.kind).toBe('har')
    expect(result.items.map((i) => i.request.url)).toEqual(['https://api.openai.com/v1/chat/completions', 'https://x.test/api/chat'])
    expect(result.items[0]!.chunks).toEqual([{ data: text('openai-chat.sse'), t: null }])
    expect(result.warnings).toEqual(['entry 3 (POST https://x.test/events): the body in the HAR is empty, skipped'])
    const events = importToEvents(result)
    expect(events.map((e) => e.type)).toEqual(['note', 'request', 'chunk', 'finished', 'request', 'chunk', 'finished'])
    expect(events[3]).toEqual({ type: 'finished', id: result.items[0]!.request.id, t: null, status: 200 })
  })

  it('says so when a HAR has no streaming entry, or is not a HAR', () => {
    const har = JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 'https://x.test/' }, response: { status: 200, content: { mimeType: 'text/html', text: '<p>' } } }] } })
    expect(importText(har)).toEqual({
      kind: 'error', message: 'No streaming response in this HAR: none of its 1 entries is text/event-stream, NDJSON, or a body that reads as SSE or NDJSON',
    })
    expect(importText('{"log": {"entries": [}', 'x.har')).toMatchObject({ kind: 'error', message: expect.stringMatching(/^Not a HAR file: the text is not JSON \(/) })
    expect(importText('{"log": {"pages": []}}')).toEqual({ kind: 'error', message: 'Not a HAR file: log.entries is missing' })
    expect(importText('{"version": "1.2"}', 'capture.har')).toEqual({ kind: 'error', message: 'Not a HAR file: no "log" object at the top level' })
    expect(importText('data: x\n\n', 'capture.har')).toEqual({ kind: 'error', message: 'Not a HAR file: it does not start with a JSON object' })
  })
})

describe('importText: raw streams', () => {
  it('a pasted SSE stream', () => {
    const result = importText(text('openai-chat.sse'), undefined, { now: NOW })
    expect(result).toEqual({
      kind: 'stream',
      items: [{
        request: {
          id: expect.stringMatching(/^import-[0-9a-f]{8}-0$/), method: '', url: '', status: null, requestHeaders: [], responseHeaders: [],
          requestBody: null, contentType: null, startedAt: NOW, source: 'paste',
        },
        chunks: [{ data: text('openai-chat.sse'), t: null }],
      }],
      warnings: [],
    })
    const store = apply(importToEvents(result))
    expect([...store.replies.values()]).toEqual([merge(sampleBytes('openai-chat.sse'))])
  })

  it('files: the extension gives the type', () => {
    const nd = ok(importText(text('ollama.ndjson'), 'ollama.ndjson'))
    expect(nd.items[0]!.request).toMatchObject({ url: 'ollama.ndjson', contentType: 'application/x-ndjson', source: 'import' })
    expect(ok(importText(text('ollama.ndjson'), 'x.jsonl')).items[0]!.request.contentType).toBe('application/jsonl')
    expect(ok(importText(text('anthropic.sse'), 'a.sse')).items[0]!.request.contentType).toBe('text/event-stream')
    expect(ok(importText(text('anthropic.sse'), 'a.txt')).items[0]!.request.contentType).toBeNull()
    // NDJSON starts with "{" but is not one JSON document: a stream
    expect(nd.kind).toBe('stream')
    // a Gemini JSON-array body
    const arr = ok(importText('[{"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"index":0}]}]', 'gemini.json'))
    expect(arr.kind).toBe('stream')
    expect(arr.warnings).toEqual([])
  })

  it('a single JSON object that is neither HAR nor fixture is a one-line stream', () => {
    const result = ok(importText('{"model":"qwen3","message":{"role":"assistant","content":"hi"},"done":true}'))
    expect(result.kind).toBe('stream')
    expect(merge(result.items[0]!.chunks[0]!.data as string).choices[0]!.content).toBe('hi')
  })

  it('curl -i output: the status line and headers are read, 1xx skipped', () => {
    const body = text('anthropic.sse')
    const result = ok(importText(`HTTP/1.1 100 Continue\r\n\r\nHTTP/2 200 \r\ncontent-type: text/event-stream; charset=utf-8\r\nrequest-id: req_1\r\n\r\n${body}`))
    expect(result.items[0]!.request).toMatchObject({
      status: 200,
      contentType: 'text/event-stream; charset=utf-8',
      responseHeaders: [{ name: 'content-type', value: 'text/event-stream; charset=utf-8' }, { name: 'request-id', value: 'req_1' }],
    })
    expect(result.items[0]!.chunks).toEqual([{ data: body, t: null }])
    expect(result.warnings).toEqual(['read the HTTP status line and 2 headers before the body'])
    expect(importText('HTTP/1.1 204 No Content\n\n')).toEqual({ kind: 'error', message: 'Nothing to import: the response has no body' })
  })

  it('text that is no stream still imports, with a warning', () => {
    const result = ok(importText('hello world\nthis is prose'))
    expect(result.warnings).toEqual(['this does not look like SSE, NDJSON or a JSON array: not SSE, NDJSON or a JSON array: the first line is "hello world"'])
  })

  it('empty input is an error', () => {
    expect(importText('')).toEqual({ kind: 'error', message: 'Nothing to import: the text is empty' })
    expect(importText(' \n\t', 'x.sse')).toEqual({ kind: 'error', message: 'Nothing to import: x.sse is empty' })
  })
})

describe('ids', () => {
  it('are stable for the same input and differ between inputs', () => {
    const id = (t: string, f?: string) => ok(importText(t, f)).items[0]!.request.id
    expect(id(text('anthropic.sse'))).toBe(id(text('anthropic.sse')))
    expect(id(text('anthropic.sse'))).not.toBe(id(text('openai-chat.sse')))
    expect(id(text('anthropic.sse'), 'a.sse')).not.toBe(id(text('anthropic.sse'), 'b.sse'))
    expect(ok(importText(text('anthropic.sse'), undefined, { idPrefix: 'paste-3' })).items[0]!.request.id).toBe('paste-3-0')
  })

  it('importToEvents gives the same events twice', () => {
    const result = importText(JSON.stringify(toHar(SAMPLES.map((n) => sampleInput(n)))))
    expect(importToEvents(result)).toEqual(importToEvents(result))
  })
})

describe('importToEvents', () => {
  it('an error becomes one warning note', () => {
    expect(importToEvents({ kind: 'error', message: 'bad' })).toEqual([{ type: 'note', level: 'warning', message: 'bad' }])
  })

  it('slices big bodies for a store that works in slices, and they still merge the same', () => {
    const input = unicodeInput()
    const fixture = toFixture(input)
    const result = importText(fixtureToJson(fixture))
    const events = importToEvents(result, { maxChunkSize: 3 })
    const chunks = events.filter((e) => e.type === 'chunk')
    expect(chunks.length).toBeGreaterThan(input.chunks.length)
    expect(chunks.every((c) => c.type === 'chunk' && c.data.length <= 3)).toBe(true)
    expect([...apply(events).replies.values()]).toEqual([fixture.expected])

    const pasted = importToEvents(importText('data: {"choices":[{"index":0,"delta":{"content":"🌍🌍"}}]}\n\n'), { maxChunkSize: 1 })
    const strings = pasted.flatMap((e) => (e.type === 'chunk' ? [e.data as string] : []))
    expect(strings.join('')).toBe('data: {"choices":[{"index":0,"delta":{"content":"🌍🌍"}}]}\n\n')
    expect(strings.filter((s) => s.length === 2)).toEqual(['🌍', '🌍']) // a surrogate pair is never split
  })

  it('finished carries the last known time and the status', () => {
    const events = importToEvents(importText(fixtureToJson(toFixture(sampleInput('ollama.ndjson')))))
    const last = sampleInput('ollama.ndjson').chunks.at(-1)!.t
    expect(events.at(-1)).toMatchObject({ type: 'finished', t: last, status: 200 })
    expect(events[0]).toMatchObject({ type: 'request', request: { startedAt: STARTED_AT } })
  })
})

describe('importBytes', () => {
  it('keeps the exact bytes of a stream that is not UTF-8', () => {
    const bytes = new Uint8Array([...utf8Encode('data: {"choices":[{"index":0,"delta":{"content":"a'), 0xff, ...utf8Encode('"}}]}\n\n')])
    const result = ok(importBytes(bytes, 'x.sse', { now: NOW }))
    expect(result.items[0]!.chunks).toEqual([{ data: bytes, t: null }])
    expect(result.items[0]!.request).toMatchObject({ url: 'x.sse', contentType: 'text/event-stream', source: 'import' })
    expect(result.warnings).toEqual(['the file is not valid UTF-8: its bytes are read as they are (invalid sequences show as U+FFFD)'])
    expect(importBytes(bytes, 'x.har')).toEqual({ kind: 'error', message: 'Not a HAR file: it is not UTF-8 text' })
  })

  it('reads UTF-8 files like importText', () => {
    const bytes = utf8Encode(fixtureToJson(toFixture(sampleInput('gemini.sse'))))
    expect(importBytes(bytes, 'f.json')).toEqual(importText(new TextDecoder().decode(bytes), 'f.json'))
  })
})

describe('importBytes: a Bedrock body (.bin)', () => {
  it('keeps an AWS event stream as its bytes, with its Content-Type, and it merges as Bedrock', () => {
    const body = new Uint8Array(readFileSync(new URL('../fixtures/bedrock/text-end-turn.bin', import.meta.url)))
    const result = ok(importBytes(body, 'converse.bin', { now: NOW }))
    const item = result.items[0]!
    expect([result.warnings, item.request.contentType, item.chunks[0]!.data]).toEqual([[], 'application/vnd.amazon.eventstream', body])
    expect(merge(body, { contentType: item.request.contentType! }).provider).toBe('bedrock')
  })
})

describe('importBytes: a Connect body (.bin)', () => {
  it('keeps a Connect stream as its bytes, named application/connect+json, even when its bytes are valid UTF-8', () => {
    const body = concatBytes(envelope('{"op":"append","mask":"block.text.content","block":{"id":"0_0","text":{"content":"Hi"}}}'), envelope('{}', 2))
    const result = ok(importBytes(body, 'chat.bin', { now: NOW }))
    const item = result.items[0]!
    expect([result.warnings, item.request.contentType, item.chunks[0]!.data]).toEqual([[], 'application/connect+json', body])
    expect(merge(body, { contentType: item.request.contentType! }).transport).toBe('connect')
  })
})
