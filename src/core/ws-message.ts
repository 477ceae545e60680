// WebSocket framing: a message is a frame (docs/architecture.md#websocket). A text message is
// read by the connection's sub-protocol, told from its first text message: Engine.IO v4 with
// Socket.IO inside (`0{"sid"…}` opens it), SignalR's JSON protocol (records ended by \x1e, so
// one message may hold several frames), or plain JSON and text. A binary message is shown as
// hex with its size. Nothing here throws on the wire's bytes: a malformed packet is an
// `invalid` frame whose error names the message and the position in it.

import { parseJson } from './json-error.js'
import type { JsonSyntaxError } from './types.js'
import { utf8Length as utf8Size } from './utf8.js'

export type WsDirection = 'send' | 'receive'

/** One WebSocket message as DevTools reports it. */
export interface WsMessage {
  direction: WsDirection
  /** RFC 6455's opcode: 1 text, 2 binary. */
  opcode: number
  /** The text of a text message; the bytes of a binary one. */
  data: string | Uint8Array
  /** When it was sent or received (ms), when known. */
  time: number | null
}

export type WsProtocol = 'engine.io' | 'signalr' | 'json'

/**
 * `data`: parsed JSON for the adapters (received) or to list (sent); `control`: the
 * protocol's own (open, connect, ping, pong, handshake), listed dimmed; `text`: a message that
 * is not JSON; `binary`: bytes, shown as hex; `invalid`: a packet or JSON that did not parse.
 */
export type WsFrameKind = 'data' | 'control' | 'text' | 'binary' | 'invalid'

export interface WsFrame {
  /** 0-based among the connection's frames. */
  seq: number
  /** 0-based among the connection's messages: the message this frame was read from. */
  message: number
  direction: WsDirection
  time: number | null
  kind: WsFrameKind
  protocol: WsProtocol
  /** Socket.IO's event name, SignalR's target; null when the protocol has none. */
  event: string | null
  /** The frame's text as sent (SignalR: one record, without its \x1e); hex for binary. */
  raw: string
  /** The message's size in bytes (SignalR: the record's). */
  size: number
  json?: unknown
  error?: JsonSyntaxError
  /** What the protocol says of it ("Engine.IO ping", "2 binary attachments follow"). */
  note: string | null
  /** The turn it went to (src/core/connection.ts); null: the connection's own, or sent. */
  turn: number | null
}

/** A frame as read from one message, before the connection numbers it. */
export type WsPiece = Omit<WsFrame, 'seq' | 'message' | 'direction' | 'time' | 'turn'>

/** Binary messages are shown as the hex of their first bytes (audio buffers run to megabytes). */
export const HEX_SHOWN = 1024

const RS = '\x1e'
const ENGINE_IO: Record<string, string> = { '0': 'open', '1': 'close', '2': 'ping', '3': 'pong', '5': 'upgrade', '6': 'noop' }

/** Reads each message of one connection; keeps what a connection's later messages depend on. */
export class MessageReader {
  protocol: WsProtocol | null
  /** Socket.IO binary attachments still to come, announced by a BINARY_EVENT or BINARY_ACK. */
  private attachments = 0

  constructor(forced: WsProtocol | null = null) {
    this.protocol = forced
  }

  read(message: WsMessage): WsPiece[] {
    if (typeof message.data !== 'string') return [this.binary(message.data)]
    const text = message.data
    if (this.protocol === null) this.protocol = sniff(text)
    if (this.protocol === 'engine.io') return [this.engineIo(text)]
    if (this.protocol === 'signalr') return signalR(text)
    return [jsonOrText(text, 'json')]
  }

  private binary(bytes: Uint8Array): WsPiece {
    let note: string | null = null
    if (this.attachments > 0) {
      this.attachments--
      note = `Socket.IO binary attachment (${this.attachments} more to come)`
    }
    return { kind: 'binary', protocol: this.protocol ?? 'json', event: null, raw: hex(bytes), size: bytes.length, note }
  }

  private engineIo(text: string): WsPiece {
    const size = utf8Size(text)
    const type = text.charAt(0)
    const base = { protocol: 'engine.io' as const, raw: text, size, event: null }
    if (type === '4') return this.socketIo(text, size)
    const name = ENGINE_IO[type]
    if (name === undefined) {
      return { ...base, kind: 'invalid', note: null, error: { message: `not an Engine.IO packet: its type ${JSON.stringify(text.slice(0, 1))} (at position 0) is none of 0–6`, position: 0 } }
    }
    const piece: WsPiece = { ...base, kind: 'control', note: `Engine.IO ${name}${text.length > 1 && type !== '0' ? ` ${JSON.stringify(text.slice(1, 41))}` : ''}` }
    if (type === '0') return withJson(piece, text.slice(1), 1)
    return piece
  }

  /** An Engine.IO message (`4`) holding a Socket.IO packet: type, attachments-, /namespace, ack id, JSON. */
  private socketIo(text: string, size: number): WsPiece {
    const base = { protocol: 'engine.io' as const, raw: text, size, event: null }
    const type = text.charAt(1)
    let at = 2
    let attachments = 0
    if (type === '5' || type === '6') {
      const dash = text.indexOf('-', at)
      const count = dash > at ? Number(text.slice(at, dash)) : NaN
      if (!Number.isSafeInteger(count)) return { ...base, kind: 'invalid', note: null, error: { message: `Socket.IO binary packet without its attachment count (digits and "-" expected at position ${at})`, position: at } }
      attachments = count
      at = dash + 1
    }
    let namespace = '/'
    if (text.charAt(at) === '/') {
      const comma = text.indexOf(',', at)
      const end = comma === -1 ? text.length : comma
      namespace = text.slice(at, end)
      at = comma === -1 ? end : end + 1
    }
    const ackStart = at
    while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++
    const ack = at > ackStart ? text.slice(ackStart, at) : null
    const where = namespace === '/' ? '' : ` on ${namespace}`
    this.attachments += attachments
    const more = attachments > 0 ? `; ${attachments} binary attachment${attachments === 1 ? ' follows' : 's follow'}` : ''
    switch (type) {
      case '0': return withJson({ ...base, kind: 'control', note: `Socket.IO connect${where}` }, text.slice(at), at)
      case '1': return { ...base, kind: 'control', note: `Socket.IO disconnect${where}` }
      case '4': return withJson({ ...base, kind: 'control', note: `Socket.IO connect error${where}` }, text.slice(at), at)
      case '2': case '5': return eventPiece(base, text.slice(at), at, `${ack === null ? '' : `ack id ${ack}`}${where}${more}`)
      case '3': case '6': return withJson({ ...base, kind: 'data', note: `Socket.IO ack ${ack ?? '(no id)'}${where}${more}` }, text.slice(at), at)
      default: return jsonOrText(text.slice(1), 'engine.io', text, size, 'Engine.IO message')
    }
  }
}

/** The sub-protocol from a connection's first text message. */
function sniff(text: string): WsProtocol {
  if (/^0\{[\s\S]*"sid"/.test(text)) return 'engine.io'
  if (text.endsWith(RS)) return 'signalr'
  return 'json'
}

/** `["event", arg]` (the arg is the payload; several are kept as their array). */
function eventPiece(base: Omit<WsPiece, 'kind' | 'note'>, json: string, at: number, note: string): WsPiece {
  const parsed = withJson({ ...base, kind: 'data', note: note.replace(/^; /, '') || null }, json, at)
  if (parsed.kind !== 'data') return parsed
  const args = parsed.json
  if (!Array.isArray(args) || typeof args[0] !== 'string') {
    return { ...parsed, kind: 'invalid', json: undefined, error: { message: `a Socket.IO event is a JSON array starting with the event's name (at position ${at})`, position: at } }
  }
  return { ...parsed, event: args[0], json: args.length === 2 ? args[1] : args.slice(1) }
}

function signalR(text: string): WsPiece[] {
  const records = text.split(RS)
  const last = records.pop()!
  const out: WsPiece[] = []
  let at = 0
  for (const record of records) {
    out.push(signalRRecord(record, at))
    at += record.length + 1
  }
  if (last !== '') {
    out.push({ kind: 'invalid', protocol: 'signalr', event: null, raw: last, size: utf8Size(last), note: null, error: { message: `a SignalR record not ended by \\x1e (from position ${at} of the message)`, position: at } })
  }
  return out
}

const SIGNALR: Record<number, string> = { 1: 'invocation', 2: 'stream-item', 3: 'completion', 4: 'stream-invocation', 5: 'cancel-invocation', 6: 'ping', 7: 'close', 8: 'ack', 9: 'sequence' }

function signalRRecord(record: string, at: number): WsPiece {
  const piece = withJson({ kind: 'data', protocol: 'signalr', event: null, raw: record, size: utf8Size(record), note: null }, record, at)
  if (piece.kind !== 'data') return piece
  const j = piece.json as Record<string, unknown> | null
  const type = typeof j === 'object' && j !== null && !Array.isArray(j) ? j['type'] : undefined
  if (type === undefined) return { ...piece, kind: 'control', note: 'SignalR handshake' }
  const name = typeof type === 'number' ? SIGNALR[type] : undefined
  if (name === undefined) return { ...piece, kind: 'invalid', json: undefined, error: { message: `SignalR message type ${JSON.stringify(type)} is none of 1–9 (record at position ${at})`, position: at } }
  if (name === 'ping' || name === 'close' || name === 'ack' || name === 'sequence') return { ...piece, kind: 'control', note: `SignalR ${name}` }
  const args = j!['arguments']
  if (name === 'invocation' || name === 'stream-invocation') {
    const target = typeof j!['target'] === 'string' ? j!['target'] : null
    return { ...piece, event: target, json: Array.isArray(args) && args.length === 1 ? args[0] : args, note: `SignalR ${name}` }
  }
  if (name === 'stream-item') return { ...piece, event: name, json: j!['item'], note: `SignalR stream item ${JSON.stringify(j!['invocationId'] ?? null)}` }
  return { ...piece, event: name, note: `SignalR ${name}` }
}

/** JSON when it starts like JSON (a message that looks like JSON and fails is invalid), else text. */
function jsonOrText(json: string, protocol: WsProtocol, raw = json, size = utf8Size(raw), note: string | null = null): WsPiece {
  const offset = raw.length - json.length
  const trimmed = json.trimStart()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { kind: 'text', protocol, event: null, raw, size, note }
  return withJson({ kind: 'data', protocol, event: null, raw, size, note }, json, offset)
}

/** The piece with `json` parsed, or invalid with the position in the message (`at`: where `json` starts in it). */
function withJson(piece: WsPiece, json: string, at: number): WsPiece {
  if (json === '') return piece
  const parsed = parseJson(json)
  if (parsed.ok) return { ...piece, json: parsed.value }
  const position = at + parsed.error.position
  // the parser's position counts from the JSON's start: after a packet prefix, say where that is in the message
  const where = at === 0 ? '' : ` (the JSON starts at position ${at}: position ${position} of the message)`
  return { ...piece, kind: 'invalid', error: { message: parsed.error.message + where, position } }
}

function hex(bytes: Uint8Array): string {
  const n = Math.min(bytes.length, HEX_SHOWN)
  const out: string[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = bytes[i]!.toString(16).padStart(2, '0')
  return out.join(' ') + (bytes.length > n ? ' …' : '')
}
