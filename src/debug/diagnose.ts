// Diagnostics that name the bug (docs/architecture.md#the-debugger). The merger already reports what framing and
// merging see (the accumulator: content after a finish, a reused tool index, a provider error,
// a token limit, data after the end…); this adds what needs the frames' text, the network
// reads and their times: glued frames, a missing `data:`, inline <think> tags, mixed line
// endings, a BOM, frames and characters split across reads, stalls, bursts, an empty reply.
// Each rule is one pass over the frames, the entries or the chunks; a rule that fires on many
// frames lists the first LISTED and sums up the rest in one diagnostic.

import { createMerger, findJsonSyntaxError, SYMPTOMS, utf8Length } from '../library.js'
import type { Diagnostic, DiagnosticCode, LibraryMergeOptions, Merger, Reply } from '../library.js'
import type { CapturedChunk, Recording } from '../exchange/types.js'

export interface DiagnoseOptions {
  /** A gap of at least this many ms between two frames is a stall (default 1000). */
  stallMs?: number
}

export interface DiagnoseMergerOptions extends DiagnoseOptions {
  /** When the request started, on the clock of the push times: the burst rule needs it. */
  startedAt?: number | null
  /** The stream is still running: rules that need its end (empty-reply) wait. */
  live?: boolean
}

export const DEFAULT_STALL_MS = 1000
/** A burst: at least this many frames… */
const BURST_FRAMES = 20
/** …all completed within this many ms of each other… */
const BURST_WINDOW_MS = 50
/** …after a first byte later than this. */
const BURST_FIRST_BYTE_MS = 500
/** Diagnostics of one code listed before the rest are counted in one summary. */
const LISTED = 100
/** Values counted in one glued frame before "or more". */
const GLUED_COUNTED = 10

/** The merge options a recording's replay uses: its URL, Content-Type and what was forced. */
export function recordingMergeOptions(recording: Recording): LibraryMergeOptions {
  const options: LibraryMergeOptions = { url: recording.request.url }
  if (recording.request.contentType) options.contentType = recording.request.contentType
  if (recording.forced?.provider) options.provider = recording.forced.provider
  if (recording.forced?.transport) options.transport = recording.forced.transport
  return options
}

/** A merger fed the recording's chunks, each with its time, and ended. */
export function mergeRecording(recording: Recording): Merger {
  const merger = createMerger(recordingMergeOptions(recording))
  for (const c of recording.chunks) {
    if (c.t === null) merger.push(c.data)
    else merger.push(c.data, c.t)
  }
  merger.end()
  return merger
}

/** Everything worth saying about a recorded stream: the merger's diagnostics and the debugger's, by frame, stream-wide first. */
export function diagnose(recording: Recording, options: DiagnoseOptions = {}): Diagnostic[] {
  return diagnoseMerger(mergeRecording(recording), recording.chunks, { ...options, startedAt: recording.request.startedAt })
}

/**
 * The same for a merger the caller holds (the panel's). `chunks` are the network reads it was
 * pushed, in order (the rules on reads, line endings and the BOM need them); frame times are
 * the merger's. The merger must keep its body (the default) for the rules that read frames.
 */
export function diagnoseMerger(merger: Merger, chunks?: readonly CapturedChunk[] | null, options: DiagnoseMergerOptions = {}): Diagnostic[] {
  const found = new Findings()
  const reply = merger.snapshot()
  const theirs = merger.diagnostics()
  const sse = reply.transport === 'sse'
  if (sse || reply.transport === 'ndjson') {
    gluedFrames(merger, reply, found)
    if (sse) missingDataPrefix(merger, theirs, found)
  }
  afterDoneMarker(merger, found)
  inlineThinkTags(merger, reply, found)
  if (chunks && chunks.length > 0) {
    const reads = readBoundaries(chunks)
    bom(chunks, found)
    if (sse || reply.transport === 'ndjson') mixedLineEndings(merger, chunks, found)
    splitFrames(merger, reads, found)
    splitCharacters(merger, chunks, reads, found)
  }
  stalls(merger, options.stallMs ?? DEFAULT_STALL_MS, found)
  burst(merger, firstByteTime(chunks) ?? firstFrameTime(merger), options.startedAt ?? null, found)
  if (!options.live) emptyReply(reply, found)
  return merged(theirs, found.done())
}

/** The merger's and ours, by frame (stream-wide first); ours replace the merger's generic ones for the same thing. */
function merged(theirs: Diagnostic[], ours: Diagnostic[]): Diagnostic[] {
  // a line with a JSON payload and no `data:` is an unknown field to the SSE reader: ours says which bug it is
  const prefixLines = new Set(ours.filter((d) => d.code === 'missing-data-prefix').map((d) => d.line))
  // the accumulator reports data after any terminal marker, we report any frame after [DONE]: the earlier one stays
  const theirAfterDone = theirs.find((d) => d.code === 'data-after-done')
  const ourAfterDone = ours.find((d) => d.code === 'data-after-done')
  const later = theirAfterDone && ourAfterDone ? ((ourAfterDone.frame ?? 0) < (theirAfterDone.frame ?? 0) ? theirAfterDone : ourAfterDone) : null
  return [...theirs, ...ours]
    .filter((d) => d !== later && !(d.code === 'unknown-field' && d.line !== undefined && prefixLines.has(d.line)))
    .sort((a, b) => (a.frame ?? -1) - (b.frame ?? -1))
}

/** Diagnostics with a cap per code: the first LISTED, then one summary of the rest. */
class Findings {
  private readonly list: Diagnostic[] = []
  private readonly counts = new Map<DiagnosticCode, { count: number; first: Diagnostic | null }>()

  add(code: DiagnosticCode, level: Diagnostic['level'], frame: number | null, message: string, at: { line?: number; offset?: number; byteOffset?: number } = {}, symptom = SYMPTOMS[code]): void {
    let c = this.counts.get(code)
    if (c === undefined) {
      c = { count: 0, first: null }
      this.counts.set(code, c)
    }
    c.count++
    const d: Diagnostic = { code, level, frame, ...at, message, symptom }
    if (c.count <= LISTED) this.list.push(d)
    else if (c.first === null) c.first = d
  }

  done(): Diagnostic[] {
    for (const [code, c] of this.counts) {
      if (c.first === null) continue
      const more = c.count - LISTED
      this.list.push({
        code, level: c.first.level, frame: c.first.frame,
        message: `${more} more ${code} not listed (${c.count} in all), the first of them at frame ${c.first.frame ?? '–'}`,
        symptom: c.first.symptom,
      })
    }
    return this.list
  }
}

// ---------------------------------------------------------------------------
// Frames

/**
 * A frame that failed to parse because its data holds more than one JSON value: two frames
 * whose separating blank line (or, in NDJSON, line break) was lost. The frame stays a broken
 * frame in Reply.errors; this names why.
 */
function gluedFrames(merger: Merger, reply: Reply, found: Findings): void {
  const sse = reply.transport === 'sse'
  for (const e of reply.errors) {
    const frame = merger.frames(e.frame, e.frame + 1)[0]
    if (frame === undefined || frame.error === undefined) continue
    const values = gluedValues(frame.data, frame.error)
    if (values === null) continue
    const at = frame.error.position
    found.add('glued-frames', 'error', frame.seq,
      `frame ${frame.seq} holds ${values} JSON values, the second from character ${at} of its data (${excerpt(frame.data, at)}): ${sse ? 'the blank line between two frames' : 'the line break between two lines'} was lost`,
      { line: frame.line, offset: frame.start, byteOffset: frame.byteStart })
  }
}

/** How many values a frame's data holds when one value is followed by another (`"2"`, `"10 or more"`), else null. */
function gluedValues(data: string, error: { message: string; position: number }): string | null {
  if (!error.message.endsWith('(expected end of input)')) return null
  let rest = data.slice(error.position)
  let count = 1
  while (count < GLUED_COUNTED) {
    rest = rest.replace(/^\s+/, '')
    // the line break went too: `{…}data: {…}`
    if (rest.startsWith('data:')) rest = rest.slice(rest.charCodeAt(5) === 0x20 ? 6 : 5)
    if (rest.startsWith('[DONE]')) { count++; rest = rest.slice(6); continue }
    const c = rest.charCodeAt(0)
    if (c !== 0x7b && c !== 0x5b) return count > 1 ? String(count) : null // `{` or `[`: another frame's payload
    count++
    const next = findJsonSyntaxError(rest)
    if (next === null || !next.message.endsWith('(expected end of input)')) return String(count)
    rest = rest.slice(next.position)
  }
  return `${count} or more`
}

const PAYLOAD_LINE = /(^|\r\n|\r|\n)[ \t]*[{[]/g

/**
 * An SSE line that carries a JSON payload (or `[DONE]`) but no `data:` field: in a frame
 * beside data lines, or in a block of its own (which the SSE reader keeps as a field-only entry).
 * Such a line is an unknown field to the SSE reader, so only the frames it named are read
 * again (all of them when it listed only some), and none when it named none.
 */
function missingDataPrefix(merger: Merger, theirs: readonly Diagnostic[], found: Findings): void {
  const unknown = theirs.filter((d) => d.code === 'unknown-field')
  if (unknown.length === 0) return
  const count = merger.frameCount
  // the summary of unlisted ones names no line
  const all = unknown.some((d) => d.line === undefined)
  const named = new Set(unknown.map((d) => d.frame))
  for (let seq = 0; seq < count; seq++) {
    if (!all && !named.has(seq)) continue
    const frame = merger.frames(seq, seq + 1)[0]
    if (frame !== undefined) payloadLines(frame.raw, frame.line, frame.start, seq, found)
  }
  for (const e of merger.entries()) {
    // a block between frames is shown before the next one; after the last frame, with it
    if (e.kind === 'empty') payloadLines(e.raw, e.line, e.start, e.beforeFrame < count ? e.beforeFrame : count > 0 ? count - 1 : null, found)
  }
}

function payloadLines(raw: string, line: number, start: number, frame: number | null, found: Findings): void {
  PAYLOAD_LINE.lastIndex = 0
  for (let m = PAYLOAD_LINE.exec(raw); m !== null; m = PAYLOAD_LINE.exec(raw)) {
    const at = m.index + m[1]!.length
    const n = line + lineBreaks(raw, at)
    const text = raw.slice(at).split(/\r\n|\r|\n/, 1)[0]!
    found.add('missing-data-prefix', 'warning', frame,
      `line ${n} carries a payload without a \`data:\` field (${excerpt(text, 0)}): SSE readers ignore it`,
      { line: n, offset: start + at })
  }
}

function lineBreaks(text: string, end: number): number {
  let n = 0
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) n++
  }
  return n
}

/**
 * Frames after the first `[DONE]`. The accumulator reports frames that carry something after
 * any terminal marker (it knows the provider's terminal events); a broken frame after `[DONE]`
 * it never sees, so it is found here.
 */
function afterDoneMarker(merger: Merger, found: Findings): void {
  const count = merger.frameCount
  let done = -1
  for (let seq = 0; seq < count; seq++) {
    const kind = merger.frameInfo(seq).kind
    if (done < 0) { if (kind === 'done') done = seq; continue }
    if (kind === 'done') continue
    found.add('data-after-done', 'warning', seq, `frame ${seq} (${kind === 'invalid' ? 'broken' : 'data'}) comes after the [DONE] of frame ${done}`)
    return
  }
}

/** Reasoning written into the content between `<think>` tags (or ending in `</think>`, the opening tag left in the prompt). */
function inlineThinkTags(merger: Merger, reply: Reply, found: Findings): void {
  let provenance: ReturnType<Merger['provenance']> | null = null
  for (const c of reply.choices) {
    const open = c.content.indexOf('<think>')
    const close = c.content.indexOf('</think>', open < 0 ? 0 : open)
    if (open < 0 && close < 0) continue
    const at = open < 0 ? 0 : open
    provenance ??= merger.provenance()
    const frame = provenance.find((p) => p.choice === c.index && p.channel === 'content' && p.start <= at && at < p.end)?.frame ?? null
    const what = open < 0
      ? `ends its reasoning with \`</think>\` at character ${close} (the opening tag was in the prompt)`
      : close < 0
        ? `opens \`<think>\` at character ${open} and never closes it`
        : `holds \`<think>\`…\`</think>\` from character ${open} to ${close + '</think>'.length}`
    found.add('inline-think-tags', 'warning', frame, `choice ${c.index}: the content ${what}: reasoning the server did not move to a reasoning field`)
  }
}

// ---------------------------------------------------------------------------
// Network reads

/** Where each read ends in the body's bytes (the body as received: a BOM counts). */
function readBoundaries(chunks: readonly CapturedChunk[]): number[] {
  const ends: number[] = []
  let at = 0
  let highSurrogate = false
  for (const c of chunks) {
    if (typeof c.data === 'string') {
      let s = c.data
      // a surrogate pair split between two string reads: 2 of its 4 bytes on each side
      if (highSurrogate && isLowSurrogate(s.charCodeAt(0))) { at += 2; s = s.slice(1) }
      highSurrogate = s.length > 0 && isHighSurrogate(s.charCodeAt(s.length - 1))
      at += highSurrogate ? utf8Length(s.slice(0, -1)) + 2 : utf8Length(s)
    } else {
      highSurrogate = false
      at += c.data.byteLength
    }
    ends.push(at)
  }
  return ends
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

/** A UTF-8 byte order mark at the very start of the body. */
function bom(chunks: readonly CapturedChunk[], found: Findings): void {
  const head: number[] = []
  for (const c of chunks) {
    if (typeof c.data === 'string') {
      if (c.data.length === 0) continue
      if (head.length === 0 && c.data.charCodeAt(0) === 0xfeff) head.push(0xef, 0xbb, 0xbf)
      else head.push(-1) // text: only its first character can be the mark
    } else {
      for (let i = 0; i < c.data.length && head.length < 3; i++) head.push(c.data[i]!)
    }
    if (head.length >= 3) break
  }
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    found.add('bom', 'info', null, 'the body starts with a UTF-8 byte order mark (EF BB BF); readers drop it, but only when they look for it', { byteOffset: 0, offset: 0 })
  }
}

type Ending = 'LF' | 'CRLF' | 'CR'

/** More than one kind of line ending in one body. */
function mixedLineEndings(merger: Merger, chunks: readonly CapturedChunk[], found: Findings): void {
  const counts: Record<Ending, number> = { LF: 0, CRLF: 0, CR: 0 }
  const first: Record<Ending, number> = { LF: -1, CRLF: -1, CR: -1 }
  let base = 0
  /** A CR that ended the previous read: its kind depends on this read's first unit. */
  let pendingCr = -1
  const seen = (kind: Ending, byte: number) => {
    if (counts[kind]++ === 0) first[kind] = byte
  }
  for (const c of chunks) {
    const data = c.data
    const text = typeof data === 'string'
    const size = text ? utf8Length(data) : data.byteLength
    const length = text ? data.length : data.byteLength
    const byteOf = (i: number) => base + (text ? utf8Length(data.slice(0, i)) : i)
    let i = 0
    if (pendingCr >= 0 && length > 0) {
      const lf = text ? data.charCodeAt(0) === 0x0a : data[0] === 0x0a
      seen(lf ? 'CRLF' : 'CR', pendingCr)
      if (lf) i = 1
      pendingCr = -1
    }
    let cr = indexOf(data, 0x0d, i)
    let lf = indexOf(data, 0x0a, i)
    while (cr >= 0 || lf >= 0) {
      if (lf >= 0 && (cr < 0 || lf < cr)) {
        if (counts.LF === 0) seen('LF', byteOf(lf))
        else counts.LF++
        lf = indexOf(data, 0x0a, lf + 1)
        continue
      }
      if (cr === length - 1) { pendingCr = byteOf(cr); break }
      if (lf === cr + 1) {
        if (counts.CRLF === 0) seen('CRLF', byteOf(cr))
        else counts.CRLF++
        lf = indexOf(data, 0x0a, lf + 1)
      } else if (counts.CR === 0) seen('CR', byteOf(cr))
      else counts.CR++
      cr = indexOf(data, 0x0d, cr + 1)
    }
    base += size
  }
  if (pendingCr >= 0) seen('CR', pendingCr)
  const kinds = (Object.keys(counts) as Ending[]).filter((k) => counts[k] > 0)
  if (kinds.length < 2) return
  kinds.sort((a, b) => first[a] - first[b])
  const second = kinds[1]!
  const byte = first[second]
  found.add('mixed-line-endings', 'info', frameBefore(merger, byte),
    `line endings of ${kinds.length} kinds: ${kinds.map((k) => `${counts[k]} ${k}`).join(', ')}; the first ${second} at byte ${byte}`,
    { byteOffset: byte })
}

function indexOf(data: string | Uint8Array, unit: number, from: number): number {
  return typeof data === 'string' ? data.indexOf(String.fromCharCode(unit), from) : data.indexOf(unit, from)
}

/** Frames whose bytes straddle a read boundary. */
function splitFrames(merger: Merger, ends: readonly number[], found: Findings): void {
  const boundaries = ends.slice(0, -1)
  if (boundaries.length === 0) return
  const count = merger.frameCount
  let j = 0
  for (let seq = 0; seq < count && j < boundaries.length; seq++) {
    const f = merger.frameInfo(seq)
    while (j < boundaries.length && boundaries[j]! <= f.byteStart) j++
    if (j >= boundaries.length || boundaries[j]! >= f.byteEnd) continue
    let last = j
    while (last + 1 < boundaries.length && boundaries[last + 1]! < f.byteEnd) last++
    found.add('frame-split-across-reads', 'info', seq,
      `frame ${seq} (bytes ${f.byteStart}–${f.byteEnd}) arrived in ${last - j + 2} reads (${j + 1} to ${last + 2} of ${ends.length})`,
      { byteOffset: boundaries[j]! })
  }
}

/**
 * Frames holding a character cut in two by a read boundary: a read that begins with a UTF-8
 * continuation byte (or, in text reads, a low surrogate after a high one). One diagnostic a frame.
 */
function splitCharacters(merger: Merger, chunks: readonly CapturedChunk[], ends: readonly number[], found: Findings): void {
  let last: { frame: number | null; count: number; byte: number; read: number } | null = null
  const flush = () => {
    if (last === null) return
    const where = last.frame === null ? 'outside any frame' : `in frame ${last.frame}`
    found.add('utf8-split-across-reads', 'info', last.frame,
      `${last.count === 1 ? 'a character' : `${last.count} characters`} ${where} split across reads, the first between reads ${last.read} and ${last.read + 1} at byte ${last.byte}`,
      { byteOffset: last.byte })
  }
  let previous: CapturedChunk | null = null
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!
    const size = typeof c.data === 'string' ? c.data.length : c.data.byteLength
    if (size === 0) continue
    if (previous !== null && startsMidCharacter(previous, c)) {
      const byte = ends[i - 1]!
      const frame = frameHolding(merger, byte)
      if (last !== null && last.frame === frame && frame !== null) last.count++
      else {
        flush()
        last = { frame, count: 1, byte, read: i }
      }
    }
    previous = c
  }
  flush()
}

function startsMidCharacter(previous: CapturedChunk, c: CapturedChunk): boolean {
  if (typeof c.data !== 'string') return (c.data[0]! & 0xc0) === 0x80
  const p = previous.data
  return typeof p === 'string' && isHighSurrogate(p.charCodeAt(p.length - 1)) && isLowSurrogate(c.data.charCodeAt(0))
}

// ---------------------------------------------------------------------------
// Times

/** Frame times (the arrival of the read that completed each frame), null where unknown. */
export function frameTimes(merger: Merger): Array<number | null> {
  const times: Array<number | null> = []
  for (let seq = 0; seq < merger.frameCount; seq++) times.push(merger.frameInfo(seq).time)
  return times
}

/** Gaps of at least `stallMs` between two frames: after frame `afterFrame`, `ms` long. */
export function stallGaps(times: ReadonlyArray<number | null>, stallMs: number): Array<{ afterFrame: number; ms: number }> {
  const out: Array<{ afterFrame: number; ms: number }> = []
  for (let seq = 1; seq < times.length; seq++) {
    const a = times[seq - 1]
    const b = times[seq]
    if (a === null || a === undefined || b === null || b === undefined) continue
    if (b - a >= stallMs) out.push({ afterFrame: seq - 1, ms: b - a })
  }
  return out
}

function stalls(merger: Merger, stallMs: number, found: Findings): void {
  for (const s of stallGaps(frameTimes(merger), stallMs)) {
    found.add('stall', 'info', s.afterFrame + 1, `${formatMs(s.ms)} without a frame between frame ${s.afterFrame} and frame ${s.afterFrame + 1}`)
  }
}

/** The whole stream in one short burst after a long wait: buffered on the way. */
function burst(merger: Merger, firstByte: number | null, startedAt: number | null, found: Findings): void {
  const count = merger.frameCount
  if (count < BURST_FRAMES || firstByte === null || startedAt === null || firstByte - startedAt <= BURST_FIRST_BYTE_MS) return
  let min = Infinity
  let max = -Infinity
  for (let seq = 0; seq < count; seq++) {
    const t = merger.frameInfo(seq).time
    if (t === null) return
    if (t < min) min = t
    if (t > max) max = t
  }
  if (max - min > BURST_WINDOW_MS) return
  found.add('burst', 'warning', null,
    `all ${count} frames arrived within ${formatMs(max - min)}, ${formatMs(firstByte - startedAt)} after the request started: the stream was buffered (a proxy, compression or the server)`)
}

function firstByteTime(chunks: readonly CapturedChunk[] | null | undefined): number | null {
  for (const c of chunks ?? []) {
    if ((typeof c.data === 'string' ? c.data.length : c.data.byteLength) > 0) return c.t
  }
  return null
}

function firstFrameTime(merger: Merger): number | null {
  return merger.frameCount > 0 ? merger.frameInfo(0).time : null
}

// ---------------------------------------------------------------------------
// The reply

/** Nothing for the user at all: no content, reasoning, refusal or tool call in any choice. */
function emptyReply(reply: Reply, found: Findings): void {
  const something = reply.choices.some((c) => c.content !== '' || c.reasoning !== '' || c.refusal !== '' || c.toolCalls.length > 0)
  if (something) return
  const finish = reply.choices.map((c) => c.finishReason).find((r) => r !== null)
  found.add('empty-reply', 'warning', null,
    `no content, reasoning, refusal or tool call in ${reply.frameCount} frame${reply.frameCount === 1 ? '' : 's'}${finish ? ` (finish reason ${JSON.stringify(finish)})` : ''}`)
}

// ---------------------------------------------------------------------------

/** The frame whose bytes hold byte `at`, or null. */
function frameHolding(merger: Merger, at: number): number | null {
  const seq = frameBefore(merger, at)
  return seq !== null && at < merger.frameInfo(seq).byteEnd ? seq : null
}

/** The last frame that starts at or before byte `at`, or null. */
function frameBefore(merger: Merger, at: number): number | null {
  let lo = 0
  let hi = merger.frameCount - 1
  let found: number | null = null
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (merger.frameInfo(mid).byteStart <= at) { found = mid; lo = mid + 1 } else hi = mid - 1
  }
  return found
}

/** Wire text around character `at`, quoted, at most 30 characters each side. */
function excerpt(text: string, at: number): string {
  const from = Math.max(0, at - 30)
  const to = Math.min(text.length, at + 30)
  return (from > 0 ? '…' : '') + JSON.stringify(text.slice(from, to)) + (to < text.length ? '…' : '')
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)} s` : `${Math.round(ms)} ms`
}
