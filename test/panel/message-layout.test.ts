// Positions in a message protocol's reply text, carried between the latest reply and an earlier
// one (the scrubber): the channel is the messages' text joined, so an earlier channel is not a
// prefix of the latest while two messages stream at once; each part's text is.

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { mapOffset, mapRange, partSpans } from '../../panel/message-layout.js'
import { toShown } from '../../panel/store/highlights.js'

const wire = readFileSync(new URL('../fixtures/langgraph/messages-tuple-parallel-branches.sse', import.meta.url))

describe('message layout', () => {
  const m = createMerger()
  m.push(wire)
  const latest = m.end()
  const after2 = m.replyAt(2)

  it('each text part\'s span in the joined channel', () => {
    expect(latest.choices[0]!.content).toBe('Low water at 06:42. Sunny, 4 °C. ')
    expect(after2.choices[0]!.content).toBe('Low water Sunny, ')
    expect(partSpans(latest, 'content').map((s) => [s.start, s.end])).toEqual([[0, 20], [20, 33]])
    expect(partSpans(after2, 'content').map((s) => [s.start, s.end])).toEqual([[0, 10], [10, 17]])
  })

  it('the run frame 2 wrote in the latest reply is found in the reply after frame 2, where that message stands then', () => {
    const ranges = m.provenance().filter((p) => p.frame === 2)
    expect(ranges.map((p) => [p.start, p.end])).toEqual([[20, 27]])
    expect(mapRange(latest, after2, 'content', 20, 27)).toEqual([[10, 17]])
    expect(toShown(ranges, latest, after2)).toEqual([{ field: { choice: 0, channel: 'content', toolCall: null }, start: 10, end: 17 }])
    // a run across two parts is split; text the earlier reply does not have yet is left out
    expect(mapRange(latest, after2, 'content', 5, 25)).toEqual([[5, 10], [10, 15]])
  })

  it('a position of the reply shown maps back to the latest: a click finds the frame that wrote it', () => {
    expect(mapOffset(after2, latest, 'content', 12)).toBe(22)
    expect(mapOffset(after2, latest, 'content', 3)).toBe(3)
  })

  it('a reply whose messages are its choices maps positions as they are', () => {
    const plain = createMerger()
    plain.push('data: {"choices":[{"index":0,"delta":{"content":"ab"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":"cd"}}]}\n\n')
    const end = plain.end()
    expect(mapRange(end, plain.replyAt(0), 'content', 2, 4)).toEqual([[2, 4]])
    expect(mapOffset(plain.replyAt(0), end, 'content', 1)).toBe(1)
  })
})
