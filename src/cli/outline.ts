// What `check` prints beside a comparison, for a big raw file: the reply's shape (which
// choices and messages it has: the fields compared) and each frame's line and raw text. Built
// by a merge of the file that keeps no text (a body reader, the reply's strings dropped), run
// before the body is read whole: the text of a giant frame is then held by one merger at a
// time (the reference's), not by two.

import { statSync } from 'node:fs'
import { createMerger, type BodyReader, type LibraryMergeOptions as MergeOptions, type Reply } from '../library.js'
import { openInput, readChunks } from './io.js'
import { BIG_INPUT, collect, fileBodyReader } from './memory.js'
import { middleClip, RAW_LINE, type RawShown } from './render.js'
import { RAW_SHOWN } from './report.js'

export interface Outline {
  /** The reply with its texts and tool calls emptied: its choices and messages, by index. */
  reply: Reply
  frameOf: (seq: number) => { line: number; shown: RawShown } | null
}

/** The frame's bytes are read and decoded in windows of this size, collected every COLLECT_EVERY of them. */
const WINDOW = 1 << 22
const COLLECT_EVERY = 8

const TEXT_TRANSPORTS = new Set(['sse', 'ndjson', 'json', 'data-stream'])

/** The outline of a regular file of BIG_INPUT bytes or more, as text frames; else null (check merges the body itself). */
export async function outlineOf(file: string, options: MergeOptions): Promise<Outline | null> {
  let size = 0
  try {
    size = file === '-' ? 0 : statSync(file).size
  } catch {
    return null
  }
  const reader = size >= BIG_INPUT ? fileBodyReader(file) : null
  if (reader === null) return null
  const outline = await mergedOutline(file, options, reader)
  // the merger and its texts are gone once mergedOutline returns: collected before the body is read
  collect()
  return outline
}

async function mergedOutline(file: string, options: MergeOptions, reader: BodyReader): Promise<Outline | null> {
  const merger = createMerger({ ...options, bodyReader: reader })
  await readChunks(await openInput(file), file, (c) => merger.push(c))
  const full = merger.end()
  // binary frames (an event stream, Connect) are shown decoded by the merger, not as their bytes
  if (!TEXT_TRANSPORTS.has(full.transport)) return null
  const count = merger.frameCount
  const lines = new Float64Array(count)
  const starts = new Float64Array(count)
  const ends = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    const info = merger.frameInfo(i)
    lines[i] = info.line
    starts[i] = info.byteStart
    ends[i] = info.byteEnd
  }
  const reply: Reply = {
    ...full,
    choices: full.choices.map((c) => ({ ...c, content: '', reasoning: '', refusal: '', toolCalls: [] })),
    messages: full.messages.map((m) => ({ ...m, parts: [] })),
  }
  return { reply, frameOf: frameReader(lines, starts, ends, reader) }
}

/**
 * Made apart from mergedOutline: a closure there would share its scope with the one that
 * pushes to the merger, and keep the merger (and its texts) alive through it.
 */
function frameReader(lines: Float64Array, starts: Float64Array, ends: Float64Array, reader: BodyReader): Outline['frameOf'] {
  return (seq) => (Number.isInteger(seq) && seq >= 0 && seq < lines.length ? { line: lines[seq]!, shown: shownLines(reader, starts[seq]!, ends[seq]!) } : null)
}

/**
 * What rawLines shows of the text of bytes [from, to), read and decoded window by window: the
 * first RAW_SHOWN lines, each as its start and its end, and how many lines there are. A frame
 * of 200 MB is never one string here (nor its bytes one buffer).
 */
export function shownLines(reader: BodyReader, from: number, to: number, window = WINDOW): RawShown {
  const stream = new TextDecoder('utf-8', { ignoreBOM: true })
  const lines: string[] = []
  let count = 0
  let head = ''
  let tail = ''
  let length = 0
  let afterCr = false
  let endedByTerminator = false
  const add = (piece: string) => {
    if (piece === '') return
    if (head.length < RAW_LINE) head += piece.slice(0, RAW_LINE - head.length)
    tail = piece.length >= RAW_LINE ? piece.slice(-RAW_LINE) : (tail + piece).slice(-RAW_LINE)
    length += piece.length
  }
  const finish = () => {
    // a line longer than RAW_LINE is clipped from its first and last RAW_LINE characters, as from all of it
    if (count++ < RAW_SHOWN) lines.push(middleClip(length <= RAW_LINE ? head : head + tail, RAW_LINE))
    head = ''
    tail = ''
    length = 0
  }
  const text = (chunk: string) => {
    let at = 0
    if (afterCr && chunk.length > 0) {
      afterCr = false
      if (chunk.charCodeAt(0) === 0x0a) at = 1
    }
    while (at < chunk.length) {
      endedByTerminator = false
      let eol = at
      while (eol < chunk.length && chunk.charCodeAt(eol) !== 0x0a && chunk.charCodeAt(eol) !== 0x0d) eol++
      add(chunk.slice(at, eol))
      if (eol === chunk.length) return
      finish()
      endedByTerminator = true
      if (chunk.charCodeAt(eol) === 0x0d) {
        if (eol + 1 === chunk.length) { afterCr = true; return }
        at = chunk.charCodeAt(eol + 1) === 0x0a ? eol + 2 : eol + 1
      } else at = eol + 1
    }
  }
  let read = 0
  for (let at = from; at < to; at += window) {
    text(stream.decode(reader(at, Math.min(to, at + window)), { stream: true }))
    // each window's bytes and text are garbage once read: returned every few windows' worth
    read += Math.min(to, at + window) - at
    if (read >= COLLECT_EVERY * WINDOW) { collect(); read = 0 }
  }
  text(stream.decode())
  // the text less one trailing terminator: a terminator at the very end opens no line
  if (!endedByTerminator || length > 0) finish()
  return { shown: lines, count }
}
