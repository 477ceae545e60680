// The CLI reads its file as a stream and writes frames as they complete: its peak memory must
// be the merger's own plus a constant, never a multiple of the file (no whole-file buffer,
// no collected frames, no inspect() building an object per frame).
//
// The CLI runs the merger with retainBody: false, so the decoded body is dropped as frames
// complete; what remains per frame is a few typed-array columns (about 65 bytes). This test
// compares the CLI with a reference process running only the core the same way, and bounds
// the core itself well below the file's size; each child reports its peak RSS through a
// preloaded module.

import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from './run.js'

const MB = 1024 * 1024
const SIZE = 40 * MB
/** What the CLI may add to the core's peak: modules, output buffers, GC slack. Not size-dependent. */
const SLACK = 48 * MB

const dir = mkdtempSync(join(tmpdir(), 'deltascope-mem-'))
const file = join(dir, 'big.sse')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  await writeStream(file, SIZE)
})

async function writeStream(path: string, size: number): Promise<void> {
  const out = createWriteStream(path)
  let written = 0
  let i = 0
  while (written < size) {
    let block = ''
    while (block.length < MB) {
      block += `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1730000000,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"tok${i++ % 10} "},"finish_reason":null}]}\n\n`
    }
    written += block.length
    if (!out.write(block)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  out.end('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
  await new Promise<void>((r) => out.once('close', () => r()))
}

function peak(r: CliResult): number {
  const m = /maxrss-kib=(\d+)/.exec(r.stderr)
  if (!m) throw new Error(`no maxrss in stderr: ${r.stderr}`)
  return Number(m[1]) * 1024
}

// a JS heap smaller than the file: a process that kept the body (or collected frames) dies
// here with "heap out of memory" (checked: the core with retainBody: true aborts at 48 MB)
const HEAP_MB = 32
const PRELOAD = [`--max-old-space-size=${HEAP_MB}`, '--import', './test/cli/maxrss.mjs']

describe('memory', { timeout: 120_000 }, () => {
  it(`a ${SIZE / MB} MB stream merges in a ${HEAP_MB} MB heap, and the CLI needs no more than the merger alone, plus a constant`, async () => {
    const [core, mergeText, mergeJson, frames] = await Promise.all([
      runCli([file], { nodeArgs: PRELOAD, script: 'test/cli/core-baseline.ts' }),
      runCli(['merge', file], { nodeArgs: PRELOAD }),
      runCli(['merge', '--json', file], { nodeArgs: PRELOAD, discardStdout: true }),
      runCli(['frames', '--json', file], { nodeArgs: PRELOAD, discardStdout: true }),
    ])
    for (const r of [core, mergeText, mergeJson, frames]) expect(r.code, r.stderr).toBe(0)
    expect(mergeText.stdout.split('\n')[0]).toMatch(/^openai-chat · sse · \d+ frames · done$/)
    const base = peak(core)
    const report = { core: base, merge: peak(mergeText), mergeJson: peak(mergeJson), frames: peak(frames) }
    for (const [name, rss] of Object.entries(report)) {
      expect(rss - base, `${name}: ${Math.round(rss / MB)} MB vs core ${Math.round(base / MB)} MB`).toBeLessThan(SLACK)
    }
  })
})
