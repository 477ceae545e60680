// "Is this body a stream?" when its Content-Type does not say so (chat backends often send
// text/plain): one answer for the HAR import and for the DevTools capture, read the way the
// core will frame the body.

import { defaultRegistry, sniffTransport } from '../library.js'
import { isObject } from './shared.js'
import { utf8DecodeLossy } from './bytes.js'

export type BodyVerdict = 'sse' | 'ndjson' | 'json-stream' | 'no'

/** How much of a body is read to decide. */
export const SNIFF_HEAD = 65536

/**
 * Decides from the start of a body whether it is a stream: SSE by its first field or comment;
 * NDJSON when its first two non-blank lines each parse as a JSON object (one JSON document,
 * even on one line, is not a stream); a JSON array only for Gemini's `:streamGenerateContent`.
 * Lines end in LF, CR or CRLF and a leading BOM is dropped, as the core frames them; a line is
 * parsed as it stands, as the core will parse it. Returns null while `head` is too short to
 * tell and `final` is false.
 */
export function classifyBody(head: string, final: boolean, url = ''): BodyVerdict | null {
  const s = sniffTransport(head, final)
  if (s === null) return null
  if (s.transport === 'sse') return 'sse'
  if (s.transport === 'json') return defaultRegistry.isJsonArrayStream(url) ? 'json-stream' : 'no'
  if (s.transport !== 'ndjson') return 'no'
  const eol = /\r\n?|\n/g
  let pos = head.charCodeAt(0) === 0xfeff ? 1 : 0
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

/** classifyBody on the first SNIFF_HEAD characters (or bytes) of a whole body. */
export function sniffsAsStream(body: string | Uint8Array, url = ''): boolean {
  const head = typeof body === 'string' ? body.slice(0, SNIFF_HEAD) : utf8DecodeLossy(body.subarray(0, SNIFF_HEAD))
  return classifyBody(head, true, url) !== 'no'
}

function isJsonObjectLine(line: string): boolean {
  try {
    return isObject(JSON.parse(line))
  } catch {
    return false
  }
}
