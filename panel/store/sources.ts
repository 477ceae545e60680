// What the standalone page can be given, turned into streams for the panel: pasted text,
// a raw stream file (.sse .txt .ndjson .jsonl, curl -i output), a Deltascope fixture, a HAR
// file (every streaming entry). The reading is src/exchange's importText / importBytes; this
// only names what has no name (a paste, a sample) and gives each load its own ids.
//
// A large raw stream file is not read whole: its head (64 KiB) is read to name and sniff it,
// and the file itself is handed to the store, which reads its byte stream (file.stream())
// where it merges (store/body-reader.ts): bytes stay bytes, never decoded to one string and
// encoded again, and in a worker the UI thread never holds them.

import { importBytes, importText, type ImportResult } from '../../src/exchange/import.js'
import type { CapturedRequest, Recording } from '../../src/exchange/types.js'
import type { BodySource } from './types.js'

/** A stream to feed: its chunks, or (a large raw stream file) the file, which the store reads itself (store/body-reader.ts). */
export type FeedStream = Recording & { body?: BodySource }

export interface SourceResult {
  streams: FeedStream[]
  warnings: string[]
  kind: 'har' | 'fixture' | 'stream' | 'websocket' | 'error'
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

/** Files up to this size are read whole (any kind); above it a raw stream file is streamed. */
export const STREAMED_FILE = 1024 * 1024
/** How much of a large file is read first, to name and sniff it (the importer sniffs 64 KiB). */
const HEAD_BYTES = 64 * 1024

/** What readFile needs of a File (a Blob with a name): tests give their own. */
export interface FileLike {
  readonly name: string
  readonly size: number
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> }
  arrayBuffer(): Promise<ArrayBuffer>
  stream(): ReadableStream<Uint8Array>
}

/**
 * Reads a file the user chose or dropped. A small file, a HAR, a fixture, a JSON document or
 * `curl -i` output is read whole (readSource). A larger raw stream (SSE, NDJSON) is named and
 * sniffed from its head, and its body is streamed as bytes when it is fed: the whole file is
 * never one buffer, nor one string. (Invalid UTF-8 in it is the merger's to report, with
 * the frame and byte where it is.)
 */
export async function readFile(file: FileLike, options: { now?: number } = {}): Promise<SourceResult> {
  const whole = async () => readSource({ bytes: new Uint8Array(await file.arrayBuffer()) }, file.name, { source: 'import', ...options })
  if (file.size <= STREAMED_FILE || /\.(har|json)$/i.test(file.name)) return whole()
  const headBytes = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer())
  // the head cut after its last line break: whole lines, whole characters
  const cut = headBytes.lastIndexOf(10)
  const head = new TextDecoder('utf-8', { ignoreBOM: true }).decode(headBytes.subarray(0, cut + 1))
  if (cut < 0 || isDocument(head)) return whole()
  const named = readSource({ text: head }, file.name, { source: 'import', ...options })
  if (named.kind !== 'stream' || named.streams.length !== 1) return whole()
  const stream: FeedStream = { ...named.streams[0]!, chunks: [], body: file }
  return { ...named, streams: [stream] }
}

/** A head that is not the start of a raw stream: a JSON document over several lines, or `curl -i` headers. */
function isDocument(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart()
  if (/^HTTP\/\d/.test(text)) return true
  if (!text.startsWith('{')) return false
  // NDJSON: its first line is a whole JSON value; a HAR or fixture's first line is not
  const first = text.slice(0, text.indexOf('\n') + 1 || undefined)
  try {
    JSON.parse(first)
    return false
  } catch {
    return true
  }
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
