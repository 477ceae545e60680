// The one pipeline every face runs: bytes → decoded text → frames → deltas → Reply.
// `push` costs time proportional to its chunk: nothing already seen is scanned again.

import { BodyBytes, ByteOffsets } from './body.js'
import type { FrameSink, RawEntry, RawFrame, Splitter } from './framing.js'
import { createJsonArraySplitter } from './json-array.js'
import { parseJson } from './json-error.js'
import { createNdjsonSplitter } from './ndjson.js'
import { Router } from './router.js'
import { createSseSplitter, readSseBlock } from './sse.js'
import { FrameTable } from './frame-table.js'
import { sniffTransport, transportFromContentType, type Sniffed } from './transport.js'
import type {
  Diagnostic, Frame, FrameEntry, FrameError, FrameInfo, Inspection, JsonSyntaxError, MergeOptions, Provenance, ProviderChoice, ProviderRegistry, Reply,
  StreamError, Transport,
} from './types.js'
import { Utf8Stream, utf8Length, type DecodedChunk } from './utf8.js'

export interface Merger {
  /** Feed the next piece of the body; `t` is its arrival time (ms), when known. */
  push(chunk: string | Uint8Array, t?: number): void
  /** The body is complete: dispatch what is left and return the final Reply. */
  end(): Reply
  /** The Reply as it stands now (arguments parsed now, the stream left open). */
  snapshot(): Reply
  /** Everything beside the Reply: frames, entries, stream errors, diagnostics, provenance. */
  inspect(): Inspection
  readonly frameCount: number
  /** One frame, built on demand (raw text, data, parsed JSON). */
  frame(seq: number): Frame
  /** A frame's position, line, kind and event, without its text (cheap; always available). */
  frameInfo(seq: number): FrameInfo
  /** Frames [from, to), built on demand. */
  frames(from?: number, to?: number): Frame[]
  /** The Reply as it stood right after frame `seq`. */
  replyAt(seq: number): Reply
  /** Comment-only and field-only blocks seen so far (cheap). */
  entries(): FrameEntry[]
  /** Which frame produced which run of reply text (cheap: integers, no frames built). */
  provenance(): Provenance[]
  /** Provider error payloads seen so far (cheap: no frames are built). */
  streamErrors(): StreamError[]
  /** Diagnostics so far, by frame, the stream as a whole first (cheap). */
  diagnostics(): Diagnostic[]
  /** The provider and how it was chosen (frames, forced, a URL or Content-Type hint, default). */
  providerChoice(): ProviderChoice
}

const ASCII = /^[\x00-\x7f]*$/
const DECODE_SLICE = 1 << 16
/** Pending small pushes are processed once they add up to this many bytes (or on any read). */
const BATCH = 1 << 16
const MAX_INVALID_UTF8_LISTED = 100

/** A merger reading the body with the providers of `registry` (the core imports none). */
export function createMerger(registry: ProviderRegistry, options: MergeOptions = {}): Merger {
  return new StreamMerger(registry, options)
}

/**
 * Merges a whole body at once. Only the Reply is returned, so the body need not be kept:
 * it is pushed in slices and each slice's text is dropped once its frames are done
 * (far less for the garbage collector to copy than a body held to the end).
 */
export function merge(registry: ProviderRegistry, input: string | Uint8Array, options: MergeOptions = {}): Reply {
  const m = new StreamMerger(registry, { retainBody: false, ...options }, true)
  for (let i = 0; i < input.length || i === 0; i += DECODE_SLICE) {
    if (typeof input === 'string') m.push(input.slice(i, i + DECODE_SLICE))
    else m.pushOwned(input.subarray(i, i + DECODE_SLICE))
  }
  return m.end()
}

class StreamMerger implements Merger {
  private readonly utf8 = new Utf8Stream()
  private readonly body = new BodyBytes()
  /** Characters decoded so far. */
  private chars = 0
  private readonly offsets = new ByteOffsets()
  private readonly table: FrameTable
  private readonly router: Router
  private readonly entryList: FrameEntry[] = []
  private readonly errors: FrameError[] = []
  private readonly framingDiagnostics: Diagnostic[] = []
  private transport: Transport | null = null
  private splitter: Splitter | null = null
  private head: string[] = []
  private headHasText = false
  private started = false
  private highSurrogate = ''
  private time: number | null = null
  private ended = false
  private final: Reply | null = null
  /** With retainBody: false: the byte where the first frame completed by the latest push starts. */
  private firstStartInPush = -1
  private invalidUtf8 = 0
  private replay: { router: Router; next: number; provider: string } | null = null
  /** Body bytes already decoded; the rest are pending small pushes. */
  private processed = 0
  /** Where each pending piece ends in the body, and when it arrived. */
  private pieceEnds: number[] = []
  private pieceTimes: Array<number | null> = []
  private timelineAt = 0

  /**
   * `replyOnly` (merge()): nothing but the Reply will be read, so frames are counted, not
   * stored, and no provenance or entries are kept.
   */
  constructor(private readonly registry: ProviderRegistry, private readonly options: MergeOptions, private readonly replyOnly = false) {
    this.table = new FrameTable(!replyOnly)
    this.router = new Router(registry, options, { provenance: !replyOnly })
    const preset = options.transport ? { transport: options.transport, reason: 'forced' } : transportFromContentType(options.contentType)
    if (preset) this.choose(preset)
  }

  get frameCount(): number {
    this.flush()
    return this.table.count
  }

  push(chunk: string | Uint8Array, t?: number): void {
    if (this.ended) throw new Error('push() after end(): create a new merger for a new body')
    if (t !== undefined) this.time = t
    if (typeof chunk === 'string') {
      this.flush()
      this.releaseRead()
      this.pushString(chunk)
      this.processed = this.body.length
      return
    }
    this.body.appendBytes(chunk)
    this.markPiece()
    if (this.body.length - this.processed >= BATCH) this.flush()
  }

  /** push() for bytes nobody changes before the merger is done with them: kept without a copy. */
  pushOwned(chunk: Uint8Array): void {
    if (this.ended) throw new Error('push() after end(): create a new merger for a new body')
    this.body.adoptBytes(chunk)
    this.markPiece()
    this.flush()
  }

  /**
   * Small pushes (a live stream arrives in pieces of a few bytes) are processed in batches (64 KiB):
   * one decode and one scan per batch, not per piece. Every read flushes first, so nothing
   * is ever seen late; each frame still gets the time of the piece that completed it.
   */
  private flush(): void {
    if (this.processed === this.body.length) return
    this.releaseRead()
    // the pending pieces are the body's unprocessed tail: read them in place
    const bytes = this.body.bytes(this.processed, this.body.length)
    this.processed = this.body.length
    // V8 decodes 64 KiB slices several times faster than one large buffer
    for (let i = 0; i < bytes.length; i += DECODE_SLICE) this.pushDecoded(this.utf8.decode(bytes.subarray(i, i + DECODE_SLICE)))
    this.pieceEnds = []
    this.pieceTimes = []
    this.timelineAt = 0
  }

  /**
   * Ends the latest piece at the body's end. Pieces that arrived at the same time are one
   * piece to timeOf(): a push without a time (a file, a test) adds no entry at all.
   */
  private markPiece(): void {
    const last = this.pieceTimes.length - 1
    if (last >= 0 && this.pieceTimes[last] === this.time) this.pieceEnds[last] = this.body.length
    else {
      this.pieceEnds.push(this.body.length)
      this.pieceTimes.push(this.time)
    }
  }

  /** With retainBody: false, frames completed by the previous batch stay readable until this one. */
  private releaseRead(): void {
    if (this.options.retainBody !== false) return
    if (this.firstStartInPush >= 0) this.body.release(this.firstStartInPush)
    this.firstStartInPush = -1
  }

  /** The arrival time of the piece holding byte `at` (frames complete in increasing order). */
  private timeOf(at: number): number | null {
    const ends = this.pieceEnds
    if (ends.length === 0) return this.time
    while (this.timelineAt < ends.length - 1 && ends[this.timelineAt]! <= at) this.timelineAt++
    return this.pieceTimes[this.timelineAt]!
  }

  private pushString(chunk: string): void {
    // bytes left over from an earlier Uint8Array push end where the text begins
    const rest = this.utf8.end()
    if (rest.byteLength > 0) this.pushDecoded(rest)
    let text = this.highSurrogate + chunk
    this.highSurrogate = ''
    const last = text.charCodeAt(text.length - 1)
    // a surrogate pair split between two string chunks is one character
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = text.slice(-1)
      text = text.slice(0, -1)
    }
    const ascii = ASCII.test(text)
    this.body.appendText(text)
    this.pushDecoded({ text, byteLength: ascii ? text.length : utf8Length(text), ascii, replacements: [] })
  }

  private pushDecoded(chunk: DecodedChunk): void {
    let { text, byteLength, replacements, bytes } = chunk
    if (!this.started && text.length > 0) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) {
        // a BOM at the very start is not part of the body's text (WHATWG)
        text = text.slice(1)
        byteLength -= 3
        this.offsets.skipBytes(3)
        replacements = replacements.map((r) => ({ ...r, char: r.char - 1, byte: r.byte - 3 }))
        bytes = bytes?.subarray(3)
      }
    }
    if (text.length === 0 && byteLength === 0) return
    const byteBase = this.offsets.bytes
    for (const r of replacements) {
      // a body of binary garbage has millions: the first ones are listed, the rest counted
      if (this.invalidUtf8++ >= MAX_INVALID_UTF8_LISTED) continue
      this.framingDiagnostics.push({
        frame: null, level: 'warning', code: 'invalid-utf8', byteOffset: byteBase + r.byte, offset: this.chars + r.char,
        message: `invalid UTF-8 (${r.bytes}) at byte ${byteBase + r.byte}, shown as U+FFFD`,
      })
    }
    this.offsets.add(text, byteLength, chunk.ascii, replacements, bytes)
    this.chars += text.length
    this.feed(text)
  }

  private feed(text: string): void {
    if (this.splitter !== null) { this.splitter.push(text); return }
    if (this.transport === 'unknown') return
    this.head.push(text)
    if (!this.headHasText) {
      if (!/\S/.test(text)) return
      this.headHasText = true
    }
    const sniffed = sniffTransport(this.head.join(''), false)
    if (sniffed) this.choose(sniffed)
  }

  private choose(sniffed: Sniffed): void {
    this.transport = sniffed.transport
    const sink = this.sink()
    if (sniffed.transport === 'sse') this.splitter = createSseSplitter(sink)
    else if (sniffed.transport === 'ndjson') this.splitter = createNdjsonSplitter(sink)
    else if (sniffed.transport === 'json') this.splitter = createJsonArraySplitter(sink)
    else {
      const binary = 'binary' in sniffed && sniffed.binary === true
      this.framingDiagnostics.push({
        frame: null, level: 'error', code: binary ? 'binary-eventstream' : 'unknown-transport',
        message: `No frames read: ${sniffed.reason}. The body is shown as raw text.`,
      })
    }
    const held = this.head.join('')
    this.head = []
    if (this.splitter !== null && held.length > 0) this.splitter.push(held)
  }

  private sink(): FrameSink {
    return {
      frame: (f) => this.onFrame(f),
      entry: (e) => this.onEntry(e),
      problem: (code, message, offset) => this.framingDiagnostics.push({ frame: null, level: 'warning', code, message, offset }),
    }
  }

  private onEntry(e: RawEntry): void {
    // entries are not in the Reply; the offsets cursor still moves on, so the text behind it is dropped
    if (this.replyOnly) { this.offsets.byteAt(e.end); return }
    const raw = this.body.slice(this.offsets.byteAt(e.start), this.offsets.byteAt(e.end))
    this.entryList.push({ ...e, raw, beforeFrame: this.table.count })
  }

  private onFrame(f: RawFrame): void {
    const seq = this.table.count
    let kind: Frame['kind'] = 'data'
    let json: unknown = undefined
    let error: JsonSyntaxError | null = null
    if (isDone(f.data)) kind = 'done'
    else {
      const parsed = parseJson(f.data)
      if (parsed.ok) json = parsed.value
      else { kind = 'invalid'; error = parsed.error }
    }
    const byteStart = this.offsets.byteAt(f.start)
    const byteEnd = this.offsets.byteAt(f.end)
    if (this.firstStartInPush < 0) this.firstStartInPush = byteStart
    if (this.replyOnly) this.table.skip()
    else this.table.add({
      start: f.start, end: f.end, byteStart, byteEnd,
      line: f.line, kind, unterminated: f.unterminated, event: f.event, id: f.id, retry: f.retry, error,
      // an SSE frame is complete when its blank line arrives; a line or array element at its last byte
      time: this.timeOf(this.transport === 'sse' && !f.unterminated ? byteEnd : byteEnd - 1),
    })
    if (f.unterminated) {
      this.framingDiagnostics.push({
        frame: seq, level: 'warning', code: 'unterminated-frame', offset: f.start,
        message: `frame ${seq} (line ${f.line}) was not ended by a blank line; dispatched at the end of the body`,
      })
    }
    if (kind === 'done') this.router.done(seq)
    else if (kind === 'invalid') {
      this.errors.push({ frame: seq, offset: f.start, line: f.line, raw: this.body.slice(byteStart, byteEnd), message: error!.message })
    } else this.router.frame({ seq, event: f.event, json })
  }

  end(): Reply {
    if (this.final) return this.final
    this.flush()
    this.ended = true
    if (this.highSurrogate) {
      this.body.appendText(this.highSurrogate) // stored as U+FFFD's 3 bytes
      this.processed = this.body.length
      this.pushDecoded({ text: this.highSurrogate, byteLength: 3, ascii: false, replacements: [] })
    }
    const rest = this.utf8.end()
    if (rest.byteLength > 0) this.pushDecoded(rest)
    if (this.splitter === null && this.transport !== 'unknown') this.choose(sniffTransport(this.head.join(''), true)!)
    this.splitter?.end()
    this.router.end(this.table.count - 1)
    if (this.invalidUtf8 > MAX_INVALID_UTF8_LISTED) {
      const more = this.invalidUtf8 - MAX_INVALID_UTF8_LISTED
      this.framingDiagnostics.push({
        frame: null, level: 'warning', code: 'invalid-utf8',
        message: `${more} more invalid UTF-8 sequence${more === 1 ? '' : 's'} not listed (${this.invalidUtf8} in all)`,
      })
    }
    this.final = this.reply()
    if (!this.final.done && this.transport !== 'unknown') {
      this.framingDiagnostics.push({ frame: null, level: 'warning', code: 'no-terminal-event', message: 'the stream ended without its terminal event ([DONE], message_stop, response.completed, done:true, a Gemini finishReason): it may have been cut' })
    }
    if (this.router.provider === this.registry.fallback.id && this.table.count > 0 && !this.options.provider) {
      this.framingDiagnostics.push({ frame: null, level: 'warning', code: 'unknown-provider', message: 'no frame matched a known provider: frames are listed, no reply was rebuilt (force one with the provider option)' })
    }
    return this.final
  }

  snapshot(): Reply {
    this.flush()
    return this.final ?? this.reply()
  }

  private reply(): Reply {
    const state = this.router.accumulator.state()
    return {
      transport: this.transport ?? 'unknown',
      provider: this.router.provider,
      done: state.done,
      frameCount: this.table.count,
      choices: state.choices,
      usage: state.usage,
      errors: this.errors.slice(),
    }
  }

  frameInfo(seq: number): FrameInfo {
    this.flush()
    const row = this.table.row(seq)
    return {
      seq, kind: row.kind, start: row.start, end: row.end, byteStart: row.byteStart, byteEnd: row.byteEnd,
      line: row.line, event: row.event, id: row.id, retry: row.retry, time: row.time, unterminated: row.unterminated,
    }
  }

  frame(seq: number): Frame {
    this.flush()
    const row = this.table.row(seq)
    const raw = this.body.slice(row.byteStart, row.byteEnd)
    const data = this.dataOf(raw)
    const frame: Frame = {
      seq, kind: row.kind, raw, start: row.start, end: row.end, byteStart: row.byteStart, byteEnd: row.byteEnd,
      line: row.line, event: row.event, id: row.id, retry: row.retry, data, time: row.time, unterminated: row.unterminated,
    }
    if (row.kind === 'data') {
      const parsed = parseJson(data)
      if (parsed.ok) frame.json = parsed.value
    }
    if (row.error) frame.error = row.error
    return frame
  }

  /** A frame's data, read again from its raw text by the same rules. */
  private dataOf(raw: string): string {
    if (this.transport === 'sse') return readSseBlock(raw).data ?? ''
    if (this.transport === 'ndjson') return raw.replace(/\r?\n$|\r$/, '')
    return raw
  }

  frames(from = 0, to?: number): Frame[] {
    this.flush()
    to ??= this.table.count
    const out: Frame[] = []
    const released = this.body.releasedBefore
    for (let i = Math.max(0, from); i < Math.min(to, this.table.count); i++) {
      if (released > 0 && this.table.row(i).byteStart < released) continue // retainBody: false
      out.push(this.frame(i))
    }
    return out
  }

  replyAt(seq: number): Reply {
    this.flush()
    const last = Math.min(seq, this.table.count - 1)
    // a scrubber mostly moves forward: continue the last replay when it is not past `last`
    let replay = this.replay
    if (replay === null || replay.next > last + 1 || replay.provider !== this.router.provider) {
      replay = { router: new Router(this.registry, { ...this.options, provider: this.router.provider }, { provenance: false }), next: 0, provider: this.router.provider }
      this.replay = replay
    }
    for (; replay.next <= last; replay.next++) {
      const f = this.frame(replay.next)
      if (f.kind === 'done') replay.router.done(f.seq)
      else if (f.kind === 'data') replay.router.frame({ seq: f.seq, event: f.event, json: f.json })
    }
    const router = replay.router
    const state = router.accumulator.state()
    return {
      transport: this.transport ?? 'unknown',
      provider: router.provider,
      done: state.done,
      frameCount: last + 1,
      choices: state.choices,
      usage: state.usage,
      errors: this.errors.filter((e) => e.frame <= last),
    }
  }

  entries(): FrameEntry[] {
    this.flush()
    return this.entryList.slice()
  }

  provenance(): Provenance[] {
    this.flush()
    return this.router.accumulator.provenanceRecords()
  }

  streamErrors(): StreamError[] {
    this.flush()
    return this.router.accumulator.streamErrors.slice()
  }

  diagnostics(): Diagnostic[] {
    this.flush()
    return [...this.framingDiagnostics, ...this.router.accumulator.diagnostics].sort((a, b) => (a.frame ?? -1) - (b.frame ?? -1))
  }

  providerChoice(): ProviderChoice {
    this.flush()
    return this.router.choice
  }

  inspect(): Inspection {
    this.flush()
    const reply = this.snapshot()
    const acc = this.router.accumulator
    const diagnostics = this.diagnostics()
    return {
      reply,
      transport: reply.transport,
      provider: reply.provider,
      providerReason: this.router.reason,
      frames: this.frames(),
      entries: this.entries(),
      streamErrors: acc.streamErrors.slice(),
      diagnostics,
      provenance: this.provenance(),
      chars: this.chars,
      bytes: this.offsets.bytes,
    }
  }
}

function isDone(data: string): boolean {
  return data.length <= 16 && data.trim() === '[DONE]'
}
