// Capture of the framings that are not SSE or NDJSON: the panel lists an AI SDK v4 data stream (text/plain) and a Bedrock
// binary body (bytes, as getContent's base64 decodes to), and a response listed because its
// body sniffed as a stream keeps the reason on its row; a Kimi Connect body likewise.

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { CaptureEvent, CapturedRequest } from '../../panel/shell.js'
import { createPanelStore } from '../../panel/store/index.js'
import { listedReason, sniffBody } from '../../src/exchange/sniff.js'
import { bedrockEvent, concat } from '../support/eventstream.js'
import { requestEvent } from '../support/requests.js'

const T0 = 1_754_000_000_000

const request = (id: string, over: Partial<CapturedRequest>): CaptureEvent =>
  requestEvent({ id, url: `https://app.example.com/api/chat?x=${id}`, requestBody: '{}', contentType: null, startedAt: T0, source: 'har', ...over })

function listed(id: string, over: Partial<CapturedRequest>, body: string | Uint8Array) {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
  store.apply(request(id, over))
  store.apply({ type: 'chunk', id, data: body, t: null })
  store.apply({ type: 'finished', id, t: T0 + 100 })
  while (pending.length) pending.shift()!()
  return store.rows.value.find((r) => r.id === id)!
}

describe('listing the newer framings', () => {
  it('a text/plain AI SDK v4 data stream is read as ai-sdk-v4, and its row says why it was listed', () => {
    const body = 'f:{"messageId":"m1"}\n0:"Hello"\nd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":1}}\n'
    const reason = listedReason(sniffBody(body) as 'data-stream', 'text/plain; charset=utf-8')
    const row = listed('v4', { contentType: 'text/plain; charset=utf-8', responseHeaders: [{ name: 'x-vercel-ai-data-stream', value: 'v1' }], listedBecause: reason }, body)
    expect([row.transport, row.provider, row.frames, row.done, row.listedBecause]).toEqual([
      'data-stream', 'ai-sdk-v4', 3, true, 'Listed as a stream because its first line is an AI SDK v4 data-stream part (CODE:JSON) (Content-Type text/plain)',
    ])
  })

  it('a Bedrock binary body arriving as bytes is read as an event stream, byte counts exact', () => {
    const body = concat(
      bedrockEvent('messageStart', { role: 'assistant' }), bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      bedrockEvent('messageStop', { stopReason: 'end_turn' }), bedrockEvent('metadata', { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }),
    )
    const row = listed('br', { contentType: 'application/vnd.amazon.eventstream' }, body)
    expect([row.transport, row.provider, row.frames, row.bytes, row.done, row.broken, row.listedBecause]).toEqual(['eventstream', 'bedrock', 4, body.length, true, 0, undefined])
  })

  it('a Kimi Connect body arriving as bytes is read from its envelopes, and one without its Content-Type is listed and says why', () => {
    const body = readFileSync(new URL('../fixtures/kimi/connect-one-plus-one.bin', import.meta.url))
    const bytes = new Uint8Array(body)
    const row = listed('kimi', { url: 'https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/Chat', contentType: 'application/connect+json' }, bytes)
    expect([row.transport, row.provider, row.frames, row.bytes, row.done, row.broken, row.listedBecause]).toEqual(['connect', 'kimi', 16, bytes.length, true, 0, undefined])
    const reason = listedReason(sniffBody(bytes) as 'connect', null)
    const sniffed = listed('kimi2', { contentType: null, listedBecause: reason }, bytes)
    expect([sniffed.transport, sniffed.provider, sniffed.listedBecause]).toEqual(['connect', 'kimi', 'Listed as a stream because its body starts with a Connect envelope of JSON (flags, a 4-byte length, then "{") (no Content-Type)'])
  })
})
