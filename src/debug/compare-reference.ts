// The reference a client is compared against: the Reply Deltascope rebuilds, and, when it was
// rebuilt here from a body or a fixture, the merger that knows which frame wrote which run of
// text (provenance), where each frame sits in the body, and (from a fixture's chunks) where
// each network read began and ended.

import { FIXTURE_FORMAT, fixtureChunks, fixtureMergeOptions, parseFixture, type Fixture } from '../exchange/fixture.js'
import { createMerger, utf8Length } from '../library.js'
import type { Channel, LibraryMergeOptions, Merger, Provenance, Reply } from '../library.js'

export type ReferenceInput = Fixture | Reply | string | Uint8Array

export interface Reference {
  reply: Reply
  /** The merger that rebuilt the reply; null for a bare Reply (no frames are known). */
  merger: Merger | null
  provenance: Provenance[]
  /** Byte ranges [start, end) of the network reads, in order; null when the reads are unknown. */
  reads: Array<{ start: number; end: number }> | null
  /** The reads are unknown because the body was captured whole once it ended (no chunk has a time). */
  capturedWhole?: true
  /** Set by the comparison from the fields the client got right: what it evidently read. */
  client: ClientEvidence
}

export interface ClientEvidence {
  /** It has text that came in a frame split across reads: it does not parse each read on its own. */
  readsWhole: boolean
  /** The last frame it evidently read (text it has, or the finish reason that frame set); -1 when none. */
  lastFrameRead(): number
}

const NO_EVIDENCE: ClientEvidence = { readsWhole: false, lastFrameRead: () => -1 }

/** A run of one field's expected text and the frame that wrote it. */
export interface TextRun {
  frame: number
  start: number
  end: number
  text: string
}

/** One field of the reference with provenance: a channel of a choice, or a tool call's arguments. */
export interface FieldKey {
  choice: number
  channel: Channel | 'arguments'
  /** Position in choice.toolCalls, for 'arguments'. */
  toolCall: number | null
}

type Obj = Record<string, unknown>

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isReply(v: Obj): boolean {
  return Array.isArray(v['choices']) && typeof v['provider'] === 'string' && typeof v['transport'] === 'string'
}

/**
 * Reads the reference: a fixture (object or JSON text) is replayed chunk by chunk with its
 * times; a body is merged; a Reply is taken as it is. Throws a TypeError (or the fixture's
 * FixtureError) when the reference is none of these: it is the test's own input, not the client's.
 */
export function readReference(input: unknown, options: LibraryMergeOptions = {}): Reference {
  if (input instanceof Uint8Array) return fromBody(input, options)
  if (typeof input === 'string') {
    const json = jsonObject(input)
    if (json !== null && (json['format'] === FIXTURE_FORMAT || isReply(json))) return readReference(json, options)
    return fromBody(input, options)
  }
  if (isObject(input)) {
    if (input['format'] === FIXTURE_FORMAT) return fromFixture(parseFixture(input))
    if (isReply(input)) return { reply: input as unknown as Reply, merger: null, provenance: [], reads: null, client: NO_EVIDENCE }
  }
  throw new TypeError('compareReply: the reference must be a Deltascope fixture (object or JSON text), a Reply, or a body (string or Uint8Array)')
}

/** The text as a JSON object, when it is one (a body that is one NDJSON line is not a fixture either). */
function jsonObject(text: string): Obj | null {
  const trimmed = text.replace(/^\ufeff/, '').trimStart()
  if (!trimmed.startsWith('{')) return null
  try {
    const value: unknown = JSON.parse(trimmed)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

function fromBody(body: string | Uint8Array, options: LibraryMergeOptions): Reference {
  const merger = createMerger(options)
  merger.push(body)
  const reply = merger.end()
  return { reply, merger, provenance: merger.provenance(), reads: null, client: NO_EVIDENCE }
}

function fromFixture(fixture: Fixture): Reference {
  const merger = createMerger(fixtureMergeOptions(fixture))
  const chunks = fixtureChunks(fixture)
  const reads: Array<{ start: number; end: number }> = []
  let at = 0
  for (const c of chunks) {
    if (c.t === null) merger.push(c.data)
    else merger.push(c.data, c.t)
    const length = typeof c.data === 'string' ? utf8Length(c.data) : c.data.length
    reads.push({ start: at, end: at + length })
    at += length
  }
  const reply = merger.end()
  // without recorded chunks the body is one piece: no read boundaries are known; nor when no
  // chunk has a time (a body captured whole once it ended, as DevTools hands it over)
  const known = fixture.chunks.length > 0 && chunks.some((c) => c.t !== null)
  return {
    reply, merger, provenance: merger.provenance(), reads: known ? reads : null, client: NO_EVIDENCE,
    ...(!known && fixture.chunks.length > 0 ? { capturedWhole: true as const } : {}),
  }
}

/** The runs of one field's expected text, in order, a frame's adjacent runs joined; null without provenance. */
export function fieldRuns(ref: Reference, field: FieldKey, expected: string): TextRun[] | null {
  if (ref.merger === null) return null
  const runs: TextRun[] = []
  for (const p of ref.provenance) {
    if (p.choice !== field.choice || p.channel !== field.channel || p.toolCall !== field.toolCall) continue
    const last = runs[runs.length - 1]
    if (last && last.frame === p.frame && last.end === p.start) {
      last.end = p.end
      last.text = expected.slice(last.start, last.end)
    } else runs.push({ frame: p.frame, start: p.start, end: p.end, text: expected.slice(p.start, p.end) })
  }
  return runs
}

/** The frame whose run holds character `offset` of the field, or null. */
export function frameAt(runs: readonly TextRun[] | null, offset: number): number | null {
  if (runs === null) return null
  for (const r of runs) if (r.start <= offset && offset < r.end) return r.frame
  return null
}

/** The reads (indexes into the fixture's chunks) that bytes [start, end) span; null when reads are unknown. */
export function readsSpanned(ref: Reference, start: number, end: number): { first: number; last: number } | null {
  if (ref.reads === null || end <= start) return null
  const first = ref.reads.findIndex((r) => r.end > start)
  if (first < 0) return null
  let last = first
  while (last + 1 < ref.reads.length && ref.reads[last + 1]!.start < end) last++
  return { first, last }
}

/** The reads a frame's bytes span, when it spans more than one and the client may parse reads on their own. */
export function frameSplitAcrossReads(ref: Reference, frame: number): { first: number; last: number } | null {
  if (ref.merger === null || ref.reads === null || ref.client.readsWhole) return null
  return spannedReads(ref, frame)
}

/** The reads a frame's bytes span, when it spans more than one. */
export function spannedReads(ref: Reference, frame: number): { first: number; last: number } | null {
  if (ref.merger === null || ref.reads === null) return null
  const info = ref.merger.frameInfo(frame)
  const reads = readsSpanned(ref, info.byteStart, info.byteEnd)
  return reads && reads.last > reads.first ? reads : null
}

/** The reads between which one of the frame's raw copies of `char` was split, or null. */
export function characterSplitAcrossReads(ref: Reference, frame: number, char: string): { first: number; last: number } | null {
  if (ref.merger === null || ref.reads === null) return null
  const f = ref.merger.frame(frame)
  const size = utf8Length(char)
  for (let at = f.raw.indexOf(char); at >= 0; at = f.raw.indexOf(char, at + 1)) {
    const byte = f.byteStart + utf8Length(f.raw, 0, at)
    const reads = readsSpanned(ref, byte, byte + size)
    if (reads && reads.last > reads.first) return reads
  }
  return null
}

/** The read that holds the frame's first raw copy of `char`, or null (reads unknown, or the frame's text escapes it). */
export function readOfCharacter(ref: Reference, frame: number, char: string): number | null {
  if (ref.merger === null || ref.reads === null) return null
  const f = ref.merger.frame(frame)
  const at = f.raw.indexOf(char)
  if (at < 0) return null
  const byte = f.byteStart + utf8Length(f.raw, 0, at)
  return readsSpanned(ref, byte, byte + utf8Length(char))?.first ?? null
}

/** A frame that failed to parse, a provider error, or an unterminated frame: what a client may stop at. */
export interface Stop {
  frame: number
  kind: 'broken' | 'error' | 'unterminated'
  message: string
}

/** The first place in frames (after, before) exclusive where a client may have stopped. */
export function stopBetween(ref: Reference, after: number, before: number): Stop | null {
  const stops: Stop[] = [
    ...ref.reply.errors.map((e): Stop => ({ frame: e.frame, kind: 'broken', message: e.message })),
    ...(ref.merger?.streamErrors() ?? []).map((e): Stop => ({ frame: e.frame, kind: 'error', message: e.message })),
  ].filter((s) => s.frame > after && s.frame < before)
  stops.sort((a, b) => a.frame - b.frame)
  return stops[0] ?? null
}

/** Finish reasons and usage values as they changed frame by frame (for the frame behind a difference). */
export interface History {
  /** Per choice: the frame that set the final finish reason. */
  finishFrame: Map<number, number>
  /** Per usage path (`usage.output_tokens`): the frame that set its final value, and the values frames sent for it, in order. */
  usage: Map<string, { frame: number; last: unknown; sent: unknown[] }>
  /** Per tool call (callKey): the frames that first gave it a name and an id. */
  calls: Map<string, { name: number | null; id: number | null }>
}

/** A tool call's identity across snapshots: its choice, its wire index, and which call at that index it is. */
export function callKey(choice: number, calls: ReadonlyArray<{ index: number }>, position: number): string {
  const index = calls[position]!.index
  let k = 0
  for (let i = 0; i < position; i++) if (calls[i]!.index === index) k++
  return `${choice}:${index}:${k}`
}

/** Replaying more frames than this to find who set a value is not worth it: the frame is left unknown. */
const HISTORY_FRAME_LIMIT = 2000

export function replyHistory(ref: Reference): History | null {
  const merger = ref.merger
  if (merger === null || merger.frameCount > HISTORY_FRAME_LIMIT) return null
  const history: History = { finishFrame: new Map(), usage: new Map(), calls: new Map() }
  const finish = new Map<number, string | null>()
  for (let seq = 0; seq < merger.frameCount; seq++) {
    const reply = merger.replyAt(seq)
    for (const c of reply.choices) {
      if ((finish.get(c.index) ?? null) !== c.finishReason) {
        finish.set(c.index, c.finishReason)
        history.finishFrame.set(c.index, seq)
      }
      c.toolCalls.forEach((call, position) => {
        const key = callKey(c.index, c.toolCalls, position)
        const seen = history.calls.get(key) ?? { name: null, id: null }
        if (seen.name === null && call.name !== null) seen.name = seq
        if (seen.id === null && call.id !== null) seen.id = seq
        history.calls.set(key, seen)
      })
    }
    if (reply.usage) recordUsage(history, 'usage', reply.usage, seq)
    const sent = sentUsage(merger.frame(seq).json, 0)
    if (sent) recordSent(history, 'usage', sent)
  }
  return history
}

function recordUsage(history: History, path: string, value: unknown, seq: number): void {
  if (isObject(value)) {
    for (const key of Object.keys(value)) recordUsage(history, `${path}.${key}`, value[key], seq)
    return
  }
  const entry = history.usage.get(path)
  if (!entry) history.usage.set(path, { frame: seq, last: value, sent: [] })
  else if (!sameValue(entry.last, value, true)) {
    entry.frame = seq
    entry.last = value
  }
}

/** Where a frame carries usage: a `usage` or `usageMetadata` object near its top (every provider's place for it). */
function sentUsage(json: unknown, depth: number): Obj | null {
  if (!isObject(json) || depth > 2) return null
  for (const key of ['usage', 'usageMetadata']) if (isObject(json[key])) return json[key] as Obj
  for (const value of Object.values(json)) {
    const found = sentUsage(value, depth + 1)
    if (found) return found
  }
  return null
}

/** Usage paths deeper than this are not followed (the Reply's own usage nests a few levels; a frame's may nest thousands). */
const SENT_DEPTH = 16

function recordSent(history: History, path: string, value: unknown, depth = 0): void {
  if (isObject(value)) {
    if (depth < SENT_DEPTH) for (const key of Object.keys(value)) recordSent(history, `${path}.${key}`, value[key], depth + 1)
    return
  }
  if (value !== null && value !== undefined) history.usage.get(path)?.sent.push(value)
}

/**
 * Deep equality of JSON values; with `loose`, null and absent are alike (usage, where the Reply
 * drops nulls). Iterative: a client's result can nest deeper than the call stack.
 */
export function sameValue(a: unknown, b: unknown, loose = false): boolean {
  const pairs: Array<[unknown, unknown]> = [[a, b]]
  while (pairs.length > 0) {
    const [x, y] = pairs.pop()!
    if (x === y) continue
    if (loose && (x === null || x === undefined)) {
      if (y === null || y === undefined) continue
      return false
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) pairs.push([x[i], y[i]])
      continue
    }
    if (!isObject(x) || !isObject(y)) return false
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!loose && Object.prototype.hasOwnProperty.call(x, k) !== Object.prototype.hasOwnProperty.call(y, k)) return false
      pairs.push([x[k], y[k]])
    }
  }
  return true
}

/** The path (keys and indexes) to the first string in `json` equal to `text`, or null. */
export function pathOfString(json: unknown, text: string, depth = 0): Array<string | number> | null {
  if (depth > 8 || typeof json !== 'object' || json === null) return null
  for (const [key, value] of Object.entries(json)) {
    const at: string | number = Array.isArray(json) ? Number(key) : key
    if (value === text) return [at]
    const below = pathOfString(value, text, depth + 1)
    if (below) return [at, ...below]
  }
  return null
}

/** The value at a path, and whether the path exists (a key present with null is there). */
export function valueAtPath(json: unknown, path: ReadonlyArray<string | number>): { found: boolean; value: unknown } {
  let at: unknown = json
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return { found: false, value: undefined }
    at = (at as Record<string | number, unknown>)[key]
  }
  return { found: true, value: at }
}
