// The Deltascope fixture, v1 (docs/architecture.md#exchange-formats): one captured request as one JSON document —
// request (credentials redacted by default), response status and headers, the body exactly
// as received, the network chunks with their times (ms since the request started), and the
// Reply the merger rebuilt from them.

import { createMerger, PROVIDER_IDS } from '../library.js'
import type { MergeOptions, ProviderId, Reply, Transport } from '../library.js'
import { assembleBody, base64Decode, base64Encode, utf8DecodeStrict, utf8Encode } from './bytes.js'
import { redactBody, redactHeaders, redactUrl } from './redact.js'
import { isObject, parseJsonInput } from './shared.js'
import type { CapturedChunk, Recording, ExportOptions, ForcedOptions, Header } from './types.js'

export const FIXTURE_FORMAT = 'deltascope-fixture'
export const FIXTURE_VERSION = 1
/** Keep in step with package.json (a test checks it). */
export const TOOL_VERSION = '0.1.0'

/** One network chunk: `text` when its bytes are valid UTF-8 on their own, else `base64`. */
export type FixtureChunk =
  | { t: number | null; text: string }
  | { t: number | null; base64: string }

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
  /** Provider / transport forced when the Reply was rebuilt; absent when detected. */
  forced?: ForcedOptions
  meta: {
    exportedAt: string
    tool: 'deltascope'
    toolVersion?: string
    /** Wall-clock start of the request, ms since epoch. */
    startedAt?: number
    /** False when the export includes credentials. */
    redacted?: boolean
  }
}

export class FixtureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FixtureError'
  }
}

/** Builds the fixture of one captured request. Serialise it with `fixtureToJson`. */
export function toFixture(input: Recording, options: ExportOptions = {}): Fixture {
  const include = options.includeCredentials === true
  const { request } = input
  const url = redactUrl(request.url, include)
  const start = request.startedAt
  const chunks = input.chunks.map((c) => fixtureChunk(c, start))
  const body = assembleBody(input.chunks.map((c) => c.data))
  const forced = cleanForced(input.forced)
  const fixture: Fixture = {
    format: FIXTURE_FORMAT,
    version: FIXTURE_VERSION,
    request: {
      method: request.method,
      url,
      headers: redactHeaders(request.requestHeaders, include),
      body: request.requestBody === null ? null : redactBody(request.requestBody, include),
    },
    response: {
      status: request.status,
      headers: redactHeaders(request.responseHeaders, include),
      contentType: request.contentType,
    },
    body: body.bytes ? { text: body.text, base64: base64Encode(body.bytes) } : { text: body.text },
    chunks,
    expected: input.expected ?? replay(replayable(chunks.map(chunkData)), mergeOptions(url, request.contentType, forced)),
    ...(forced ? { forced } : {}),
    meta: {
      exportedAt: options.exportedAt ?? new Date().toISOString(),
      tool: 'deltascope',
      toolVersion: TOOL_VERSION,
      startedAt: start,
      redacted: !include,
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
  return out.provider || out.transport ? out : undefined
}

function mergeOptions(url: string, contentType: string | null, forced: ForcedOptions | undefined): MergeOptions {
  const options: MergeOptions = { url }
  if (contentType) options.contentType = contentType
  if (forced?.provider) options.provider = forced.provider
  if (forced?.transport) options.transport = forced.transport
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
  return fixture
}

const TRANSPORTS: readonly Transport[] = ['sse', 'ndjson', 'json', 'unknown']

type Obj = Record<string, unknown>

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)
  if (typeof v === 'object') return 'an object'
  if (v === undefined) return 'nothing'
  return `${typeof v} ${String(v)}`
}

class Checker {
  private fail(path: string, expected: string, got: unknown): never {
    throw new FixtureError(`${path}: expected ${expected}, got ${describe(got)}`)
  }

  private at(parent: string, key: string): string {
    return parent ? `${parent}.${key}` : key
  }

  object(o: Obj, key: string, parent = ''): Obj {
    const v = o[key]
    if (!isObject(v)) this.fail(this.at(parent, key), 'an object', v)
    return v
  }

  array(o: Obj, key: string, parent: string): unknown[] {
    const v = o[key]
    if (!Array.isArray(v)) this.fail(this.at(parent, key), 'an array', v)
    return v
  }

  string(o: Obj, key: string, parent: string): string {
    const v = o[key]
    if (typeof v !== 'string') this.fail(this.at(parent, key), 'a string', v)
    return v
  }

  stringOrNull(o: Obj, key: string, parent: string): string | null {
    const v = o[key]
    if (v !== null && typeof v !== 'string') this.fail(this.at(parent, key), 'a string or null', v)
    return v
  }

  number(o: Obj, key: string, parent: string): number {
    const v = o[key]
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(this.at(parent, key), 'a number', v)
    return v
  }

  integerOrNull(o: Obj, key: string, parent: string): number | null {
    const v = o[key]
    if (v !== null && !Number.isInteger(v)) this.fail(this.at(parent, key), 'an integer or null', v)
    return v as number | null
  }

  boolean(o: Obj, key: string, parent: string): boolean {
    const v = o[key]
    if (typeof v !== 'boolean') this.fail(this.at(parent, key), 'true or false', v)
    return v
  }

  oneOf<T extends string>(v: unknown, allowed: readonly T[], path: string): T {
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) this.fail(path, `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, v)
    return v as T
  }

  base64(v: unknown, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'a base64 string', v)
    try {
      base64Decode(v)
    } catch (e) {
      throw new FixtureError(`${path}: ${(e as Error).message}`)
    }
    return v
  }

  forced(f: unknown): ForcedOptions {
    if (!isObject(f)) this.fail('forced', 'an object {provider?, transport?}', f)
    const out: ForcedOptions = {}
    if (f.provider !== undefined) out.provider = this.oneOf(f.provider, PROVIDER_IDS, 'forced.provider')
    if (f.transport !== undefined) out.transport = this.oneOf(f.transport, TRANSPORTS, 'forced.transport')
    return out
  }

  headers(o: Obj, key: string, parent: string): Header[] {
    const path = this.at(parent, key)
    const v = o[key]
    if (!Array.isArray(v)) this.fail(path, 'an array of {name, value}', v)
    return v.map((h, i) => {
      if (!isObject(h)) this.fail(`${path}[${i}]`, 'an object {name, value}', h)
      return { name: this.string(h, 'name', `${path}[${i}]`), value: this.string(h, 'value', `${path}[${i}]`) }
    })
  }

  chunk(c: unknown, path: string): FixtureChunk {
    if (!isObject(c)) this.fail(path, 'an object {t, text} or {t, base64}', c)
    const t = c.t
    if (t !== null && (typeof t !== 'number' || !Number.isFinite(t))) this.fail(`${path}.t`, 'a number (ms since the request started) or null', t)
    const hasText = c.text !== undefined
    const hasBase64 = c.base64 !== undefined
    if (hasText === hasBase64) {
      throw new FixtureError(`${path}: expected exactly one of "text" and "base64", got ${hasText ? 'both' : 'neither'}`)
    }
    if (hasText) return { t, text: this.string(c, 'text', path) }
    return { t, base64: this.base64(c.base64, `${path}.base64`) }
  }

  reply(r: unknown, path: string): Reply {
    if (!isObject(r)) this.fail(path, 'the Reply object', r)
    const transport = this.oneOf(r.transport, TRANSPORTS, `${path}.transport`)
    const provider = this.oneOf(r.provider, PROVIDER_IDS, `${path}.provider`)
    const done = this.boolean(r, 'done', path)
    const frameCount = r.frameCount
    if (!Number.isInteger(frameCount) || (frameCount as number) < 0) this.fail(`${path}.frameCount`, 'a whole number', frameCount)
    const choices = this.array(r, 'choices', path).map((c, i) => this.choice(c, `${path}.choices[${i}]`))
    const usage = r.usage
    if (usage !== null && !isObject(usage)) this.fail(`${path}.usage`, 'an object or null', usage)
    const errors = this.array(r, 'errors', path).map((e, i) => {
      const p = `${path}.errors[${i}]`
      if (!isObject(e)) this.fail(p, 'an object', e)
      return {
        frame: this.integer(e, 'frame', p), offset: this.integer(e, 'offset', p), line: this.integer(e, 'line', p),
        raw: this.string(e, 'raw', p), message: this.string(e, 'message', p),
      }
    })
    return { transport, provider, done, frameCount: frameCount as number, choices, usage: usage as Record<string, unknown> | null, errors }
  }

  private integer(o: Obj, key: string, parent: string): number {
    const v = o[key]
    if (!Number.isInteger(v)) this.fail(this.at(parent, key), 'an integer', v)
    return v as number
  }

  private choice(c: unknown, path: string): Reply['choices'][number] {
    if (!isObject(c)) this.fail(path, 'an object', c)
    return {
      index: this.integer(c, 'index', path),
      role: this.stringOrNull(c, 'role', path),
      content: this.string(c, 'content', path),
      reasoning: this.string(c, 'reasoning', path),
      refusal: this.string(c, 'refusal', path),
      toolCalls: this.array(c, 'toolCalls', path).map((t, i) => {
        const p = `${path}.toolCalls[${i}]`
        if (!isObject(t)) this.fail(p, 'an object', t)
        if (!('parsedArguments' in t)) this.fail(`${p}.parsedArguments`, 'a value or null', undefined)
        return {
          index: this.integer(t, 'index', p),
          id: this.stringOrNull(t, 'id', p),
          type: this.stringOrNull(t, 'type', p),
          name: this.stringOrNull(t, 'name', p),
          arguments: this.string(t, 'arguments', p),
          parsedArguments: t.parsedArguments,
          argumentsError: this.stringOrNull(t, 'argumentsError', p),
        }
      }),
      finishReason: this.stringOrNull(c, 'finishReason', path),
    }
  }
}
