// deltascope serve FILE…: the captures answered by a local HTTP server for the user's real
// app (serve-server.ts). It reads and checks every capture first (a bad one is an error
// before it listens), prints where it listens and the base URL to give the app, logs each
// request, and runs until stopped.

import type { AddressInfo } from 'node:net'
import type { ServeCommand } from './args-tools.js'
import { InputError } from './io.js'
import { loadCaptures, type Capture } from './serve-captures.js'
import { createReplayServer } from './serve-server.js'
import type { Style } from './style.js'

export async function serveCommand(command: ServeCommand, style: Style): Promise<number> {
  let captures: Capture[]
  try {
    captures = await loadCaptures(command.files, command.chunking)
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    process.stderr.write(`deltascope: serve: ${e.message}\n`)
    return 2
  }
  const anyPath = command.files.length === 1
  const server = createReplayServer(captures, { speed: command.speed, anyPath, log: (line) => process.stdout.write(`${clock()} ${line}\n`) })
  const listening = await new Promise<AddressInfo | Error>((resolve) => {
    server.once('error', resolve)
    server.listen(command.port, command.host, () => resolve(server.address() as AddressInfo))
  })
  if (listening instanceof Error) {
    const code = (listening as NodeJS.ErrnoException).code
    process.stderr.write(`deltascope: serve: cannot listen on ${command.host}:${command.port}: ${code === 'EADDRINUSE' ? 'the port is in use (--port 0 picks a free one)' : listening.message}\n`)
    return 2
  }
  const host = listening.family === 'IPv6' ? `[${listening.address}]` : listening.address
  const base = `http://${host}:${listening.port}`
  process.stdout.write(banner(base, captures, command, anyPath, style))
  await new Promise<void>((resolve) => {
    const stop = () => { server.closeAllConnections(); server.close(() => resolve()) }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}

function banner(base: string, captures: readonly Capture[], command: ServeCommand, anyPath: boolean, style: Style): string {
  const lines = [`${style.bold('deltascope serve')}: listening on ${base} (${command.chunking} chunking, speed ${command.speed}${command.speed === 0 ? ': as fast as the socket takes it' : ''})`]
  for (const c of captures) {
    const times = c.reads.map((r) => r.t).filter((t): t is number => t !== null)
    const over = times.length > 0 ? ` over ${Math.round(Math.max(...times))} ms` : ''
    lines.push(`  ${c.method} ${c.path}  ← ${c.label} (${c.provider}, ${c.reads.length} read${c.reads.length === 1 ? '' : 's'}${over})`)
  }
  if (anyPath) lines.push(style.dim(captures.length === 1 ? '  (one file: any method and path gets it)' : '  (one file: a request no route matches gets its captures in turn)'))
  const hints = [...new Set(captures.map((c) => hint(base, c)))]
  lines.push('Point your app at it:', ...hints.map((h) => `  ${style.cyan(h)}`), 'Ctrl-C stops it.', '')
  return lines.join('\n')
}

/** What to give the app: the SDK's base URL variable where the provider has one, else the URL itself. */
function hint(base: string, capture: Capture): string {
  const v1 = /^(.*?\/v1)(\/|$)/.exec(capture.path)
  switch (capture.provider) {
    case 'openai-chat':
    case 'openai-responses':
      return `OPENAI_BASE_URL=${base}${v1 ? v1[1] : ''}`
    case 'anthropic':
      return `ANTHROPIC_BASE_URL=${base}${v1 ? v1[1]!.slice(0, -3) : ''}`
    case 'ollama':
      return `OLLAMA_HOST=${base}`
    default:
      return `${base}${capture.path}`
  }
}

function clock(): string {
  return new Date().toISOString().slice(11, 23)
}
