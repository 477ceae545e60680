// The harness of the message-by-message differential tests (test/differential/messages-*.test.ts):
// a protocol's real client (AI SDK readUIMessageStream, AG-UI HttpAgent, the LangGraph SDK's
// Client + StreamManager) is fed the exact bytes of a fixture through its own custom fetch,
// cut into several chunkings, and its end state is held against Reply.messages twice: by
// compareReply (the library's own message-by-message comparison) and by a plain view of each
// message (id, role, text, reasoning, tool calls with their arguments, tool results) that both
// sides are mapped onto and compared with toEqual, so neither side's reader can hide a
// difference the other would show.

import { expect } from 'vitest'
import { compareReply, type Reply } from '../../src/index.js'
import type { FixtureCase } from './fixtures.js'
import { chunkBytes, sseResponse } from './differential.js'

export type ReplyMessage = Reply['messages'][number]

/** One network chunking of a body: its name (in test titles) and the chunks. */
export interface Chunking {
  name: string
  chunks: Uint8Array[]
}

/** A small seeded generator (mulberry32): the "random" chunkings are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Sizes 1..max drawn from a seed: cut points land inside frames, JSON strings and UTF-8 characters. */
export function seededSizes(seed: number, count: number, max: number): number[] {
  const next = seeded(seed)
  return Array.from({ length: count }, () => 1 + Math.floor(next() * max))
}

/** The body whole, one byte per read, and two seeded random cuttings. */
export function chunkings(bytes: Uint8Array): Chunking[] {
  return [
    { name: 'whole', chunks: [bytes] },
    { name: '1-byte', chunks: chunkBytes(bytes, [1]) },
    { name: 'seeded 7', chunks: chunkBytes(bytes, seededSizes(7, 64, 40)) },
    { name: 'seeded 2027', chunks: chunkBytes(bytes, seededSizes(2027, 64, 300)) },
  ]
}

/** A fetch for a client under test: the body as the given chunks, one per read; any URL but `url` fails. */
export function bodyFetch(chunks: readonly Uint8Array[], url: string, log: string[] = []): (input: unknown, init?: unknown) => Promise<Response> {
  return async (input: unknown) => {
    const at = typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url
    log.push(at)
    if (at !== url) throw new Error(`client fetch: unexpected URL ${at}`)
    return sseResponse(chunks)
  }
}

/** A tool call as both sides show it: arguments as text (AG-UI keeps the text) or parsed (the others parse). */
export interface CallView {
  id: string | null
  name: string | null
  args: unknown
}

export interface ResultView {
  toolCallId: string | null
  output: unknown
  isError: boolean
}

/** One message, flattened: each kind of part in its order; the message order is the list's. */
export interface MessageView {
  id: string | null
  role: string | null
  text: string
  reasoning: string
  calls: CallView[]
  results: ResultView[]
}

/** Reply.messages as views; `args`: whether a call's arguments are compared as text or parsed. */
export function replyView(messages: readonly ReplyMessage[], args: 'text' | 'parsed'): MessageView[] {
  return messages.map((m) => {
    const view: MessageView = { id: m.id, role: m.role, text: '', reasoning: '', calls: [], results: [] }
    for (const p of m.parts) {
      if (p.type === 'text') view.text += p.text
      else if (p.type === 'reasoning') view.reasoning += p.text
      else if (p.type === 'tool-call') view.calls.push({ id: p.id, name: p.name, args: args === 'text' || p.argumentsError !== null ? p.arguments : p.parsedArguments })
      else if (p.type === 'tool-result') view.results.push({ toolCallId: p.toolCallId, output: p.output, isError: p.isError })
    }
    return view
  })
}

/**
 * The agreement a compared fixture must show: compareReply finds no difference between the
 * fixture's body (merged with its options) and the client's result, and the client's view of
 * its messages is exactly ours.
 */
export function expectAgreement(f: FixtureCase, clientResult: unknown, client: MessageView[], args: 'text' | 'parsed'): void {
  const comparison = compareReply(f.wire, clientResult, { mergeOptions: f.options })
  expect(comparison.differences).toEqual([])
  expect(comparison.equal).toBe(true)
  expect(client).toEqual(replyView(f.reply.messages, args))
}
