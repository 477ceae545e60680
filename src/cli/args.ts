// Command-line arguments → a command, or a one-line usage error. Pure: no I/O.

import { parseArgs } from 'node:util'
import { serveCommand, stressCommand, TOOL_OPTIONS, type ServeCommand, type StressCommand } from './args-tools.js'
import { CHUNKINGS } from '../debug/stress-chunkings.js'
import { PROVIDER_IDS, type LibraryMergeOptions as MergeOptions, type ProviderId, type Transport } from '../library.js'

export const TRANSPORTS: readonly Transport[] = ['sse', 'ndjson', 'json', 'data-stream', 'eventstream', 'connect']

export const COMMANDS = ['merge', 'frames', 'check', 'diagnose', 'timing', 'stress', 'serve', 'ws-fixture'] as const
export type CommandName = (typeof COMMANDS)[number]

/** What every command that reads a stream shares. */
export interface StreamArgs {
  /** A path, or - for stdin. */
  file: string
  json: boolean
  /** Given on the command line: they win over what a fixture or HAR says. */
  options: MergeOptions
  /** --entry: the n-th streaming entry of a HAR, counted from 1; null when not given. */
  entry: number | null
  /** --rules: a rules file to read the stream with (main reads it into options.rules); absent when not given. */
  rulesFile?: string
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | ({ kind: 'merge' | 'frames' | 'ws-fixture' } & StreamArgs)
  | ({ kind: 'check'; against: string } & StreamArgs)
  | ({ kind: 'diagnose' | 'timing'; stallMs: number | null } & StreamArgs)
  | (StressCommand & StreamArgs)
  | ServeCommand

export type Parsed = { ok: true; command: Command } | { ok: false; message: string }

export const HELP = `Usage: deltascope <command> [options] FILE|-

Rebuilds a streamed LLM reply (SSE, NDJSON or a JSON array) the way a correct
client would, and shows which frame broke. FILE is the raw response body, a
Deltascope fixture or a HAR, recognised from its content; - reads stdin. A fixture
or HAR entry is replayed chunk by chunk with its times, its URL and Content-Type,
and the provider or framing it forced. A raw body is read as a stream (constant memory).

Commands:
  merge FILE      the reply: per choice the content, reasoning, refusal, tool calls,
                  finish reason; usage; provider stream errors; broken frames; diagnostics
  frames FILE     one row per frame: seq, line, event, kind, bytes, a summary of the data
  check FILE --against RESULT
                  compares a client's result with the reply FILE rebuilds: each field
                  ✓ or ✗, then the first difference in context, its frame and its cause.
                  RESULT is JSON (an OpenAI completion, an Anthropic message, a Reply, …)
                  or else plain text, read as choice 0's content (exactly, newlines too)
  diagnose FILE   what in the stream trips clients: one line per finding (level, code,
                  frame, message) and the symptom a client shows
  timing FILE     time to first byte, first frame, first reasoning / content / tool call,
                  total; gaps between frames, stalls, rates. Needs chunk times: a fixture
                  or a HAR exported from the panel with Live capture on
  stress FILE --client MODULE
                  runs your client (MODULE's default export: async (fetch) => result)
                  on the capture under every chunking that breaks clients (each byte a
                  read, a read boundary inside every frame and every multi-byte
                  character, CRLF, keepalive comments, …): each chunking ✓ or ✗, with
                  the cause and frame of each failure. FILE: a fixture or a HAR
  ws-fixture FILE a WebSocket connection of a HAR (Chrome's Export HAR keeps its
                  messages) as a WebSocket fixture on stdout, credentials redacted:
                  for deltascope/testing's replayWebSocket; --entry <n> picks the n-th
                  WebSocket entry
  serve FILE…     an HTTP server answering with the recorded response (status, headers,
                  body cut by --chunking at the recorded pace × --speed), for your real
                  app: prints the base URL to give it; logs each request. Fixtures or
                  HARs; routed by method and path (any path when one capture is served)

Options:
  --json                  merge: the Reply as JSON (nothing else on stdout)
                          frames: a JSON array of frames (without the parsed "json" field)
                          check: the comparison; diagnose: {"diagnostics": [...]};
                          timing: the figures (ms since the request started, null if unknown)
  --entry <n>             a HAR: its n-th streaming entry, counting from 1 in file order
                          and skipping entries that are not streams (default 1)
  --against <file>        check: the client's result (- reads stdin)
  --stall <ms>            diagnose, timing: a gap of at least this many ms between two
                          frames is a stall (default 1000)
  -p, --provider <id>     force the provider: ${PROVIDER_IDS.join(', ')}
  -t, --transport <t>     force the framing: ${TRANSPORTS.join(', ')}
  --content-type <type>   the response's Content-Type (helps detect the framing)
  --url <url>             the request URL (helps detect the provider)
  --rules <file>          read the stream with user rules (JSON; docs/rules.md):
                          they name where the text, reasoning,
                          tool calls, finish reason and end are, for any JSON frames
                          (these five win over what a fixture or HAR recorded)
  --client <module>       stress: your client, an ES module whose default export is
                          async (fetch) => result (a .mjs or .js file)
  --chunkings <a,b,…>     stress: the chunkings to run (default every one and random:1-3):
                          ${Object.keys(CHUNKINGS).join(', ')}
  --timeout <ms>          stress: a run that has not settled by then fails (default 10000)
  --chunking <name>       serve: how the body is cut (default recorded)
  --speed <x>             serve: 1 the recorded pace (default), 2 twice as fast,
                          0 as fast as the socket takes it
  --port <n>              serve: the port (default 8788; 0 picks a free one)
  --host <addr>           serve: the address to bind (default 127.0.0.1)
  -h, --help              this help
  -v, --version           the version

Exit status: 2 bad usage or an unreadable input (one line on stderr), else
  merge, frames  0 clean; 1 a frame failed to parse, the stream had no terminal
                 event, or the provider sent an error in the stream
  check          0 equal; 1 different
  diagnose       0 nothing above info; 1 a warning or an error
  timing         0
  stress         0 every run equal; 1 a run differed, threw or timed out
  serve          runs until stopped (Ctrl-C); 2 when a capture cannot be served
Colour only when stdout is a terminal and NO_COLOR is not set.
`

const OPTIONS = {
  json: { type: 'boolean' },
  entry: { type: 'string' },
  against: { type: 'string' },
  stall: { type: 'string' },
  provider: { type: 'string', short: 'p' },
  transport: { type: 'string', short: 't' },
  'content-type': { type: 'string' },
  url: { type: 'string' },
  rules: { type: 'string' },
  ...TOOL_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const COMMAND_LIST = 'merge, frames, check, diagnose, timing, stress, serve or ws-fixture'

export function parseCliArgs(argv: readonly string[]): Parsed {
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string }
  let positionals: string[]
  try {
    ({ values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true }))
  } catch (e) {
    return { ok: false, message: argError(e) }
  }
  if (values.help || positionals[0] === 'help') return { ok: true, command: { kind: 'help' } }
  if (values.version) return { ok: true, command: { kind: 'version' } }
  const [command, file, ...extra] = positionals
  if (command === undefined) return usage(`missing command (${COMMAND_LIST})`)
  if (!(COMMANDS as readonly string[]).includes(command)) return usage(`unknown command ${quote(command)} (${COMMAND_LIST})`)
  const name = command as CommandName
  if (name === 'serve') return serveCommand(values, positionals.slice(1))
  const misplaced = (Object.keys(TOOL_OPTIONS) as Array<keyof typeof TOOL_OPTIONS>).find((o) => values[o] !== undefined && (name !== 'stress' || !['client', 'chunkings', 'timeout'].includes(o)))
  if (misplaced !== undefined) return usage(`--${misplaced} is for ${['client', 'chunkings', 'timeout'].includes(misplaced) ? 'stress' : 'serve'} only`)
  if (file === undefined) return usage(`${name}: missing FILE (a path, or - for stdin)`)
  if (extra.length > 0) return usage(`${name}: one FILE only, got also ${quote(extra[0]!)}`)
  if (values.against !== undefined && name !== 'check') return usage(`--against is for check only`)
  if (values.stall !== undefined && name !== 'diagnose' && name !== 'timing') return usage(`--stall is for diagnose and timing only`)

  const options: MergeOptions = {}
  if (values.provider !== undefined) {
    if (!(PROVIDER_IDS as readonly string[]).includes(values.provider)) {
      return usage(`--provider must be one of ${PROVIDER_IDS.join(', ')} (got ${quote(values.provider)})`)
    }
    options.provider = values.provider as ProviderId
  }
  if (values.transport !== undefined) {
    if (!(TRANSPORTS as readonly string[]).includes(values.transport)) {
      return usage(`--transport must be one of ${TRANSPORTS.join(', ')} (got ${quote(values.transport)})`)
    }
    options.transport = values.transport as Transport
  }
  if (values['content-type'] !== undefined) options.contentType = values['content-type']
  if (values.url !== undefined) options.url = values.url
  let entry: number | null = null
  if (values.entry !== undefined) {
    if (!/^\s*\d+\s*$/.test(values.entry) || Number(values.entry) < 1) {
      return usage(`--entry must be a whole number from 1 (the first streaming entry of a HAR; got ${quote(values.entry)})`)
    }
    entry = Number(values.entry)
  }
  if (values.rules !== undefined && values.rules === '') return usage('--rules needs a FILE (a rules JSON file)')
  if (values.rules !== undefined && values.rules === '-' && file === '-') return usage('--rules and FILE cannot both be stdin')
  const base: StreamArgs = { file, json: values.json === true, options, entry, ...(values.rules !== undefined ? { rulesFile: values.rules } : {}) }

  if (name === 'stress') return stressCommand(values, base)
  if (name === 'check') {
    if (values.against === undefined) return usage('check: missing --against RESULT (the client\'s result: a JSON file or text)')
    if (values.against === '-' && file === '-') return usage('check: FILE and RESULT cannot both be stdin')
    return { ok: true, command: { kind: 'check', ...base, against: values.against } }
  }
  if (name === 'diagnose' || name === 'timing') {
    let stallMs: number | null = null
    if (values.stall !== undefined) {
      const ms = Number(values.stall)
      if (values.stall.trim() === '' || !Number.isFinite(ms) || ms <= 0) {
        return usage(`--stall must be a number of milliseconds above 0 (got ${quote(values.stall)})`)
      }
      stallMs = ms
    }
    return { ok: true, command: { kind: name, ...base, stallMs } }
  }
  return { ok: true, command: { kind: name, ...base } }
}

function usage(message: string): Parsed {
  return { ok: false, message }
}

function quote(s: string): string {
  return JSON.stringify(s)
}

/** node:util's messages run over several lines; a usage error is one line. */
function argError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown }
  const message = typeof err.message === 'string' ? err.message : String(e)
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1]
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (/argument missing|ambiguous/.test(message)) return `option ${option} needs a value`
    if (/does not take an argument/.test(message)) return `option ${option} takes no value`
  }
  return message.split('\n')[0]!.trim()
}
