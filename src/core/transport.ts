// Which framing a body uses (docs/architecture.md#choosing-the-transport): the Content-Type when it says, else the first
// non-blank line. Undecided text is held until that line shows enough. (A binary AWS event
// stream or a Connect stream without its Content-Type is recognised from its bytes, by the decoder.)

import { DATA_STREAM_LINE } from './data-stream.js'
import type { Transport } from './types.js'

export type Sniffed =
  | { transport: Transport; reason: string }
  | { transport: 'unknown'; reason: string; binary?: boolean }

// a media type ends at its parameters (";") or at the end: "text/event-streams" is not SSE
const SSE_TYPE = /^text\/event-stream\s*(;|$)/
const NDJSON_TYPES = /^application\/(x-)?(ndjson|jsonl|json-lines|jsonlines|x-jsonlines|json-seq)\s*(;|$)|^application\/stream\+json\s*(;|$)/
const AWS_EVENTSTREAM_TYPE = /^application\/vnd\.amazon\.eventstream\s*(;|$)/
// Connect server streaming; `connect+proto` is framed alike, its messages protobuf (src/core/connect.ts)
const CONNECT_TYPE = /^application\/connect\+(json|proto)\s*(;|$)/

/** True when the Content-Type is Connect's protobuf codec: its messages cannot be read as JSON. */
export function isConnectProto(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/connect\+proto\s*(;|$)/.test(contentType.toLowerCase().trim())
}

export function transportFromContentType(contentType: string | undefined): Sniffed | null {
  if (!contentType) return null
  const type = contentType.toLowerCase().trim()
  if (SSE_TYPE.test(type)) return { transport: 'sse', reason: 'content-type' }
  if (NDJSON_TYPES.test(type)) return { transport: 'ndjson', reason: 'content-type' }
  if (AWS_EVENTSTREAM_TYPE.test(type)) return { transport: 'eventstream', reason: 'content-type' }
  if (CONNECT_TYPE.test(type)) return { transport: 'connect', reason: 'content-type' }
  return null
}

const SSE_FIELD = /^(data|event|id|retry)(:|$)/
const SSE_FIELD_WITH_COLON = /^(data|event|id|retry):/

/**
 * Decides from the start of the body, or returns null while it cannot yet tell.
 * `final` is true at the end of the body: then it always decides.
 */
export function sniffTransport(head: string, final: boolean): Sniffed | null {
  let i = 0
  while (i < head.length && /\s/.test(head[i]!)) i++
  if (i >= head.length) return final ? { transport: 'unknown', reason: i === 0 ? 'the body is empty' : 'the body is only white space' } : null
  const c = head[i]!
  if (c === ':') return { transport: 'sse', reason: 'sniffed: starts with an SSE comment' }
  if (c === '[') return { transport: 'json', reason: 'sniffed: starts with "["' }
  if (c === '{') return { transport: 'ndjson', reason: 'sniffed: the first line is a JSON object' }
  if (c === '\0' || c === '\uFFFD') return { transport: 'unknown', reason: 'the body looks binary', binary: true }
  const eol = head.slice(i).search(/[\r\n]/)
  const line = eol < 0 ? head.slice(i) : head.slice(i, i + eol)
  const complete = eol >= 0 || final
  // an unfinished line is SSE only once its colon is there: "data" may yet become "database"
  if (complete ? SSE_FIELD.test(line) : SSE_FIELD_WITH_COLON.test(line)) {
    return { transport: 'sse', reason: 'sniffed: the first line is an SSE field' }
  }
  // `0:"…"`, `f:{…}`: an AI SDK v4 data-stream part (a code, a colon, JSON); decided on its
  // first three characters, since a part's line can be as long as the reply
  if (DATA_STREAM_LINE.test(line)) return { transport: 'data-stream', reason: 'sniffed: the first line is a data-stream part (CODE:JSON)' }
  if (!complete && line.length < 80) return null
  return { transport: 'unknown', reason: `not SSE, NDJSON or a JSON array: the first line is ${JSON.stringify(line.length > 80 ? line.slice(0, 80) + '…' : line)}` }
}
