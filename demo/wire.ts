// How a mock endpoint mangles and paces a recorded body: an injected broken frame, a cut,
// and network chunks that do not line up with frames.

import type { ProviderId } from '../src/library.js'

/** A frame whose JSON is cut short, in the provider's own framing. */
export function brokenFrame(provider: ProviderId): string {
  switch (provider) {
    case 'ollama':
      return '{"model":"qwen3","created_at":"2025-05-27T22:54:58Z","message":{"role":"assistant","content":"oops"\n'
    case 'anthropic':
      return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"oops"}\n\n'
    case 'openai-responses':
      return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":99,"delta":"oops"\n\n'
    case 'gemini':
      return 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"oops"}]}\r\n\r\n'
    default:
      return 'data: {"id":"chatcmpl-demo","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"oops"}\n\n'
  }
}

/** Splits a body into its frames, keeping every byte (separators stay with their frame). */
export function splitFrames(body: string, ndjson: boolean): string[] {
  const out: string[] = []
  const separator = ndjson ? /\n/g : /(\r\n\r\n|\n\n|\r\r)/g
  let last = 0
  for (const m of body.matchAll(separator)) {
    const end = m.index + m[0].length
    out.push(body.slice(last, end))
    last = end
  }
  if (last < body.length) out.push(body.slice(last))
  return out
}

export interface Mangle {
  broken: boolean
  cut: boolean
}

/** The body the endpoint will send: a broken frame after the first third, or only the first half. */
export function mangle(body: string, provider: ProviderId, ndjson: boolean, how: Mangle): string {
  let frames = splitFrames(body, ndjson)
  if (how.broken) {
    const at = Math.max(1, Math.floor(frames.length / 3))
    frames = [...frames.slice(0, at), brokenFrame(provider), ...frames.slice(at)]
  }
  if (how.cut) frames = frames.slice(0, Math.max(1, Math.floor(frames.length / 2)))
  return frames.join('')
}

/** A small seeded generator, so a given seed always yields the same network chunks. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13; s >>>= 0
    s ^= s >>> 17
    s ^= s << 5; s >>>= 0
    return s / 0x100000000
  }
}

/** Network chunks of 1-96 bytes, blind to frame boundaries (a multi-byte character may be cut). */
export function networkChunks(bytes: Uint8Array, seed: number): Uint8Array[] {
  const next = random(seed)
  const out: Uint8Array[] = []
  for (let i = 0; i < bytes.length;) {
    const size = 1 + Math.floor(next() * 96)
    out.push(bytes.subarray(i, i + size))
    i += size
  }
  return out
}
