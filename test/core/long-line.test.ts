// A line longer than 1 MiB, with a body reader (MergeOptions.bodyReader): its pieces are not
// kept as they arrive, its text is read back from the body's bytes once, when it ends
// (lines.ts TextSource). The merger must see exactly what it sees without a reader: the same
// reply, frames and diagnostics, whatever the line holds (multi-byte characters, invalid
// UTF-8, a BOM before it, a line before it in the same block, CRLF, no end at all).

import { describe, expect, it } from 'vitest'
import { createMerger, type LibraryMergeOptions } from '../../src/library.js'

const encoder = new TextEncoder()
const MiB = 1 << 20

function concat(...parts: Array<string | Uint8Array>): Uint8Array {
  const bytes = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p))
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0))
  let at = 0
  for (const b of bytes) { out.set(b, at); at += b.length }
  return out
}

/** 3 MiB of text: ASCII, 2-, 3- and 4-byte characters, an escaped quote. */
const TEXT = ('abc été 天气 🙂 \\" ').repeat(Math.ceil(3 * MiB / 20)).slice(0, 3 * MiB)
/** TEXT as JSON.parse reads it. */
const CONTENT = JSON.parse(`"${TEXT}"`) as string

/** Compared as one boolean: a failing diff of 3 MiB strings is not printed. */
function same(a: string, b: string): boolean {
  return a === b
}

/** The body merged in 64 KiB pieces, with and without a reader; the reader's calls recorded. */
function both(body: Uint8Array, options: LibraryMergeOptions) {
  const reads: Array<[number, number]> = []
  const backed = createMerger({ ...options, bodyReader: (from, to) => { reads.push([from, to]); return body.slice(from, to) } })
  const kept = createMerger(options)
  for (let i = 0; i < body.length; i += 65536) {
    backed.pushOwned(body.slice(i, i + 65536))
    kept.push(body.slice(i, i + 65536))
  }
  const reply = backed.end()
  // what was read back to merge, before any frame is read again
  const merged = reads.filter(([from, to]) => to - from > MiB)
  return { backed, kept, merged, reply, keptReply: kept.end() }
}

describe('a line over 1 MiB with a body reader', () => {
  it('SSE: BOM, an event line, then the long data line (with an invalid byte) ending in CRLF: read back once, the rest identical', () => {
    const head = '\uFEFFevent: message\r\ndata: {"choices":[{"index":0,"delta":{"content":"'
    const body = concat(head, TEXT, new Uint8Array([0xff]), '"}}]}\r\n\r\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
    const { backed, kept, merged, reply, keptReply } = both(body, { provider: 'openai-chat' })
    expect(JSON.stringify(reply) === JSON.stringify(keptReply)).toBe(true)
    expect(same(reply.choices[0]!.content, CONTENT + '\uFFFD')).toBe(true)
    expect(reply.done).toBe(true)
    expect(backed.diagnostics()).toEqual(kept.diagnostics())
    expect(JSON.stringify(backed.frames()) === JSON.stringify(kept.frames())).toBe(true)
    // the data line, from after the event line's CRLF to its own CR, read back once
    const lineStart = encoder.encode('\uFEFFevent: message\r\n').length
    const lineEnd = encoder.encode(head).length + encoder.encode(TEXT).length + 1 + '"}}]}'.length
    expect(merged).toEqual([[lineStart, lineEnd]])
  })

  it('NDJSON: a last line with no newline (read back at the end of the body)', () => {
    const body = concat('{"message":{"role":"assistant","content":"a"},"done":false}\n{"message":{"role":"assistant","content":"', TEXT, '"},"done":true}')
    const { backed, kept, merged, reply, keptReply } = both(body, { provider: 'ollama' })
    expect(JSON.stringify(reply) === JSON.stringify(keptReply)).toBe(true)
    expect(same(reply.choices[0]!.content, 'a' + CONTENT)).toBe(true)
    expect(JSON.stringify(backed.frames()) === JSON.stringify(kept.frames())).toBe(true)
    expect(merged).toEqual([[encoder.encode('{"message":{"role":"assistant","content":"a"},"done":false}\n').length, body.length]])
  })

  it('text pushed as a string is not read back (a lone surrogate would come back as U+FFFD): its pieces are kept', () => {
    const text = `data: {"choices":[{"index":0,"delta":{"content":"${TEXT}\uD800"}}]}\n\n`
    const reads: Array<[number, number]> = []
    const body = encoder.encode(text)
    const m = createMerger({ provider: 'openai-chat', bodyReader: (from, to) => { reads.push([from, to]); return body.slice(from, to) } })
    for (let i = 0; i < text.length; i += 65536) m.push(text.slice(i, i + 65536))
    expect(same(m.end().choices[0]!.content, CONTENT + '\uD800')).toBe(true)
    expect(reads.filter(([from, to]) => to - from > MiB)).toEqual([])
  })
})
