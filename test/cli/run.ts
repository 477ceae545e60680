// Runs the real CLI as a child process: the sources bundled once per test run
// (test/support/cli-bundle.ts), or another script through tsx.

import { spawn } from 'node:child_process'
import { inject } from 'vitest'

export const ROOT = new URL('../../', import.meta.url).pathname

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface CliRun {
  /** Written to the child's stdin, then stdin is closed. */
  input?: string | Uint8Array
  /** Extra node flags, before the script. */
  nodeArgs?: string[]
  /** A TypeScript script run through tsx instead of the CLI's bundle. */
  script?: string
  /** Called with each stdout chunk; may destroy the stream. */
  onStdout?: (chunk: Buffer, stdout: NodeJS.ReadableStream & { destroy(): void }) => void
  /** Read stdout (through the pipe, so back-pressure is real) but keep none of it. */
  discardStdout?: boolean
}

export function runCli(args: string[], run: CliRun = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env }
    delete env['NO_COLOR']
    delete env['FORCE_COLOR']
    const target = run.script === undefined ? [inject('cliBundle')] : ['--import', 'tsx', run.script]
    const child = spawn(process.execPath, [...(run.nodeArgs ?? []), ...target, ...args], {
      cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => { if (!run.discardStdout) out.push(c); run.onStdout?.(c, child.stdout) })
    child.stderr.on('data', (c: Buffer) => err.push(c))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
    child.stdin.on('error', () => { /* the CLI may exit before reading stdin (usage errors) */ })
    child.stdin.end(run.input ?? '')
  })
}
