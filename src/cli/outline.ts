// What `check` prints beside a comparison, for a big raw file: the reply's shape (which
// choices and messages it has: the fields compared) and each frame's line and raw text. Built
// by a merge of the file that keeps no text (a body reader, the reply's strings dropped), run
// before the body is read whole: the text of a giant frame is then held by one merger at a
// time (the reference's), not by two.

import { statSync } from 'node:fs'
import { createMerger, type BodyReader, type LibraryMergeOptions as MergeOptions, type Reply } from '../library.js'
import { openInput, readChunks } from './io.js'
import { BIG_INPUT, collect, fileBodyReader } from './memory.js'

export interface Outline {
  /** The reply with its texts and tool calls emptied: its choices and messages, by index. */
  reply: Reply
  frameOf: (seq: number) => { line: number; raw: string } | null
}

const TEXT_TRANSPORTS = new Set(['sse', 'ndjson', 'json', 'data-stream'])
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

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
  return (seq) => (Number.isInteger(seq) && seq >= 0 && seq < lines.length ? { line: lines[seq]!, raw: decoder.decode(reader(starts[seq]!, ends[seq]!)) } : null)
}
