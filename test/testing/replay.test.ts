// deltascope/testing's replay: a fixture's recorded response as a fetch Response whose body
// yields exactly the recorded network chunks, byte for byte, at once or at their recorded pace.

import { describe, expect, it } from 'vitest'
import { FixtureError, fixtureToJson, toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { parseFixture, replayResponse, replayStream } from '../../src/testing.js'
import { at, cutAt, fixtureOf, wire } from '../debug/compare-support.js'
import { recording } from '../support/requests.js'

const DEMO = 'openai-chat/demo-reasoning-parallel-tools.sse'
const STARTED_AT = 1_750_000_000_000

/** A fixture of three small chunks arriving `times` ms after the request started. */
function timed(times: readonly number[], headers = [{ name: 'content-type', value: 'text/event-stream' }]): Fixture {
  const pieces = ['data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"A"}}]}\n\n', 'data: {"choices":[{"index":0,"delta":{"content":"B"},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n']
  const reads = pieces.map((data, i) => [data, times[i]!] as const)
  return toFixture(recording(reads, { id: 'r', responseHeaders: headers, startedAt: STARTED_AT, source: 'live' }), { exportedAt: '2025-06-15T00:00:00.000Z' })
}

/** Every read of the body, with the ms since `start` at which it came. */
async function readAll(body: ReadableStream<Uint8Array>, start = performance.now()): Promise<Array<{ bytes: Uint8Array; ms: number }>> {
  const out: Array<{ bytes: Uint8Array; ms: number }> = []
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push({ bytes: value, ms: performance.now() - start })
  }
}

describe('replayResponse', () => {
  it('has the recorded status and headers, and yields the recorded chunks in order, byte for byte', async () => {
    const bytes = wire(DEMO)
    const reads = cutAt(bytes, [500, at(bytes, '☀') + 1, at(bytes, '☀') + 3])
    const fixture = fixtureOf(DEMO, reads)
    expect(fixture.chunks.map((c) => ('base64' in c ? 'base64' : 'text'))).toEqual(['text', 'base64', 'base64', 'text'])
    const response = replayResponse(fixture)
    expect(response.status).toBe(200)
    expect([...response.headers]).toEqual([['content-type', 'text/event-stream; charset=utf-8'], ['x-request-id', 'req_1']])
    expect((await readAll(response.body!)).map((r) => r.bytes)).toEqual(reads)
  })

  it('drops the wire\'s content-encoding and content-length (the recorded body is decoded), and headers fetch refuses', async () => {
    const fixture = timed([1, 2, 3], [
      { name: 'Content-Type', value: 'text/event-stream' }, { name: 'Content-Encoding', value: 'gzip' },
      { name: 'content-length', value: '12' }, { name: ':status', value: '200' }, { name: 'cache-control', value: 'no-cache' },
    ])
    const response = replayResponse(fixture)
    expect([...response.headers]).toEqual([['cache-control', 'no-cache'], ['content-type', 'text/event-stream']])
    expect(await response.text()).toBe(fixture.body.text)
  })

  it('takes the Content-Type from the response when no header carries it, and 200 when no status was recorded', async () => {
    const fixture = { ...timed([1, 2, 3], []), response: { status: null, headers: [], contentType: 'application/x-ndjson' } }
    const response = replayResponse(fixture)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-ndjson')
  })

  it('a recorded error status is replayed with its body; a 204 has none', async () => {
    const failed = { ...timed([1, 2, 3]), response: { status: 429, headers: [], contentType: null } }
    expect(replayResponse(failed).status).toBe(429)
    expect(await replayResponse(failed).text()).toBe(failed.body.text)
    const empty = { ...timed([1, 2, 3]), response: { status: 204, headers: [], contentType: null } }
    expect(replayResponse(empty).body).toBeNull()
  })

  it('a fixture without chunks replays its body as one chunk (the exact bytes when it is not valid UTF-8)', async () => {
    const fixture = { ...fixtureOf(DEMO), chunks: [] }
    expect((await readAll(replayResponse(fixture).body!)).map((r) => r.bytes)).toEqual([wire(DEMO)])
    const invalid = parseFixture({ ...fixture, body: { text: 'a\ufffdb', base64: 'Yf9i' } })
    expect((await readAll(replayResponse(invalid).body!)).map((r) => [...r.bytes])).toEqual([[0x61, 0xff, 0x62]])
  })

  it('reads the fixture\'s JSON text, and throws FixtureError on one that does not parse', async () => {
    const fixture = fixtureOf(DEMO)
    expect(await replayResponse(fixtureToJson(fixture)).text()).toBe(fixture.body.text)
    expect(() => replayResponse('{"format":"deltascope-fixture","version":2}')).toThrow(FixtureError)
  })

  it('each call is a new Response: a body is read once, the fixture any number of times', async () => {
    const fixture = timed([1, 2, 3])
    const texts = await Promise.all([replayResponse(fixture).text(), replayResponse(fixture).text()])
    expect(texts).toEqual([fixture.body.text, fixture.body.text])
  })
})

describe('replayStream timing', () => {
  const fixture = timed([150, 300, 450])

  it('speed 0 (the default) does not wait', async () => {
    const reads = await readAll(replayStream(fixture))
    expect(reads.length).toBe(3)
    expect(reads[2]!.ms).toBeLessThan(100)
  })

  it('speed 1 delivers each chunk at its recorded time since the request started, the first byte\'s wait included', async () => {
    const start = performance.now()
    const reads = await readAll(replayResponse(fixture, { speed: 1 }).body!, start)
    expect(reads.map((r, i) => r.ms >= [150, 300, 450][i]!)).toEqual([true, true, true])
  })

  it('speed 2 delivers them twice as fast', async () => {
    const start = performance.now()
    const reads = await readAll(replayStream(fixture, { speed: 2 }), start)
    expect(reads.map((r, i) => r.ms >= [75, 150, 225][i]!)).toEqual([true, true, true])
    expect(reads[2]!.ms).toBeLessThan(450)
  })

  it('cancelling the body stops the wait at once', async () => {
    const reader = replayStream(fixture, { speed: 1 }).getReader()
    await reader.read()
    const start = performance.now()
    await reader.cancel()
    expect(performance.now() - start).toBeLessThan(100)
  })

  it('an aborted signal errors the body with its reason, as an aborted fetch does', async () => {
    const controller = new AbortController()
    const reader = replayStream(fixture, { speed: 1, signal: controller.signal }).getReader()
    await reader.read()
    const next = reader.read()
    controller.abort(new Error('user aborted'))
    await expect(next).rejects.toThrow('user aborted')
  })
})
