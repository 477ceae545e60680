// Connect server streaming (`application/connect+json`, `application/connect+proto`: Kimi's
// chat, any connect-go / connect-es service), read from the body's bytes, never from decoded
// text (docs/architecture.md#connect-streaming). A message is an envelope:
//
//   flags (1) · length (4, big-endian) · payload (length bytes)
//
// Flag 0x01: the payload is compressed (with the stream's Connect-Content-Encoding); flag 0x02:
// the end-of-stream message, always JSON, `{"error": {"code", "message"}, "metadata": {…}}`, the
// error absent when the call succeeded. Every envelope is one frame whose offsets are its bytes.
//
// Bad bytes are frame errors with their byte offset, never a throw. A compressed payload is not
// inflated (the core reads synchronously; browsers inflate only in streams): its frame says so.
// A length over MAX_ENVELOPE cannot be believed, so nothing after it can be framed: reading stops
// and the rest of the body is one invalid frame. A body that ends inside an envelope makes what
// arrived of it an invalid frame.

import type { ByteSplitter, ReadMessage } from './eventstream.js'
import { hexPreview } from './eventstream.js'
import type { RawFrame } from './framing.js'

const PREFIX = 5
export const FLAG_COMPRESSED = 0x01
export const FLAG_END_STREAM = 0x02
/** The end-of-stream envelope's frame event. */
export const END_STREAM_EVENT = 'end-stream'
/** connect-go's and connect-es's default read limit is unbounded; a reply larger than this is not one. */
export const MAX_ENVELOPE = 64 * 1024 * 1024
/** How many bytes of an unreadable stretch are shown, as hex. */
const PREVIEW = 48

const utf8 = new (globalThis as unknown as { TextDecoder: new (label: string) => { decode(b: Uint8Array): string } }).TextDecoder('utf-8')

export interface ConnectOptions {
  /** application/connect+proto: payloads are protobuf messages, unreadable without the service's schema. */
  proto?: boolean
}

/** Splits the body's bytes into envelopes; `frame` receives each, `start`/`end` being byte offsets. */
export function createConnectSplitter(frame: (f: RawFrame) => void, options: ConnectOptions = {}): ByteSplitter {
  const queue = new ByteQueue()
  let at = 0
  let messageNo = 0
  let total = 0
  let stopped: { at: number; reason: string; preview: Uint8Array } | null = null

  const read = (): void => {
    while (stopped === null && queue.length >= PREFIX) {
      const prefix = queue.peek(PREFIX)
      const length = readUint32(prefix, 1)
      if (length > MAX_ENVELOPE) {
        stopped = { at, reason: `impossible envelope length ${length} at byte ${at + 1} (over ${MAX_ENVELOPE} bytes)`, preview: queue.peek(Math.min(PREVIEW, queue.length)).slice() }
        queue.clear()
        return
      }
      if (queue.length < PREFIX + length) return
      const bytes = queue.take(PREFIX + length)
      const m = readEnvelope(bytes, at, options)
      messageNo++
      // raw is the payload (the same string as the data: no copy), so a payload that is not JSON
      // shows as itself in the Reply's errors, not as the envelope's binary prefix
      frame({ start: at, end: at + bytes.length, line: messageNo, event: m.event, id: null, retry: null, data: m.data, unterminated: false, problems: null, raw: m.raw, failure: m.failure })
      at += bytes.length
    }
  }

  return {
    push(bytes) {
      total += bytes.length
      if (stopped !== null || bytes.length === 0) return
      queue.push(bytes.slice()) // the caller may reuse its buffer
      read()
    },
    end() {
      if (stopped !== null) {
        const message = `${stopped.reason}: where the next envelope starts cannot be known, so the rest of the body (${total - stopped.at} bytes from byte ${stopped.at}) is not read`
        frame({ start: stopped.at, end: total, line: messageNo + 1, event: null, id: null, retry: null, data: '', unterminated: false, problems: null, raw: hexPreview(stopped.preview, total - stopped.at), failure: { message, position: 0 } })
        return
      }
      if (queue.length === 0) return
      const rest = queue.take(queue.length)
      const message = rest.length < PREFIX
        ? `truncated envelope at byte ${at}: the body ended ${rest.length} byte${rest.length === 1 ? '' : 's'} into its 5-byte prefix (flags and length)`
        : `truncated envelope at byte ${at}: the body ended after ${rest.length} of its ${PREFIX + readUint32(rest, 1)} bytes`
      frame({ start: at, end: at + rest.length, line: messageNo + 1, event: null, id: null, retry: null, data: '', unterminated: false, problems: null, raw: hexPreview(rest.subarray(0, PREVIEW), rest.length), failure: { message, position: 0 } })
    },
  }
}

/**
 * Reads one whole envelope that starts at byte `at` of the body: also used to show a stored
 * frame again from its bytes. Bytes that are not one whole envelope are shown as hex.
 */
export function readEnvelope(bytes: Uint8Array, at: number, options: ConnectOptions = {}): ReadMessage {
  if (bytes.length < PREFIX || readUint32(bytes, 1) !== bytes.length - PREFIX) {
    return { event: null, data: '', raw: hexPreview(bytes.subarray(0, PREVIEW), bytes.length), failure: { message: `not a whole Connect envelope at byte ${at}`, position: 0 } }
  }
  const flags = bytes[0]!
  const payload = bytes.subarray(PREFIX)
  const endStream = (flags & FLAG_END_STREAM) !== 0
  const event = endStream ? END_STREAM_EVENT : null
  const unreadable = (message: string): ReadMessage =>
    ({ event, data: '', raw: hexPreview(payload.subarray(0, PREVIEW), payload.length), failure: { message, position: 0 } })
  if ((flags & ~(FLAG_COMPRESSED | FLAG_END_STREAM)) !== 0) {
    return unreadable(`unknown envelope flags 0x${flags.toString(16).padStart(2, '0')} at byte ${at} (Connect defines 0x01 compressed and 0x02 end-of-stream): the payload is not read`)
  }
  if ((flags & FLAG_COMPRESSED) !== 0) {
    return unreadable(`compressed envelope at byte ${at} (flag 0x01): its ${payload.length} bytes are compressed with the stream's Connect-Content-Encoding, which is not inflated here`)
  }
  // the end-of-stream message is JSON whatever the codec; other messages are protobuf under connect+proto
  if (options.proto === true && !endStream) {
    return unreadable(`protobuf message at byte ${at} (application/connect+proto): its ${payload.length} bytes cannot be read without the service's schema`)
  }
  const text = utf8.decode(payload)
  return { event, data: text, raw: text, failure: null }
}

/**
 * True when the body's first bytes can be the start of a Connect JSON stream: flags 0x00 or
 * 0x02, a believable length, then `{` (used to sniff a body that came without its
 * Content-Type; text never starts with a NUL or STX byte).
 */
export function looksLikeEnvelope(head: Uint8Array): boolean {
  if (head.length < PREFIX + 1) return false
  if (head[0] !== 0 && head[0] !== FLAG_END_STREAM) return false
  const length = readUint32(head, 1)
  return length >= 2 && length <= MAX_ENVELOPE && head[PREFIX] === 0x7b
}

function readUint32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0
}

/** The pending bytes, in pieces as they came: whole envelopes are taken off the front. */
class ByteQueue {
  private parts: Uint8Array[] = []
  length = 0

  push(bytes: Uint8Array): void {
    this.parts.push(bytes)
    this.length += bytes.length
  }

  clear(): void {
    this.parts = []
    this.length = 0
  }

  /** The first `n` bytes, left in place (a view when one piece holds them). */
  peek(n: number): Uint8Array {
    const first = this.parts[0]!
    if (first.length >= n) return first.subarray(0, n)
    const out = new Uint8Array(n)
    let filled = 0
    for (const p of this.parts) {
      const k = Math.min(p.length, n - filled)
      out.set(p.subarray(0, k), filled)
      filled += k
      if (filled === n) break
    }
    return out
  }

  /** The first `n` bytes, removed. */
  take(n: number): Uint8Array {
    const out = this.peek(n)
    let left = n
    while (left > 0) {
      const p = this.parts[0]!
      if (p.length <= left) { this.parts.shift(); left -= p.length }
      else { this.parts[0] = p.subarray(left); left = 0 }
    }
    this.length -= n
    return out
  }
}
