// A WebSocket capture made fit to share (docs/architecture.md#redaction): the URL and the
// handshake's headers as for HTTP (Gemini Live keeps its key in the URL; a browser's Realtime
// socket its key in Sec-WebSocket-Protocol as `openai-insecure-api-key.<key>`), each sent
// text message's JSON by field name as a request body's (after an Engine.IO / Socket.IO packet
// prefix: Open WebUI's `40{"token": …}`), then every value removed wherever else it appears,
// in every message. What the server sent is not redacted by name (a Realtime `session` is
// not a secret there), only where a removed value echoes.

import { REDACTED, RedactionLog, redactBody, redactHeaders, redactUrl, type Redaction } from './redact.js'
import type { Header } from './types.js'
import type { WsCapture } from './websocket.js'

/** The subprotocol browsers carry OpenAI's key in (the browser WebSocket API takes no headers). */
const KEY_PROTOCOL = /(openai-insecure-api-key\.)([^\s,]+)/g

export function redactWsCapture(capture: WsCapture, options: { includeCredentials?: boolean } = {}): { capture: WsCapture; removed: Redaction[] } {
  if (options.includeCredentials === true) return { capture, removed: [] }
  const log = new RedactionLog()
  const headers = (list: Header[], where: 'request header' | 'response header') => redactHeaders(list, false, log, where).map((h) => {
    if (!KEY_PROTOCOL.test(h.value)) return h
    KEY_PROTOCOL.lastIndex = 0
    return { name: h.name, value: h.value.replace(KEY_PROTOCOL, (_, prefix: string, key: string) => { log.add(where, h.name, key); return prefix + REDACTED }) }
  })
  const requestHeaders = headers(capture.requestHeaders, 'request header')
  const responseHeaders = headers(capture.responseHeaders, 'response header')
  const url = redactUrl(capture.url, false, log)
  const messages = capture.messages.map((m) => typeof m.data === 'string' && m.direction === 'send' ? { ...m, data: redactMessage(m.data, log) } : m)
  // a value removed anywhere is removed everywhere (a token sent in a message, echoed in another)
  const echoes = [...log.values.keys()]
  const scrub = (text: string) => echoes.reduce((t, v) => t.split(v).join(REDACTED), text)
  const out: WsCapture = {
    ...capture,
    url: scrub(url),
    requestHeaders: requestHeaders.map((h) => ({ name: h.name, value: scrub(h.value) })),
    responseHeaders: responseHeaders.map((h) => ({ name: h.name, value: scrub(h.value) })),
    messages: messages.map((m) => typeof m.data === 'string' ? { ...m, data: scrub(m.data) } : m),
  }
  return { capture: out, removed: log.removed }
}

/** A message's JSON redacted by field name; after a packet prefix (digits, a namespace, an ack id) the JSON alone. */
function redactMessage(text: string, log: RedactionLog): string {
  const prefix = /^\d+(?:-)?(?:\/[^,]*,)?\d*(?=[{[])/.exec(text)?.[0] ?? ''
  return prefix + redactBody(text.slice(prefix.length), false, log)
}
