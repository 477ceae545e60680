// The library as users get it: compiled by tsc (as `npm run build:lib` does), imported by
// plain Node 20 with no loader, and the CLI run by plain node. Its runtime dependencies
// (micromark and its GFM extension, for compareRenderedText) are found as an installed
// package finds them: in a node_modules beside it (here a link to the project's).

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { merge } from '../src/index.js'
import { fixtureToJson } from '../src/exchange/fixture.js'
import { chatFixture } from './testing/stress-clients.js'

const ROOT = new URL('../', import.meta.url).pathname
const out = mkdtempSync(join(tmpdir(), 'deltascope-lib-'))

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.lib.json'), '--outDir', out], { cwd: ROOT })
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir')
}, 120_000)
afterAll(() => {
  // the link first, so that removing the directory never reaches the project's node_modules
  unlinkSync(join(out, 'node_modules'))
  rmSync(out, { recursive: true, force: true })
})

describe('the built library', () => {
  it('imports in plain Node with no loader and merges like the sources', () => {
    const sample = join(ROOT, 'samples/anthropic.sse')
    const script = `import { merge } from ${JSON.stringify(join(out, 'index.js'))}; import { readFileSync } from 'node:fs'; process.stdout.write(JSON.stringify(merge(readFileSync(${JSON.stringify(sample)}))))`
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(JSON.parse(printed)).toEqual(merge(new Uint8Array(readFileSync(sample))))
  })

  it('ships declarations next to the code', () => {
    expect(readFileSync(join(out, 'library.d.ts'), 'utf8')).toContain('createMerger')
    expect(readFileSync(join(out, 'index.d.ts'), 'utf8')).toContain("export * from './library.js'")
  })

  it('deltascope/testing stresses a client in plain Node: every chunking runs', () => {
    const fixture = join(out, 'chat.deltascope.json')
    writeFileSync(fixture, fixtureToJson(chatFixture()))
    const script = `import { stressClient } from ${JSON.stringify(join(out, 'testing.js'))}; import { readFileSync } from 'node:fs'
const report = await stressClient(async (fetch) => (await fetch('https://x.test/')).text(), readFileSync(${JSON.stringify(fixture)}, 'utf8'))
process.stdout.write(JSON.stringify(report.runs.map((r) => r.chunking)))`
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(JSON.parse(printed)).toEqual(['recorded', 'whole', 'bytes-1', 'frame-straddle', 'utf8-split', 'line-straddle', 'crlf', 'cr', 'comments', 'no-space', 'retry-id', 'random:1', 'random:2', 'random:3'])
  })

  it('the compiled CLI runs with plain node', () => {
    const sample = join(ROOT, 'samples/openai-chat.sse')
    const printed = execFileSync(process.execPath, [join(out, 'cli/main.js'), 'merge', '--json', sample], { encoding: 'utf8' })
    expect(JSON.parse(printed)).toEqual(merge(new Uint8Array(readFileSync(sample))))
  })
})
