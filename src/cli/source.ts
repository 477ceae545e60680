// What a command reads: a raw body, streamed in constant memory, or a Deltascope fixture or
// a HAR, recognised from the first bytes and only then read whole and imported. A fixture or
// HAR entry is a Recording: its chunks with their times, its URL, its Content-Type and the
// provider or framing the panel forced, all of which the replay uses.

import type { LibraryMergeOptions as MergeOptions } from '../library.js'
import { importBytes, parseFixture, type Fixture, type Recording } from '../exchange/index.js'
import { InputError, nextChunk, openInput, readChunks } from './io.js'

/** How much of the start of a file is read to tell a document (fixture, HAR) from a stream. */
export const SNIFF_BYTES = 1 << 16

export type Source =
  /** A raw body: its chunks as read (the sniffed start first), never held whole. */
  | { kind: 'raw'; file: string; chunks: AsyncIterable<Uint8Array> }
  /** A fixture, or the chosen streaming entry of a HAR; `bytes` is the whole document. */
  | { kind: 'fixture' | 'har'; file: string; recording: Recording; warnings: string[]; bytes: Uint8Array }

export type DocumentKind = 'fixture' | 'har'

/** Opens FILE (or stdin for `-`) and tells what it is; errors are InputErrors (one line, exit 2). */
export async function openSource(file: string, entry: number | null): Promise<Source> {
  const input = await openInput(file)
  const iterator = input[Symbol.asyncIterator]()
  try {
    return await readSource(file, entry, iterator)
  } catch (e) {
    // the file is not read to its end: close it now (a handle left to the garbage collector makes Node warn on stderr)
    if (file !== '-') await iterator.return?.().catch(() => undefined)
    throw e
  }
}

async function readSource(file: string, entry: number | null, iterator: AsyncIterator<Uint8Array>): Promise<Source> {
  const head: Uint8Array[] = []
  let size = 0
  let done = false
  let verdict: Verdict = 'more'
  // read until the start tells (a live pipe is not held back: most streams tell at once)
  for (;;) {
    verdict = sniffDocument(decode(concat(head, size)), done)
    if (verdict === 'more' && size >= SNIFF_BYTES) verdict = 'stream'
    if (verdict !== 'more') break
    const next = await nextChunk(iterator, file)
    if (next.done) done = true
    else { head.push(next.value); size += next.value.length }
  }
  if (verdict === 'stream') return rawSource(file, entry, replay(head, done ? null : iterator))
  // a document: read whole (a fixture or HAR is parsed as one JSON value anyway)
  const parts = head
  let total = size
  while (!done) {
    const next = await nextChunk(iterator, file)
    if (next.done) done = true
    else { parts.push(next.value); total += next.value.length }
  }
  const bytes = concat(parts, total)
  const imported = importBytes(bytes, file === '-' ? undefined : file, { idPrefix: 'cli' })
  if (imported.kind === 'error') {
    // NDJSON whose first object has such a key is a stream after all (its first object ends before the file does)
    if (sniffDocument(decode(bytes), true) === 'stream') return rawSource(file, entry, replay([bytes], null))
    throw new InputError(`${label(file)}: ${oneLine(imported.message)}`)
  }
  // it started like a document but is not one (not UTF-8, or not JSON after all)
  if (imported.kind === 'stream') return rawSource(file, entry, replay([bytes], null))
  const n = entry ?? 1
  const kind = imported.kind === 'websocket' ? 'har' : imported.kind
  const recording = imported.items[n - 1]
  if (recording === undefined) throw new InputError(`--entry ${n}: ${listEntries(file, kind, imported.items)}`)
  return { kind, file, recording, warnings: imported.warnings, bytes }
}

function rawSource(file: string, entry: number | null, chunks: AsyncIterable<Uint8Array>): Source {
  if (entry !== null) throw new InputError(`--entry picks an entry of a HAR, but ${label(file)} is a raw stream`)
  return { kind: 'raw', file, chunks }
}

/** The fixture itself (with its chunks), for a source that is one. */
export function fixtureOf(source: Source): Fixture | null {
  if (source.kind !== 'fixture') return null
  return parseFixture(decode(source.bytes))
}

/** A raw body read whole: for the commands that need all of it (check, diagnose, timing). */
export async function readWhole(chunks: AsyncIterable<Uint8Array>, file: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let total = 0
  await readChunks(chunks, file, (c) => { parts.push(c); total += c.length })
  return concat(parts, total)
}

/** A raw body as a Recording: one chunk without a time; the URL is the file's path (or --url). */
export function rawRecording(file: string, body: string | Uint8Array, flags: MergeOptions): Recording {
  const recording: Recording = {
    request: {
      id: 'cli-0', method: '', url: file === '-' ? '' : file, status: null, requestHeaders: [], responseHeaders: [],
      requestBody: null, contentType: null, startedAt: Date.now(), source: 'import',
    },
    chunks: [{ data: body, t: null }],
  }
  return withFlags(recording, flags)
}

/** The recording with what the command line says in place of what it carried. */
export function withFlags(recording: Recording, flags: MergeOptions): Recording {
  const request = { ...recording.request }
  if (flags.url !== undefined) request.url = flags.url
  if (flags.contentType !== undefined) request.contentType = flags.contentType
  const forced = { ...recording.forced }
  if (flags.provider !== undefined) forced.provider = flags.provider
  if (flags.transport !== undefined) forced.transport = flags.transport
  if (flags.rules !== undefined) forced.rules = flags.rules
  const out: Recording = { request, chunks: recording.chunks }
  if (recording.expected !== undefined && !changes(recording, flags)) out.expected = recording.expected
  if (forced.provider !== undefined || forced.transport !== undefined || forced.rules !== undefined) out.forced = forced
  return out
}

function changes(recording: Recording, flags: MergeOptions): boolean {
  return (flags.url !== undefined && flags.url !== recording.request.url)
    || (flags.contentType !== undefined && flags.contentType !== recording.request.contentType)
    || (flags.provider !== undefined && flags.provider !== recording.forced?.provider)
    || (flags.transport !== undefined && flags.transport !== recording.forced?.transport)
    || (flags.rules !== undefined && JSON.stringify(flags.rules) !== JSON.stringify(recording.forced?.rules))
}

/** The merge options a replay of the recording uses (as a fixture's replay does). */
export function recordingOptions(recording: Recording): MergeOptions {
  const options: MergeOptions = {}
  if (recording.request.url !== '') options.url = recording.request.url
  if (recording.request.contentType !== null) options.contentType = recording.request.contentType
  if (recording.forced?.provider !== undefined) options.provider = recording.forced.provider
  if (recording.forced?.transport !== undefined) options.transport = recording.forced.transport
  if (recording.forced?.rules !== undefined) options.rules = recording.forced.rules
  return options
}

/** The recording's chunks with their times in ms since the request started (null when unknown). */
export function* timedChunks(recording: Recording): Generator<{ data: string | Uint8Array; t: number | null }> {
  const start = recording.request.startedAt
  for (const c of recording.chunks) yield { data: c.data, t: c.t === null ? null : c.t - start }
}

// ---------------------------------------------------------------------------
// Recognising a document from its start

/** What the start of a file says: a document, a stream, or not yet (read more). */
export type Verdict = DocumentKind | 'stream' | 'more'

/**
 * 'fixture' when the file starts with a JSON object with a top-level "format":
 * "deltascope-fixture", 'har' when that object has a top-level "log" object, 'stream'
 * otherwise (SSE, NDJSON, a JSON array, anything else), 'more' when `head` does not tell yet.
 * Decided as early as possible, so a stream piped in live is not held back: anything but an
 * object at the start, or a first object that closes without those keys, is a stream at once.
 * `final`: head is the whole file; then a first object followed by more text is NDJSON even
 * with such a key.
 */
export function sniffDocument(head: string, final: boolean): Verdict {
  const n = head.length
  let i = head.charCodeAt(0) === 0xfeff ? 1 : 0
  while (i < n && isSpace(head.charCodeAt(i))) i++
  if (i === n) return final ? 'stream' : 'more'
  if (head[i] !== '{') return 'stream'
  let depth = 0
  let previous = ''
  let kind: DocumentKind | null = null
  for (; i < n; i++) {
    const c = head[i]!
    if (c === '"') {
      const end = stringEnd(head, i)
      if (end < 0) break
      if (kind === null && depth === 1 && (previous === '{' || previous === ',')) {
        const key = documentKey(head, i, end)
        if (key === 'more') return final ? 'stream' : 'more'
        kind = key
        // a document is read whole anyway: say so now, and check the rest once it is all there
        if (kind !== null && !final) return kind
      }
      previous = '"'
      i = end - 1
      continue
    }
    if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) {
        // the first value ended: a document is all there is, NDJSON goes on
        if (kind === null) return 'stream'
        let j = i + 1
        while (j < n && isSpace(head.charCodeAt(j))) j++
        return j === n ? kind : 'stream'
      }
    }
    if (!isSpace(c.charCodeAt(0))) previous = c
  }
  // the first object goes on past head
  if (final) return kind ?? 'stream'
  return 'more'
}

/** The key of a top-level member at [start, end): which document it makes, if any ('more': its value is past head). */
function documentKey(head: string, start: number, end: number): DocumentKind | null | 'more' {
  const key = head.slice(start + 1, end - 1)
  if (key !== 'log' && key !== 'format') return null
  let j = end
  while (j < head.length && isSpace(head.charCodeAt(j))) j++
  if (j === head.length) return 'more'
  if (head[j] !== ':') return null
  j++
  while (j < head.length && isSpace(head.charCodeAt(j))) j++
  if (key === 'log') return j === head.length ? 'more' : head[j] === '{' ? 'har' : null
  // a WebSocket fixture holds several turns: listed and picked like a HAR's entries
  for (const [value, kind] of [['"deltascope-fixture"', 'fixture'], ['"deltascope-websocket"', 'har']] as const) {
    if (head.length - j < value.length) { if (value.startsWith(head.slice(j))) return 'more'; continue }
    if (head.startsWith(value, j)) return kind
  }
  return null
}

/** Index just past the string starting at `start` (a quote), or -1 when it does not end in `text`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x5c) i++
    else if (c === 0x22) return i + 1
  }
  return -1
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

// ---------------------------------------------------------------------------

function label(file: string): string {
  return file === '-' ? 'stdin' : file
}

function listEntries(file: string, kind: DocumentKind, items: readonly Recording[]): string {
  if (kind === 'fixture') return `${label(file)} is a fixture: it holds one request (--entry 1)`
  const list = items.map((r, i) => {
    const { method, url, status, contentType } = r.request
    const ws = r.request.websocket
    const about = ws !== undefined
      ? (ws.turn < 0 ? 'WebSocket, frames outside any turn' : `WebSocket turn ${ws.turn + 1}${ws.key === null ? '' : ` ${ws.key}`}`)
      : [status === null ? null : String(status), contentType].filter((x) => x !== null).join(', ')
    return `${i + 1} = ${method === '' ? '' : method + ' '}${clipUrl(url)}${about === '' ? '' : ` (${about})`}`
  })
  return `${label(file)} has ${items.length} streaming ${items.length === 1 ? 'entry' : 'entries'}: ${list.join('; ')}`
}

function clipUrl(url: string): string {
  return url.length <= 100 ? url : url.slice(0, 99) + '…'
}

/** Messages from the importers are shown on one line of stderr. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ')
}

const decoder = new TextDecoder('utf-8')

function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

async function* replay(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  for (const c of head) yield c
  if (rest === null) return
  for (;;) {
    const next = await rest.next()
    if (next.done) return
    yield next.value
  }
}
