// Import (docs/architecture.md#exchange-formats): a HAR file (Chrome, Firefox or Deltascope's), a Deltascope
// fixture, or a raw stream (pasted text, .sse / .txt / .ndjson / .jsonl, `curl -i` output),
// turned into captured requests with their chunks, and into the CaptureEvents a panel store
// applies.

import { isConnectEnvelope, isEventStreamPrelude, sniffTransport, transportFromContentType } from '../library.js'
import type { Reply } from '../library.js'
import { utf8DecodeStrict } from './bytes.js'
import { FixtureError, checkFixture, fixtureChunks, parseFixture } from './fixture.js'
import { HarError, parseHar } from './har.js'
import { WS_FIXTURE_FORMAT, harWebSockets, parseWsFixture } from './websocket.js'
import { turnRecordings } from './ws-turns.js'
import { isObject } from './shared.js'
import { slices } from './slices.js'
import type { CapturedChunk, CapturedRequest, CaptureEvent, ForcedOptions, Header, Recording } from './types.js'

export type ImportResult =
  /** `websocket`: a WebSocket fixture, its turns as items (ws-turns.ts); a HAR's WebSocket entries are items too, one per turn. */
  | { kind: 'har' | 'fixture' | 'stream' | 'websocket'; items: Recording[]; warnings: string[] }
  | { kind: 'error'; message: string }

export interface ImportOptions {
  /**
   * Request ids are `${idPrefix}-${n}`. Default: "import-" and a hash of the file name and
   * text, so the same input always gets the same ids and different inputs different ones.
   */
  idPrefix?: string
  /** startedAt for inputs that carry no time (pasted text, raw files). Default Date.now(). */
  now?: number
}

const STREAM_TYPES: Record<string, string> = {
  '.sse': 'text/event-stream',
  '.ndjson': 'application/x-ndjson',
  '.jsonl': 'application/jsonl',
}

/** Reads a HAR, a Deltascope fixture, or else a raw stream. Never throws: problems come back as kind "error". */
export function importText(text: string, filename?: string, options: ImportOptions = {}): ImportResult {
  const prefix = options.idPrefix ?? `import-${hash((filename ?? '') + '\u0000' + text)}`
  const now = options.now ?? Date.now()
  const ext = extensionOf(filename)
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (json.trim() === '') return { kind: 'error', message: filename ? `Nothing to import: ${filename} is empty` : 'Nothing to import: the text is empty' }
  const head = json.trimStart()
  if (head.startsWith('{')) {
    let value: unknown
    let parsed = false
    try {
      value = JSON.parse(json)
      parsed = true
    } catch (e) {
      const message = (e as Error).message
      if (ext === '.har' || /^\{\s*"log"\s*:/.test(head)) return { kind: 'error', message: `Not a HAR file: the text is not JSON (${message})` }
      if (/^\{\s*"format"\s*:\s*"deltascope-fixture"/.test(head)) return { kind: 'error', message: `Not a Deltascope fixture: the text is not JSON (${message})` }
      // else: NDJSON, read below as a stream
    }
    if (parsed && isObject(value)) {
      if ('log' in value) return importHar(value, prefix)
      if (value.format === WS_FIXTURE_FORMAT) return importWsFixture(value, prefix)
      if (value.format === 'deltascope-fixture' || (ext === '.json' && 'expected' in value && 'chunks' in value)) return importFixture(value, prefix, now)
      if (ext === '.har') return { kind: 'error', message: 'Not a HAR file: no "log" object at the top level' }
    }
  } else if (ext === '.har') {
    return { kind: 'error', message: 'Not a HAR file: it does not start with a JSON object' }
  }
  return importStream(text, filename, ext, prefix, now)
}

/**
 * The same for a file read as bytes: a raw stream that is not valid UTF-8 keeps its exact
 * bytes; anything else goes through importText.
 */
export function importBytes(bytes: Uint8Array, filename?: string, options: ImportOptions = {}): ImportResult {
  // an AWS event stream (a Bedrock body saved as .bin) or a Connect stream (Kimi's): binary,
  // kept as its bytes and named (a Connect body of short JSON envelopes may be valid UTF-8,
  // but its text is not the stream)
  const binaryType = bytes.length >= 12 && isEventStreamPrelude(bytes.subarray(0, 12)) ? 'application/vnd.amazon.eventstream'
    : isConnectEnvelope(bytes.subarray(0, 12)) ? 'application/connect+json' : null
  if (binaryType !== null) {
    const prefix = options.idPrefix ?? `import-${hashBytes(bytes, hash(filename ?? ''))}`
    const request = rawRequest(`${prefix}-0`, filename, extensionOf(filename), options.now ?? Date.now())
    request.contentType = binaryType
    return { kind: 'stream', items: [{ request, chunks: [{ data: bytes, t: null }] }], warnings: [] }
  }
  const text = utf8DecodeStrict(bytes)
  if (text !== null) return importText(text, filename, options)
  const ext = extensionOf(filename)
  if (ext === '.har') return { kind: 'error', message: 'Not a HAR file: it is not UTF-8 text' }
  const prefix = options.idPrefix ?? `import-${hashBytes(bytes, hash(filename ?? ''))}`
  const request = rawRequest(`${prefix}-0`, filename, ext, options.now ?? Date.now())
  return {
    kind: 'stream',
    items: [{ request, chunks: [{ data: bytes, t: null }] }],
    warnings: ['the file is not valid UTF-8: its bytes are read as they are (invalid sequences show as U+FFFD)'],
  }
}

function importHar(value: Record<string, unknown>, prefix: string): ImportResult {
  try {
    const har = parseHar(value, { idPrefix: prefix, source: 'import' })
    const sockets = harWebSockets(value)
    if (har.entries.length === 0 && sockets.length === 0) {
      const why = har.warnings.length > 0 ? ` (${har.warnings.join('; ')})` : ''
      return {
        kind: 'error',
        message: `No streaming response in this HAR: none of its ${har.total} entries is text/event-stream, NDJSON, or a body that reads as SSE or NDJSON${why}`,
      }
    }
    // in the HAR's order: a WebSocket entry gives one item per turn
    const ordered: Array<{ index: number; items: Recording[] }> = har.entries.map((e) => ({ index: e.index, items: [{ request: e.request, chunks: e.chunks ?? [{ data: e.body, t: null }] }] }))
    for (const { index, capture } of sockets) {
      const items = turnRecordings({ id: `${prefix}-${index}`, url: capture.url, startedAt: capture.startedAt, source: 'import', requestHeaders: capture.requestHeaders, responseHeaders: capture.responseHeaders }, capture.messages, capture.close)
      if (items.length === 0) har.warnings.push(`entry ${index} (WebSocket ${capture.url}): no messages in the HAR, skipped`)
      ordered.push({ index, items })
    }
    const items = ordered.sort((a, b) => a.index - b.index).flatMap((o) => o.items)
    return { kind: 'har', items, warnings: har.warnings }
  } catch (e) {
    if (e instanceof HarError) return { kind: 'error', message: e.message }
    throw e
  }
}

function importWsFixture(value: Record<string, unknown>, prefix: string): ImportResult {
  try {
    const { capture } = parseWsFixture(value)
    const options = { id: `${prefix}-0`, url: capture.url, startedAt: capture.startedAt, source: 'import' as const, requestHeaders: capture.requestHeaders, responseHeaders: capture.responseHeaders, ...(capture.provider ? { provider: capture.provider } : {}) }
    return { kind: 'websocket', items: turnRecordings(options, capture.messages, capture.close), warnings: [] }
  } catch (e) {
    if (e instanceof FixtureError) return { kind: 'error', message: e.message }
    throw e
  }
}

function importFixture(value: Record<string, unknown>, prefix: string, now: number): ImportResult {
  try {
    const fixture = parseFixture(value)
    const exported = Date.parse(fixture.meta.exportedAt)
    const startedAt = fixture.meta.startedAt ?? (Number.isFinite(exported) ? exported : now)
    const request: CapturedRequest = {
      id: `${prefix}-0`,
      method: fixture.request.method,
      url: fixture.request.url,
      status: fixture.response.status,
      requestHeaders: fixture.request.headers,
      responseHeaders: fixture.response.headers,
      requestBody: fixture.request.body,
      contentType: fixture.response.contentType,
      startedAt,
      source: 'import',
    }
    const chunks = fixtureChunks(fixture).map((c) => ({ data: c.data, t: c.t === null ? null : startedAt + c.t }))
    const item: Recording = { request, chunks, expected: fixture.expected }
    if (fixture.forced) item.forced = fixture.forced
    return { kind: 'fixture', items: [item], warnings: checkFixture(fixture) }
  } catch (e) {
    if (e instanceof FixtureError) return { kind: 'error', message: e.message }
    throw e
  }
}

function importStream(text: string, filename: string | undefined, ext: string, prefix: string, now: number): ImportResult {
  const warnings: string[] = []
  const request = rawRequest(`${prefix}-0`, filename, ext, now)
  let body = text
  const http = readHttpHead(text)
  if (http) {
    body = http.body
    request.status = http.status
    request.responseHeaders = http.headers
    const type = http.headers.find((h) => h.name.toLowerCase() === 'content-type')
    if (type) request.contentType = type.value
    warnings.push(`read the HTTP status line and ${http.headers.length} header${http.headers.length === 1 ? '' : 's'} before the body`)
  }
  if (body.trim() === '') return { kind: 'error', message: 'Nothing to import: the response has no body' }
  const declared = transportFromContentType(request.contentType ?? undefined)
  if (declared === null) {
    const sniffed = sniffTransport(body.slice(0, 65536), true)
    if (sniffed === null || sniffed.transport === 'unknown') {
      warnings.push(`this does not look like SSE, NDJSON or a JSON array: ${sniffed?.reason ?? 'undecided'}`)
    }
  }
  return { kind: 'stream', items: [{ request, chunks: [{ data: body, t: null }] }], warnings }
}

/** A request for a body that came without one: method "", url = the file name ("" for a paste). */
function rawRequest(id: string, filename: string | undefined, ext: string, now: number): CapturedRequest {
  return {
    id,
    method: '',
    url: filename ?? '',
    status: null,
    requestHeaders: [],
    responseHeaders: [],
    requestBody: null,
    contentType: STREAM_TYPES[ext] ?? null,
    startedAt: now,
    source: filename === undefined ? 'paste' : 'import',
  }
}

/** `curl -i` / `curl -D -` output: status lines and headers before the body (1xx and proxy CONNECT blocks skipped). */
function readHttpHead(text: string): { status: number; headers: Header[]; body: string } | null {
  let rest = text.replace(/^\s+/, '')
  let result: { status: number; headers: Header[]; body: string } | null = null
  for (;;) {
    const m = /^HTTP\/\d(?:\.\d)? (\d{3})[^\r\n]*(\r\n|\n|\r)/.exec(rest)
    if (!m) return result
    const end = /(\r\n|\n|\r)\1/.exec(rest.slice(m[0].length - m[2]!.length))
    let headerText: string
    let body: string
    if (end) {
      const at = m[0].length - m[2]!.length + end.index
      headerText = rest.slice(m[0].length, at)
      body = rest.slice(at + end[0].length)
    } else {
      headerText = rest.slice(m[0].length)
      body = ''
    }
    const headers: Header[] = []
    for (const line of headerText.split(/\r\n|\n|\r/)) {
      const colon = line.indexOf(':')
      if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() })
    }
    result = { status: Number(m[1]), headers, body }
    rest = body
    if (!/^HTTP\/\d(?:\.\d)? \d{3}/.test(rest)) return result
  }
}

export interface EventOptions {
  /** Split bodies into chunk events of at most this many characters (or bytes), so a store can work in slices (slices.ts: a surrogate pair is never split). */
  maxChunkSize?: number
}

/**
 * The capture events that replay an import into a panel store: warnings as notes, then for
 * each item its request, its chunks and `finished`. An error becomes one warning note.
 */
export function importToEvents(result: ImportResult, options: EventOptions = {}): CaptureEvent[] {
  if (result.kind === 'error') return [{ type: 'note', level: 'warning', message: result.message }]
  const events: CaptureEvent[] = result.warnings.map((message) => ({ type: 'note', level: 'warning', message }))
  const max = options.maxChunkSize !== undefined && options.maxChunkSize > 0 ? Math.floor(options.maxChunkSize) : Infinity
  for (const item of result.items) {
    const id = item.request.id
    events.push({ type: 'request', request: item.request })
    let last: number | null = null
    for (const c of item.chunks) {
      for (const data of slices(c.data, max)) events.push({ type: 'chunk', id, data, t: c.t })
      if (c.t !== null) last = c.t
    }
    const finished: CaptureEvent = { type: 'finished', id, t: last }
    if (item.request.status !== null) finished.status = item.request.status
    events.push(finished)
  }
  return events
}

function extensionOf(filename: string | undefined): string {
  if (!filename) return ''
  const m = /(\.[A-Za-z0-9]+)$/.exec(filename)
  return m ? m[1]!.toLowerCase() : ''
}

/** FNV-1a, 32 bits, as 8 hex digits. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

function hashBytes(bytes: Uint8Array, seed: string): string {
  let h = parseInt(seed, 16)
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}
