// Shared helpers for the invariant tests in test/property/: fixtures loaded defensively,
// chunked merging, exact views of frames/entries, an independent WHATWG UTF-8 decoder
// (the oracle for byte offsets and invalid-UTF-8 diagnostics), and stream generators.

import fc from 'fast-check'
import { expect } from 'vitest'
import { createMerger } from '../../src/index.js'
import type { Frame, FrameEntry, MergeOptions, Reply } from '../../src/index.js'
import { loadFixtures } from './fixtures.js'
import { inspectMerger, type Inspection } from './inspect.js'

export const enc = new TextEncoder()
export const BOM = new Uint8Array([0xef, 0xbb, 0xbf])

// ---------------------------------------------------------------------------
// Fixtures

export interface WireFixture {
  name: string
  wire: Uint8Array
  options: MergeOptions
}

/**
 * The fixtures' wire bytes and merge options. Tolerant: while other engineers are adding
 * fixtures a wire file may briefly have no `.expected.json` beside it, and the property tests
 * do not need it.
 */
export function wireFixtures(): WireFixture[] {
  return loadFixtures({ tolerant: true }).map((f) => ({ name: f.name, wire: f.wire, options: f.options }))
}

// ---------------------------------------------------------------------------
// Merging

export interface Merged {
  reply: Reply
  ins: Inspection
}

/** Pushes each chunk in turn (bytes or strings), ends, inspects. */
export function mergeChunks(chunks: ReadonlyArray<Uint8Array | string>, options: MergeOptions = {}): Merged {
  const m = createMerger(options)
  for (const c of chunks) m.push(c)
  const reply = m.end()
  return { reply, ins: inspectMerger(m) }
}

/** Splits at the given sorted, distinct cut positions (0 < cut < length). */
export function cut<T extends Uint8Array | string | unknown[]>(input: T, cuts: readonly number[]): T[] {
  const out: T[] = []
  let from = 0
  for (const c of cuts) {
    out.push(input.slice(from, c) as T)
    from = c
  }
  out.push(input.slice(from) as T)
  return out
}

export function oneByteCuts(length: number): number[] {
  return Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1)
}

/** Cuts inside every multi-byte UTF-8 sequence (after each of its lead/continuation bytes). */
export function cutsInsideMultibyte(bytes: Uint8Array): number[] {
  const out: number[] = []
  for (let i = 1; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80) out.push(i)
  return out
}

/** Cuts between every CR and the LF after it. */
export function cutsInsideCrlf(bytes: Uint8Array): number[] {
  const out: number[] = []
  for (let i = 1; i < bytes.length; i++) if (bytes[i - 1] === 0x0d && bytes[i] === 0x0a) out.push(i)
  return out
}

/** Random distinct cut points for a body of `length` bytes (or UTF-16 units). */
export function randomCuts(length: number, maxCuts = 64): fc.Arbitrary<number[]> {
  if (length < 2) return fc.constant([])
  return fc
    .uniqueArray(fc.integer({ min: 1, max: length - 1 }), { maxLength: Math.min(maxCuts, length - 1) })
    .map((a) => a.sort((x, y) => x - y))
}

// ---------------------------------------------------------------------------
// Exact views

/** Every field of a frame except `time` (no times are given) and `json` (it follows from `data` and `kind`). */
export function frameView(f: Frame) {
  return {
    seq: f.seq, kind: f.kind, raw: f.raw, start: f.start, end: f.end, byteStart: f.byteStart, byteEnd: f.byteEnd,
    line: f.line, event: f.event, id: f.id, retry: f.retry, data: f.data, unterminated: f.unterminated,
    error: f.error ?? null,
  }
}

export function entryView(e: FrameEntry) {
  return { kind: e.kind, raw: e.raw, start: e.start, end: e.end, line: e.line, beforeFrame: e.beforeFrame }
}

/** What must not depend on how the body was cut into chunks. */
export function chunkInvariantView(m: Merged) {
  return {
    reply: m.reply,
    transport: m.ins.transport,
    provider: m.ins.provider,
    providerReason: m.ins.providerReason,
    frames: m.ins.frames.map(frameView),
    entries: m.ins.entries.map(entryView),
    streamErrors: m.ins.streamErrors,
    provenance: m.ins.provenance,
    // invalid-utf8 diagnostics are checked exactly in byte-offsets.test.ts
    diagnostics: m.ins.diagnostics.filter((d) => d.code !== 'invalid-utf8'),
  }
}

// ---------------------------------------------------------------------------
// An independent WHATWG UTF-8 decoder (Encoding Standard §4.1.1 "UTF-8 decoder"), written
// for the tests from the spec: it says where each U+FFFD for invalid input came from.
// Every use checks that its text equals TextDecoder's, so it cannot silently drift.

export interface OracleReplacement {
  /** Byte offset of the first byte it stands for. */
  byte: number
  /** How many bytes it stands for. */
  length: number
  /** UTF-16 index in the decoded text (no BOM handling: the caller shifts). */
  char: number
}

export function whatwgDecode(bytes: Uint8Array): { text: string; replacements: OracleReplacement[] } {
  const parts: string[] = []
  const replacements: OracleReplacement[] = []
  let chars = 0
  let codePoint = 0
  let seen = 0
  let needed = 0
  let lower = 0x80
  let upper = 0xbf
  let start = 0
  const emitFffd = (from: number, to: number) => {
    replacements.push({ byte: from, length: to - from, char: chars })
    parts.push('\uFFFD')
    chars += 1
  }
  let i = 0
  while (i <= bytes.length) {
    if (i === bytes.length) {
      if (needed !== 0) emitFffd(start, i)
      break
    }
    const b = bytes[i]!
    if (needed === 0) {
      start = i
      if (b <= 0x7f) { parts.push(String.fromCharCode(b)); chars++; i++; continue }
      if (b >= 0xc2 && b <= 0xdf) { needed = 1; codePoint = b & 0x1f }
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0
        if (b === 0xed) upper = 0x9f
        needed = 2; codePoint = b & 0xf
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90
        if (b === 0xf4) upper = 0x8f
        needed = 3; codePoint = b & 0x7
      } else { emitFffd(i, i + 1); i++; continue }
      i++
      continue
    }
    if (b < lower || b > upper) {
      // the bytes so far are one replacement; this byte is read again ("prepend to stream")
      emitFffd(start, i)
      codePoint = needed = seen = 0
      lower = 0x80; upper = 0xbf
      continue
    }
    lower = 0x80; upper = 0xbf
    codePoint = (codePoint << 6) | (b & 0x3f)
    seen++
    i++
    if (seen === needed) {
      const s = String.fromCodePoint(codePoint)
      parts.push(s)
      chars += s.length
      codePoint = needed = seen = 0
    }
  }
  return { text: parts.join(''), replacements }
}

const plainDecoder = new TextDecoder('utf-8', { ignoreBOM: true })

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
}

/** The text a correct client shows: `new TextDecoder().decode(bytes)` (a leading BOM dropped). */
export function decodedBody(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes)
}

/**
 * Checks, from the bytes alone, every frame's and entry's offsets and text (an AWS event
 * stream has no text: its frames cover the bytes one message after another):
 * - the body's text is TextDecoder's (BOM dropped): each `raw` = text.slice(start, end);
 * - `byteStart`/`byteEnd` are where those characters lie in the input: decoding the bytes
 *   between consecutive boundaries gives exactly the characters between them.
 */
export function expectOffsetsMatchBytes(bytes: Uint8Array, ins: Inspection): void {
  if (ins.transport === 'eventstream' || ins.transport === 'connect') {
    // binary: no text; the frames' offsets are byte offsets, and the messages follow one another from byte 0
    let at = 0
    for (const f of ins.frames) {
      expect([f.start, f.end, f.byteStart]).toEqual([f.byteStart, f.byteEnd, at])
      at = f.byteEnd
    }
    expect(at).toBe(ins.frames.length === 0 ? 0 : bytes.length)
    return
  }
  const text = decodedBody(bytes)
  const bom = hasBom(bytes) ? 3 : 0
  // boundaries in increasing order: a frame never starts before the previous one ended
  let prevChar = 0
  let prevByte = bom
  for (const f of ins.frames) {
    expect(f.raw).toBe(text.slice(f.start, f.end))
    expect(f.start).toBeGreaterThanOrEqual(prevChar)
    expect(f.byteStart).toBeGreaterThanOrEqual(prevByte)
    // decoding [prevByte, byteStart) gives exactly the characters [prevChar, start)
    expect(plainDecoder.decode(bytes.subarray(prevByte, f.byteStart))).toBe(text.slice(prevChar, f.start))
    expect(plainDecoder.decode(bytes.subarray(f.byteStart, f.byteEnd))).toBe(f.raw)
    prevChar = f.end
    prevByte = f.byteEnd
  }
  expect(plainDecoder.decode(bytes.subarray(prevByte))).toBe(text.slice(prevChar))
  for (const e of ins.entries) expect(e.raw).toBe(text.slice(e.start, e.end))
}

/** The invalid-utf8 diagnostics the bytes must produce, exactly (offsets shifted past a BOM). */
export function expectedInvalidUtf8(bytes: Uint8Array) {
  const { text, replacements } = whatwgDecode(bytes)
  expect(text).toBe(plainDecoder.decode(bytes)) // the oracle agrees with the platform decoder
  const bomChars = hasBom(bytes) ? 1 : 0
  const listed: Array<{ frame: null; level: string; code: string; byteOffset?: number; offset?: number; message: string }> = replacements.slice(0, MAX_LISTED).map((r) => {
    const hex = Array.from(bytes.subarray(r.byte, r.byte + r.length), (b) => '0x' + b.toString(16).toUpperCase().padStart(2, '0')).join(' ')
    return {
      frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: r.byte, offset: r.char - bomChars,
      message: `invalid UTF-8 (${hex}) at byte ${r.byte}, shown as U+FFFD`,
    }
  })
  // the merger lists the first 100 and counts the rest in one closing diagnostic
  const more = replacements.length - MAX_LISTED
  if (more > 0) listed.push({ frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: undefined, offset: undefined, message: `${more} more invalid UTF-8 sequence${more === 1 ? '' : 's'} not listed (${replacements.length} in all)` })
  return listed
}

const MAX_LISTED = 100

export function invalidUtf8Diagnostics(ins: Inspection) {
  return ins.diagnostics
    .filter((d) => d.code === 'invalid-utf8')
    .map((d) => ({ frame: d.frame, level: d.level, code: d.code, byteOffset: d.byteOffset, offset: d.offset, message: d.message }))
    .sort((a, b) => (a.byteOffset ?? Infinity) - (b.byteOffset ?? Infinity))
}

// ---------------------------------------------------------------------------
// Generators

/** Short texts rich in multi-byte characters, JSON specials and SSE specials. */
export const richText = (maxLength = 12) =>
  fc.string({
    unit: fc.constantFrom('a', 'b', 'Z', ' ', '  ', 'é', '€', '😀', '中', '文', '"', '\\', '\u2028', '\uFEFF', '\uFFFD', ':', '{', '[DONE]', '\t'),
    maxLength,
  })

/** A JSON payload an OpenAI-compatible server could send, with multi-byte text. */
const openaiChunk = fc
  .record({
    index: fc.constantFrom(0, 1),
    role: fc.option(fc.constant('assistant'), { nil: undefined }),
    content: fc.option(fc.oneof(richText(), fc.constant(null)), { nil: undefined }),
    reasoning_content: fc.option(richText(6), { nil: undefined }),
    tool: fc.option(fc.record({ index: fc.constantFrom(0, 1), id: fc.option(fc.constantFrom('call_1', 'call_2', ''), { nil: undefined }), name: fc.option(fc.constantFrom('get_weather', 'f'), { nil: undefined }), args: richText(8) }), { nil: undefined }),
    finish: fc.option(fc.constantFrom('stop', 'tool_calls', 'length', ''), { nil: undefined }),
    usage: fc.option(fc.record({ prompt_tokens: fc.nat(100), completion_tokens: fc.nat(100) }), { nil: undefined }),
  })
  .map((c) => {
    const delta: Record<string, unknown> = {}
    if (c.role !== undefined) delta['role'] = c.role
    if (c.content !== undefined) delta['content'] = c.content
    if (c.reasoning_content !== undefined) delta['reasoning_content'] = c.reasoning_content
    if (c.tool !== undefined) {
      const fn: Record<string, unknown> = { arguments: c.tool.args }
      if (c.tool.name !== undefined) fn['name'] = c.tool.name
      const call: Record<string, unknown> = { index: c.tool.index, function: fn }
      if (c.tool.id !== undefined) call['id'] = c.tool.id
      delta['tool_calls'] = [call]
    }
    const chunk: Record<string, unknown> = {
      object: 'chat.completion.chunk',
      choices: [{ index: c.index, delta, finish_reason: c.finish ?? null }],
    }
    if (c.usage !== undefined) chunk['usage'] = c.usage
    return JSON.stringify(chunk)
  })

/** A data value (no CR/LF): mostly JSON chunks, also [DONE], broken JSON and free text. */
export const dataPayload = fc.oneof(
  { arbitrary: openaiChunk, weight: 6 },
  { arbitrary: fc.constantFrom('[DONE]', ' [DONE]', '{"choices":[', 'not json', '{"a":1', '{}', '[]', '"€"'), weight: 2 },
  { arbitrary: richText(), weight: 1 },
)

export type Eol = '\n' | '\r' | '\r\n'
export const eol: fc.Arbitrary<Eol> = fc.constantFrom<Eol>('\n', '\r', '\r\n')

/** `name`, `name:value`, `name: value`, `name:  value` (the second space is kept). */
const fieldLine = (name: string, value: string) =>
  fc.constantFrom(`${name}: ${value}`, `${name}:${value}`, `${name}:  ${value}`, ...(value === '' ? [name, `${name}:`] : []))

/** Names that are not SSE fields. */
export const UNKNOWN_FIELDS = ['foo', 'x-trace', 'Data', 'DATA', 'Event', ' data']

export type SseLine =
  | { kind: 'data'; text: string }
  | { kind: 'event' | 'id' | 'retry' | 'unknown' | 'comment'; text: string }

function dataLines(): fc.Arbitrary<string[]> {
  return fc.tuple(dataPayload, fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 3 }) }), fc.array(fc.nat(), { minLength: 2, maxLength: 2 })).chain(([payload, parts, seeds]) => {
    // multi-line data: the payload cut into `parts` pieces (between code points), each on its own data line
    const points = Array.from(payload)
    const cuts = [...new Set(seeds.slice(0, parts - 1).map((s) => s % (points.length + 1)))].sort((a, b) => a - b)
    const pieces = cut(points, cuts).map((p) => p.join(''))
    return fc.tuple(...pieces.map((p) => fieldLine('data', p)))
  })
}

const commentLine = fc.oneof(
  fc.constantFrom(':', ': keep-alive', ':OPENROUTER PROCESSING', ':  two spaces'),
  richText(8).map((t) => `:${t}`),
)
const eventLine = fc.constantFrom('message', 'ping', 'content_block_delta', '', 'ev€nt 😀').chain((v) => fieldLine('event', v))
const idLine = fc.constantFrom('1', 'abc', '', 'a\0b', '😀').chain((v) => fieldLine('id', v))
const retryLine = fc.constantFrom('100', 'x', '').chain((v) => fieldLine('retry', v))

/** One block's lines (without its blank line). */
export const sseBlock: fc.Arbitrary<string[]> = fc.oneof(
  // a frame: optional event/id/retry/comment lines around its data lines
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.option(eventLine, { nil: null }), fc.option(idLine, { nil: null }), fc.option(retryLine, { nil: null }), fc.option(commentLine, { nil: null }), dataLines(), fc.boolean())
      .map(([ev, id, retry, comment, data, eventAfter]) => {
        const head = [ev, id, retry, comment].filter((l): l is string => l !== null)
        return eventAfter && ev !== null ? [...head.slice(1), ...data, ev] : [...head, ...data]
      }),
  },
  // comment-only block
  { weight: 2, arbitrary: fc.array(commentLine, { minLength: 1, maxLength: 3 }) },
  // field-only block (event: ping), possibly with an unknown field or a comment
  {
    weight: 2,
    arbitrary: fc.tuple(eventLine, fc.option(idLine, { nil: null }), fc.option(fc.constantFrom(...UNKNOWN_FIELDS).chain((n) => fieldLine(n, 'v')), { nil: null }), fc.option(commentLine, { nil: null }))
      .map((ls) => ls.filter((l): l is string => l !== null)),
  },
  // an empty data line alone (`data:` → no event in WHATWG terms for us: an 'empty' entry)
  { weight: 1, arbitrary: fc.constantFrom<string[]>(['data:'], ['data'], ['data: ']) },
)

export interface SseStream {
  /** The body as text (without BOM). */
  text: string
  bom: 'none' | 'bytes' | 'string'
  /** The body as bytes (BOM bytes included when bom !== 'none'). */
  bytes: Uint8Array
  /** The body as a JS string (starts with U+FEFF when bom !== 'none'). */
  string: string
}

function render(blocks: string[][], eols: Eol[], blankEols: Eol[], extraBlank: number[], finalBlank: boolean, finalEol: boolean): string {
  let out = ''
  let k = 0
  blocks.forEach((lines, b) => {
    lines.forEach((line, j) => {
      const last = b === blocks.length - 1 && j === lines.length - 1
      out += line
      if (!last || finalBlank || finalEol) out += eols[k++ % eols.length]!
    })
    if (b < blocks.length - 1 || finalBlank) {
      for (let x = 0; x <= extraBlank[b % extraBlank.length]!; x++) out += blankEols[(b + x) % blankEols.length]!
    }
  })
  return out
}

/**
 * Random SSE streams: frames (event/id/retry/comment + 1–3 data lines), comment blocks,
 * field-only blocks, a random line ending per line (LF/CR/CRLF), extra blank lines, an
 * optional BOM, and a final block that may have no blank line (or no line ending at all).
 */
export const sseStream: fc.Arbitrary<SseStream> = fc
  .record({
    lead: fc.constantFrom<string[][]>([], [[':ok']], [['retry: 3000']]),
    blocks: fc.array(sseBlock, { minLength: 1, maxLength: 8 }),
    eols: fc.array(eol, { minLength: 1, maxLength: 12 }),
    blankEols: fc.array(eol, { minLength: 1, maxLength: 4 }),
    extraBlank: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }),
    finalBlank: fc.boolean(),
    finalEol: fc.boolean(),
    bom: fc.constantFrom<SseStream['bom']>('none', 'none', 'bytes', 'string'),
  })
  .map((r) => {
    const text = render([...r.lead, ...r.blocks], r.eols, r.blankEols, r.extraBlank, r.finalBlank, r.finalEol)
    const body = enc.encode(text)
    const bytes = r.bom === 'none' ? body : concat(BOM, body)
    return { text, bom: r.bom, bytes, string: (r.bom === 'none' ? '' : '\uFEFF') + text }
  })

/** NDJSON bodies: JSON objects, blank and whitespace lines, broken lines, mixed line endings. */
export const ndjsonStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.oneof(
          { weight: 6, arbitrary: fc.record({ content: richText(), done: fc.boolean(), thinking: fc.option(richText(4), { nil: undefined }) }).map((r) => JSON.stringify({ model: 'm', message: { role: 'assistant', content: r.content, ...(r.thinking === undefined ? {} : { thinking: r.thinking }) }, done: r.done, ...(r.done ? { done_reason: 'stop', eval_count: 3 } : {}) })) },
          { weight: 1, arbitrary: fc.constantFrom('', '   ', '\t', '{"broken":', 'garbage €', '{"error":"boom"}') },
        ),
        eol,
      ),
      { minLength: 1, maxLength: 10 },
    ),
    fc.boolean(),
  )
  .map(([lines, finalEol]) => enc.encode(lines.map(([l, e], i) => l + (i < lines.length - 1 || finalEol ? e : '')).join('')))

/** JSON-array bodies (Gemini without alt=sse): elements of all kinds, whitespace, maybe unclosed. */
export const jsonArrayStream: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: richText().map((t) => JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }] })) },
        { weight: 1, arbitrary: fc.constantFrom('1', '"a,]b"', 'null', '[1,[2]]', '{"usageMetadata":{"promptTokenCount":3}}', '{"x":"\\"]"}', '{"candidates":[{"finishReason":"STOP","content":{"parts":[{"text":"€"}]}}]}') },
      ),
      { maxLength: 6 },
    ),
    fc.constantFrom('', ' ', '\n', '\r\n', ',\n'),
    fc.constantFrom(']', ']\n', '', ' ] trailing'),
  )
  .map(([els, sep, close]) => enc.encode('[' + sep + els.join(',' + sep) + close))

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}
