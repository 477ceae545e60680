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
