// npx tsx bench/cli-memory.ts [-- --mb=200] [-- --against=OTHER_CLI.mjs] [-- --json]
// The CLI's peak RSS on one frame of N bytes (one SSE line, no newline at
// all, holding one huge text), for merge, frames, diagnose, check and timing; the target is
// ≤ 3 × N + 100 MB each (700 MB at 200 MB). The CLI is bundled from the sources (as the tests
// do) and run with plain node; each run reports its maxRSS on exit (test/cli/maxrss.mjs).
// --against: another bundled CLI (say, built from the base commit with
//   `git show BASE:… ` in a worktree and esbuild) measured on the same file, beside it: the
//   ratio is this CLI's peak over that one's. Runs are one at a time: peak memory does not
//   depend on the machine's load, but a machine short of memory would swap.

import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const flags = new Map(process.argv.slice(2).map((a) => {
  const [k, v] = a.replace(/^--/, '').split('=')
  return [k!, v ?? 'true'] as const
}))
const mb = Number(flags.get('mb') ?? 200)
const against = flags.get('against') ?? null
const asJson = flags.has('json')
const COMMANDS = ['merge', 'frames', 'diagnose', 'check', 'timing'] as const
const PREFIX = 'data: {"choices":[{"index":0,"delta":{"content":"'
const SUFFIX = '"}}]}'

interface Figure { command: string; peakBytes: number; seconds: number; againstBytes: number | null }

function writeInput(file: string, textBytes: number): number {
  const fd = openSync(file, 'w')
  writeSync(fd, PREFIX)
  const block = Buffer.alloc(1 << 20, 'x')
  for (let left = textBytes; left > 0; left -= block.length) writeSync(fd, block, 0, Math.min(left, block.length))
  writeSync(fd, SUFFIX)
  closeSync(fd)
  return PREFIX.length + textBytes + SUFFIX.length
}

function run(cli: string, command: string, file: string, result: string): { peakBytes: number; seconds: number } {
  const args = ['--import', join(ROOT, 'test/cli/maxrss.mjs'), cli, command, file, ...(command === 'check' ? ['--against', result] : [])]
  const t0 = performance.now()
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 24 })
  const seconds = (performance.now() - t0) / 1000
  const m = /maxrss-kib=(\d+)/.exec(r.stderr)
  if (!m) throw new Error(`${command}: no maxrss (exit ${r.status}): ${r.stderr.slice(0, 500)}`)
  return { peakBytes: Number(m[1]) * 1024, seconds }
}

const dir = mkdtempSync(join(tmpdir(), 'deltascope-cli-memory-'))
try {
  const cli = join(dir, 'cli.mjs')
  await build({ entryPoints: [join(ROOT, 'src/cli/main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: cli, logLevel: 'error' })
  const file = join(dir, 'giant.sse')
  const result = join(dir, 'result.txt')
  const fd = openSync(result, 'w')
  writeSync(fd, 'not the reply')
  closeSync(fd)
  const n = writeInput(file, mb * 1e6)
  const target = 3 * n + 100e6
  const figures: Figure[] = []
  for (const command of COMMANDS) {
    const mine = run(cli, command, file, result)
    const other = against === null ? null : run(against, command, file, result)
    figures.push({ command, ...mine, againstBytes: other?.peakBytes ?? null })
  }
  if (asJson) {
    console.log(JSON.stringify({ machine: { cpu: cpus()[0]?.model, cores: cpus().length, memGiB: totalmem() / 2 ** 30, node: process.version }, inputBytes: n, targetBytes: target, figures }, null, 1))
  } else {
    console.log(`CLI peak RSS on one frame of ${n} bytes (one line, no newline) — Node ${process.version}; target ≤ 3 × N + 100 MB = ${(target / 1e6).toFixed(0)} MB`)
    for (const f of figures) {
      const vs = f.againstBytes === null ? '' : `   against: ${(f.againstBytes / 1e6).toFixed(0)} MB (${(f.peakBytes / f.againstBytes).toFixed(2)}×)`
      console.log(`  ${f.peakBytes <= target ? 'PASS' : 'FAIL'}  ${f.command.padEnd(9)} ${(f.peakBytes / 1e6).toFixed(0).padStart(5)} MB  ${(f.peakBytes / n).toFixed(2)} × N  ${f.seconds.toFixed(1)} s${vs}`)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
