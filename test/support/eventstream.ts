// Writes AWS event-stream messages for tests (the layout src/core/eventstream.ts reads):
// total length · headers length · prelude CRC32 · headers · payload · message CRC32, all
// big-endian; string headers only (type 7), as Bedrock sends them.

import { crc32 } from '../../src/core/crc32.js'

const enc = new TextEncoder()

export function encodeMessage(headers: Record<string, string>, payload: string | Uint8Array): Uint8Array {
  const parts: number[] = []
  for (const [name, value] of Object.entries(headers)) {
    const n = enc.encode(name)
    const v = enc.encode(value)
    parts.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v)
  }
  const head = Uint8Array.from(parts)
  const body = typeof payload === 'string' ? enc.encode(payload) : payload
  const total = 12 + head.length + body.length + 4
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  view.setUint32(0, total)
  view.setUint32(4, head.length)
  view.setUint32(8, crc32(out.subarray(0, 8)))
  out.set(head, 12)
  out.set(body, 12 + head.length)
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)))
  return out
}

/** A Bedrock event message: `:event-type`, `:content-type: application/json`, `:message-type: event`. */
export function bedrockEvent(eventType: string, payload: unknown): Uint8Array {
  return encodeMessage({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify(payload))
}

/** A Bedrock exception message (`:message-type: exception`, `:exception-type`). */
export function bedrockException(exceptionType: string, message: string): Uint8Array {
  return encodeMessage({ ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify({ message }))
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}
