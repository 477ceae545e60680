// deltascope check | diagnose | timing: the debugger (src/debug) on a raw body, a fixture or a
// HAR entry. These read the whole input (the debugger works on a complete recording); each
// loads only the part of the debugger it uses.

import { toFixture, type Fixture, type Recording } from '../exchange/index.js'
import { createMerger, type LibraryMergeOptions as MergeOptions, type Merger, type Reply } from '../library.js'
import type { Comparison } from '../debug/compare-types.js'
import type { StreamArgs } from './args.js'
import { readText, type Output } from './io.js'
import { toJson } from './json.js'
import { renderComparison, renderDiagnosis, renderTiming, type ComparisonView } from './report.js'
import { fixtureOf, rawRecording, readWhole, recordingOptions, timedChunks, withFlags, type Source } from './source.js'
import type { Style } from './style.js'
import { BIG_INPUT, collect, collectAfter } from './memory.js'
import { outlineOf } from './outline.js'

/** The input as a Recording, whatever it was; a raw body keeps its bytes for a reference too. */
export async function recordingOf(source: Source, flags: MergeOptions): Promise<{ recording: Recording; body: Uint8Array | null }> {
  if (source.kind === 'raw') {
    const body = await readWhole(source.chunks, source.file)
    collectAfter(body.length)
    return { recording: rawRecording(source.file, body, flags), body }
  }
  return { recording: withFlags(source.recording, flags), body: null }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The recording of a big raw body with its bytes as text, when they are valid UTF-8 (a BOM
 * kept: the merger drops it as it does from bytes). A merger pushed bytes copies them and
 * decodes them in 64 KiB pieces, joined again for a frame that spans them; pushed one string,
 * it keeps the UTF-8 and hands the text on whole, so a single frame of 200 MB is sliced from
 * it, not joined. Invalid UTF-8 stays bytes: its replacement characters are diagnosed.
 */
async function textRecordingOf(source: Source, flags: MergeOptions): Promise<{ recording: Recording; body: string | Uint8Array | null }> {
  const read: { recording: Recording; body: string | Uint8Array | null } = await recordingOf(source, flags)
  if (read.body === null || read.body.length < BIG_INPUT) return read
  let text: string
  try {
    text = strictUtf8.decode(read.body as Uint8Array)
  } catch {
    return read
  }
  // the bytes are dropped before the merge: its peak is the text's, not both
  read.recording = { ...read.recording, chunks: [{ data: text, t: null }] }
  read.body = text
  collect()
  return read
}

export async function checkCommand(source: Source, args: StreamArgs & { against: string }, out: Output, style: Style): Promise<number> {
  const result = await readResult(args.against)
  // printed beside the comparison: a big file's outline, merged before its body is read whole
  const outline = !args.json && source.kind === 'raw' ? await outlineOf(source.file, args.options) : null
  // with an outline the body is not needed after the comparison: none is kept, and it is collected before the output
  const { comparison, input } = await compared(source, args.options, result, outline === null)
  if (args.json) {
    await out.write(toJson(comparison, 2) + '\n')
    return comparison.equal ? 0 : 1
  }
  // the reply's shape and frames, from the outline or merged again (the reference's merger is not returned)
  let view: { reply: Reply; frameOf: NonNullable<ComparisonView['frameOf']> }
  if (outline !== null || input === null) {
    collect()
    view = outline!
  } else {
    const { recording, body } = input
    const { merger, reply } = body !== null ? mergeBody(body, args.options) : replay(recording)
    view = {
      reply,
      frameOf: (seq) => {
        if (!Number.isInteger(seq) || seq < 0 || seq >= merger.frameCount) return null
        const f = merger.frame(seq)
        return { line: f.line, raw: f.raw }
      },
    }
  }
  await out.write(renderComparison({ comparison, ...view }, style))
  return comparison.equal ? 0 : 1
}

/** The comparison with the reference the input makes; the input itself too when `keep`. */
async function compared(
  source: Source, flags: MergeOptions, result: unknown, keep: boolean,
): Promise<{ comparison: Comparison; input: { recording: Recording; body: string | Uint8Array | null } | null }> {
  const input = await textRecordingOf(source, flags)
  // the reference: a fixture keeps the network chunks (causes can name reads); a raw body is merged as it is
  let reference: Fixture | string | Uint8Array
  if (input.body !== null) reference = input.body
  else {
    const asIs = source.kind === 'fixture' && !hasFlags(flags) ? fixtureOf(source) : null
    reference = asIs ?? toFixture(input.recording, { includeCredentials: true })
  }
  const { compareReply } = await import('../debug/compare.js')
  return { comparison: compareReply(reference, result, { mergeOptions: flags }), input: keep ? input : null }
}

/** A raw body merged as it is (bytes read whole are not changed afterwards: kept without a copy). */
function mergeBody(body: string | Uint8Array, options: MergeOptions): { merger: Merger; reply: Reply } {
  const merger = createMerger(options)
  if (typeof body === 'string') merger.push(body)
  else merger.pushOwned(body)
  return { merger, reply: merger.end() }
}

export async function diagnoseCommand(
  source: Source, args: StreamArgs & { stallMs: number | null }, out: Output, style: Style,
): Promise<number> {
  const { recording } = await textRecordingOf(source, args.options)
  const { diagnose } = await import('../debug/diagnose.js')
  const diagnostics = diagnose(recording, args.stallMs === null ? {} : { stallMs: args.stallMs })
  if (args.json) await out.write(toJson({ diagnostics }, 2) + '\n')
  else {
    // where each frame starts in the file, and what merge lists beside: a second, cheap pass (no body kept)
    collectAfter(recordingSize(recording))
    const { merger, reply } = replay(recording, false)
    const lineOf = (seq: number) => (seq >= 0 && seq < merger.frameCount ? merger.frameInfo(seq).line : null)
    await out.write(renderDiagnosis(diagnostics, style, lineOf, { brokenFrames: reply.errors.length, streamErrors: merger.streamErrors().length }))
  }
  return diagnostics.some((d) => d.level === 'warning' || d.level === 'error') ? 1 : 0
}

export async function timingCommand(
  source: Source, args: StreamArgs & { stallMs: number | null }, out: Output, style: Style,
): Promise<number> {
  const { recording } = await textRecordingOf(source, args.options)
  const { timing } = await import('../debug/timing.js')
  const figures = timing(recording, args.stallMs === null ? {} : { stallMs: args.stallMs })
  if (args.json) await out.write(toJson(figures, 2) + '\n')
  else await out.write(renderTiming(figures, style, source.kind === 'raw'))
  return 0
}

/** The recording replayed as a fixture is: chunk by chunk, with its times and merge options. */
function replay(recording: Recording, retainBody = true): { merger: Merger; reply: Reply } {
  const merger = createMerger({ ...recordingOptions(recording), retainBody })
  for (const c of timedChunks(recording)) {
    if (c.t === null) merger.push(c.data)
    else merger.push(c.data, c.t)
  }
  return { merger, reply: merger.end() }
}

/** The recording's size in characters or bytes (enough to tell a big input). */
function recordingSize(recording: Recording): number {
  return recording.chunks.reduce((n, c) => n + c.data.length, 0)
}

export function hasFlags(flags: MergeOptions): boolean {
  return flags.provider !== undefined || flags.transport !== undefined || flags.contentType !== undefined || flags.url !== undefined || flags.rules !== undefined
}

/** RESULT: JSON (an object, an array or a string) when it parses as such, else its text as choice 0's content. */
async function readResult(path: string): Promise<unknown> {
  const text = await readText(path)
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (/^\s*[{["]/.test(json)) {
    try {
      const value: unknown = JSON.parse(json)
      if (typeof value === 'object' || typeof value === 'string') return value
    } catch {
      // not JSON: plain text
    }
  }
  return text
}
