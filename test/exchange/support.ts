// Shared inputs for the exchange tests: the bundled samples cut into network chunks that do
// not line up with frames (or with UTF-8 characters), with arrival times.

import { readFileSync } from 'node:fs'
import type { CapturedChunk, CapturedRequest, Recording } from '../../src/exchange/types.js'

export const SAMPLES = ['openai-chat.sse', 'openai-responses.sse', 'anthropic.sse', 'gemini.sse', 'ollama.ndjson', 'broken.sse'] as const

const URLS: Record<string, string> = {
  'openai-chat.sse': 'https://api.openai.com/v1/chat/completions',
  'openai-responses.sse': 'https://api.openai.com/v1/responses',
  'anthropic.sse': 'https://api.anthropic.com/v1/messages',
  'gemini.sse': 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIzaSy-secret',
  'ollama.ndjson': 'http://127.0.0.1:11434/api/chat',
  'broken.sse': 'https://api.openai.com/v1/chat/completions',
}

export const STARTED_AT = Date.UTC(2025, 0, 2, 3, 4, 5, 678)

export function sampleBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../samples/${name}`, import.meta.url)))
}

/** Cuts bytes every `step` bytes; chunk i arrives 10 + 7·i ms after the start. */
export function cut(bytes: Uint8Array, step: number, start = STARTED_AT): CapturedChunk[] {
  const out: CapturedChunk[] = []
  for (let at = 0, i = 0; at < bytes.length; at += step, i++) out.push({ data: bytes.slice(at, at + step), t: start + 10 + 7 * i })
  return out
}

export function request(overrides: Partial<CapturedRequest> = {}): CapturedRequest {
  return {
    id: 'req-1',
    method: 'POST',
    url: 'https://api.openai.com/v1/chat/completions',
    status: 200,
    requestHeaders: [
      { name: 'Authorization', value: 'Bearer sk-proj-SECRET' },
      { name: 'Content-Type', value: 'application/json' },
      { name: 'openai-organization', value: 'org-abc' },
    ],
    responseHeaders: [
      { name: 'content-type', value: 'text/event-stream; charset=utf-8' },
      { name: 'set-cookie', value: '__cf_bm=SECRET; path=/' },
      { name: 'x-request-id', value: 'req_123' },
    ],
    requestBody: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}',
    contentType: 'text/event-stream; charset=utf-8',
    startedAt: STARTED_AT,
    source: 'live',
    ...overrides,
  }
}

export function sampleInput(name: string, step = 37): Recording {
  const ndjson = name.endsWith('.ndjson')
  const contentType = ndjson ? 'application/x-ndjson' : 'text/event-stream; charset=utf-8'
  return {
    request: request({
      url: URLS[name]!,
      contentType,
      responseHeaders: [{ name: 'content-type', value: contentType }],
    }),
    chunks: cut(sampleBytes(name), step),
  }
}

/** An OpenAI chat stream with 2-, 3- and 4-byte characters, cut every 5 bytes. */
export function unicodeInput(): Recording {
  const frames = ['Hé', 'llo 🌍 ', '世界', ' — ok']
    .map((content, i) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content } }] })}\n\n`)
    .join('')
  const body = new TextEncoder().encode(frames + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
  return { request: request(), chunks: cut(body, 5) }
}
