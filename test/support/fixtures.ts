// The one walker of the wire fixtures: test/fixtures/<provider>/<name>.<sse|ndjson|jsonl|json|txt|bin>
// beside <name>.expected.json = {description, options?, reply}. Every suite that reads the
// fixture folder reads it through loadFixtures().

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { LibraryMergeOptions as MergeOptions, Reply } from '../../src/index.js'

export interface FixtureCase {
  /** `<provider folder>/<wire file>`, e.g. "anthropic/usage-merged.sse". */
  name: string
  wire: Uint8Array
  options: MergeOptions
  reply: Reply
  description: string
}

export interface LoadOptions {
  /**
   * Skip a wire file whose .expected.json is missing or not (yet) JSON instead of throwing:
   * for suites that need only the wire bytes and options, or that must not break while
   * another engineer is adding a fixture. Default false: an incomplete fixture throws.
   */
  tolerant?: boolean
}

export const FIXTURES_DIR = new URL('../fixtures/', import.meta.url).pathname
const WIRE = /\.(sse|ndjson|jsonl|json|txt|bin)$/

export function loadFixtures(options: LoadOptions = {}): FixtureCase[] {
  const out: FixtureCase[] = []
  for (const dir of readdirSync(FIXTURES_DIR).sort()) {
    const path = join(FIXTURES_DIR, dir)
    if (!statSync(path).isDirectory()) continue
    for (const file of readdirSync(path).sort()) {
      if (!WIRE.test(file) || file.endsWith('.expected.json')) continue
      const expectedPath = join(path, `${file.replace(WIRE, '')}.expected.json`)
      let expected: { options?: MergeOptions; reply: Reply; description?: string }
      if (options.tolerant) {
        if (!existsSync(expectedPath)) continue
        try {
          expected = JSON.parse(readFileSync(expectedPath, 'utf8'))
        } catch {
          continue // being written right now
        }
      } else {
        expected = JSON.parse(readFileSync(expectedPath, 'utf8'))
      }
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
