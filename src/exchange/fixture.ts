// The Deltascope fixture, v1 (docs/architecture.md#exchange-formats): one captured request as one JSON document —
// request (credentials redacted by default), response status and headers, the body exactly
// as received, the network chunks with their times (ms since the request started), and the
// Reply the merger rebuilt from them.

import { createMerger } from '../library.js'
import type { LibraryMergeOptions as MergeOptions, Reply } from '../library.js'
import { assembleBody, base64Decode, base64Encode, utf8DecodeStrict, utf8Encode } from './bytes.js'
import { Checker, FixtureError, describe, type FixtureChunk } from './fixture-check.js'
import { redactRecording, userRules, type Redaction } from './redact.js'
import { isObject, parseJsonInput } from './shared.js'
import type { CapturedChunk, Recording, ExportOptions, ForcedOptions, Header } from './types.js'

export { FixtureError, type FixtureChunk } from './fixture-check.js'

export const FIXTURE_FORMAT = 'deltascope-fixture'
export const FIXTURE_VERSION = 1
/** Keep in step with package.json (a test checks it). */
export const TOOL_VERSION = '0.1.0'


export interface Fixture {
  format: typeof FIXTURE_FORMAT
  version: typeof FIXTURE_VERSION
  request: { method: string; url: string; headers: Header[]; body: string | null }
  response: { status: number | null; headers: Header[]; contentType: string | null }
  /** The body exactly as received; `base64` (the exact bytes) only when it is not valid UTF-8, `text` then has U+FFFD. */
  body: { text: string; base64?: string }
  /** In arrival order; t in ms since the request started, null when unknown. */
  chunks: FixtureChunk[]
  /** The Reply rebuilt from these chunks (docs/architecture.md#the-reply-contract). */
  expected: Reply
  /** Provider / transport forced, or the user rules read with, when the Reply was rebuilt; absent when detected. */
  forced?: ForcedOptions
  meta: {
    exportedAt: string
    tool: 'deltascope'
    toolVersion?: string
    /** Wall-clock start of the request, ms since epoch. */
    startedAt?: number
    /** False when the export includes credentials. */
    redacted?: boolean
    /** What redaction left out (docs/architecture.md#redaction): where, and the header, parameter or field name. */
    redactions?: Redaction[]
  }
}


/** Builds the fixture of one captured request. Serialise it with `fixtureToJson`. */
export function toFixture(input: Recording, options: ExportOptions = {}): Fixture {
  const include = options.includeCredentials === true
  const redaction = redactRecording(input, { includeCredentials: include, ...userRules(options) })
  const { request } = redaction
  const url = request.url
  const start = request.startedAt
  const chunks = redaction.chunks.map((c) => fixtureChunk(c, start))
  const body = assembleBody(redaction.chunks.map((c) => c.data))
  const forced = cleanForced(input.forced)
  // an echoed secret replaced in the body changes its text: the Reply is rebuilt from what is stored
  const given = redaction.bodyChanged ? undefined : input.expected
  const fixture: Fixture = {
    format: FIXTURE_FORMAT,
    version: FIXTURE_VERSION,
    request: { method: request.method, url, headers: request.requestHeaders, body: request.requestBody },
    response: { status: request.status, headers: request.responseHeaders, contentType: request.contentType },
    body: body.bytes ? { text: body.text, base64: base64Encode(body.bytes) } : { text: body.text },
    chunks,
    expected: given ?? replay(replayable(chunks.map(chunkData)), mergeOptions(url, request.contentType, forced)),
    ...(forced ? { forced } : {}),
    meta: {
      exportedAt: options.exportedAt ?? new Date().toISOString(),
      tool: 'deltascope',
      toolVersion: TOOL_VERSION,
      startedAt: start,
      redacted: !include,
      ...(include ? {} : { redactions: redaction.redactions }),
    },
  }
  return fixture
}

/** The fixture as a JSON document: 2-space indented, one chunk per line, a final newline. */
export function fixtureToJson(fixture: Fixture): string {
  const members = Object.entries(fixture).map(([key, value]) => {
    const json = key === 'chunks' && Array.isArray(value) && value.length > 0
      ? '[\n' + (value as FixtureChunk[]).map((c) => '    ' + JSON.stringify(c)).join(',\n') + '\n  ]'
      : JSON.stringify(value, null, 2).replace(/\n/g, '\n  ') // JSON text has no raw newline inside strings
    return `  ${JSON.stringify(key)}: ${json}`
  })
  return '{\n' + members.join(',\n') + '\n}\n'
}

function fixtureChunk(c: CapturedChunk, start: number): FixtureChunk {
  const t = c.t === null ? null : roundMs(c.t - start)
  if (typeof c.data === 'string') return { t, text: c.data }
  const text = utf8DecodeStrict(c.data)
  return text !== null ? { t, text } : { t, base64: base64Encode(c.data) }
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000
}

function cleanForced(forced: ForcedOptions | undefined): ForcedOptions | undefined {
  if (!forced) return undefined
  const out: ForcedOptions = {}
  if (forced.provider) out.provider = forced.provider
  if (forced.transport) out.transport = forced.transport
  if (forced.rules) out.rules = forced.rules
  return out.provider || out.transport || out.rules ? out : undefined
}

function mergeOptions(url: string, contentType: string | null, forced: ForcedOptions | undefined): MergeOptions {
  const options: MergeOptions = { url }
  if (contentType) options.contentType = contentType
  if (forced?.provider) options.provider = forced.provider
  if (forced?.transport) options.transport = forced.transport
  if (forced?.rules) options.rules = forced.rules
  return options
}

function replay(chunks: Array<{ data: string | Uint8Array; t: number | null }>, options: MergeOptions): Reply {
  const merger = createMerger(options)
  for (const c of chunks) {
    if (c.t === null) merger.push(c.data)
    else merger.push(c.data, c.t)
  }
  return merger.end()
}

function replayable(chunks: Array<{ data: string | Uint8Array; t: number | null }>): Array<{ data: string | Uint8Array; t: number | null }> {
  if (chunks.every((c) => typeof c.data === 'string')) return chunks
  return chunks.map((c) => ({ data: typeof c.data === 'string' ? utf8Encode(c.data) : c.data, t: c.t }))
}

function chunkData(c: FixtureChunk): { data: string | Uint8Array; t: number | null } {
  return { data: 'base64' in c ? base64Decode(c.base64) : c.text, t: c.t }
}

// ---------------------------------------------------------------------------
// Replay

/** The chunks to push, in order; t in ms since the request started (null when unknown). When the fixture has no chunks, its body as one. */
export function fixtureChunks(fixture: Fixture): Array<{ data: string | Uint8Array; t: number | null }> {
  if (fixture.chunks.length > 0) {
    const chunks = fixture.chunks.map(chunkData)
    // With any base64 chunk, all become bytes: a merger must not get text between the two
    // halves of a split (or invalid) sequence.
    return replayable(chunks)
  }
  const body = fixtureBody(fixture)
  return (typeof body === 'string' ? body.length : body.length) > 0 ? [{ data: body, t: null }] : []
}

/** The whole body: the exact bytes when it is not valid UTF-8, else the text. */
export function fixtureBody(fixture: Fixture): string | Uint8Array {
  return fixture.body.base64 !== undefined ? base64Decode(fixture.body.base64) : fixture.body.text
}

/** The merge options a replay must use: the response's Content-Type, the URL, what was forced. */
export function fixtureMergeOptions(fixture: Fixture): MergeOptions {
  return mergeOptions(fixture.request.url, fixture.response.contentType, fixture.forced)
}

/** Replays the chunks (with their times) into a fresh merger and returns its Reply. */
export function replayFixture(fixture: Fixture): Reply {
  return replay(fixtureChunks(fixture), fixtureMergeOptions(fixture))
}

/** Problems that do not stop an import: chunks that do not add up to the body. */
export function checkFixture(fixture: Fixture): string[] {
  const warnings: string[] = []
  if (fixture.chunks.length > 0) {
    const joined = assembleBody(fixture.chunks.map((c) => chunkData(c).data))
    const body = fixtureBody(fixture)
    const same = typeof body === 'string'
      ? joined.bytes === undefined && joined.text === body
      : joined.bytes !== undefined && equalBytes(joined.bytes, body)
    if (!same) warnings.push('the chunks do not add up to body: the chunks are replayed, body is ignored')
  }
  return warnings
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

// ---------------------------------------------------------------------------
// Parsing, with errors that name the field

/** Parses and checks a fixture (JSON text or an already parsed value). Throws FixtureError naming the wrong field. */
export function parseFixture(json: string | unknown): Fixture {
  const value = parseJsonInput(json, (reason) => new FixtureError(`Not a Deltascope fixture: ${reason}`))
  if (!isObject(value)) throw new FixtureError(`Not a Deltascope fixture: expected a JSON object, got ${describe(value)}`)
  if (value.format !== FIXTURE_FORMAT) {
    throw new FixtureError(
      value.format === undefined
        ? 'Not a Deltascope fixture: "format" is missing (expected "deltascope-fixture")'
        : `Not a Deltascope fixture: format is ${describe(value.format)}, expected "deltascope-fixture"`,
    )
  }
  if (value.version !== FIXTURE_VERSION) {
    throw new FixtureError(`Unsupported fixture version ${describe(value.version)}: this Deltascope reads version 1`)
  }
  const v = new Checker()
  const request = v.object(value, 'request')
  const response = v.object(value, 'response')
  const body = v.object(value, 'body')
  const meta = v.object(value, 'meta')
  const fixture: Fixture = {
    format: FIXTURE_FORMAT,
    version: FIXTURE_VERSION,
    request: {
      method: v.string(request, 'method', 'request'),
      url: v.string(request, 'url', 'request'),
      headers: v.headers(request, 'headers', 'request'),
      body: v.stringOrNull(request, 'body', 'request'),
    },
    response: {
      status: v.integerOrNull(response, 'status', 'response'),
      headers: v.headers(response, 'headers', 'response'),
      contentType: v.stringOrNull(response, 'contentType', 'response'),
    },
    body: body.base64 === undefined
      ? { text: v.string(body, 'text', 'body') }
      : { text: v.string(body, 'text', 'body'), base64: v.base64(body.base64, 'body.base64') },
    chunks: v.array(value, 'chunks', '').map((c, i) => v.chunk(c, `chunks[${i}]`)),
    expected: v.reply(value.expected, 'expected'),
    ...(value.forced === undefined ? {} : { forced: v.forced(value.forced) }),
    meta: { exportedAt: v.string(meta, 'exportedAt', 'meta'), tool: 'deltascope' },
  }
  if (meta.tool !== 'deltascope') throw new FixtureError(`meta.tool: expected "deltascope", got ${describe(meta.tool)}`)
  if (meta.toolVersion !== undefined) fixture.meta.toolVersion = v.string(meta, 'toolVersion', 'meta')
  if (meta.startedAt !== undefined) fixture.meta.startedAt = v.number(meta, 'startedAt', 'meta')
  if (meta.redacted !== undefined) fixture.meta.redacted = v.boolean(meta, 'redacted', 'meta')
  if (meta.redactions !== undefined) fixture.meta.redactions = v.redactions(meta.redactions)
  return fixture
}
