// What the standalone page can be given, turned into streams for the panel: pasted text,
// a raw stream file (.sse .txt .ndjson .jsonl, curl -i output), a Deltascope fixture, a HAR
// file (every streaming entry). The reading is src/exchange's importText / importBytes; this
// only names what has no name (a paste, a sample) and gives each load its own ids.

import { importBytes, importText, type ImportResult } from '../../src/exchange/import.js'
import type { CapturedRequest, Recording } from '../../src/exchange/types.js'

export interface SourceResult {
  streams: Recording[]
  warnings: string[]
  kind: 'har' | 'fixture' | 'stream' | 'error'
}

let loads = 0

const METHOD: Record<CapturedRequest['source'], string> = { paste: 'PASTE', sample: 'SAMPLE', import: 'FILE', har: 'FILE', live: 'GET' }

/**
 * Reads one input: text (a paste, a sample) or the bytes of a file. Each call gets fresh
 * request ids, so loading the same file twice lists it twice.
 */
export function readSource(
  input: { text: string } | { bytes: Uint8Array },
  name: string | null,
  options: { source?: CapturedRequest['source']; now?: number } = {},
): SourceResult {
  const source = options.source ?? (name === null ? 'paste' : 'import')
  const importOptions = { idPrefix: `${source}${++loads}`, ...(options.now !== undefined ? { now: options.now } : {}) }
  const result: ImportResult = 'text' in input
    ? importText(input.text, name ?? undefined, importOptions)
    : importBytes(input.bytes, name ?? undefined, importOptions)
  if (result.kind === 'error') return { streams: [], warnings: [name ? `${name}: ${result.message}` : result.message], kind: 'error' }
  const streams = result.items.map((item): Recording => {
    const request = { ...item.request }
    // a body without a request (a paste, a raw file, a sample): name it
    if (request.method === '' && request.url === '' || result.kind === 'stream') {
      request.source = source
      if (request.method === '') request.method = METHOD[source]
      if (request.url === '') request.url = 'pasted text'
    }
    const stream: Recording = { request, chunks: item.chunks.map((c) => ({ data: c.data, t: c.t })) }
    if (item.forced) stream.forced = item.forced
    if (item.expected) stream.expected = item.expected
    return stream
  })
  const warnings = result.warnings.map((w) => (name ? `${name}: ${w}` : w)).map(sayWhatWasDone)
  return { streams, warnings, kind: result.kind }
}

const NOT_A_STREAM = /this does not look like SSE, NDJSON or a JSON array: (?:not SSE, NDJSON or a JSON array: )?(.*)$/s

/**
 * The importer's "does not look like a stream" (its reason repeats its own opening), said
 * once and with what the page did about it: the body is listed with its raw text.
 */
function sayWhatWasDone(warning: string): string {
  const m = NOT_A_STREAM.exec(warning)
  if (!m) return warning
  const before = warning.slice(0, m.index)
  return `${before}not SSE, NDJSON or a JSON array (${m[1]}): listed with its raw text (pick a transport to read it anyway)`
}
