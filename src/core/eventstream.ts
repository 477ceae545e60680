// The AWS event stream (`application/vnd.amazon.eventstream`: Bedrock ConverseStream, and any
// AWS streaming API), read from the body's bytes, never from decoded text
// (docs/architecture.md#aws-event-stream). A message is
//
//   total length (4, big-endian) · headers length (4) · prelude CRC32 (4) · headers · payload · message CRC32 (4)
//
// and a header is: name length (1) · name · type (1) · value (types 0–9; strings and bytes
// carry a 2-byte length). Every message is one frame whose offsets are its bytes in the body.
//
// Bad bytes are frame errors with their byte offset, never a throw: a message whose CRC does
// not match (or whose headers do not parse) is an invalid frame and reading goes on at the
// next message, since the prelude's length was checked by its own CRC. A prelude whose CRC
// does not match, or whose lengths are impossible, cannot say where the next message starts:
// reading stops there and the rest of the body is one invalid frame. A body that ends inside
// a message makes what arrived of it an invalid frame.

import { crc32 } from './crc32.js'
import type { RawFrame } from './framing.js'
import type { JsonSyntaxError } from './types.js'

const PRELUDE = 12
/** Prelude, no headers, no payload, message CRC. */
const MIN_MESSAGE = 16
/** The limits AWS's own decoders enforce (aws-c-event-stream, smithy): a larger claim is not believed. */
export const MAX_MESSAGE = 16 * 1024 * 1024
export const MAX_HEADERS = 128 * 1024
/** How many bytes of an unreadable stretch are shown, as hex. */
const PREVIEW = 48

export interface ByteSplitter {
  push(bytes: Uint8Array): void
  end(): void
}

/** What one message reads as: its frame's event, data, displayable raw text and failure. */
export interface ReadMessage {
  event: string | null
  data: string
  raw: string
  failure: JsonSyntaxError | null
}

const utf8 = new (globalThis as unknown as { TextDecoder: new (label: string) => { decode(b: Uint8Array): string } }).TextDecoder('utf-8')

/** Splits the body's bytes into messages; `frame` receives each, `start`/`end` being byte offsets. */
export function createEventStreamSplitter(frame: (f: RawFrame) => void): ByteSplitter {
  let pending: Uint8Array[] = []
  let pendingLength = 0
  /** Byte offset of the first pending byte: where the next message starts. */
  let at = 0
  let messageNo = 0
  /** Reading stopped here (a prelude that cannot be trusted); -1 while reading. */
  let stoppedAt = -1
  let stopReason = ''
  let stopPreview = new Uint8Array(0)
  let total = 0

  const take = (n: number): Uint8Array => {
    const first = pending[0]!
    let out: Uint8Array
    if (first.length >= n) {
      out = first.subarray(0, n)
      if (first.length === n) pending.shift()
      else pending[0] = first.subarray(n)
    } else {
      out = new Uint8Array(n)
      let filled = 0
      while (filled < n) {
        const p = pending[0]!
        const k = Math.min(p.length, n - filled)
        out.set(p.subarray(0, k), filled)
        filled += k
        if (k === p.length) pending.shift()
        else pending[0] = p.subarray(k)
      }
    }
    pendingLength -= n
    return out
  }

  const peek = (n: number): Uint8Array => {
    const first = pending[0]!
    if (first.length >= n) return first.subarray(0, n)
    const out = new Uint8Array(n)
    let filled = 0
    for (const p of pending) {
      const k = Math.min(p.length, n - filled)
      out.set(p.subarray(0, k), filled)
      filled += k
      if (filled === n) break
    }
    return out
  }

  const stop = (reason: string): void => {
    stoppedAt = at
    stopReason = reason
    stopPreview = peek(Math.min(PREVIEW, pendingLength)).slice()
    pending = []
    pendingLength = 0
  }

  const read = (): void => {
    while (stoppedAt < 0 && pendingLength >= PRELUDE) {
      const prelude = peek(PRELUDE)
      const problem = preludeProblem(prelude, at)
      if (problem !== null) { stop(problem); return }
      const length = readUint32(prelude, 0)
      if (pendingLength < length) return
      const bytes = take(length)
      const m = readMessage(bytes, at, false)
      messageNo++
      // the shown text is built when a frame is asked for (store.ts), or now for an error's `raw`
      const raw = m.failure === null ? undefined : readMessage(bytes, at).raw
      frame({ start: at, end: at + length, line: messageNo, event: m.event, id: null, retry: null, data: m.data, unterminated: false, problems: null, raw, failure: m.failure })
      at += length
    }
  }

  return {
    push(bytes) {
      total += bytes.length
      if (stoppedAt >= 0 || bytes.length === 0) return
      pending.push(bytes.slice()) // the caller may reuse its buffer
      pendingLength += bytes.length
      read()
    },
    end() {
      if (stoppedAt >= 0) {
        const message = `${stopReason}: where the next message starts cannot be known, so the rest of the body (${total - stoppedAt} bytes from byte ${stoppedAt}) is not read`
        frame({ start: stoppedAt, end: total, line: messageNo + 1, event: null, id: null, retry: null, data: '', unterminated: false, problems: null, raw: hexPreview(stopPreview, total - stoppedAt), failure: { message, position: 0 } })
        return
      }
      if (pendingLength === 0) return
      const rest = take(pendingLength)
      const message = rest.length < PRELUDE
        ? `truncated message at byte ${at}: the body ended ${rest.length} bytes into its 12-byte prelude`
        : `truncated message at byte ${at}: the body ended after ${rest.length} of its ${readUint32(rest, 0)} bytes`
      // not flagged unterminated: that diagnostic speaks of SSE's blank line; the error says it all
      frame({ start: at, end: at + rest.length, line: messageNo + 1, event: null, id: null, retry: null, data: '', unterminated: false, problems: null, raw: hexPreview(rest.subarray(0, PREVIEW), rest.length), failure: { message, position: 0 } })
    },
  }
}

/** Why a prelude (12 bytes at byte `at`) cannot be trusted, or null when it can. */
function preludeProblem(prelude: Uint8Array, at: number): string | null {
  const length = readUint32(prelude, 0)
  const headers = readUint32(prelude, 4)
  const sum = readUint32(prelude, 8)
  const actual = crc32(prelude.subarray(0, 8))
  if (sum !== actual) return `prelude CRC mismatch at byte ${at + 8} (the prelude says ${hex32(sum)}, its bytes sum to ${hex32(actual)})`
  if (length < MIN_MESSAGE || length > MAX_MESSAGE) return `impossible message length ${length} at byte ${at} (a message is 16 bytes to 16 MiB)`
  if (headers > MAX_HEADERS || headers > length - MIN_MESSAGE) return `impossible headers length ${headers} at byte ${at + 4} for a message of ${length} bytes`
  return null
}

/**
 * Reads one whole message (its prelude already checked) that starts at byte `at` of the body:
 * also used to show a stored frame again from its bytes. A message read from bytes that are
 * not one whole message shows them as hex.
 */
export function readMessage(bytes: Uint8Array, at: number, withRaw = true): ReadMessage {
  if (bytes.length < MIN_MESSAGE || readUint32(bytes, 0) !== bytes.length || preludeProblem(bytes.subarray(0, PRELUDE), at) !== null) {
    return { event: null, data: '', raw: hexPreview(bytes.subarray(0, PREVIEW), bytes.length), failure: { message: `not a whole event-stream message at byte ${at}`, position: 0 } }
  }
  const headersLength = readUint32(bytes, 4)
  const payload = bytes.subarray(PRELUDE + headersLength, bytes.length - 4)
  const parsed = readHeaders(bytes.subarray(PRELUDE, PRELUDE + headersLength), at + PRELUDE)
  const text = utf8.decode(payload)
  let failure: JsonSyntaxError | null = null
  const sum = readUint32(bytes, bytes.length - 4)
  const actual = crc32(bytes.subarray(0, bytes.length - 4))
  if (sum !== actual) {
    failure = { message: `message CRC mismatch at byte ${at + bytes.length - 4} (the message says ${hex32(sum)}, its bytes sum to ${hex32(actual)}): the message is not read`, position: 0 }
  } else if (parsed.error !== null) {
    failure = { message: parsed.error, position: 0 }
  }
  const header = (name: string): string | null => {
    const h = parsed.headers.find((x) => x.name === name)
    return h !== undefined && typeof h.value === 'string' ? h.value : null
  }
  const messageType = header(':message-type')
  let event: string | null
  let data = text
  if (messageType === 'exception') event = `exception:${header(':exception-type') ?? ''}`
  else if (messageType === 'error') {
    // an error message carries its code and message in headers, with no payload
    event = `error:${header(':error-code') ?? ''}`
    if (text === '') data = JSON.stringify({ errorCode: header(':error-code'), errorMessage: header(':error-message') })
  } else event = header(':event-type')
  const raw = !withRaw ? '' : parsed.headers.length > 0 ? `${parsed.headers.map((h) => `${h.name}: ${h.shown}`).join('\n')}\n\n${text}` : text
  return { event, data, raw, failure }
}

interface Header {
  name: string
  /** Strings as they are; other values as JSON-safe numbers, booleans or text. */
  value: string | number | boolean
  shown: string
}

const TYPE_NAMES = ['boolean', 'boolean', 'byte', 'short', 'integer', 'long', 'bytes', 'string', 'timestamp', 'uuid']

/** The headers, in order; the first malformed one stops the reading with an error at its byte offset. */
function readHeaders(bytes: Uint8Array, base: number): { headers: Header[]; error: string | null } {
  const headers: Header[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let i = 0
  const fail = (what: string, at: number) => ({ headers, error: `malformed header at byte ${base + at}: ${what}` })
  while (i < bytes.length) {
    const start = i
    const nameLength = bytes[i]!
    if (nameLength === 0 || i + 1 + nameLength + 1 > bytes.length) return fail('its name runs past the headers', start)
    const name = shortText(bytes.subarray(i + 1, i + 1 + nameLength))
    i += 1 + nameLength
    const type = bytes[i++]!
    const need = [0, 0, 1, 2, 4, 8, -1, -1, 8, 16][type]
    if (need === undefined) return fail(`unknown value type ${type} for ${JSON.stringify(name)}`, start)
    let size = need
    let at = i
    if (need === -1) {
      if (i + 2 > bytes.length) return fail(`the length of ${JSON.stringify(name)} runs past the headers`, start)
      size = view.getUint16(i)
      at = i + 2
    }
    if (at + size > bytes.length) return fail(`the value of ${JSON.stringify(name)} runs past the headers`, start)
    const v = bytes.subarray(at, at + size)
    let value: string | number | boolean
    switch (type) {
      case 0: value = true; break
      case 1: value = false; break
      case 2: value = view.getInt8(at); break
      case 3: value = view.getInt16(at); break
      case 4: value = view.getInt32(at); break
      case 5: value = view.getBigInt64(at).toString(); break
      case 6: value = hex(v); break
      case 7: value = shortText(v); break
      case 8: value = new Date(Number(view.getBigInt64(at))).toISOString(); break
      default: value = uuid(v)
    }
    headers.push({ name, value, shown: type === 7 ? String(value) : `${String(value)} (${TYPE_NAMES[type]})` })
    i = at + size
  }
  return { headers, error: null }
}

/** Header names and values are short and mostly ASCII: read those without a TextDecoder call. */
function shortText(b: Uint8Array): string {
  if (b.length > 64) return utf8.decode(b)
  let s = ''
  for (let i = 0; i < b.length; i++) {
    if (b[i]! > 0x7f) return utf8.decode(b)
    s += String.fromCharCode(b[i]!)
  }
  return s
}

function readUint32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0
}

function hex32(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`
}

function hex(b: Uint8Array): string {
  let s = ''
  for (const x of b) s += x.toString(16).padStart(2, '0')
  return s
}

function uuid(b: Uint8Array): string {
  const h = hex(b)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Unreadable bytes, shown: the first ones as hex, and how many there are. */
export function hexPreview(bytes: Uint8Array, length: number): string {
  const parts: string[] = []
  for (const x of bytes) parts.push(x.toString(16).padStart(2, '0'))
  return `${parts.join(' ')}${length > bytes.length ? ' …' : ''} (${length} byte${length === 1 ? '' : 's'}, not a readable message)`
}

/** True when 12 bytes are a prelude whose CRC matches: the body is an event stream (used to sniff it). */
export function looksLikePrelude(prelude: Uint8Array): boolean {
  return prelude.length >= PRELUDE && preludeProblem(prelude.subarray(0, PRELUDE), 0) === null
}
