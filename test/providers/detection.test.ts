// Detection never takes a stream of one listed protocol for another: every frame of every
// fixture is recognised by its own provider's adapter or by none, and the fixture merged with
// no hint (no URL, no Content-Type, no forced provider) names its own provider from its frames.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { loadFixtures } from '../support/fixtures.js'

const fixtures = loadFixtures({ tolerant: true })

describe('detection across every provider\'s fixtures', () => {
  for (const f of fixtures) {
    const own = f.name.slice(0, f.name.indexOf('/'))
    it(`${f.name}: no frame is claimed by another provider, and the stream names ${own}`, () => {
      // a stream read with user rules (test/fixtures/rules) is claimed by no built-in adapter, and the rules are forced
      const m = createMerger({ transport: f.options.transport, ...(f.options.rules ? { rules: f.options.rules } : {}) })
      m.push(f.wire)
      m.end()
      for (const frame of m.frames()) {
        if (frame.kind !== 'data') continue
        const by = defaultRegistry.recognize({ seq: frame.seq, event: frame.event, json: frame.json })
        if (by !== null) expect(`frame ${frame.seq}: ${by.id}`).toBe(`frame ${frame.seq}: ${own}`)
      }
      expect(m.providerChoice()).toEqual({ id: own, reason: own === 'rules' ? 'forced' : 'frames' })
    })
  }
})
