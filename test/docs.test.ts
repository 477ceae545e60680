// The docs name every wire format the registry knows, in its order: a provider added to
// PROVIDER_IDS without its row in docs/wire-formats.md, or a recognition order in
// docs/architecture.md that is not the registry's, fails here with what to fix.

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PROVIDER_IDS } from '../src/index.js'

const doc = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8')

/** The ids in the first column of the wire-formats table (`| \`id\` | transport | …`). */
function wireFormatsTableIds(): string[] {
  const text = doc('wire-formats.md')
  const table = text.slice(text.indexOf('| id | transport |'))
  const rows = table.slice(0, table.search(/\n(?!\|)/)).split('\n')
  return rows.flatMap((row) => /^\| `([^`]+)` \|/.exec(row)?.[1] ?? [])
}

/**
 * The ids of the list under "## Choosing the provider", in the order written: one item per
 * provider, `- \`id\`: why`, its continuation lines indented.
 */
function recognitionOrder(): string[] {
  const text = doc('architecture.md')
  const section = text.slice(text.indexOf('## Choosing the provider'))
  const lines = section.slice(section.search(/^- `/m)).split('\n')
  const end = lines.findIndex((line) => !/^(- | {2})/.test(line))
  const list = end === -1 ? lines : lines.slice(0, end)
  return list.filter((line) => line.startsWith('- ')).map((item) => /^- `([^`]+)`/.exec(item)?.[1] ?? `(unreadable: ${item})`)
}

/** The first place two orders part, said in words; null when they are the same. */
function firstDifference(written: readonly string[], registry: readonly string[]): string | null {
  const at = registry.findIndex((id, i) => written[i] !== id)
  if (at === -1) return written.length === registry.length ? null : `after ${registry.at(-1)}, the docs go on with ${written[registry.length]}`
  return `item ${at + 1} should be ${registry[at]}, the docs say ${written[at] ?? 'nothing'}`
}

describe('docs', () => {
  it('docs/wire-formats.md has a row in its table for every provider in PROVIDER_IDS, and no other', () => {
    const rows = wireFormatsTableIds()
    const missing = PROVIDER_IDS.filter((id) => !rows.includes(id))
    const unknown = rows.filter((id) => !(PROVIDER_IDS as readonly string[]).includes(id))
    expect(missing, `wire-formats.md has no row for: ${missing.join(', ')}`).toEqual([])
    expect(unknown, `wire-formats.md has rows for providers the registry does not know: ${unknown.join(', ')}`).toEqual([])
  })

  it("docs/architecture.md's recognition order is the registry's order (PROVIDER_IDS), every id once", () => {
    const written = recognitionOrder()
    const missing = PROVIDER_IDS.filter((id) => !written.includes(id))
    expect(missing, `architecture.md's recognition order leaves out: ${missing.join(', ')}`).toEqual([])
    expect(firstDifference(written, PROVIDER_IDS), "architecture.md's recognition order is not the registry's").toBeNull()
  })
})
