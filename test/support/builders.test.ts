// The shared test builders write exactly what the tests that use them used to write by hand:
// a test that depends on a byte offset or a frame's text depends on these.

import { describe, expect, it } from 'vitest'
import { capturedRequest, recording, requestEvent, STARTED_AT } from './requests.js'
import { DONE, openaiChunk, openaiStream } from './streams.js'

describe('openaiChunk / openaiStream', () => {
  it('writes id, object, created, model, choices, then any other field, as OpenAI orders them', () => {
    expect(openaiChunk({ content: 'Hi' })).toBe('data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n')
    expect(openaiChunk({}, 'stop', { id: 'chatcmpl-7', created: 1, model: 'gpt-4o', usage: { total_tokens: 3 } })).toBe(
      'data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"total_tokens":3}}\n\n',
    )
    expect(openaiChunk({ content: 'x' }, null, { id: null })).toBe('data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}\n\n')
  })

  it('a stream: the role on the first piece, the finish, [DONE]', () => {
    expect(openaiStream(['Hel', 'lo'])).toBe(openaiChunk({ role: 'assistant', content: 'Hel' }) + openaiChunk({ content: 'lo' }) + openaiChunk({}, 'stop') + DONE)
  })
})

describe('capturedRequest / recording', () => {
  it('defaults to a finished, imported OpenAI chat request; overrides replace what they name', () => {
    expect(capturedRequest()).toEqual({
      id: 'r1', method: 'POST', url: 'https://api.openai.com/v1/chat/completions', status: 200, requestHeaders: [], responseHeaders: [],
      requestBody: null, contentType: 'text/event-stream', startedAt: STARTED_AT, source: 'import',
    })
    expect(capturedRequest({ id: 'r', contentType: null, source: 'live' })).toMatchObject({ id: 'r', contentType: null, source: 'live', method: 'POST' })
    expect(requestEvent({ id: 'a' })).toEqual({ type: 'request', request: capturedRequest({ id: 'a' }) })
  })

  it('read times count from the request start; null stays unknown', () => {
    expect(recording([['a', 10], ['b', null]], { startedAt: 1000 }).chunks).toEqual([{ data: 'a', t: 1010 }, { data: 'b', t: null }])
  })
})
