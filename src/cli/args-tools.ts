// The arguments of the two commands that run the user's code or app against a capture:
// `stress FILE --client MODULE` and `serve FILE…`. Pure: no I/O.

import { chunkingNameError, type ChunkingName } from '../debug/stress-chunkings.js'

/** Their options, merged into the CLI's one table (args.ts); each is refused by the other commands. */
export const TOOL_OPTIONS = {
  client: { type: 'string' },
  chunkings: { type: 'string' },
  timeout: { type: 'string' },
  chunking: { type: 'string' },
  speed: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
} as const

export type ToolValues = { [K in keyof typeof TOOL_OPTIONS]?: string } & { json?: boolean; entry?: string }

export interface StressCommand {
  kind: 'stress'
  /** The client module's path, as given. */
  client: string
  /** null: every chunking. */
  chunkings: ChunkingName[] | null
  timeoutMs: number | null
}

export interface ServeCommand {
  kind: 'serve'
  files: string[]
  port: number
  host: string
  chunking: ChunkingName
  speed: number
}

type Parsed<C> = { ok: true; command: C } | { ok: false; message: string }

/** The default port: beside the demo's 8787. */
export const SERVE_PORT = 8788

export function stressCommand<B extends object>(values: ToolValues, base: B): Parsed<StressCommand & B> {
  if (values.client === undefined || values.client === '') return usage('stress: missing --client MODULE (an ES module whose default export is async (fetch) => result)')
  let chunkings: ChunkingName[] | null = null
  if (values.chunkings !== undefined) {
    const names = values.chunkings.split(',').map((n) => n.trim()).filter((n) => n !== '')
    if (names.length === 0) return usage('--chunkings needs at least one name')
    for (const name of names) {
      const error = chunkingNameError(name)
      if (error !== null) return usage(`--chunkings: ${error}`)
    }
    chunkings = names as ChunkingName[]
  }
  let timeoutMs: number | null = null
  if (values.timeout !== undefined) {
    timeoutMs = positive(values.timeout)
    if (timeoutMs === null) return usage(`--timeout must be a number of milliseconds above 0 (got ${quote(values.timeout)})`)
  }
  return { ok: true, command: { ...base, kind: 'stress', client: values.client, chunkings, timeoutMs } }
}

export function serveCommand(values: ToolValues & Record<string, unknown>, files: string[]): Parsed<ServeCommand> {
  const other = ['json', 'entry', 'against', 'stall', 'provider', 'transport', 'content-type', 'url', 'rules', 'client', 'chunkings', 'timeout'].find((o) => values[o] !== undefined)
  if (other !== undefined) return usage(`serve: --${other} is not a serve option`)
  if (files.length === 0) return usage('serve: missing FILE (a fixture or a HAR; several may be given)')
  if (files.includes('-')) return usage('serve: FILE must be a path (stdin cannot be served again and again)')
  const chunking = (values.chunking ?? 'recorded') as ChunkingName
  const error = chunkingNameError(chunking)
  if (error !== null) return usage(`--chunking: ${error}`)
  let speed = 1
  if (values.speed !== undefined) {
    speed = Number(values.speed)
    if (values.speed.trim() === '' || !Number.isFinite(speed) || speed < 0) return usage(`--speed must be a number from 0 (got ${quote(values.speed)})`)
  }
  let port = SERVE_PORT
  if (values.port !== undefined) {
    port = Number(values.port)
    if (!/^\d{1,5}$/.test(values.port.trim()) || port > 65535) return usage(`--port must be a whole number from 0 to 65535 (got ${quote(values.port)})`)
  }
  const host = values.host ?? '127.0.0.1'
  if (host.trim() === '') return usage('--host needs an address (default 127.0.0.1)')
  return { ok: true, command: { kind: 'serve', files, port, host, chunking, speed } }
}

function positive(text: string): number | null {
  const n = Number(text)
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : null
}

function usage(message: string): { ok: false; message: string } {
  return { ok: false, message }
}

function quote(s: string): string {
  return JSON.stringify(s)
}
