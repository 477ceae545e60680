// Issue 33, item 6: a single frame of N bytes costs the CLI at most 3×N + 100 MB of peak RSS
// in merge, frames, diagnose, check and timing. The input is one line of about 40 MB with no
// newline at all (one SSE frame holding one huge text): the frame must be held to be parsed,
// and its text is the reply, so three copies of it are what any reader needs (its source, the
// line, the parsed value); the rest of the bound is Node itself. Peak RSS is read by each
// child on exit (test/cli/maxrss.mjs); it depends on allocations, not on time or load.
// Before the fix, on this input: merge 388 MiB, frames 345, diagnose 341, check 456, timing
// 299 (the bound is 214 MiB); on 200 MB (bench/cli-memory.ts), merge 1.7 GB, check 2.1 GB.

import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from './run.js'

const MB = 1e6
const TEXT = 40 * MB
const PREFIX = 'data: {"choices":[{"index":0,"delta":{"content":"'
const SUFFIX = '"}}]}'
const SIZE = PREFIX.length + TEXT + SUFFIX.length
const BOUND = 3 * SIZE + 100 * 2 ** 20

const dir = mkdtempSync(join(tmpdir(), 'deltascope-giant-'))
const file = join(dir, 'giant.sse')
const result = join(dir, 'result.txt')

beforeAll(() => {
  const fd = openSync(file, 'w')
  writeSync(fd, PREFIX)
  const block = Buffer.alloc(2 ** 20, 'x')
  for (let left = TEXT; left > 0; left -= block.length) writeSync(fd, block, 0, Math.min(left, block.length))
  writeSync(fd, SUFFIX)
  closeSync(fd)
  const r = openSync(result, 'w')
  writeSync(r, 'not the reply')
  closeSync(r)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function peak(r: CliResult): number {
  const m = /maxrss-kib=(\d+)/.exec(r.stderr)
  if (!m) throw new Error(`no maxrss in stderr: ${r.stderr}`)
  return Number(m[1]) * 1024
}

const PRELOAD = ['--import', './test/cli/maxrss.mjs']
const mb = (n: number) => `${Math.round(n / 2 ** 20)} MiB`

describe(`one frame of ${SIZE} bytes on one line, no newline: peak RSS ≤ 3 × its size + 100 MiB (${mb(BOUND)})`, { timeout: 120_000 }, () => {
  it('merge: the reply is the whole text; the stream is not done (no [DONE])', async () => {
    const r = await runCli(['merge', file], { nodeArgs: PRELOAD, discardStdout: true })
    expect(r.code, r.stderr).toBe(1)
    expect(peak(r), `merge: ${mb(peak(r))}`).toBeLessThanOrEqual(BOUND)
  })

  it('merge prints the text whole', async () => {
    let bytes = 0
    let head = ''
    const r = await runCli(['merge', file], {
      nodeArgs: PRELOAD, discardStdout: true,
      onStdout: (c) => { if (bytes === 0) head = c.subarray(0, 200).toString('utf8'); bytes += c.length },
    })
    expect(head.split('\n').slice(0, 4)).toEqual(['openai-chat · sse · 1 frame · not done: no terminal event', '', 'choice 0', '  content'])
    // the text behind its gutter ('  │ ', 6 bytes in UTF-8), then the rest of the reply
    expect(bytes).toBeGreaterThan(TEXT + 6)
    expect(r.code).toBe(1)
  })

  for (const command of ['frames', 'diagnose', 'timing'] as const) {
    it(command, async () => {
      const r = await runCli([command, file], { nodeArgs: PRELOAD, discardStdout: true })
      expect(r.code, r.stderr).toBe(command === 'timing' ? 0 : 1)
      expect(peak(r), `${command}: ${mb(peak(r))}`).toBeLessThanOrEqual(BOUND)
    })
  }

  it('check', async () => {
    const r = await runCli(['check', file, '--against', result], { nodeArgs: PRELOAD, discardStdout: true })
    expect(r.code, r.stderr).toBe(1)
    expect(peak(r), `check: ${mb(peak(r))}`).toBeLessThanOrEqual(BOUND)
  })
})
