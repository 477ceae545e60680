// The one pipeline every face runs: bytes → decoded text (decoder.ts) → frames (framer.ts,
// kept by store.ts) → deltas → Reply (router.ts). `push` costs time proportional to its
// chunk: nothing already seen is scanned again.

import { Decoder, DECODE_SLICE } from './decoder.js'
import { Framer } from './framer.js'
import type { TextSource } from './lines.js'
import type { RawEntry, RawFrame } from './framing.js'
import { parseJson } from './json-error.js'
import { Replay } from './replay.js'
import { Router } from './router.js'
import { FrameStore } from './store.js'
import { SYMPTOMS } from './symptoms.js'
import { isConnectProto } from './transport.js'
import type { Diagnostic, Frame, FrameEntry, FrameInfo, FrameKind, JsonSyntaxError, MergeOptions, PartProvenance, Provenance, ProvenanceVisit, Reply, StreamError } from './types.js'
import type { ProviderChoice, ProviderRegistry } from './adapters.js'

export interface Merger {
  /** Feed the next piece of the body; `t` is its arrival time (ms), when known. */
  push(chunk: string | Uint8Array, t?: number): void
  /**
   * push() for bytes handed over: kept as they are, without a copy (a file's pieces as they
   * are read). The caller must not change them afterwards.
   */
  pushOwned(chunk: Uint8Array, t?: number): void
  /**
   * The first byte of the body the merger may still read from the bytes it was given (0 while
   * it keeps the body, or a binary framer holds them): a pushOwned() piece that ends at or
   * before it is no longer read here, and its buffer is the caller's again.
   */
  bytesHeldFrom(): number
  /** The body is complete: dispatch what is left and return the final Reply. */
  end(): Reply
  /**
   * The Reply as it stands now (arguments parsed now, the stream left open). Read-only: a tool
   * call unchanged since the last snapshot is the same object, not parsed again.
   */
  snapshot(): Reply
  readonly frameCount: number
  /** One frame, built on demand (raw text, data, parsed JSON). */
  frame(seq: number): Frame
  /** A frame's position, line, kind and event, without its text (cheap; always available). */
  frameInfo(seq: number): FrameInfo
  /** Frame `seq`'s time and kind (frameInfo(seq).time, .kind) without building anything: a scan of every frame stays free of garbage. */
  frameTime(seq: number): number | null
  frameKind(seq: number): FrameKind
  /** Frames [from, to), built on demand. */
  frames(from?: number, to?: number): Frame[]
  /** The Reply as it stood right after frame `seq`. */
  replyAt(seq: number): Reply
  /** Comment-only and field-only blocks seen so far (cheap). */
  entries(): FrameEntry[]
  /** Which frame produced which run of reply text (cheap: integers, no frames built). */
  provenance(): Provenance[]
  /** The same records as fields, one call each, no object built (an index of 240,000 of them). */
  eachProvenance(visit: ProvenanceVisit): void
  /** Which frame wrote which run of each message part (Reply.messages), in the order written. */
  partProvenance(): PartProvenance[]
  /** Provider error payloads seen so far (cheap: no frames are built). */
  streamErrors(): StreamError[]
  /** Diagnostics so far, by frame, the stream as a whole first (cheap). */
  diagnostics(): Diagnostic[]
  /** The provider and how it was chosen (frames, forced, a URL or Content-Type hint, default). */
  providerChoice(): ProviderChoice
  /** Bytes of body received so far (text pushed as a string counts its UTF-8). */
  readonly byteLength: number
  /**
   * The body's bytes [from, to) as kept (text pushed as a string, as its UTF-8): a view when
   * they lie in one block, else a copy; not to be changed. Lets a caller keep no copy of its
   * own (the panel's exports read the body back from here).
   */
  body(from?: number, to?: number): Uint8Array
}

/** Pending small pushes are processed once they add up to this many bytes (or on any read). */
const BATCH = 1 << 16

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
  /** Everything found about the stream, in the order found: decoder, framer and merger add to it. */
  private readonly found: Diagnostic[] = []
  private readonly store: FrameStore
  private readonly framer: Framer
  private readonly decoder: Decoder
  private readonly router: Router
  private readonly arrival: (byteEnd: number, unterminated: boolean) => number | null
  /** Body bytes already decoded; the rest are pending small pushes. */
  private processed = 0
  private ended = false
  private final: Reply | null = null
  private readonly replay: Replay
  /** The latest frame was not ended by a blank line (the body was cut inside it). */
  private lastUnterminated = false
  /** Some text was pushed as a string (see rereadable). */
  private stringPushed = false

  /**
   * `replyOnly` (merge()): nothing but the Reply will be read, so frames are counted, not
   * stored, and no provenance or entries are kept.
   */
  constructor(private readonly registry: ProviderRegistry, private readonly options: MergeOptions, replyOnly = false) {
    this.store = new FrameStore(!replyOnly, options.retainBody !== false && !options.bodyReader, options.bodyReader ?? null)
    this.store.connectProto = isConnectProto(options.contentType)
    this.router = new Router(registry, options, { provenance: !replyOnly })
    this.framer = new Framer(options, (f) => this.onFrame(f), (e) => this.onEntry(e), this.found, options.bodyReader ? this.rereadable() : null)
    this.decoder = new Decoder(this.store.body, this.store.offsets, (text) => this.framer.push(text), this.found, this.framer)
    this.arrival = (byteEnd, unterminated) => this.framer.arrival(byteEnd, unterminated)
    this.replay = new Replay(registry, options)
  }

  /**
   * With a body reader, a long line's text is read again from the body's bytes when it ends
   * (lines.ts), its pieces dropped meanwhile. Not once text was pushed as a string: its lone
   * surrogates were stored as U+FFFD's bytes, and would not read back as they were.
   */
  private rereadable(): TextSource {
    const offsets = this.store.offsets
    return {
      canRead: (start) => !this.stringPushed && offsets.peekByteAt(start) >= 0,
      read: (start, end) => this.store.body.slice(offsets.peekByteAt(start), offsets.peekByteAt(end)),
    }
  }

  get frameCount(): number {
    this.flush()
    return this.store.count
  }

  push(chunk: string | Uint8Array, t?: number): void {
    if (this.ended) throw new Error('push() after end(): create a new merger for a new body')
    if (t !== undefined) this.framer.time = t
    if (typeof chunk === 'string') {
      this.stringPushed = true
      this.flush()
      this.store.releaseRead()
      this.decoder.string(chunk)
      this.processed = this.store.body.length
      return
    }
    this.store.body.appendBytes(chunk)
    this.framer.markPiece(this.store.body.length)
    if (this.store.body.length - this.processed >= BATCH) this.flush()
  }

  /** push() for bytes nobody changes before the merger is done with them: kept without a copy. */
  pushOwned(chunk: Uint8Array, t?: number): void {
    if (this.ended) throw new Error('push() after end(): create a new merger for a new body')
    if (t !== undefined) this.framer.time = t
    this.store.body.adoptBytes(chunk)
    this.framer.markPiece(this.store.body.length)
    this.flush()
  }

  /**
   * Small pushes (a live stream arrives in pieces of a few bytes) are processed in batches (64 KiB):
   * one decode and one scan per batch, not per piece. Every read flushes first, so nothing
   * is ever seen late; each frame still gets the time of the piece that completed it.
   */
  private flush(): void {
    const body = this.store.body
    if (this.processed === body.length) return
    this.store.releaseRead()
    // the pending pieces are the body's unprocessed tail: read them in place
    const bytes = body.bytes(this.processed, body.length)
    this.processed = body.length
    this.decoder.bytes(bytes)
    this.store.releaseDecoded(this.processed)
    this.framer.clearPieces()
  }

  private onEntry(e: RawEntry): void {
    this.store.addEntry(e)
    if (e.problems !== null) this.framer.report(e.problems, null)
  }

  private onFrame(f: RawFrame): void {
    let kind: FrameKind = 'data'
    let json: unknown = undefined
    let error: JsonSyntaxError | null = null
    if (f.failure) { kind = 'invalid'; error = f.failure } // the framing failed (a bad CRC, an unknown part code)
    else if (isDone(f.data)) kind = 'done'
    else {
      const parsed = parseJson(f.data)
      if (parsed.ok) json = parsed.value
      else { kind = 'invalid'; error = parsed.error }
    }
    const seq = this.store.addFrame(f, kind, error, this.arrival)
    this.lastUnterminated = f.unterminated
    if (f.problems !== null) this.framer.report(f.problems, seq)
    if (f.unterminated) {
      this.found.push({
        frame: seq, level: 'warning', code: 'unterminated-frame', symptom: SYMPTOMS['unterminated-frame'], offset: f.start,
        message: `frame ${seq} (line ${f.line}) was not ended by a blank line; dispatched at the end of the body`,
      })
    }
    if (kind === 'done') this.router.done(seq)
    else if (kind === 'data') this.router.frame({ seq, event: f.event, json })
  }

  end(): Reply {
    if (this.final) return this.final
    this.flush()
    this.ended = true
    this.decoder.end()
    this.processed = this.store.body.length // a held high surrogate was stored at the end
    this.framer.end()
    this.router.end(this.store.count - 1)
    this.decoder.countUnlisted()
    this.framer.countUnlisted()
    this.final = this.reply()
    if (!this.final.done && this.framer.transport !== 'unknown') this.noTerminalEvent()
    if (this.router.provider === this.registry.fallback.id && this.store.count > 0 && !this.options.provider) {
      this.found.push({ frame: null, level: 'warning', code: 'unknown-provider', symptom: SYMPTOMS['unknown-provider'], message: 'no frame matched a known provider: frames are listed, no reply was rebuilt (force one with the provider option)' })
    }
    return this.final
  }

  /**
   * The stream ended without its terminal event: a warning (it may have been cut), unless its
   * protocol's servers may end so (the mapper's terminalOptional) and the body ended at a
   * frame's end: then once, as info, what it lacked. A last frame not closed is still a cut.
   */
  private noTerminalEvent(): void {
    const lacks = this.router.terminalOptional()
    if (lacks !== null && !this.lastUnterminated && this.store.count > 0) {
      this.found.push({
        frame: null, level: 'info', code: 'no-terminal-event', message: `the stream ended at a frame's end without a terminal event: ${lacks}`,
        symptom: 'None for a client that ends the run when the body closes (the protocol\'s own does); one that waits for a terminal event waits forever.',
      })
      return
    }
    this.found.push({ frame: null, level: 'warning', code: 'no-terminal-event', symptom: SYMPTOMS['no-terminal-event'], message: 'the stream ended without its terminal event ([DONE], message_stop, response.completed, done:true, a Gemini finishReason): it may have been cut' })
  }

  snapshot(): Reply {
    this.flush()
    return this.final ?? this.reply()
  }

  private reply(): Reply {
    const state = this.router.accumulator.state()
    return {
      transport: this.framer.transport ?? 'unknown',
      provider: this.router.provider,
      done: state.done,
      frameCount: this.store.count,
      choices: state.choices,
      messages: state.messages,
      usage: state.usage,
      errors: this.store.errors.slice(),
    }
  }

  frameInfo(seq: number): FrameInfo {
    this.flush()
    return this.store.frameInfo(seq)
  }

  frameTime(seq: number): number | null {
    this.flush()
    return this.store.frameTime(seq)
  }

  frameKind(seq: number): FrameKind {
    this.flush()
    return this.store.frameKind(seq)
  }

  frame(seq: number): Frame {
    this.flush()
    return this.store.frame(seq, this.framer.transport)
  }

  frames(from = 0, to?: number): Frame[] {
    this.flush()
    return this.store.frames(from, to ?? this.store.count, this.framer.transport)
  }

  replyAt(seq: number): Reply {
    this.flush()
    const last = Math.min(seq, this.store.count - 1)
    const transport = this.framer.transport
    return this.replay.at(last, this.router.provider, transport ?? 'unknown', (i) => this.store.frame(i, transport), this.store.errors)
  }

  entries(): FrameEntry[] {
    this.flush()
    return this.store.entries()
  }

  provenance(): Provenance[] {
    this.flush()
    return this.router.accumulator.provenanceRecords()
  }

  eachProvenance(visit: ProvenanceVisit): void {
    this.flush()
    this.router.accumulator.eachProvenance(visit)
  }

  partProvenance(): PartProvenance[] {
    this.flush()
    return this.router.accumulator.partProvenance()
  }

  streamErrors(): StreamError[] {
    this.flush()
    return this.router.accumulator.streamErrors.slice()
  }

  diagnostics(): Diagnostic[] {
    this.flush()
    return [...this.found, ...this.router.accumulator.diagnostics].sort((a, b) => (a.frame ?? -1) - (b.frame ?? -1))
  }

  providerChoice(): ProviderChoice {
    this.flush()
    return this.router.choice
  }

  get byteLength(): number {
    return this.store.body.length
  }

  bytesHeldFrom(): number {
    // a binary body's framer keeps views of what it was given until its messages end
    if (!this.decoder.decodesText) return 0
    return this.store.heldFrom()
  }

  body(from = 0, to = this.store.body.length): Uint8Array {
    const end = Math.min(to, this.store.body.length)
    if (end <= from) return new Uint8Array(0)
    return this.store.body.bytes(from, end)
  }
}

function isDone(data: string): boolean {
  return data.length <= 16 && data.trim() === '[DONE]'
}
