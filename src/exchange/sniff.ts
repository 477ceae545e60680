// "Is this body a stream?" when its Content-Type does not say so (chat backends often send
// text/plain): one answer for the HAR import and for the DevTools capture, read the way the
// core will frame the body. A body listed this way carries the reason (listedReason), shown
// to the user.

import { defaultRegistry, isConnectEnvelope, isEventStreamPrelude, sniffTransport } from '../library.js'
import { isObject } from './shared.js'
import { utf8DecodeLossy } from './bytes.js'

export type BodyVerdict = 'sse' | 'ndjson' | 'json-stream' | 'data-stream' | 'eventstream' | 'connect' | 'no'

/** How much of a body is read to decide. */
export const SNIFF_HEAD = 65536

/**
 * Decides from the start of a body whether it is a stream: SSE by its first field or comment;
 * NDJSON when its first two non-blank lines each parse as a JSON object (one JSON document,
 * even on one line, is not a stream); a JSON array only for Gemini's `:streamGenerateContent`;
 * the AI SDK v4 data stream when its first line is a whole `CODE:JSON` part whose JSON parses.
 * Lines end in LF, CR or CRLF and a leading BOM is dropped, as the core frames them; a line is
 * parsed as it stands, as the core will parse it. Returns null while `head` is too short to
 * tell and `final` is false.
 */
export function classifyBody(head: string, final: boolean, url = ''): BodyVerdict | null {
  const s = sniffTransport(head, final)
  if (s === null) return null
  if (s.transport === 'sse') return 'sse'
  if (s.transport === 'json') return defaultRegistry.isJsonArrayStream(url) ? 'json-stream' : 'no'
  const eol = /\r\n?|\n/g
  let pos = head.charCodeAt(0) === 0xfeff ? 1 : 0
  if (s.transport === 'data-stream') {
    // the core decides on `0:"`; a listing waits for the whole first line and its JSON
    while (pos < head.length && /\s/.test(head[pos]!)) pos++
    eol.lastIndex = pos
    const m = eol.exec(head)
    if (m === null && !final) return null
    const line = m === null ? head.slice(pos) : head.slice(pos, m.index)
    return parses(line.slice(line.indexOf(':') + 1)) ? 'data-stream' : 'no'
  }
  if (s.transport !== 'ndjson') return 'no'
  let seen = 0
  while (seen < 2) {
    eol.lastIndex = pos
    const m = eol.exec(head)
    if (m === null && !final) return null
    const line = m === null ? head.slice(pos) : head.slice(pos, m.index)
    if (line.trim() !== '') {
      if (!isJsonObjectLine(line)) return 'no'
      seen++
    }
    if (m === null) break
    pos = m.index + m[0].length
  }
  return seen >= 2 ? 'ndjson' : 'no'
}

/**
 * classifyBody for bytes: first the binary framings, the AWS event stream (a first message
 * prelude whose CRC matches, which text never has) and a Connect stream (a first envelope of
 * flags 0 or 2, a length, then `{`: text never starts with a NUL or STX byte), then the text
 * they decode to. Null while fewer bytes than a prelude could still be one, or while the text
 * cannot tell.
 */
export function classifyBytes(head: Uint8Array, text: string, final: boolean, url = ''): BodyVerdict | null {
  if (head.length > 0 && (head[0] === 0 || head[0] === 2)) {
    if (head.length < 12 && !final) return null
    if (isEventStreamPrelude(head.subarray(0, 12))) return 'eventstream'
    if (isConnectEnvelope(head)) return 'connect'
  }
  return classifyBody(text, final, url)
}

/** The verdict on the first SNIFF_HEAD characters (or bytes) of a whole body. */
export function sniffBody(body: string | Uint8Array, url = ''): BodyVerdict {
  if (typeof body === 'string') return classifyBody(body.slice(0, SNIFF_HEAD), true, url)!
  const head = body.subarray(0, SNIFF_HEAD)
  return classifyBytes(head, utf8DecodeLossy(head), true, url)!
}

/** sniffBody said it is a stream. */
export function sniffsAsStream(body: string | Uint8Array, url = ''): boolean {
  return sniffBody(body, url) !== 'no'
}

/** Why a response whose Content-Type did not say "stream" was listed, for the user. */
export function listedReason(verdict: Exclude<BodyVerdict, 'no'>, contentType: string | null): string {
  const declared = contentType === null || contentType.trim() === '' ? 'no Content-Type' : `Content-Type ${contentType.split(';')[0]!.trim()}`
  const what: Record<Exclude<BodyVerdict, 'no'>, string> = {
    'sse': 'its body starts with an SSE field or comment',
    'ndjson': 'its first two lines are JSON objects (NDJSON)',
    'json-stream': 'its body is a JSON array from a URL that streams one (Gemini)',
    'data-stream': 'its first line is an AI SDK v4 data-stream part (CODE:JSON)',
    'eventstream': 'its body starts with an AWS event-stream message (the prelude CRC matches)',
    'connect': 'its body starts with a Connect envelope of JSON (flags, a 4-byte length, then "{")',
  }
  return `Listed as a stream because ${what[verdict]} (${declared})`
}

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function isJsonObjectLine(line: string): boolean {
  try {
    return isObject(JSON.parse(line))
  } catch {
    return false
  }
}
