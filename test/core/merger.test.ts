// The merger's API beyond merge(): incremental pushes, the reply after any frame, the cheap
// accessors, and a body that is not retained.

import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'

const STREAM = [
  'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}\n\n',
  ': keep-alive\n\n',
  'data: {"choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n',
  'event: ping\n\n',
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
]

function merged() {
  const m = createMerger()
  STREAM.forEach((part, i) => m.push(part, 1000 + i))
  m.end()
  return m
}

describe('createMerger', () => {
  it('replyAt(seq) is the reply as it stood after that frame, forwards and backwards', () => {
    const m = merged()
    expect(m.replyAt(0).choices[0]).toMatchObject({ content: 'Hel', finishReason: null })
    expect(m.replyAt(2).choices[0]).toMatchObject({ content: 'Hello', finishReason: 'stop' })
    expect(m.replyAt(2).done).toBe(false)
    expect(m.replyAt(3)).toEqual(m.end())
    expect(m.replyAt(1)).toEqual({ ...merge(STREAM.slice(0, 3).join('')), frameCount: 2, done: false })
    expect(m.replyAt(0).frameCount).toBe(1)
  })

  it('frames keep their arrival time; entries, provenance and frameInfo need no frame objects', () => {
    const m = merged()
    expect(m.frames().map((f) => [f.seq, f.kind, f.line, f.time])).toEqual([
      [0, 'data', 1, 1000], [1, 'data', 5, 1002], [2, 'data', 9, 1004], [3, 'done', 11, 1005],
    ])
    expect(m.entries()).toEqual([
      { kind: 'comment', raw: ': keep-alive\n', start: 78, end: 91, line: 3, beforeFrame: 1 },
      { kind: 'empty', raw: 'event: ping\n', start: 150, end: 162, line: 7, beforeFrame: 2 },
    ])
    expect(m.provenance()).toEqual([
      { frame: 0, choice: 0, channel: 'content', toolCall: null, start: 0, end: 3 },
      { frame: 1, choice: 0, channel: 'content', toolCall: null, start: 3, end: 5 },
    ])
    expect(m.frameInfo(2)).toEqual({
      seq: 2, kind: 'data', start: 163, end: 229, byteStart: 163, byteEnd: 229, line: 9,
      event: null, id: null, retry: null, time: 1004, unterminated: false,
    })
    expect([0, 1, 2, 3].map((seq) => m.frameTime(seq))).toEqual([1000, 1002, 1004, 1005])
    expect([0, 1, 2, 3].map((seq) => m.frameKind(seq))).toEqual(['data', 'data', 'data', 'done'])
    expect(() => m.frameTime(4)).toThrow('no frame 4 (there are 4)')
  })


  it('frameTime is null for every frame of a body pushed without times', () => {
    const m = createMerger()
    m.push(STREAM.join(''))
    expect(Array.from({ length: m.frameCount }, (_, seq) => m.frameTime(seq))).toEqual([null, null, null, null])
  })

  it('a snapshot reuses each tool call unchanged since the last one, and builds the ones that changed again', () => {
    const call = (i: number, id: string | null, args: string) => `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":${i},${id ? `"id":"${id}","type":"function","function":{"name":"f",` : '"function":{'}"arguments":${JSON.stringify(args)}}}]}}]}\n\n`
    const m = createMerger()
    m.push(call(0, 'a', '{"x":') + call(1, 'b', '{"y":2}'))
    const first = m.snapshot().choices[0]!.toolCalls
    expect(first.map((c) => [c.arguments, c.parsedArguments, c.argumentsError === null])).toEqual([['{"x":', null, false], ['{"y":2}', { y: 2 }, true]])
    m.push(call(0, null, '1}'))
    const second = m.snapshot().choices[0]!.toolCalls
    expect(second[0]).not.toBe(first[0])
    expect(second[0]).toMatchObject({ arguments: '{"x":1}', parsedArguments: { x: 1 }, argumentsError: null })
    expect(second[1]).toBe(first[1])
    m.push('data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"name":"g"}}]}}]}\n\n')
    const third = m.end().choices[0]!.toolCalls
    expect(third[0]).toBe(second[0])
    expect(third[1]).not.toBe(second[1])
    expect(third[1]!.name).toBe('fg')
  })
  it('with retainBody: false, frames completed by the latest push stay readable, older text is dropped', () => {
    const m = createMerger({ retainBody: false })
    // the body is kept in 1 MiB blocks and released a block at a time: frames of 1.2 MB
    const X = 1_200_000
    const big = (n: number) => `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(X)}${n}"}}]}\n\n`
    m.push(big(0))
    expect(m.frame(0).data).toContain('x0')
    m.push(big(1))
    m.push(big(2))
    expect(() => m.frame(0)).toThrow(/not retained/)
    expect(m.frame(2).data).toContain('x2')
    expect(m.frameInfo(0).line).toBe(1)
    expect(m.end().choices[0]!.content).toBe(`${'x'.repeat(X)}0${'x'.repeat(X)}1${'x'.repeat(X)}2`)
  })

  it('merge() of bytes reads the input in place: a broken frame across its 64 KiB slices keeps its exact raw text', () => {
    const pad = `data: {"choices":[{"index":0,"delta":{"content":"${'é'.repeat(15_000)}"}}]}\n\n`
    const broken = `data: {"choices":[{"index":0,"delta":{"content":"天${'y'.repeat(30_000)}"}}\n\n`
    const tail = 'data: {"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    const text = pad + pad + broken + tail
    const bytes = new TextEncoder().encode(text)
    const brokenStart = new TextEncoder().encode(pad + pad).length
    expect(brokenStart).toBeLessThan(65536) // the broken frame starts in the first slice…
    expect(brokenStart + new TextEncoder().encode(broken).length).toBeGreaterThan(65536) // …and ends in the second
    const reply = merge(bytes)
    expect(reply.choices[0]!.content).toBe('é'.repeat(30_000) + '!')
    expect(reply.errors).toHaveLength(1)
    expect(reply.errors[0]!.frame).toBe(2)
    expect(reply.errors[0]!.offset).toBe((pad + pad).length)
    expect(reply.errors[0]!.raw).toBe(broken.slice(0, -1)) // a frame's raw text ends before its blank line
    expect(reply).toEqual(merge(text))
  })

  it('push() after end() is a programming error, said plainly', () => {
    const m = merged()
    expect(() => m.push('data: {}\n\n')).toThrow('push() after end(): create a new merger for a new body')
  })
})

describe('the cost of a short body', () => {
  it('a merger holding a 300-byte body keeps a few KiB outside the JS heap, not a megabyte', () => {
    // the panel keeps one merger per captured request, and a CI job makes one per fixture
    const body = new TextEncoder().encode(STREAM.join(''))
    const before = process.memoryUsage().arrayBuffers
    const kept = Array.from({ length: 200 }, () => {
      const m = createMerger()
      m.push(body.slice())
      m.end()
      return m
    })
    const perMerger = (process.memoryUsage().arrayBuffers - before) / kept.length
    // measured: 4.3 KB a merger (its 4 KiB first block); with a 1 MiB first block it was 1,035 KB
    expect(perMerger).toBeLessThan(16 * 1024)
    expect(kept[199]!.frame(0).raw).toBe(STREAM[0]!.slice(0, -1))
  })
})
