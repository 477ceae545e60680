// Writes Connect envelopes for tests and fixtures (the layout src/core/connect.ts reads):
// flags (1) · payload length (4, big-endian) · payload.

const enc = new TextEncoder()

export function envelope(payload: string | Uint8Array, flags = 0): Uint8Array {
  const body = typeof payload === 'string' ? enc.encode(payload) : payload
  const out = new Uint8Array(5 + body.length)
  out[0] = flags
  new DataView(out.buffer).setUint32(1, body.length)
  out.set(body, 5)
  return out
}

/** The end-of-stream envelope (flag 0x02) with its JSON. */
export function endStream(json: string): Uint8Array {
  return envelope(json, 0x02)
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}
