// Loads the wire fixtures: test/fixtures/<provider>/<name>.<sse|ndjson|json|txt> beside
// <name>.expected.json = {description, options?, reply}.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MergeOptions, Reply } from '../../src/index.js'

export interface FixtureCase {
  name: string
  wire: Uint8Array
  options: MergeOptions
  reply: Reply
  description: string
}

const ROOT = new URL('../fixtures/', import.meta.url).pathname
const WIRE = /\.(sse|ndjson|jsonl|json|txt)$/

export function loadFixtures(): FixtureCase[] {
  const out: FixtureCase[] = []
  for (const dir of readdirSync(ROOT).sort()) {
    const path = join(ROOT, dir)
    if (!statSync(path).isDirectory()) continue
    for (const file of readdirSync(path).sort()) {
      if (!WIRE.test(file) || file.endsWith('.expected.json')) continue
      const base = file.replace(WIRE, '')
      const expected = JSON.parse(readFileSync(join(path, `${base}.expected.json`), 'utf8'))
      out.push({
        name: `${dir}/${file}`,
        wire: new Uint8Array(readFileSync(join(path, file))),
        options: expected.options ?? {},
        reply: expected.reply,
        description: expected.description ?? '',
      })
    }
  }
  return out
}

