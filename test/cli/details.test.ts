import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { streamDetails } from '../../src/cli/details.js'
import { createMerger, type Merger } from '../../src/index.js'
import { loadFixtures } from '../support/fixtures.js'

const root = new URL('../../', import.meta.url).pathname

function merged(path: string): Merger {
  const m = createMerger()
  m.push(new Uint8Array(readFileSync(root + path)))
  m.end()
  return m
}

const files = [
  ...readdirSync(root + 'samples').map((f) => `samples/${f}`),
  ...loadFixtures({ tolerant: true }).filter((f) => /^anthropic\/.*\.sse$/.test(f.name)).map((f) => `test/fixtures/${f.name}`),
]

describe('streamDetails', () => {
  it.each(files)('%s: the same stream errors and diagnostics as inspect(), without building frames', (path) => {
    const m = merged(path)
    const details = streamDetails(m)
    const inspection = m.inspect()
    expect(details.streamErrors).toEqual(inspection.streamErrors)
    expect(details.diagnostics).toEqual(inspection.diagnostics)
  })
})
