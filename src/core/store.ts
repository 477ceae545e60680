// The frame store: the body's bytes, the character → byte offsets, the frame table (rows of
// integers), the entries and the parse errors. A Frame object is built only when someone
// asks for one, from its row and the body's bytes.

import { BodyBytes, ByteOffsets } from './body.js'
import { FrameTable } from './frame-table.js'
import type { RawEntry, RawFrame } from './framing.js'
import { parseJson } from './json-error.js'
import { readDataStreamLine } from './data-stream.js'
import { readEnvelope } from './connect.js'
import { readMessage } from './eventstream.js'
import { readSseBlock } from './sse.js'
import type { BodyReader, Frame, FrameEntry, FrameError, FrameInfo, FrameKind, JsonSyntaxError, Transport } from './types.js'

/** Decoded bytes held before a merger with a body reader drops them (releaseDecoded). */
const HELD_WITH_READER = 1 << 20

export class FrameStore {
  readonly body: BodyBytes
  /** Filled by the decoder; read here, in increasing order only, as frames complete. */
  readonly offsets = new ByteOffsets()
  readonly errors: FrameError[] = []
  private readonly table: FrameTable
  private readonly entryList: FrameEntry[] = []
  /** With retainBody: false: the byte where the first frame completed by the latest batch starts. */
  private firstStartInPush = -1
  /** application/connect+proto: Connect messages are shown as protobuf bytes when read again. */
  connectProto = false

  /**
   * `keep: false` (merge()): nothing but the Reply will be read, so frames are counted, not
   * stored, and no entries are kept. `retain: false` drops the bytes of frames once merged;
   * with a `reader` they are read back from it when asked for, else they are gone.
   */
  constructor(private readonly keep: boolean, private readonly retain: boolean, private readonly reader: BodyReader | null = null) {
    this.table = new FrameTable(keep)
    this.body = new BodyBytes(reader)
  }

  get count(): number {
    return this.table.count
  }

  /**
   * Stores (or, for merge(), counts) a frame; returns its seq. `arrival` stamps it with the
   * time it was complete, given where it ends.
   */
  addFrame(f: RawFrame, kind: FrameKind, error: JsonSyntaxError | null, arrival: (byteEnd: number, unterminated: boolean) => number | null): number {
    const byteStart = this.offsets.byteAt(f.start)
    const byteEnd = this.offsets.byteAt(f.end)
    if (this.firstStartInPush < 0) this.firstStartInPush = byteStart
    const seq = this.keep
      ? this.table.add({
        start: f.start, end: f.end, byteStart, byteEnd,
        line: f.line, kind, unterminated: f.unterminated, event: f.event, id: f.id, retry: f.retry, error,
        time: arrival(byteEnd, f.unterminated),
      })
      : this.table.skip()
    if (kind === 'invalid') {
      this.errors.push({ frame: seq, offset: f.start, line: f.line, raw: f.raw ?? this.body.slice(byteStart, byteEnd), message: error!.message })
    }
    return seq
  }

  addEntry(e: RawEntry): void {
    // entries are not in the Reply; the offsets cursor still moves on, so the text behind it is dropped
    if (!this.keep) { this.offsets.byteAt(e.end); return }
    const raw = this.body.slice(this.offsets.byteAt(e.start), this.offsets.byteAt(e.end))
    this.entryList.push({ kind: e.kind, start: e.start, end: e.end, line: e.line, raw, beforeFrame: this.table.count })
  }

  /**
   * The first byte whose bytes, as they were given, may still be read here: the body's blocks
   * not released yet and the offsets' segments not passed yet; 0 while the body is kept.
   */
  heldFrom(): number {
    if (this.retain) return 0
    return Math.min(this.body.releasedBefore, this.offsets.firstHeldByte())
  }

  /** With retainBody: false, frames completed by the previous batch stay readable until this one. */
  releaseRead(): void {
    if (this.retain) return
    if (this.firstStartInPush >= 0) this.body.release(this.firstStartInPush)
    this.firstStartInPush = -1
  }

  /**
   * With a reader, bytes already decoded are dropped once more than HELD_WITH_READER (1 MiB) of them
   * are held, even inside a frame not yet complete: its text is read back from the reader when
   * asked for, so a single frame of hundreds of MB is held once (as the text the framer joins)
   * and not also as bytes. Below that, they stay: reading back is a call to the caller.
   */
  releaseDecoded(decoded: number): void {
    if (this.reader === null || decoded - this.body.releasedBefore <= HELD_WITH_READER) return
    this.body.release(decoded)
  }

  entries(): FrameEntry[] {
    return this.entryList.slice()
  }

  frameInfo(seq: number): FrameInfo {
    return this.table.info(seq)
  }

  frameTime(seq: number): number | null {
    return this.table.timeAt(seq)
  }

  frameKind(seq: number): FrameKind {
    return this.table.kindAt(seq)
  }

  frame(seq: number, transport: Transport | null): Frame {
    const row = this.table.row(seq)
    const { raw, data } = this.text(row.byteStart, row.byteEnd, transport)
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

  /** Frames [from, to) whose text is still held (all of them unless retainBody: false). */
  frames(from: number, to: number, transport: Transport | null): Frame[] {
    const out: Frame[] = []
    const released = this.body.releasedBefore
    for (let i = Math.max(0, from); i < Math.min(to, this.table.count); i++) {
      if (released > 0 && !this.body.readable(this.table.info(i).byteStart)) continue
      out.push(this.frame(i, transport))
    }
    return out
  }

  /** A frame's raw text and data, read again from its bytes by the same rules. */
  private text(byteStart: number, byteEnd: number, transport: Transport | null): { raw: string; data: string } {
    if (transport === 'eventstream') {
      // binary: shown as its headers and payload (src/core/eventstream.ts)
      const m = readMessage(this.body.bytes(byteStart, byteEnd), byteStart)
      return { raw: m.raw, data: m.data }
    }
    if (transport === 'connect') {
      // binary envelopes: shown as their JSON payload (src/core/connect.ts)
      const m = readEnvelope(this.body.bytes(byteStart, byteEnd), byteStart, { proto: this.connectProto })
      return { raw: m.raw, data: m.data }
    }
    const raw = this.body.slice(byteStart, byteEnd)
    return { raw, data: dataOf(raw, transport) }
  }
}

/** A frame's data, read again from its raw text by the same rules. */
function dataOf(raw: string, transport: Transport | null): string {
  if (transport === 'data-stream') return readDataStreamLine(raw.replace(/\r?\n$|\r$/, '')).data
  if (transport === 'sse') return readSseBlock(raw).data ?? ''
  if (transport === 'ndjson') return raw.replace(/\r?\n$|\r$/, '')
  return raw
}
