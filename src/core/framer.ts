// Framing: decoded text → raw frames. Chooses the transport (forced, from the Content-Type,
// else sniffed from the first non-blank line, the text held until then), hands the text to
// that transport's splitter, and knows when each piece of the body arrived, so a frame can
// be stamped with the time of the piece that completed it. The AWS event stream and Connect's
// envelopes are binary: the decoder hands their bytes here undecoded (wantsBytes), and their
// frames' offsets are bytes.

import { createConnectSplitter, looksLikeEnvelope } from './connect.js'
import { createDataStreamSplitter } from './data-stream.js'
import { createEventStreamSplitter, looksLikePrelude, type ByteSplitter } from './eventstream.js'
import type { FrameSink, LineProblem, RawEntry, RawFrame, Splitter } from './framing.js'
import type { TextSource } from './lines.js'
import { createJsonArraySplitter } from './json-array.js'
import { createNdjsonSplitter } from './ndjson.js'
import { createSseSplitter } from './sse.js'
import { isConnectProto, sniffTransport, transportFromContentType, type Sniffed } from './transport.js'
import { SYMPTOMS } from './symptoms.js'
import type { Diagnostic, MergeOptions, Transport } from './types.js'

/** Line problems of one code listed before the rest are only counted (a forced SSE read of garbage has one per line). */
const MAX_LINE_PROBLEMS_LISTED = 100

export class Framer {
  /** null while undecided. */
  transport: Transport | null = null
  private splitter: Splitter | null = null
  /** The event stream's or Connect's reader, fed bytes rather than text. */
  private byteSplitter: ByteSplitter | null = null
  private readonly frameSink: (frame: RawFrame) => void
  private readonly sink: FrameSink
  private head: string[] = []
  private headHasText = false
  /** The arrival time of the latest push (ms), when the caller gives times. */
  time: number | null = null
  /** Where each piece not yet decoded ends in the body, and when it arrived. */
  private pieceEnds: number[] = []
  private pieceTimes: Array<number | null> = []
  private timelineAt = 0
  private readonly lineProblems = { 'invalid-retry': 0, 'unknown-field': 0 }
  /** application/connect+proto: Connect messages are protobuf. */
  private readonly connectProto: boolean

  /**
   * `frame` and `entry` go straight into the splitters' sink (no extra call per frame);
   * `diagnostics` is the stream's list, shared with the decoder.
   */
  constructor(
    options: MergeOptions,
    frame: (frame: RawFrame) => void,
    entry: (entry: RawEntry) => void,
    private readonly diagnostics: Diagnostic[],
    text: TextSource | null = null,
  ) {
    this.frameSink = frame
    this.connectProto = isConnectProto(options.contentType)
    this.sink = {
      frame, entry, text,
      problem: (code, message, offset) => diagnostics.push({ frame: null, level: 'warning', code, message, symptom: SYMPTOMS[code], offset }),
    }
    const preset = options.transport ? { transport: options.transport, reason: 'forced' } : transportFromContentType(options.contentType)
    if (preset) this.choose(preset)
  }

  push(text: string): void {
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

  /** The text is complete: decide the transport if the head never told, then end the splitter. */
  end(): void {
    if (this.byteSplitter !== null) { this.byteSplitter.end(); return }
    if (this.splitter === null && this.transport !== 'unknown') this.choose(sniffTransport(this.head.join(''), true)!)
    this.splitter?.end()
  }

  /**
   * Asked by the decoder before it decodes the first bytes: should the body go on as bytes
   * (an AWS event stream, a Connect stream) rather than text? True when the Content-Type or
   * the caller said eventstream or connect, or when the body starts with a 12-byte prelude
   * whose CRC matches (a first byte 0, since a message is under 16 MiB, then the CRC: plain
   * text never passes), or with a Connect envelope of JSON (flags 0 or 2, a length, then `{`:
   * text never starts with those bytes); false when another transport was chosen or the start
   * is neither; null while fewer than 12 bytes are there to tell (`final`: the body has no more).
   */
  wantsBytes(head: Uint8Array, final: boolean): boolean | null {
    if (this.transport === 'eventstream' || this.transport === 'connect') return true
    if (this.transport !== null) return false
    if (head.length === 0) return final ? false : null
    if (head[0] !== 0 && head[0] !== 2) return false
    if (head.length < 12 && !final) return null
    if (head.length >= 12 && looksLikePrelude(head)) {
      this.choose({ transport: 'eventstream', reason: 'sniffed: the body starts with an AWS event-stream prelude whose CRC matches' })
      return true
    }
    if (!looksLikeEnvelope(head)) return false
    this.choose({ transport: 'connect', reason: 'sniffed: the body starts with a Connect envelope of JSON (flags, a 4-byte length, then "{")' })
    return true
  }

  /** The event stream's bytes, in order (after wantsBytes said true). */
  pushBytes(bytes: Uint8Array): void {
    this.byteSplitter?.push(bytes)
  }

  private choose(sniffed: Sniffed): void {
    this.transport = sniffed.transport
    if (sniffed.transport === 'sse') this.splitter = createSseSplitter(this.sink)
    else if (sniffed.transport === 'ndjson') this.splitter = createNdjsonSplitter(this.sink)
    else if (sniffed.transport === 'json') this.splitter = createJsonArraySplitter(this.sink)
    else if (sniffed.transport === 'data-stream') this.splitter = createDataStreamSplitter(this.sink)
    else if (sniffed.transport === 'eventstream') this.byteSplitter = createEventStreamSplitter(this.frameSink)
    else if (sniffed.transport === 'connect') this.byteSplitter = createConnectSplitter(this.frameSink, { proto: this.connectProto })
    else {
      const code = 'binary' in sniffed && sniffed.binary === true ? 'binary-eventstream' : 'unknown-transport'
      this.diagnostics.push({
        frame: null, level: 'error', code, symptom: SYMPTOMS[code],
        message: `No frames read: ${sniffed.reason}. The body is shown as raw text.`,
      })
    }
    const held = this.head.join('')
    this.head = []
    if (this.splitter !== null && held.length > 0) this.splitter.push(held)
  }

  /** Lines of a block the reader ignored (SSE: an invalid retry, an unknown field), for frame `seq` or none. */
  report(problems: LineProblem[], seq: number | null): void {
    for (const p of problems) {
      if (this.lineProblems[p.code]++ >= MAX_LINE_PROBLEMS_LISTED) continue
      this.diagnostics.push({ frame: seq, level: 'warning', code: p.code, symptom: SYMPTOMS[p.code], message: `${p.message} at line ${p.line}`, offset: p.offset, line: p.line })
    }
  }

  /** Once the stream's own diagnostics are in: how many line problems went unlisted. */
  countUnlisted(): void {
    for (const code of ['invalid-retry', 'unknown-field'] as const) {
      const all = this.lineProblems[code]
      const more = all - MAX_LINE_PROBLEMS_LISTED
      if (more <= 0) continue
      const what = code === 'invalid-retry' ? 'invalid `retry` value' : 'unknown field'
      this.diagnostics.push({ frame: null, level: 'warning', code, symptom: SYMPTOMS[code], message: `${more} more ${what}${more === 1 ? '' : 's'} not listed (${all} in all)` })
    }
  }

  // ------------------------------------------------------------ arrival times

  /**
   * Ends the latest piece at `bodyLength`. Pieces that arrived at the same time are one
   * piece to timeOf(): a push without a time (a file, a test) adds no entry at all.
   */
  markPiece(bodyLength: number): void {
    const last = this.pieceTimes.length - 1
    if (last >= 0 && this.pieceTimes[last] === this.time) this.pieceEnds[last] = bodyLength
    else {
      this.pieceEnds.push(bodyLength)
      this.pieceTimes.push(this.time)
    }
  }

  /** The pending pieces were decoded (and their frames stamped): start a new timeline. */
  clearPieces(): void {
    this.pieceEnds = []
    this.pieceTimes = []
    this.timelineAt = 0
  }

  /** When a frame ending at byte `byteEnd` was complete. */
  arrival(byteEnd: number, unterminated: boolean): number | null {
    // an SSE frame is complete when its blank line arrives; a line, array element or message at its last byte
    return this.timeOf(this.transport === 'sse' && !unterminated ? byteEnd : byteEnd - 1)
  }

  /** The arrival time of the piece holding byte `at` (frames complete in increasing order). */
  private timeOf(at: number): number | null {
    const ends = this.pieceEnds
    if (ends.length === 0) return this.time
    while (this.timelineAt < ends.length - 1 && ends[this.timelineAt]! <= at) this.timelineAt++
    return this.pieceTimes[this.timelineAt]!
  }
}
