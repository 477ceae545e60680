// The panel's provenance index (panel/provenance.ts): built from the core's records, kept as
// columns; each frame's records read back exactly as the core gave them, and each position of
// a field mapped to the frame that wrote it.

import { describe, expect, it } from 'vitest'
import { ProvenanceIndex } from '../../panel/provenance.js'
import { createMerger, type Provenance } from '../../src/library.js'

const chunk = (delta: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`
const BODY = [
  chunk({ role: 'assistant', reasoning_content: 'Think' }),
  chunk({ content: 'Hel' }),
  chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x"' } }] }),
  chunk({ content: 'lo' }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
  'data: [DONE]\n\n',
].join('')

function records(): Provenance[] {
  const m = createMerger()
  m.push(BODY)
  m.end()
  return m.provenance()
}

describe('the provenance index', () => {
  it('gives each frame the records the core gave for it, in order', () => {
    const all = records()
    expect(all).toHaveLength(5)
    const index = new ProvenanceIndex(all)
    expect(index.size).toBe(5)
    for (let seq = 0; seq < 6; seq++) expect(index.forFrame(seq)).toEqual(all.filter((r) => r.frame === seq))
  })

  it('gives the same when the records come out of frame order', () => {
    const all = records()
    const index = new ProvenanceIndex([...all].reverse())
    for (let seq = 0; seq < 6; seq++) expect(index.forFrame(seq)).toEqual(all.filter((r) => r.frame === seq).reverse())
  })

  it('maps a position of a field to the frame that wrote it, the end of the field to its last run', () => {
    const index = new ProvenanceIndex(records())
    const content = { choice: 0, channel: 'content' as const, toolCall: null }
    expect([0, 2, 3, 4, 5, 6].map((o) => index.frameAt(content, o))).toEqual([1, 1, 3, 3, 3, null])
    const args = { choice: 0, channel: 'arguments' as const, toolCall: 0 }
    expect([0, 3, 4, 6, 7].map((o) => index.frameAt(args, o))).toEqual([2, 2, 4, 4, 4])
    expect(index.frameAt({ choice: 1, channel: 'content', toolCall: null }, 0)).toBe(null)
  })

  it('keeps a record whose field has no runs (arguments without a call position) and gives it back whole', () => {
    const odd: Provenance = { frame: 7, choice: 0, channel: 'arguments', toolCall: null, start: 0, end: 2 }
    const index = new ProvenanceIndex([...records(), odd])
    expect(index.forFrame(7)).toEqual([odd])
  })

  it('reads the same records through Merger.eachProvenance, which builds no object per record', () => {
    const m = createMerger()
    m.push(BODY)
    m.end()
    const visited: Provenance[] = []
    m.eachProvenance((frame, choice, channel, toolCall, start, end) => visited.push({ frame, choice, channel, toolCall, start, end }))
    expect(visited).toEqual(m.provenance())
    const index = new ProvenanceIndex((visit) => m.eachProvenance(visit))
    expect(index.size).toBe(5)
    for (let seq = 0; seq < 6; seq++) expect(index.forFrame(seq)).toEqual(m.provenance().filter((r) => r.frame === seq))
    const args = { choice: 0, channel: 'arguments' as const, toolCall: 0 }
    expect([0, 3, 4, 6, 7].map((o) => index.frameAt(args, o))).toEqual([2, 2, 4, 4, 4])
  })
})
