// MergeOptions.bodyReader: a merger given a way to read its body back keeps none of the bytes
// it has merged, and reads frames, body() and replays through the reader, exactly as a merger
// that kept them.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/library.js'

const encoder = new TextEncoder()
const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
/** An OpenAI stream of `n` text deltas, with multibyte text, a comment and its end. */
function stream(n: number): Uint8Array {
  let s = chunk({ role: 'assistant', content: '' })
  for (let i = 0; i < n; i++) s += (i === 3 ? ': keep-alive\n\n' : '') + chunk({ content: `été ${i} 天气 ` })
  return encoder.encode(s + chunk({}, 'stop') + 'data: [DONE]\n\n')
}
const OPTIONS = { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' }

/** A merger fed `bytes` in pieces of `size`, each handed over, reading back through a counted reader. */
function backed(bytes: Uint8Array, size: number) {
  const reads: Array<[number, number]> = []
  const m = createMerger({ ...OPTIONS, bodyReader: (from, to) => { reads.push([from, to]); return bytes.slice(from, to) } })
  for (let i = 0; i < bytes.length; i += size) m.pushOwned(bytes.slice(i, i + size))
  return { m, reads }
}

describe('a merger with a body reader', () => {
  const bytes = stream(400)
  const kept = createMerger(OPTIONS)
  for (let i = 0; i < bytes.length; i += 1000) kept.pushOwned(bytes.slice(i, i + 1000))
  const keptReply = kept.end()

  it('rebuilds the same reply, frames, entries, replays and body as a merger that kept its bytes', () => {
    const { m } = backed(bytes, 1000)
    expect(m.end()).toEqual(keptReply)
    expect(keptReply).toEqual(merge(bytes, OPTIONS))
    expect(m.frames()).toEqual(kept.frames())
    expect(m.entries()).toEqual(kept.entries())
    expect(m.replyAt(200)).toEqual(kept.replyAt(200))
    expect(m.body()).toEqual(bytes)
    expect(m.body(5, 4321)).toEqual(bytes.slice(5, 4321))
  })

  it('reads back only bytes it no longer holds: the frames of the last piece come from the piece itself', () => {
    const { m, reads } = backed(bytes, 1000)
    m.end()
    expect(reads).toEqual([])
    const last = m.frameCount - 1
    m.frame(last)
    expect(reads).toEqual([])
    const first = m.frameInfo(0)
    expect(m.frame(0).raw).toBe(new TextDecoder().decode(bytes.slice(first.byteStart, first.byteEnd)))
    expect(reads).toEqual([[first.byteStart, first.byteEnd]])
  })

  it('says so, as a RangeError, when the reader gives back other than the bytes asked for', () => {
    const m = createMerger({ ...OPTIONS, bodyReader: (from, to) => bytes.slice(from, to - 1) })
    for (let i = 0; i < bytes.length; i += 1000) m.pushOwned(bytes.slice(i, i + 1000))
    m.end()
    const first = m.frameInfo(0)
    expect(() => m.frame(0)).toThrow(new RangeError(`the body reader gave ${first.byteEnd - first.byteStart - 1} bytes for bytes ${first.byteStart}–${first.byteEnd}`))
  })

  it('without a reader, retainBody: false still says the bytes are gone', () => {
    const m = createMerger({ ...OPTIONS, retainBody: false })
    for (let i = 0; i < bytes.length; i += 1000) m.pushOwned(bytes.slice(i, i + 1000))
    m.end()
    expect(() => m.frame(0)).toThrow(/^the body before byte \d+ was not retained \(retainBody: false\)$/)
    expect(() => m.body()).toThrow(/was not retained/)
  })
})

describe('bytesHeldFrom: the pieces handed over that the merger no longer reads', () => {
  /**
   * Feeds `bytes` in handed-over pieces of `size` and, after each push, overwrites with 0xFF
   * every piece that ends at or before bytesHeldFrom() (as a caller reusing its buffers would):
   * the merger must not read them again. Returns the merger and how many pieces were reused.
   */
  function reusing(bytes: Uint8Array, size: number, options: object = {}) {
    const m = createMerger({ ...OPTIONS, bodyReader: (from, to) => bytes.slice(from, to), ...options })
    const lent: Array<{ piece: Uint8Array; end: number }> = []
    let reused = 0
    for (let i = 0; i < bytes.length; i += size) {
      const piece = bytes.slice(i, i + size)
      m.pushOwned(piece)
      lent.push({ piece, end: i + piece.length })
      const held = m.bytesHeldFrom()
      expect(held).toBeLessThanOrEqual(m.byteLength)
      while (lent.length > 0 && lent[0]!.end <= held) { lent.shift()!.piece.fill(0xff); reused++ }
    }
    return { m, reused }
  }

  it('is 0 while the merger keeps its body', () => {
    const m = createMerger(OPTIONS)
    const bytes = stream(300)
    for (let i = 0; i < bytes.length; i += 1000) m.pushOwned(bytes.slice(i, i + 1000))
    expect([m.bytesHeldFrom(), m.byteLength > 0]).toEqual([0, true])
  })

  it('moves on as frames are merged, and pieces before it can be overwritten without changing the reply, the frames or the body', () => {
    const bytes = stream(3000)
    const want = merge(bytes, OPTIONS)
    const kept = createMerger(OPTIONS)
    kept.push(bytes)
    kept.end()
    for (const size of [1000, 65536]) {
      const { m, reused } = reusing(bytes, size)
      // all but the last few: what the batch before the last one completed is let go
      expect(reused).toBeGreaterThanOrEqual(Math.ceil(bytes.length / size) - 3)
      expect(m.end()).toEqual(want)
      expect(m.frames()).toEqual(kept.frames())
      expect(m.body()).toEqual(bytes)
    }
  })

  it('holds the start of a frame longer than many pieces, and of a broken frame, until they are merged', () => {
    const long = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '天'.repeat(500_000) }, finish_reason: null }] })}\n\n`
    const text = chunk({ role: 'assistant', content: '' }) + long + 'data: {"choices": [\n\n' + chunk({ content: 'été' }, 'stop') + 'data: [DONE]\n\n'
    const bytes = encoder.encode(text)
    const kept = createMerger(OPTIONS)
    kept.push(bytes)
    const keptReply = kept.end()
    const { m } = reusing(bytes, 4096)
    expect(m.end()).toEqual(keptReply)
    expect(m.frames()).toEqual(kept.frames())
    expect(keptReply.errors.map((e) => e.frame)).toEqual([2])
  })

  it('is 0 for a binary body (an AWS event stream keeps views of its messages)', () => {
    const m = createMerger({ url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse-stream', contentType: 'application/vnd.amazon.eventstream', bodyReader: (from, to) => new Uint8Array(to - from) })
    m.pushOwned(Uint8Array.from([0, 0, 0, 40, 0, 0, 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]))
    expect(m.bytesHeldFrom()).toBe(0)
  })
})
