// deltascope/testing in an msw handler, as the README shows it: the recorded response replayed
// by `http.post(url, () => replayResponse(fixture))`, read by the real openai client over the
// global fetch msw intercepts, and the client's result held against the reference.

import { http } from 'msw'
import { setupServer } from 'msw/node'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareReply, replayResponse } from '../../src/testing.js'
import { cutEvery, fixtureOf, wire } from '../debug/compare-support.js'

const URL = 'https://api.openai.test/v1/chat/completions'
const fixture = fixtureOf('openai-chat/demo-reasoning-parallel-tools.sse', cutEvery(wire('openai-chat/demo-reasoning-parallel-tools.sse'), 11))
const server = setupServer(http.post(URL, () => replayResponse(fixture)))

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

describe('replayResponse under msw', () => {
  it('serves the recorded chunks byte for byte through the global fetch', async () => {
    const res = await fetch(URL, { method: 'POST', body: '{}' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(fixture.response.contentType)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(new TextDecoder().decode(bytes)).toBe(fixture.body.text)
  })

  it('the real openai client reads it, and compareReply names its reasoning bug', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: 'https://api.openai.test/v1', maxRetries: 0 })
    const completion = await client.chat.completions.stream({ model: 'x', messages: [] }).finalChatCompletion()
    const comparison = compareReply(fixture, completion)
    expect(comparison.equal).toBe(false)
    expect(comparison.differences.map((d) => [d.field, d.cause])).toEqual([['choices[0].reasoning', 'overwritten']])
    // everything else the client rebuilt is right
    expect(comparison.differences.some((d) => d.field.includes('content') || d.field.includes('toolCalls'))).toBe(false)
  })
})
