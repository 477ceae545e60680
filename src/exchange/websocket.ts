// WebSocket captures as files (docs/architecture.md#websocket): the WebSocket fixture
// (`deltascope-websocket`, version 1: the messages with direction, opcode and time, binary as
// base64, the close, and the turns expected) out and in, and the WebSocket entries of a HAR as
// Chrome exports them (`_webSocketMessages`: `{type: "send"|"receive", time, opcode, data}`,
// time in seconds since the epoch, binary data in base64). Errors are FixtureError values
// thrown with the path of what is wrong.

import { createConnection, type ConnectionClose, type Reply, type Turn, type WsMessage } from '../library.js'
import { base64Decode, base64Encode } from './bytes.js'
import { FixtureError } from './fixture.js'
import type { Header } from './types.js'

export const WS_FIXTURE_FORMAT = 'deltascope-websocket'

/** One captured WebSocket connection. */
export interface WsCapture {
  url: string
  /** When the connection was opened (ms since the epoch); message times are absolute too. */
  startedAt: number
  requestHeaders: Header[]
  responseHeaders: Header[]
  /** 101 when the handshake succeeded; null when unknown. */
  status: number | null
  messages: WsMessage[]
  close: ConnectionClose | null
  /** The provider forced when it was read, if any. */
  provider?: string
}

/** A turn as a fixture stores it: what a replay must give back exactly. */
export interface ExpectedTurn {
  key: string | null
  state: Turn['state']
  reply: Reply
}

export interface WsFixture {
  format: typeof WS_FIXTURE_FORMAT
  version: 1
  meta: { exportedAt: string; tool: 'deltascope'; note?: string; redactions?: Array<{ where: string; name: string }> }
  url: string
  startedAt: number
  request: { headers: Header[] }
  response: { status: number | null; headers: Header[] }
  provider?: string
  /** `t`: ms after startedAt, or null; `text` for a text message, `base64` for a binary one. */
  messages: Array<{ direction: 'send' | 'receive'; opcode: number; t: number | null; text?: string; base64?: string }>
  close: { code: number | null; reason: string; t: number | null } | null
  expected: { turns: ExpectedTurn[] }
}

/** The turns a correct client rebuilds from a capture, its messages pushed one by one. */
export function replayTurns(capture: WsCapture): Turn[] {
  const connection = createConnection({ url: capture.url, ...(capture.provider ? { provider: capture.provider } : {}) })
  for (const m of capture.messages) connection.push(m)
  if (capture.close) connection.close(capture.close)
  return connection.turns()
}

export function toWsFixture(capture: WsCapture, options: { exportedAt?: string; note?: string; redactions?: Array<{ where: string; name: string }> } = {}): WsFixture {
  const at = (t: number | null): number | null => t === null ? null : Math.round((t - capture.startedAt) * 1000) / 1000
  const fixture: WsFixture = {
    format: WS_FIXTURE_FORMAT,
    version: 1,
    meta: { exportedAt: options.exportedAt ?? new Date().toISOString(), tool: 'deltascope', ...(options.note ? { note: options.note } : {}), ...(options.redactions?.length ? { redactions: options.redactions } : {}) },
    url: capture.url,
    startedAt: capture.startedAt,
    request: { headers: capture.requestHeaders },
    response: { status: capture.status, headers: capture.responseHeaders },
    messages: capture.messages.map((m) => typeof m.data === 'string'
      ? { direction: m.direction, opcode: m.opcode, t: at(m.time), text: m.data }
      : { direction: m.direction, opcode: m.opcode, t: at(m.time), base64: base64Encode(m.data) }),
    close: capture.close === null ? null : { code: capture.close.code, reason: capture.close.reason, t: at(capture.close.time) },
    expected: { turns: replayTurns(capture).map((t) => ({ key: t.key, state: t.state, reply: t.reply })) },
  }
  if (capture.provider) fixture.provider = capture.provider
  return fixture
}

/** A WebSocket fixture (text or parsed JSON) as a capture and the turns it expects. */
export function parseWsFixture(input: string | unknown): { capture: WsCapture; expected: ExpectedTurn[] | null; note: string | null } {
  let value = input
  if (typeof input === 'string') {
    try { value = JSON.parse(input) } catch (e) { throw new FixtureError(`Not a WebSocket fixture: not JSON (${(e as Error).message})`) }
  }
  const v = object(value, 'the document')
  if (v['format'] !== WS_FIXTURE_FORMAT) throw new FixtureError(`Not a WebSocket fixture: format is ${JSON.stringify(v['format'])}, expected ${JSON.stringify(WS_FIXTURE_FORMAT)}`)
  if (v['version'] !== 1) throw new FixtureError(`WebSocket fixture version ${JSON.stringify(v['version'])} is not supported (this Deltascope reads version 1)`)
  const startedAt = typeof v['startedAt'] === 'number' && Number.isFinite(v['startedAt']) ? v['startedAt'] : 0
  const abs = (t: unknown, where: string): number | null => {
    if (t === null || t === undefined) return null
    if (typeof t !== 'number' || !Number.isFinite(t)) throw new FixtureError(`${where}.t must be a number of ms or null`)
    return startedAt + t
  }
  if (!Array.isArray(v['messages'])) throw new FixtureError('messages must be an array')
  const messages = v['messages'].map((raw, i): WsMessage => {
    const where = `messages[${i}]`
    const m = object(raw, where)
    if (m['direction'] !== 'send' && m['direction'] !== 'receive') throw new FixtureError(`${where}.direction must be "send" or "receive"`)
    if (!Number.isInteger(m['opcode'])) throw new FixtureError(`${where}.opcode must be an integer (1 text, 2 binary)`)
    let data: string | Uint8Array
    if (typeof m['text'] === 'string') data = m['text']
    else if (typeof m['base64'] === 'string') {
      try { data = base64Decode(m['base64']) } catch (e) { throw new FixtureError(`${where}.base64 is not base64: ${(e as Error).message}`) }
    } else throw new FixtureError(`${where} has neither "text" nor "base64"`)
    return { direction: m['direction'], opcode: m['opcode'] as number, data, time: abs(m['t'], where) }
  })
  const request = v['request'] === undefined ? {} : object(v['request'], 'request')
  const response = v['response'] === undefined ? {} : object(v['response'], 'response')
  let close: ConnectionClose | null = null
  if (v['close'] !== null && v['close'] !== undefined) {
    const c = object(v['close'], 'close')
    close = { code: typeof c['code'] === 'number' ? c['code'] : null, reason: typeof c['reason'] === 'string' ? c['reason'] : '', time: abs(c['t'], 'close') }
  }
  const capture: WsCapture = {
    url: typeof v['url'] === 'string' ? v['url'] : '',
    startedAt,
    requestHeaders: headers(request['headers']),
    responseHeaders: headers(response['headers']),
    status: typeof response['status'] === 'number' ? response['status'] : null,
    messages,
    close,
  }
  if (typeof v['provider'] === 'string') capture.provider = v['provider']
  const expected = v['expected'] !== null && typeof v['expected'] === 'object' && Array.isArray((v['expected'] as { turns?: unknown }).turns)
    ? (v['expected'] as { turns: ExpectedTurn[] }).turns
    : null
  const meta = v['meta'] !== null && typeof v['meta'] === 'object' ? v['meta'] as { note?: unknown } : {}
  return { capture, expected, note: typeof meta.note === 'string' ? meta.note : null }
}

/** A WebSocket entry of a HAR (Chrome's `_webSocketMessages`) as a capture; null for any other entry. */
export function wsCaptureFromHarEntry(entry: Record<string, unknown>): WsCapture | null {
  const list = entry['_webSocketMessages']
  if (!Array.isArray(list)) return null
  const req = isObj(entry['request']) ? entry['request'] : {}
  const res = isObj(entry['response']) ? entry['response'] : {}
  const started = typeof entry['startedDateTime'] === 'string' ? Date.parse(entry['startedDateTime']) : NaN
  const messages: WsMessage[] = []
  for (const m of list) {
    if (!isObj(m) || (m['type'] !== 'send' && m['type'] !== 'receive')) continue
    const opcode = typeof m['opcode'] === 'number' ? m['opcode'] : 1
    const text = typeof m['data'] === 'string' ? m['data'] : ''
    let data: string | Uint8Array = text
    // Chrome writes a binary message's payload as base64
    if (opcode === 2) {
      try { data = base64Decode(text) } catch { data = text }
    }
    const time = typeof m['time'] === 'number' && Number.isFinite(m['time']) ? m['time'] * 1000 : null
    messages.push({ direction: m['type'], opcode, data, time })
  }
  return {
    url: typeof req['url'] === 'string' ? req['url'] : '',
    startedAt: Number.isFinite(started) ? started : (messages[0]?.time ?? 0),
    requestHeaders: headers(req['headers']),
    responseHeaders: headers(res['headers']),
    status: typeof res['status'] === 'number' && res['status'] > 0 ? res['status'] : null,
    messages,
    // a HAR says nothing of the close: the capture ended there
    close: null,
  }
}

/** Every WebSocket entry of a parsed HAR, with its position in log.entries. */
export function harWebSockets(har: unknown): Array<{ index: number; capture: WsCapture }> {
  const log = isObj(har) && isObj(har['log']) ? har['log'] : null
  if (log === null || !Array.isArray(log['entries'])) return []
  const out: Array<{ index: number; capture: WsCapture }> = []
  log['entries'].forEach((entry: unknown, index: number) => {
    const capture = isObj(entry) ? wsCaptureFromHarEntry(entry) : null
    if (capture !== null) out.push({ index, capture })
  })
  return out
}

function headers(v: unknown): Header[] {
  if (!Array.isArray(v)) return []
  return v.filter((h): h is Record<string, unknown> => isObj(h) && typeof h['name'] === 'string')
    .map((h) => ({ name: h['name'] as string, value: h['value'] === undefined || h['value'] === null ? '' : String(h['value']) }))
}

function object(v: unknown, where: string): Record<string, unknown> {
  if (!isObj(v)) throw new FixtureError(`${where} must be a JSON object`)
  return v
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
