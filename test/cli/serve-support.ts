// Runs `deltascope serve` (the CLI bundle) as a child process on a free port, waits for its
// banner, and stops it with SIGTERM as Ctrl-C would.

import { spawn } from 'node:child_process'
import { inject } from 'vitest'
import { ROOT } from './run.js'

export interface Serving {
  /** http://127.0.0.1:PORT */
  base: string
  /** What it printed so far. */
  stdout(): string
  /** Resolves when the log has a line matching. */
  logged(pattern: RegExp): Promise<string>
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>
}

export function startServe(args: readonly string[]): Promise<Serving> {
  const child = spawn(process.execPath, [inject('cliBundle'), 'serve', ...args, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const waiters: Array<() => void> = []
  child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); waiters.splice(0).forEach((w) => w()) })
  child.stderr.on('data', (c: Buffer) => { err += c.toString('utf8') })
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
  const until = (test: () => string | null): Promise<string> => new Promise((resolve, reject) => {
    const check = () => {
      const found = test()
      if (found !== null) resolve(found)
      else if (child.exitCode !== null) reject(new Error(`serve exited ${child.exitCode}: ${err}`))
      else waiters.push(check)
    }
    check()
    void closed.then(() => check())
  })
  return until(() => (out.includes('Ctrl-C stops it.') ? /listening on (http:\/\/\S+)/.exec(out)![1]! : null)).then((base) => ({
    base,
    stdout: () => out,
    logged: (pattern) => until(() => out.split('\n').find((l) => pattern.test(l)) ?? null),
    async stop() {
      child.kill('SIGTERM')
      const code = await closed
      return { code, stdout: out, stderr: err }
    },
  }))
}
