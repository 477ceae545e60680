// The raw body as a file of its own (.sse / .ndjson / .json / .txt), and JSON Lines of the
// frames' data payloads.

import { jsonText, sniffTransport, transportFromContentType } from '../library.js'
import type { Frame, Transport } from '../library.js'
import { assembleBody } from './bytes.js'

export interface RawExport {
  /** With the dot: ".sse", ".ndjson", ".json" (a JSON-array stream), ".bin" (an AWS event stream) or ".txt". */
  extension: '.sse' | '.ndjson' | '.json' | '.txt' | '.bin'
  mime: string
  transport: Transport
  /** The body as text (U+FFFD where the bytes are not UTF-8). */
  text: string
  /** The exact bytes, present only when the body is not valid UTF-8: save these rather than `text`. */
  bytes?: Uint8Array
}

const FILE: Record<Transport, { extension: RawExport['extension']; mime: string }> = {
  sse: { extension: '.sse', mime: 'text/event-stream' },
  ndjson: { extension: '.ndjson', mime: 'application/x-ndjson' },
  json: { extension: '.json', mime: 'application/json' },
  'data-stream': { extension: '.txt', mime: 'text/plain' }, // the AI SDK v4 sends it as text/plain
  eventstream: { extension: '.bin', mime: 'application/vnd.amazon.eventstream' },
  connect: { extension: '.bin', mime: 'application/connect+json' },
  // a WebSocket connection is no body: its messages export as a WebSocket fixture (src/exchange/websocket.ts)
  websocket: { extension: '.json', mime: 'application/json' },
  unknown: { extension: '.txt', mime: 'text/plain' },
}

/**
 * The body to save and its file type: from the Content-Type when it names a stream type,
 * else from the transport the merger found (pass `transport`), else sniffed from the body.
 */
export function toRawBody(
  body: string | Uint8Array | ReadonlyArray<string | Uint8Array>,
  options: { contentType?: string | null; transport?: Transport } = {},
): RawExport {
  const parts = typeof body === 'string' || body instanceof Uint8Array ? [body] : body
  const assembled = assembleBody(parts)
  const byType = transportFromContentType(options.contentType ?? undefined)
  const transport: Transport = byType !== null && byType.transport !== 'unknown'
    ? byType.transport
    : options.transport ?? sniffTransport(assembled.text.slice(0, 65536), true)?.transport ?? 'unknown'
  const file = FILE[transport]
  const out: RawExport = { extension: file.extension, mime: file.mime, transport, text: assembled.text }
  if (assembled.bytes) out.bytes = assembled.bytes
  return out
}

export interface JsonLinesExport {
  /** One JSON value per line, each line ended by "\n". */
  text: string
  lines: number
  /** Frames left out: [DONE] markers and frames whose data is not JSON. */
  skipped: Array<{ seq: number; reason: string }>
}

/**
 * JSON Lines of the frames' data payloads (docs/architecture.md#exchange-formats). A payload already on one line is
 * written exactly as received; a multi-line one (SSE data: lines joined by "\n") is
 * re-serialised on one line. [DONE] and unparsable frames are left out and listed.
 */
export function toJsonLines(frames: ReadonlyArray<Pick<Frame, 'seq' | 'kind' | 'data'> & { json?: unknown }>): JsonLinesExport {
  const lines: string[] = []
  const skipped: JsonLinesExport['skipped'] = []
  for (const f of frames) {
    if (f.kind === 'done') { skipped.push({ seq: f.seq, reason: 'end marker' }); continue }
    if (f.kind === 'invalid') { skipped.push({ seq: f.seq, reason: 'not JSON' }); continue }
    const data = f.data.trim()
    if (!/[\r\n]/.test(data)) { lines.push(data); continue }
    let value: unknown = f.json
    if (value === undefined) {
      try {
        value = JSON.parse(data)
      } catch {
        skipped.push({ seq: f.seq, reason: 'not JSON' })
        continue
      }
    }
    lines.push(jsonText(value)) // any depth, without recursion
  }
  return { text: lines.map((l) => l + '\n').join(''), lines: lines.length, skipped }
}
