// Vitest global setup: the CLI bundled once per test run (esbuild, which tsx already brings),
// so the CLI tests spawn plain `node cli.mjs` (~50 ms) instead of loading every TypeScript
// source through tsx in each child (~1 s, and several on a loaded machine). The bundle is the
// same sources; one test still runs `npx tsx src/cli/main.ts` and test/build.test.ts runs the
// tsc-built CLI. It lives under node_modules/.cache (ignored by git), so the CLI finds the
// package.json above it, as it does from src/cli and dist/lib/cli.

import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { TestProject } from 'vitest/node'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

declare module 'vitest' {
  export interface ProvidedContext {
    cliBundle: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(ROOT, 'node_modules', '.cache', `deltascope-cli-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  const outfile = join(dir, 'cli.mjs')
  await build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  })
  project.provide('cliBundle', outfile)
  return () => rmSync(dir, { recursive: true, force: true })
}
