#!/usr/bin/env node
// deltascope merge|frames FILE|- : the library's merger on a file or stdin, read as a stream.
// Exit 0 clean; 1 broken frame, no terminal event or a provider stream error; 2 bad usage or
// an unreadable file (one line on stderr).

import { createMerger, type Merger } from '../library.js'
import type { MergeOptions, Reply } from '../library.js'
import { HELP, parseCliArgs } from './args.js'
import { streamDetails, type StreamDetails } from './details.js'
import { InputError, Output, openInput, packageVersion, readChunks } from './io.js'
import { frameJson, renderFrameRow, renderFramesHeader, renderReply, renderSummary, type ReplyView } from './render.js'
import { ANSI, PLAIN, wantsColor, type Style } from './style.js'

async function run(argv: readonly string[]): Promise<number> {
  const parsed = parseCliArgs(argv)
  if (!parsed.ok) return fail(`${parsed.message}; see deltascope --help`)
  const { command } = parsed
  const out = new Output(process.stdout)
  if (command.kind === 'help') { await out.write(HELP); return 0 }
  if (command.kind === 'version') { await out.write(packageVersion() + '\n'); return 0 }
  const style = wantsColor(process.stdout.isTTY, process.env) ? ANSI : PLAIN
  try {
    const input = await openInput(command.file)
    const handler = command.kind === 'merge' ? mergeCommand : framesCommand
    return await handler(input, command.file, command.json, command.options, out, style)
  } catch (e) {
    if (e instanceof InputError) return fail(e.message)
    throw e
  }
}

async function mergeCommand(
  input: AsyncIterable<Uint8Array>, file: string, json: boolean, options: MergeOptions, out: Output, style: Style,
): Promise<number> {
  const merger = createMerger({ ...options, retainBody: false })
  await readChunks(input, file, (chunk) => merger.push(chunk))
  const reply = merger.end()
  const details = streamDetails(merger)
  if (json) await out.write(JSON.stringify(reply, null, 2) + '\n')
  else await out.write(renderReply(view(merger, reply, details), style))
  return exitCode(reply, details)
}

async function framesCommand(
  input: AsyncIterable<Uint8Array>, file: string, json: boolean, options: MergeOptions, out: Output, style: Style,
): Promise<number> {
  const merger = createMerger({ ...options, retainBody: false })
  let next = 0
  // rows are written as their frames complete, then forgotten: nothing is collected
  const flush = async () => {
    const rows: string[] = []
    for (; next < merger.frameCount; next++) {
      const frame = merger.frame(next)
      rows.push(json ? (next === 0 ? '\n' : ',\n') + frameJson(frame) : renderFrameRow(frame, style))
    }
    await out.write(rows.join(''))
  }
  await out.write(json ? '[' : renderFramesHeader(style))
  await readChunks(input, file, async (chunk) => { merger.push(chunk); await flush() })
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
