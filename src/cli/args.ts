// Command-line arguments → a command, or a one-line usage error. Pure: no I/O.

import { parseArgs } from 'node:util'
import { PROVIDER_IDS, type MergeOptions, type ProviderId, type Transport } from '../library.js'

export const TRANSPORTS: readonly Transport[] = ['sse', 'ndjson', 'json']

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'merge' | 'frames'; file: string; json: boolean; options: MergeOptions }

export type Parsed = { ok: true; command: Command } | { ok: false; message: string }

export const HELP = `Usage: deltascope <command> [options] FILE|-

Rebuilds a streamed LLM reply (SSE, NDJSON or a JSON array) the way a correct
client would, and shows which frame broke. FILE is the raw response body; - reads stdin.

Commands:
  merge FILE     the reply: per choice the content, reasoning, refusal, tool calls,
                 finish reason; usage; provider stream errors; broken frames; diagnostics
  frames FILE    one row per frame: seq, line, event, kind, bytes, a summary of the data

Options:
  --json                  merge: the Reply as JSON (nothing else on stdout)
                          frames: a JSON array of frames (without the parsed "json" field)
  -p, --provider <id>     force the provider: ${PROVIDER_IDS.join(', ')}
  -t, --transport <t>     force the framing: ${TRANSPORTS.join(', ')}
  --content-type <type>   the response's Content-Type (helps detect the framing)
  --url <url>             the request URL (helps detect the provider)
  -h, --help              this help
  -v, --version           the version

Exit status: 0 clean; 1 a frame failed to parse, the stream had no terminal event,
or the provider sent an error in the stream; 2 bad usage or an unreadable file.
Colour only when stdout is a terminal and NO_COLOR is not set.
`

const OPTIONS = {
  json: { type: 'boolean' },
  provider: { type: 'string', short: 'p' },
  transport: { type: 'string', short: 't' },
  'content-type': { type: 'string' },
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

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
  if (command === undefined) return usage('missing command (merge or frames)')
  if (command !== 'merge' && command !== 'frames') return usage(`unknown command ${quote(command)} (merge or frames)`)
  if (file === undefined) return usage(`${command}: missing FILE (a path, or - for stdin)`)
  if (extra.length > 0) return usage(`${command}: one FILE only, got also ${quote(extra[0]!)}`)
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
  return { ok: true, command: { kind: command, file, json: values.json === true, options } }
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
