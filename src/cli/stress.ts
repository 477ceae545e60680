// deltascope stress FILE --client MODULE: the user's client (the module's default export,
// `async (fetch) => result`) under every chunking of the capture (src/debug/stress.ts), one
// row per chunking: ✓, ✗ with the cause and frame of the first difference (or the error), or
// "not applicable" with why. Exit 0 when every run is equal, else 1.

import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CHUNKINGS, type ChunkingName } from '../debug/stress-chunkings.js'
import { stressClient, type StressClient, type StressReport, type StressRun } from '../debug/stress.js'
import { toFixture, type Fixture } from '../exchange/index.js'
import type { StressCommand } from './args-tools.js'
import type { StreamArgs } from './args.js'
import { hasFlags, recordingOf } from './debug.js'
import { InputError, type Output } from './io.js'
import { toJson } from './json.js'
import { fixtureOf, type Source } from './source.js'
import type { Style } from './style.js'

export async function stressCommand(source: Source, args: StressCommand & StreamArgs, out: Output, style: Style): Promise<number> {
  const client = await loadClient(args.client)
  const fixture = await fixtureFor(source, args)
  const report = await stressClient(client, fixture, {
    ...(args.chunkings !== null ? { chunkings: args.chunkings } : {}),
    ...(args.timeoutMs !== null ? { timeoutMs: args.timeoutMs } : {}),
  })
  await out.write(args.json ? toJson(report, 2) + '\n' : renderStress(report, { file: source.file, client: args.client }, style))
  const code = report.ok ? 0 : 1
  // a client left hanging may hold a timer or a socket that keeps Node alive: the report is out, stop
  if (report.runs.some((r) => r.error?.kind === 'timed-out')) process.exit(code)
  return code
}

/** The capture as a fixture: as stored when no flag changes it; a HAR entry or raw body through the exporter (credentials kept: nothing leaves). */
async function fixtureFor(source: Source, args: StreamArgs): Promise<Fixture> {
  if (source.kind === 'fixture' && !hasFlags(args.options)) return fixtureOf(source)!
  const { recording } = await recordingOf(source, args.options)
  return toFixture(recording, { includeCredentials: true })
}

async function loadClient(path: string): Promise<StressClient> {
  let module: { default?: unknown }
  try {
    module = await import(pathToFileURL(resolve(path)).href) as { default?: unknown }
  } catch (e) {
    throw new InputError(`--client ${path}: cannot load it (${oneLine(e instanceof Error ? e.message : String(e))})`)
  }
  if (typeof module.default !== 'function') {
    throw new InputError(`--client ${path}: its default export must be a function, async (fetch) => result (got ${module.default === undefined ? 'no default export' : typeof module.default})`)
  }
  return module.default as StressClient
}

export function renderStress(report: StressReport, what: { file: string; client: string }, style: Style): string {
  const failed = report.runs.filter((r) => !r.equal).length
  const lines = [
    `${style.bold(`${what.client} on ${what.file}`)}: ${report.runs.length} run${report.runs.length === 1 ? '' : 's'}, ${failed === 0 ? style.green('all equal') : style.red(`${failed} failed`)}`,
    '',
  ]
  const width = Math.max(14, ...[...report.runs.map((r) => r.chunking), ...report.notApplicable.map((n) => n.chunking)].map((n) => n.length))
  for (const run of report.runs) lines.push(...runRows(run, width, style))
  for (const skip of report.notApplicable) lines.push(`  ${style.dim('–')} ${skip.chunking.padEnd(width)}  ${style.dim(`not applicable: ${skip.reason}`)}`)
  // one line per description: the random seeds share theirs
  const exposed = new Map<string, string[]>()
  for (const run of report.runs) if (!run.equal) exposed.set(describe(run.chunking), [...(exposed.get(describe(run.chunking)) ?? []), run.chunking])
  if (exposed.size > 0) {
    lines.push('', 'What the failing chunkings exercise:')
    for (const [text, names] of exposed) lines.push(`  ${names.join(', ').padEnd(width)}  ${style.dim(text)}`)
  }
  return lines.join('\n') + '\n'
}

function runRows(run: StressRun, width: number, style: Style): string[] {
  const figures = `${String(run.reads).padStart(5)} read${run.reads === 1 ? ' ' : 's'} ${`${Math.round(run.ms)} ms`.padStart(8)}`
  if (run.equal) return [`  ${style.green('✓')} ${run.chunking.padEnd(width)}  ${style.dim(figures)}`]
  const head = `  ${style.red('✗')} ${run.chunking.padEnd(width)}  ${style.dim(figures)}  `
  if (run.error) return [head + style.red(run.error.kind === 'timed-out' ? `timed out: ${run.error.message}` : `threw: ${oneLine(run.error.message)}`)]
  const first = run.comparison!.differences[0]!
  const more = run.comparison!.differences.length - 1
  return [
    head + `${style.yellow(first.cause)}${first.frame === null ? '' : ` at frame ${first.frame}`} · ${first.field}${more > 0 ? style.dim(` (+${more} more)`) : ''}`,
    `      ${oneLine(first.message)}`,
  ]
}

function describe(name: ChunkingName): string {
  return name.startsWith('random:') ? CHUNKINGS['random:<seed>'] : CHUNKINGS[name as Exclude<keyof typeof CHUNKINGS, 'random:<seed>'>]
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ')
}
