// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) out and in.
//
// Out: one entry per captured request, the body in response.content.text (base64 with
// encoding "base64" when it is not valid UTF-8), credentials redacted by default, and the
// chunk boundaries with their times in a custom `_deltascope` field (HAR allows fields that
// start with "_"), so a Deltascope HAR replays with its timing.
//
// In: the streaming entries of any HAR — Chrome's (`_resourceType`, `_transferSize`,
// base64 for binary types, no text for EventSource) and Firefox's (text for SSE) — as
// captured requests with their bodies. Everything else is counted, not listed.

import { transportFromContentType } from '../library.js'
import { assembleBody, base64Decode, base64Encode, utf8DecodeStrict, utf8Encode } from './bytes.js'
import { TOOL_VERSION } from './fixture.js'
import { redactRecording, userRules, type RedactNames, type Redaction } from './redact.js'
import { headerValue, isObject, parseJsonInput } from './shared.js'
import { sniffsAsStream } from './sniff.js'
import type { CapturedChunk, CapturedRequest, Recording, ExportOptions, Header } from './types.js'

export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
    comment?: string
  }
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: unknown[]
    headers: Header[]
    queryString: Header[]
    postData?: { mimeType: string; text: string }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: unknown[]
    headers: Header[]
    content: { size: number; mimeType: string; text: string; encoding?: 'base64' }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number }
  /** Deltascope's chunk boundaries: UTF-8 byte lengths in order, t in ms since startedDateTime. */
  _deltascope?: { chunks: Array<{ t: number | null; bytes: number }> }
  /** What redaction left out of this entry, in words (docs/architecture.md#redaction). */
  comment?: string
}

export class HarError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HarError'
  }
}

// ---------------------------------------------------------------------------
// Export

/** A HAR 1.2 log of the given requests. Serialise with JSON.stringify(har, null, 2). */
export function toHar(entries: readonly Recording[], options: ExportOptions = {}): Har {
  const include = options.includeCredentials === true
  return {
    log: {
      version: '1.2',
      creator: { name: 'deltascope', version: TOOL_VERSION },
      entries: entries.map((e) => harEntry(e, include, userRules(options))),
      ...(include ? {} : { comment: 'Exported by Deltascope; credentials redacted' }),
    },
  }
}

function harEntry(recording: Recording, include: boolean, rules: RedactNames): HarEntry {
  const redaction = redactRecording(recording, { includeCredentials: include, ...rules })
  const input = { ...recording, chunks: redaction.chunks }
  const { request } = redaction
  const url = request.url
  const start = Number.isFinite(request.startedAt) ? request.startedAt : 0
  const body = assembleBody(input.chunks.map((c) => c.data))
  const times = input.chunks.map((c) => c.t).filter((t): t is number => t !== null).map((t) => Math.max(0, t - start))
  const wait = times.length > 0 ? Math.min(...times) : 0
  const receive = times.length > 0 ? Math.max(...times) - wait : 0
  const requestHeaders = request.requestHeaders
  const requestBody = request.requestBody
  const entry: HarEntry = {
    startedDateTime: new Date(start).toISOString(),
    time: round(wait + receive),
    request: {
      method: request.method,
      url,
      httpVersion: '',
      cookies: [],
      headers: requestHeaders,
      queryString: queryString(url),
      ...(requestBody === null ? {} : { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? '', text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody === null ? 0 : utf8Encode(requestBody).length,
    },
    response: {
      status: request.status ?? 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: request.responseHeaders,
      content: body.bytes
        ? { size: body.byteLength, mimeType: request.contentType ?? '', text: base64Encode(body.bytes), encoding: 'base64' }
        : { size: body.byteLength, mimeType: request.contentType ?? '', text: body.text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: round(wait), receive: round(receive) },
  }
  if (redaction.redactions.length > 0) entry.comment = describeRedactions(redaction.redactions)
  if (input.chunks.length > 1 || input.chunks.some((c) => c.t !== null)) {
    entry._deltascope = {
      chunks: input.chunks.map((c) => ({
        t: c.t === null ? null : round(c.t - start),
        bytes: typeof c.data === 'string' ? utf8Encode(c.data).length : c.data.length,
      })),
    }
  }
  return entry
}

/** e.g. `Redacted by Deltascope: request header Authorization; url key; response body value of request header Authorization` */
function describeRedactions(list: readonly Redaction[]): string {
  return 'Redacted by Deltascope: ' + list.map((r) => `${r.where} ${r.name}`).join('; ')
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000
}

function queryString(url: string): Header[] {
  const hash = url.indexOf('#')
  const q = url.indexOf('?')
  if (q < 0 || (hash >= 0 && hash < q)) return []
  const query = url.slice(q + 1, hash < 0 ? url.length : hash)
  if (query === '') return []
  return query.split('&').map((part) => {
    const eq = part.indexOf('=')
    return eq < 0 ? { name: decode(part), value: '' } : { name: decode(part.slice(0, eq)), value: decode(part.slice(eq + 1)) }
  })
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

// ---------------------------------------------------------------------------
// Import

/** One streaming entry of a HAR. */
export interface HarStream {
  request: CapturedRequest
  /** The body as the HAR holds it: bytes when it was base64-encoded, else text. */
  body: string | Uint8Array
  /** The network chunks with absolute times (ms since epoch), when the HAR is Deltascope's own. */
  chunks?: CapturedChunk[]
  /** Position of the entry in log.entries. */
  index: number
}

export interface HarImport {
  entries: HarStream[]
  /** How many entries the log holds in all (streaming or not). */
  total: number
  /** Streaming entries that could not be read, bodies that were cut, and such. */
  warnings: string[]
}

export interface ParseHarOptions {
  /** Request ids are `${idPrefix}-${entry index}`. Default "har". */
  idPrefix?: string
  /** CapturedRequest.source of the requests. Default "import". */
  source?: CapturedRequest['source']
}

/** Every streaming entry of a HAR file (text or parsed JSON). Throws HarError when it is not a HAR. */
export function parseHar(text: string | unknown, options: ParseHarOptions = {}): HarImport {
  const value = parseJsonInput(text, (reason) => new HarError(`Not a HAR file: ${reason}`))
  if (!isObject(value)) throw new HarError(`Not a HAR file: expected a JSON object with a "log", got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`)
  if (value.format === 'deltascope-fixture') throw new HarError('Not a HAR file: this is a Deltascope fixture (import it as such)')
  const log = value.log
  if (!isObject(log)) throw new HarError(`Not a HAR file: no "log" object at the top level (found ${keyList(value)})`)
  if (!Array.isArray(log.entries)) throw new HarError(`Not a HAR file: log.entries is ${log.entries === undefined ? 'missing' : 'not an array'}`)
  const prefix = options.idPrefix ?? 'har'
  const source = options.source ?? 'import'
  const out: HarImport = { entries: [], total: log.entries.length, warnings: [] }
  log.entries.forEach((entry: unknown, index) => {
    const stream = readEntry(entry, index, `${prefix}-${index}`, source, out.warnings)
    if (stream) out.entries.push(stream)
  })
  return out
}

function readEntry(entry: unknown, index: number, id: string, source: CapturedRequest['source'], warnings: string[]): HarStream | null {
  if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) {
    warnings.push(`entry ${index}: no request or response object, skipped`)
    return null
  }
  const request = requestFromHarEntry(entry, id, source)
  const label = `entry ${index} (${request.method} ${request.url})`
  const content = isObject(entry.response.content) ? entry.response.content : {}
  const byType = transportFromContentType(request.contentType ?? undefined)
  const eventSource = entry._resourceType === 'eventsource'
  const declared = (byType !== null && byType.transport !== 'unknown') || eventSource
  const text = typeof content.text === 'string' ? content.text : null
  if (text === null) {
    if (declared) {
      warnings.push(`${label}: a ${eventSource ? 'EventSource' : request.contentType} response without its body in the HAR (content.text missing${eventSource ? '; Chrome leaves EventSource bodies out' : ''}), skipped`)
    }
    return null
  }
  let body: string | Uint8Array = text
  if (content.encoding === 'base64') {
    try {
      body = base64Decode(text)
    } catch (e) {
      warnings.push(`${label}: content.text is not valid base64 (${(e as Error).message}), skipped`)
      return null
    }
  } else if (content.encoding !== undefined && content.encoding !== null && content.encoding !== '') {
    warnings.push(`${label}: unknown content.encoding ${JSON.stringify(content.encoding)}, read as text`)
  }
  if (!declared && !sniffsAsStream(body, request.url)) return null
  const byteLength = typeof body === 'string' ? utf8Encode(body).length : body.length
  if (byteLength === 0) {
    warnings.push(`${label}: the body in the HAR is empty, skipped`)
    return null
  }
  if (typeof content.size === 'number' && content.size > byteLength) {
    warnings.push(`${label}: the HAR holds ${byteLength} of the body's ${content.size} bytes: the body was cut when the HAR was saved`)
  }
  const stream: HarStream = { request, body, index }
  const chunks = deltascopeChunks(entry, body, byteLength, request.startedAt)
  if (chunks) stream.chunks = chunks
  return stream
}

/** The captured request an entry describes (ids and source are the caller's). */
export function requestFromHarEntry(entry: Record<string, unknown>, id: string, source: CapturedRequest['source'] = 'import'): CapturedRequest {
  const req = isObject(entry.request) ? entry.request : {}
  const res = isObject(entry.response) ? entry.response : {}
  const content = isObject(res.content) ? res.content : {}
  const responseHeaders = readHeaders(res.headers)
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN
  const status = typeof res.status === 'number' && res.status > 0 ? res.status : null
  const mimeType = typeof content.mimeType === 'string' && content.mimeType !== '' ? content.mimeType : null
  return {
    id,
    method: typeof req.method === 'string' ? req.method : 'GET',
    url: typeof req.url === 'string' ? req.url : '',
    status,
    requestHeaders: readHeaders(req.headers),
    responseHeaders,
    requestBody: postDataText(req.postData),
    contentType: headerValue(responseHeaders, 'content-type') || mimeType,
    startedAt: Number.isFinite(started) ? started : 0,
    source,
  }
}

function readHeaders(value: unknown): Header[] {
  if (!Array.isArray(value)) return []
  const out: Header[] = []
  for (const h of value) {
    if (isObject(h) && typeof h.name === 'string') out.push({ name: h.name, value: h.value === undefined || h.value === null ? '' : String(h.value) })
  }
  return out
}

function postDataText(postData: unknown): string | null {
  if (!isObject(postData)) return null
  if (typeof postData.text === 'string') return postData.text
  // Firefox / older Chrome: form posts as params only
  if (Array.isArray(postData.params)) {
    return postData.params
      .filter(isObject)
      .map((p) => encodeURIComponent(String(p.name ?? '')) + (p.value === undefined ? '' : '=' + encodeURIComponent(String(p.value))))
      .join('&')
  }
  return null
}

function deltascopeChunks(entry: Record<string, unknown>, body: string | Uint8Array, byteLength: number, start: number): CapturedChunk[] | undefined {
  const ds = entry._deltascope
  if (!isObject(ds) || !Array.isArray(ds.chunks)) return undefined
  const sizes: Array<{ t: number | null; bytes: number }> = []
  let sum = 0
  for (const c of ds.chunks) {
    if (!isObject(c) || !Number.isInteger(c.bytes) || (c.bytes as number) < 0) return undefined
    const t = typeof c.t === 'number' && Number.isFinite(c.t) ? c.t : null
    sizes.push({ t, bytes: c.bytes as number })
    sum += c.bytes as number
  }
  if (sum !== byteLength) return undefined
  const bytes = typeof body === 'string' ? utf8Encode(body) : body
  let at = 0
  const chunks = sizes.map((s) => {
    const data = bytes.slice(at, at + s.bytes)
    at += s.bytes
    return { data, t: s.t === null ? null : start + s.t }
  })
  // all text when every chunk is whole UTF-8, else all bytes (mixing would reorder a split character)
  const texts = chunks.map((c) => utf8DecodeStrict(c.data))
  if (texts.every((t) => t !== null)) return chunks.map((c, i) => ({ data: texts[i]!, t: c.t }))
  return chunks
}

function keyList(o: Record<string, unknown>): string {
  const keys = Object.keys(o)
  if (keys.length === 0) return 'an empty object'
  return 'keys ' + keys.slice(0, 5).map((k) => JSON.stringify(k)).join(', ') + (keys.length > 5 ? ', …' : '')
}
