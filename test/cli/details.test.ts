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
  it.each(files)('%s: the same stream errors and diagnostics as the merger, without building frames', (path) => {
    const m = merged(path)
    const details = streamDetails(m)
    expect(details.streamErrors).toEqual(m.streamErrors())
    expect(details.diagnostics).toEqual(m.diagnostics())
  })
})
