// Differential test against eventsource-parser 3 (the WHATWG-faithful parser the SSE reader is held to,
// docs/architecture.md#sse). On random SSE streams our frames' (event, id, data) must equal the events it
// dispatches, and our comment lines must equal what it reports through onComment — modulo
// Deltascope's documented additions, each pinned by its own test below:
//
//  (a) a final block not ended by a blank line is dispatched by us, flagged `unterminated`;
//      eventsource-parser drops it. Compared both ways: the parser fed the body plus "\n\n"
//      sees all our frames; the parser fed the body alone sees exactly our terminated ones.
//  (b) `id` — eventsource-parser 3.1.1 reports `id` only for an event whose own block set it
//      (it resets id to undefined after every dispatch and every blank line, so it does NOT
//      carry WHATWG's last-event-id forward). That is exactly our per-block `id` (null when the
//      block has none), so ids are compared directly: ours === (theirs ?? null).
//  (c) eventsource-parser checks for a BOM by comparing the first chunk's char codes with
//      0xEF 0xBB 0xBF, so a JS string starting with U+FEFF loses its first event (docs/wire-formats.md#framing-in-practice).
//      It is fed what a TextDecoderStream would give it (a streaming TextDecoder, which drops
//      the BOM), in random byte chunks.
//  (d) a body whose last blank line is a lone CR: eventsource-parser holds a trailing CR as a
//      possible CRLF and, with no more input, never dispatches that last event; we do (it was
//      ended by a blank line, so not `unterminated`).
//  (e) a block whose data is empty (`data:` alone): WHATWG and eventsource-parser dispatch an
//      event with data ""; Deltascope records it as an `empty` entry (docs/architecture.md#sse: a frame is a
//      block with data; docs/wire-formats.md#framing-in-practice: never dispatch events with empty data).
//  (f) `event:` with an empty value: eventsource-parser reports event undefined (WHATWG: the
//      default type); Deltascope keeps the field as given, "". Compared as ours || null.
//  (g) a chunk ending in a CR that is a blank line (`data: a\n\r` | `data:`): eventsource-parser
//      holds the CR as a possible CRLF and, when the next chunk starts with anything but LF,
//      loses the event it ended (fed whole, it dispatches it). Its chunks are therefore never
//      cut right after a CR (found by this property with a random seed in CI, 2026-12-03).

import { createParser, type EventSourceMessage } from 'eventsource-parser'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Frame } from '../../src/index.js'
import type { Inspection } from '../support/inspect.js'
import { cut, enc, mergeChunks, randomCuts, sseStream, BOM, concat } from '../support/property.js'

interface Parsed {
  events: EventSourceMessage[]
  comments: string[]
}

/** Feeds eventsource-parser what a TextDecoderStream makes of these byte chunks, then `tail`. */
function parseBytes(chunks: Uint8Array[], tail = ''): Parsed {
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  const parser = createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) })
  const decoder = new TextDecoder() // drops a leading BOM, like TextDecoderStream
  for (const c of chunks) {
    const text = decoder.decode(c, { stream: true })
    if (text !== '') parser.feed(text)
  }
  const rest = decoder.decode()
  if (rest !== '') parser.feed(rest)
  if (tail !== '') parser.feed(tail)
  return { events, comments }
}

function parseString(s: string): Parsed {
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) }).feed(s)
  return { events, comments }
}

/** Theirs, minus (e): events with empty data. */
const theirEvents = (p: Parsed) => p.events.filter((e) => e.data !== '').map((e) => ({ event: e.event ?? null, id: e.id ?? null, data: e.data }))
/** Ours, with (f): an empty event name is the default type. */
const ourEvents = (frames: Frame[]) => frames.map((f) => ({ event: f.event || null, id: f.id, data: f.data }))

/** Every comment line of our frames and entries, in body order, as onComment reports it. */
function ourComments(ins: Inspection): string[] {
  const blocks = [...ins.frames.map((f) => ({ start: f.start, raw: f.raw })), ...ins.entries.map((e) => ({ start: e.start, raw: e.raw }))]
  blocks.sort((a, b) => a.start - b.start)
  const out: string[] = []
  for (const b of blocks) {
    for (const line of b.raw.split(/\r\n|\r|\n/)) {
      if (line.startsWith(':')) out.push(line.slice(line.charCodeAt(1) === 0x20 ? 2 : 1))
    }
  }
  return out
}

describe('differential: eventsource-parser 3', () => {
  it('random SSE streams: the same events (all frames vs body + "\\n\\n"; terminated frames vs the body alone) and the same comments', () => {
    fc.assert(
      fc.property(
        sseStream.chain((s) => fc.tuple(fc.constant(s), randomCuts(s.bytes.length, 16), randomCuts(s.bytes.length, 16))),
        ([s, ourCuts, theirCuts]) => {
          const ours = mergeChunks(cut(s.bytes, ourCuts), { transport: 'sse' })
          const frames = ours.ins.frames
          // (g): their chunks never end in a CR
          const theirChunks = cut(s.bytes, theirCuts.filter((c) => s.bytes[c - 1] !== 0x0d))

          // (a) with the final blank line supplied, every one of our frames is an event of theirs
          const flushed = parseBytes(theirChunks, '\n\n')
          expect(ourEvents(frames)).toEqual(theirEvents(flushed))

          // the body alone: exactly our terminated frames; (d) a trailing CR is completed as CRLF
          const alone = parseBytes(theirChunks, s.text.endsWith('\r') ? '\n' : '')
          expect(ourEvents(frames.filter((f) => !f.unterminated))).toEqual(theirEvents(alone))
          // only the last frame can be unterminated, and it is iff the parser needed the flush
          frames.forEach((f, i) => { if (f.unterminated) expect(i).toBe(frames.length - 1) })

          // comments: every `:` line, in order, wherever it stood
          expect(ourComments(ours.ins)).toEqual(flushed.comments)
          // entry kinds: 'comment' blocks hold only comment lines; 'empty' blocks hold a field but no data
          for (const e of ours.ins.entries) {
            const lines = e.raw.split(/\r\n|\r|\n/).filter((l) => l !== '')
            expect(lines.length).toBeGreaterThan(0)
            if (e.kind === 'comment') expect(lines.every((l) => l.startsWith(':'))).toBe(true)
            else expect(lines.some((l) => !l.startsWith(':'))).toBe(true)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('(a) a final block without blank line: ours, flagged unterminated; theirs, dropped', () => {
    const body = enc.encode('data: {"a":1}\n\ndata: {"b":2}\n')
    const ours = mergeChunks([body], { transport: 'sse' }).ins.frames
    expect(ours.map((f) => [f.data, f.unterminated])).toEqual([['{"a":1}', false], ['{"b":2}', true]])
    expect(parseBytes([body]).events).toEqual([{ id: undefined, event: undefined, data: '{"a":1}' }])
  })

  it('(b) eventsource-parser 3.1.1 reports id per event, not the WHATWG last-event-id; ours is per block too', () => {
    const body = enc.encode('id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid\ndata: d\n\n')
    expect(parseBytes([body]).events.map((e) => e.id)).toEqual(['1', undefined, undefined, ''])
    // (WHATWG's lastEventId would be '1', '1', '2', '')
    expect(mergeChunks([body], { transport: 'sse' }).ins.frames.map((f) => f.id)).toEqual(['1', null, null, ''])
  })

  it('(c) a JS string starting with U+FEFF: eventsource-parser loses the first event; decoded bytes and Deltascope do not', () => {
    const text = 'data: first\n\ndata: second\n\n'
    expect(parseString('\uFEFF' + text).events.map((e) => e.data)).toEqual(['second'])
    expect(parseBytes([concat(BOM, enc.encode(text))]).events.map((e) => e.data)).toEqual(['first', 'second'])
    expect(mergeChunks(['\uFEFF' + text], { transport: 'sse' }).ins.frames.map((f) => f.data)).toEqual(['first', 'second'])
    expect(mergeChunks([concat(BOM, enc.encode(text))], { transport: 'sse' }).ins.frames.map((f) => f.data)).toEqual(['first', 'second'])
  })

  it('(d) a body ending in a lone CR blank line: eventsource-parser never dispatches the last event; ours is a terminated frame', () => {
    const body = enc.encode('data: one\r\rdata: two\r\r')
    expect(parseBytes([body]).events.map((e) => e.data)).toEqual(['one'])
    const ours = mergeChunks([body], { transport: 'sse' }).ins.frames
    expect(ours.map((f) => [f.data, f.unterminated, f.raw])).toEqual([['one', false, 'data: one\r'], ['two', false, 'data: two\r']])
  })

  it('(g) a chunk ending in the CR of a blank line: eventsource-parser loses the event it ended; ours is a terminated frame, however the body is cut', () => {
    const body = enc.encode('data: a\n\rdata:')
    const at = 'data: a\n\r'.length
    expect(parseBytes([body.subarray(0, at), body.subarray(at)]).events.map((e) => e.data)).toEqual([])
    expect(parseBytes([body]).events.map((e) => e.data)).toEqual(['a'])
    for (const chunks of [[body], [body.subarray(0, at), body.subarray(at)]]) {
      const ins = mergeChunks(chunks, { transport: 'sse' }).ins
      expect(ins.frames.map((f) => [f.data, f.unterminated])).toEqual([['a', false]])
      expect(ins.entries.map((e) => [e.kind, e.raw])).toEqual([['empty', 'data:']])
    }
  })

  it('(e) `data:` alone: an event with data "" for eventsource-parser, an `empty` entry for us', () => {
    const body = enc.encode('data:\n\ndata\n\ndata: x\n\n')
    expect(parseBytes([body]).events.map((e) => e.data)).toEqual(['', '', 'x'])
    const ins = mergeChunks([body], { transport: 'sse' }).ins
    expect(ins.frames.map((f) => f.data)).toEqual(['x'])
    expect(ins.entries.map((e) => [e.kind, e.raw, e.beforeFrame])).toEqual([['empty', 'data:\n', 0], ['empty', 'data\n', 0]])
  })

  it('(f) `event:` with an empty value: undefined for eventsource-parser, "" for us', () => {
    const body = enc.encode('event: x\nevent:\ndata: 1\n\n')
    expect(parseBytes([body]).events).toEqual([{ id: undefined, event: undefined, data: '1' }])
    expect(mergeChunks([body], { transport: 'sse' }).ins.frames.map((f) => f.event)).toEqual([''])
  })
})
