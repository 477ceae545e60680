// The demo server replays fixtures through real HTTP: what a client receives must merge to
// each fixture's expected Reply, and the broken / cut switches must do exactly that.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import { ENDPOINTS } from '../../demo/scenarios.js'
import { startDemoServer, type DemoServer } from '../../demo/server.js'
import { networkChunks, splitFrames } from '../../demo/wire.js'

let server: DemoServer
beforeAll(async () => { server = await startDemoServer() })
afterAll(async () => { await server.close() })

function expected(provider: string, fixture: string) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${provider}/${fixture}.expected.json`, import.meta.url), 'utf8'))
}

/** Reads a response body chunk by chunk, as a streaming client does. */
async function mergeResponse(res: Response, url: string) {
  const m = createMerger({ contentType: res.headers.get('content-type') ?? undefined, url })
  const reader = res.body!.getReader()
  const chunks: Uint8Array[] = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    m.push(value)
  }
  return { reply: m.end(), body: Buffer.concat(chunks).toString('utf8') }
}

describe('demo server', () => {
  for (const e of ENDPOINTS) {
    it(`${e.example} streams ${e.provider}/${e.fixture} and it merges to the fixture's Reply`, async () => {
      const url = `${server.url}${e.example}${e.example.includes('?') ? '&' : '?'}pace=0`
      const res = await fetch(url, { method: 'POST', body: '{"messages":[]}' })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(e.contentType)
      const { reply } = await mergeResponse(res, url)
      expect(reply).toEqual(expected(e.provider, e.fixture).reply)
    })
  }

  it('every fixture listed in /scenarios.json streams and merges to its Reply', async () => {
    const list = (await (await fetch(`${server.url}/scenarios.json`)).json()) as Array<{ provider: string; endpoint: string; fixtures: string[] }>
    let checked = 0
    for (const p of list) {
      for (const fixture of p.fixtures) {
        const want = expected(p.provider, fixture)
        // fixtures that need forced options (transport / provider) are served as recorded anyway
        const url = `${server.url}${p.endpoint}${p.endpoint.includes('?') ? '&' : '?'}pace=0&fixture=${fixture}`
        const res = await fetch(url, { method: 'POST', body: '{}' })
        const m = createMerger(want.options ?? {})
        for (const chunk of [new Uint8Array(await res.arrayBuffer())]) m.push(chunk)
        expect(m.end(), `${p.provider}/${fixture}`).toEqual(want.reply)
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5)
  })

  it('broken=1 injects exactly one broken frame and the rest still merges', async () => {
    const url = `${server.url}/v1/chat/completions?pace=0&broken=1`
    const { reply, body } = await mergeResponse(await fetch(url, { method: 'POST' }), url)
    const clean = expected('openai-chat', 'demo-reasoning-parallel-tools').reply
    expect(reply.errors).toHaveLength(1)
    expect(reply.errors[0]!.raw).toBe('data: {"id":"chatcmpl-demo","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"oops"}\n')
    expect(reply.frameCount).toBe(clean.frameCount + 1)
    expect(reply.choices).toEqual(clean.choices)
    expect(body).toContain('"content":"oops"}\n\n')
  })

  it('cut=1 ends the stream halfway, without its terminal event', async () => {
    const url = `${server.url}/api/chat?pace=0&cut=1`
    const { reply } = await mergeResponse(await fetch(url, { method: 'POST' }), url)
    expect(reply.done).toBe(false)
    expect(reply.provider).toBe('ollama')
    const whole = readFileSync(new URL('../fixtures/ollama/demo-thinking-tool-calls.ndjson', import.meta.url), 'utf8')
    expect(reply.frameCount).toBe(Math.floor(splitFrames(whole, true).filter((l) => l.trim() !== '').length / 2))
  })

  it('network chunks ignore frame boundaries and lose no byte', () => {
    const bytes = new TextEncoder().encode('data: {"a":"€"}\n\n'.repeat(50))
    const chunks = networkChunks(bytes, 3)
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true)
    expect(chunks.some((c) => c.length % 17 !== 0)).toBe(true)
    expect(merge(Buffer.concat(chunks)).frameCount).toBe(50)
  })

  it('serves a built standalone page at /inspector/ and nothing outside its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-page-'))
    writeFileSync(join(dir, 'index.html'), '<title>inspector</title>')
    const withPage = await startDemoServer({ pageDir: dir })
    try {
      const page = await fetch(`${withPage.url}/inspector/`)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await page.text()).toBe('<title>inspector</title>')
      expect((await fetch(`${withPage.url}/inspector/%2e%2e/%2e%2e/package.json`)).status).toBe(404)
      expect((await fetch(`${withPage.url}/inspector`, { redirect: 'manual' })).headers.get('location')).toBe('/inspector/')
    } finally {
      await withPage.close()
    }
  })

  it('serves the chat page and its script, and refuses unknown fixtures by name', async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>Deltascope demo chat</title>')
    expect(await (await fetch(`${server.url}/client.js`)).text()).toContain('window.demoSend = send')
    const res = await fetch(`${server.url}/v1/messages?fixture=../../package`, { method: 'POST' })
    expect(res.status).toBe(404)
  })
})
