// The AI SDK v4 data stream framing (docs/architecture.md#data-stream), one rule per test:
// `CODE:JSON` lines, the code as the frame's event, the JSON after the first colon as its data.

import { describe, expect, it } from 'vitest'
import { createMerger, diagnoseMerger, type MergeOptions } from '../../src/index.js'

function read(body: string, options: MergeOptions = {}) {
  const m = createMerger(options)
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { m, reply, frames: m.frames() }
}

describe('the AI SDK v4 data stream', () => {
  it('each line is a frame: its code is the event, the JSON after the first colon its data', () => {
    const { frames, reply } = read('f:{"messageId":"m1"}\n0:"a:b"\n')
    expect(frames.map((f) => [f.event, f.data, f.json, f.raw, f.line])).toEqual([
      ['f', '{"messageId":"m1"}', { messageId: 'm1' }, 'f:{"messageId":"m1"}\n', 1],
      ['0', '"a:b"', 'a:b', '0:"a:b"\n', 2],
    ])
    expect(reply.transport).toBe('data-stream')
  })

  it('lines end in LF, CR or CRLF, the last may lack its newline, and blank lines are skipped', () => {
    const { frames } = read('0:"a"\r\n\r\n0:"b"\r  \n0:"c"')
    expect(frames.map((f) => [f.data, f.start, f.end, f.line])).toEqual([['"a"', 0, 7, 1], ['"b"', 9, 15, 3], ['"c"', 18, 23, 5]])
  })

  it('byte offsets count UTF-8 bytes, character offsets characters', () => {
    const { frames } = read('0:"é€😀"\n0:"x"\n')
    expect(frames.map((f) => [f.start, f.end, f.byteStart, f.byteEnd])).toEqual([[0, 9, 0, 14], [9, 15, 14, 20]])
  })

  it('a line whose code is not one of 0-9 and a-k is a frame error, and reading goes on', () => {
    const { reply } = read('0:"a"\nx:"b"\n0:"c"\n', { provider: 'ai-sdk-v4' })
    expect(reply.errors).toEqual([{ frame: 1, offset: 6, line: 2, raw: 'x:"b"\n', message: 'unknown data stream part code "x" (the codes are 0-9 and a-k)' }])
    expect(reply.choices[0]!.content).toBe('ac')
  })

  it('a line without a colon is a frame error that says so', () => {
    expect(read('0:"a"\nhello\n').reply.errors.map((e) => [e.frame, e.line, e.message])).toEqual([[1, 2, 'not a data stream part: no "CODE:" prefix in "hello"']])
  })

  it('broken JSON after a known code is a frame error with the position in the data', () => {
    const { frames, reply } = read('0:"a"\n9:{"toolCallId":\n')
    expect([frames[1]!.kind, frames[1]!.event, frames[1]!.error?.position, reply.errors[0]!.offset]).toEqual(['invalid', '9', 14, 6])
  })

  it('a forced data-stream transport reads a body whose first line would not be sniffed as one', () => {
    expect(read('hello\n0:"a"\n', { transport: 'data-stream' }).frames.map((f) => f.kind)).toEqual(['invalid', 'data'])
  })

  it('text/plain does not decide: the first line does, so a plain-text body is not read as a data stream', () => {
    expect([read('0:"a"\n', { contentType: 'text/plain' }).reply.transport, read('Hello there\n', { contentType: 'text/plain' }).reply.transport]).toEqual(['data-stream', 'unknown'])
  })
})

describe('the debugger on a data stream', () => {
  it('reports mixed line endings, as for NDJSON', () => {
    const body = new TextEncoder().encode('0:"a"\r\n0:"b"\nd:{"finishReason":"stop"}\n')
    const m = createMerger({})
    m.push(body, 0)
    m.end()
    expect(diagnoseMerger(m, [{ data: body, t: 0 }]).map((d) => [d.code, d.message])).toEqual([['mixed-line-endings', 'line endings of 2 kinds: 1 CRLF, 2 LF; the first LF at byte 12']])
  })
})
