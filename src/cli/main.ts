#!/usr/bin/env node
// deltascope merge|frames|check|diagnose|timing FILE|- : the library's merger (and its debugger)
// on a raw body, a Deltascope fixture or a HAR entry. A raw body is read as a stream.
// Exit 2 on bad usage or unreadable input (one line on stderr); else per command (see HELP).

import { createMerger, type Merger } from '../library.js'
import type { LibraryMergeOptions as MergeOptions, Reply } from '../library.js'
import { HELP, parseCliArgs, type StreamArgs } from './args.js'
import { streamDetails, type StreamDetails } from './details.js'
import { InputError, Output, packageVersion, readChunks } from './io.js'
import { readRulesFile } from './rules-file.js'
import { toJson } from './json.js'
import { frameJson, renderFrameRow, renderFramesHeader, renderReplyParts, renderSummary, type ReplyView } from './render.js'
import { BIG_INPUT, collectAfter, fileBodyReader } from './memory.js'
import { openSource, recordingOptions, timedChunks, withFlags, type Source } from './source.js'
import { ANSI, PLAIN, wantsColor, type Style } from './style.js'

async function run(argv: readonly string[]): Promise<number> {
  const parsed = parseCliArgs(argv)
  if (!parsed.ok) return fail(`${parsed.message}; see deltascope --help`)
  const { command } = parsed
  const out = new Output(process.stdout)
  if (command.kind === 'help') { await out.write(HELP); return 0 }
  if (command.kind === 'version') { await out.write(packageVersion() + '\n'); return 0 }
  const style = wantsColor(process.stdout.isTTY, process.env) ? ANSI : PLAIN
  // serve reads its captures itself (several files) and runs until stopped
  if (command.kind === 'serve') return await (await import('./serve.js')).serveCommand(command, style)
  try {
    // a connection, not a stream: read whole and written as a WebSocket fixture
    if (command.kind === 'ws-fixture') return await (await import('./ws-fixture.js')).wsFixtureCommand(command, out)
    if (command.rulesFile !== undefined) command.options.rules = await readRulesFile(command.rulesFile)
    const source = await openSource(command.file, command.entry)
    if (source.kind !== 'raw') {
      for (const w of source.warnings) process.stderr.write(`deltascope: warning: ${w.replace(/\s*[\r\n]+\s*/g, ' ')}\n`)
    }
    switch (command.kind) {
      case 'merge': return await mergeCommand(feed(source, command), command, out, style)
      case 'frames': return await framesCommand(feed(source, command), command, out, style)
      // the debugger is loaded only by the commands that use it
      case 'check': return await (await import('./debug.js')).checkCommand(source, command, out, style)
      case 'diagnose': return await (await import('./debug.js')).diagnoseCommand(source, command, out, style)
      case 'timing': return await (await import('./debug.js')).timingCommand(source, command, out, style)
      case 'stress': return await (await import('./stress.js')).stressCommand(source, command, out, style)
      default: return 2
    }
  } catch (e) {
    if (e instanceof InputError) return fail(e.message)
    throw e
  }
}

/** The body piece by piece, with its arrival time (ms since the request started) when known. */
interface Feed {
  options: MergeOptions
  each(push: (data: string | Uint8Array, t: number | null) => void | Promise<void>): Promise<void>
}

function feed(source: Source, args: StreamArgs): Feed {
  if (source.kind === 'raw') {
    // a file's bytes are read back from it when asked for, not held while a long frame is read
    const reader = fileBodyReader(source.file)
    const options = reader === null ? args.options : { ...args.options, bodyReader: reader }
    return { options, each: (push) => readChunks(source.chunks, source.file, (c) => push(c, null)) }
  }
  const recording = withFlags(source.recording, args.options)
  return {
    options: recordingOptions(recording),
    each: async (push) => { for (const c of timedChunks(recording)) await push(c.data, c.t) },
  }
}

function pushTo(merger: Merger, data: string | Uint8Array, t: number | null): void {
  if (t === null) merger.push(data)
  else merger.push(data, t)
}

async function mergeCommand(input: Feed, args: StreamArgs, out: Output, style: Style): Promise<number> {
  const merger = createMerger({ ...input.options, retainBody: false })
  await input.each((data, t) => pushTo(merger, data, t))
  const reply = merger.end()
  collectAfter(merger.byteLength)
  const details = streamDetails(merger)
  // the JSON and its newline written apart: joined, the string would be copied once more
  if (args.json) await out.writeParts([toJson(reply, 2), '\n'])
  else await out.writeParts(renderReplyParts(view(merger, reply, details), style))
  return exitCode(reply, details)
}

async function framesCommand(input: Feed, args: StreamArgs, out: Output, style: Style): Promise<number> {
  const { json } = args
  const merger = createMerger({ ...input.options, retainBody: false })
  let next = 0
  // rows are written as their frames complete, then forgotten: nothing is collected
  const flush = async () => {
    const rows: string[] = []
    for (; next < merger.frameCount; next++) {
      // a frame is built again from its bytes (its text, its JSON): the merge's own copies of a giant one are collected first
      if (merger.byteLength >= BIG_INPUT) {
        const info = merger.frameInfo(next)
        collectAfter(info.byteEnd - info.byteStart)
      }
      const frame = merger.frame(next)
      rows.push(json ? (next === 0 ? '\n' : ',\n') + frameJson(frame) : renderFrameRow(frame, style))
    }
    await out.write(rows.join(''))
  }
  await out.write(json ? '[' : renderFramesHeader(style))
  await input.each(async (data, t) => { pushTo(merger, data, t); await flush() })
  const reply = merger.end()
  await flush()
  const details = streamDetails(merger)
  if (json) await out.write(next === 0 ? ']\n' : '\n]\n')
  else {
    // the table, then the same verdict as `merge` (without the reply itself)
    await out.write('\n' + renderSummary(view(merger, reply, details), style))
  }
  return exitCode(reply, details)
}

function view(merger: Merger, reply: Reply, details: StreamDetails): ReplyView {
  return {
    reply,
    streamErrors: details.streamErrors,
    diagnostics: details.diagnostics,
    lineOf: (seq) => (seq >= 0 && seq < merger.frameCount ? merger.frameInfo(seq).line : null),
  }
}

function exitCode(reply: Reply, details: StreamDetails): number {
  return reply.errors.length > 0 || !reply.done || details.streamErrors.length > 0 ? 1 : 0
}

function fail(message: string): number {
  process.stderr.write(`deltascope: ${message}\n`)
  return 2
}

// A reader that went away (`deltascope frames big.sse | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0)
  throw e
})

run(process.argv.slice(2)).then(
  (code) => { process.exitCode = code },
  (e: unknown) => {
    process.stderr.write(`deltascope: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
    process.exitCode = 2
  },
)
