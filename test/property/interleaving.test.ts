// Interleaving invariance (docs/architecture.md#messages): two messages that stream at once —
// a LangGraph fan-out, two AG-UI text messages open together, two AI SDK text parts, two
// ChatGPT web messages on their own channels — come
// out the same whatever the order their chunks take on the wire: each message holds its own
// text and calls, in its own order; the messages are listed in the order of their first
// chunk; the choice's content is their text joined in that order.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMerger, merge, type ReplyMessage } from '../../src/index.js'

/** One message's chunks: text pieces, and (LangGraph) a tool call's argument fragments. */
interface Script { texts: string[]; args: string[] }

const piece = fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '"', '\\', '\n') })
const scriptArb: fc.Arbitrary<Script> = fc.record({
  texts: fc.array(piece, { minLength: 1, maxLength: 6 }),
  args: fc.array(piece, { maxLength: 3 }),
})
/** Which message each step takes its next chunk from (0 or 1), while both have some. */
const scheduleArb = fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 24 })

/** The two chunk lists merged in the order `schedule` picks, each list's own order kept. */
function interleave<T>(a: readonly T[], b: readonly T[], schedule: readonly number[]): T[] {
  const out: T[] = []
  let i = 0
  let j = 0
  for (let step = 0; i < a.length || j < b.length; step++) {
    const pick = i >= a.length ? 1 : j >= b.length ? 0 : schedule[step % schedule.length]!
    out.push(pick === 0 ? a[i++]! : b[j++]!)
  }
  return out
}

function parseOrNull(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const sse = (event: string | null, json: unknown) => `${event === null ? '' : `event: ${event}\n`}data: ${JSON.stringify(json)}\n\n`

/** A message as the Reply holds it: its text, then (when it has arguments) its one call. */
function expected(id: string, s: Script, call: boolean, name?: string): ReplyMessage {
  const parts: ReplyMessage['parts'] = [{ type: 'text', text: s.texts.join('') }]
  if (call && s.args.length > 0) {
    const args = s.args.join('')
    const parsed = parseOrNull(args)
    parts.push({
      type: 'tool-call', id: `call-${id}`, name: 'lookup', arguments: args,
      parsedArguments: parsed.ok ? parsed.value : null, argumentsError: parsed.ok ? null : expect.any(String) as unknown as string,
    })
  }
  const m: ReplyMessage = { id, role: 'assistant', parts }
  if (name !== undefined) m.name = name
  return m
}

describe('interleaving: two messages streamed at once', () => {
  it('LangGraph messages-tuple: each message id keeps its text and its call, whatever the interleaving', () => {
    fc.assert(fc.property(scriptArb, scriptArb, scheduleArb, (a, b, schedule) => {
      // all text first, then the calls' fragments (a model streams its text, then its call)
      const frames = (id: string, s: Script) => [
        ...s.texts.map((t) => sse('messages', [{ type: 'AIMessageChunk', id, content: t, tool_call_chunks: [] }, { langgraph_node: id }])),
        ...s.args.map((x, i) => sse('messages', [{
          type: 'AIMessageChunk', id, content: '',
          tool_call_chunks: [{ index: 0, id: i === 0 ? `call-${id}` : null, name: i === 0 ? 'lookup' : null, args: x }],
        }, { langgraph_node: id }])),
      ]
      const fa = frames('run-a', a)
      const fb = frames('run-b', b)
      const wire = interleave(fa, fb, schedule)
      const aFirst = wire[0] === fa[0]
      const reply = merge(wire.join('') + sse('end', null))
      const ma = expected('run-a', a, true)
      const mb = expected('run-b', b, true)
      const order = aFirst ? [ma, mb] : [mb, ma]
      expect(reply.messages).toEqual(order)
      expect(reply.choices[0]!.content).toBe(order.map((m) => (m.parts[0] as { text: string }).text).join(''))
      // the choice's calls are keyed per message, in the order their first fragments came
      const firstFragment = (id: string) => wire.findIndex((f) => f.includes(`"id":"call-${id}"`))
      const calls = [['run-a', a], ['run-b', b]] as const
      expect(reply.choices[0]!.toolCalls.map((t) => [t.id, t.arguments])).toEqual(calls
        .filter(([, s]) => s.args.length > 0)
        .sort(([x], [y]) => firstFragment(x) - firstFragment(y))
        .map(([id, s]) => [`call-${id}`, s.args.join('')]))
    }), { numRuns: 300 })
  })

  it('AG-UI: two text messages open at once, in a subagent\'s lane and the run\'s own', () => {
    fc.assert(fc.property(scriptArb, scriptArb, fc.boolean(), scheduleArb, (a, b, bFirst, schedule) => {
      const content = (id: string, s: Script, lane?: string) => s.texts.map((t) => sse(null, { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: t, ...(lane ? { subagentRunId: lane } : {}) }))
      const starts = [
        sse(null, { type: 'TEXT_MESSAGE_START', messageId: 'm-a', role: 'assistant' }),
        sse(null, { type: 'TEXT_MESSAGE_START', messageId: 'm-b', role: 'assistant', subagentRunId: 'sub-1' }),
      ]
      const wire = [
        sse(null, { type: 'RUN_STARTED', threadId: 't', runId: 'r' }),
        sse(null, { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher' }),
        ...(bFirst ? starts.reverse() : starts),
        ...interleave(content('m-a', a), content('m-b', b, 'sub-1'), schedule),
        sse(null, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }),
      ]
      const reply = merge(wire.join(''))
      const ma = expected('m-a', a, false)
      const mb = expected('m-b', b, false, 'researcher')
      const order = bFirst ? [mb, ma] : [ma, mb]
      expect(reply.messages).toEqual(order)
      expect(reply.choices[0]!.content).toBe(order.map((m) => (m.parts[0] as { text: string }).text).join(''))
    }), { numRuns: 300 })
  })

  it('AI SDK: two text parts of one message keep their own text, in the order they started', () => {
    fc.assert(fc.property(scriptArb, scriptArb, scheduleArb, (a, b, schedule) => {
      const deltas = (id: string, s: Script) => s.texts.map((t) => sse(null, { type: 'text-delta', id, delta: t }))
      const wire = [
        sse(null, { type: 'start', messageId: 'msg' }),
        sse(null, { type: 'text-start', id: 'p1' }),
        sse(null, { type: 'text-start', id: 'p2' }),
        ...interleave(deltas('p1', a), deltas('p2', b), schedule),
        sse(null, { type: 'text-end', id: 'p1' }),
        sse(null, { type: 'text-end', id: 'p2' }),
        sse(null, { type: 'finish' }),
        'data: [DONE]\n\n',
      ]
      const reply = merge(wire.join(''))
      expect(reply.messages).toEqual([{
        id: 'msg', role: 'assistant', parts: [{ type: 'text', text: a.texts.join('') }, { type: 'text', text: b.texts.join('') }],
      }])
      expect(reply.choices[0]!.content).toBe(a.texts.join('') + b.texts.join(''))
    }), { numRuns: 300 })
  })

  it('ChatGPT web: two messages on their own channels c, appended in any interleaving, each rewritten after the other wrote, keep their own text', () => {
    fc.assert(fc.property(scriptArb, scriptArb, scheduleArb, fc.nat({ max: 6 }), (a, b, schedule, cut) => {
      const msg = (id: string) => ({ message: { id, author: { role: 'assistant' }, content: { content_type: 'text', parts: [''] }, status: 'in_progress', recipient: 'all', channel: 'final' }, conversation_id: 'c1' })
      const appends = (c: number, s: Script) => s.texts.map((t) => sse('delta', { p: '/message/content/parts/0', o: 'append', v: t, c }))
      const textA = a.texts.join('')
      const kept = textA.slice(0, Math.min(cut, textA.length))
      const wire = [
        sse('delta_encoding', 'v1'),
        sse('delta', { p: '', o: 'add', v: msg('m-a'), c: 0 }),
        sse('delta', { p: '', o: 'add', v: msg('m-b'), c: 1 }),
        ...interleave(appends(0, a), appends(1, b), schedule),
        // the first message rewritten once the second has written after it
        sse('delta', { p: '/message/content/parts/0', o: 'replace', v: `${kept}!`, c: 0 }),
        sse(null, { type: 'message_stream_complete', conversation_id: 'c1' }),
        'data: [DONE]\n\n',
      ]
      const reply = merge(wire.join(''))
      const first = schedule[0] === 0
      const ma: ReplyMessage = { id: 'm-a', role: 'assistant', parts: [{ type: 'text', text: `${kept}!` }] }
      const mb: ReplyMessage = { id: 'm-b', role: 'assistant', parts: [{ type: 'text', text: b.texts.join('') }] }
      // listed in the order of their first text (both have some: scriptArb's texts are never empty)
      const order = first ? [ma, mb] : [mb, ma]
      expect(reply.messages).toEqual(order)
      expect(reply.choices[0]!.content).toBe(order.map((m) => (m.parts[0] as { text: string }).text).join(''))
    }), { numRuns: 300 })
  })

  it('provenance: each frame is credited with exactly its chunk, in the choice\'s joined text and in its message\'s part', () => {
    fc.assert(fc.property(scriptArb, scriptArb, scheduleArb, (a, b, schedule) => {
      const frame = (id: string, t: string) => sse('messages', [{ type: 'AIMessageChunk', id, content: t }, {}])
      const fa = a.texts.map((t) => ({ id: 'run-a', t }))
      const fb = b.texts.map((t) => ({ id: 'run-b', t }))
      const chunks = interleave(fa, fb, schedule)
      const m = createMerger()
      m.push(chunks.map((c) => frame(c.id, c.t)).join(''))
      const reply = m.end()
      const content = reply.choices[0]!.content
      const credited = chunks.map(() => '')
      for (const p of m.provenance()) credited[p.frame] += content.slice(p.start, p.end)
      expect(credited).toEqual(chunks.map((c) => c.t))
      const inParts = chunks.map(() => '')
      for (const p of m.partProvenance()) inParts[p.frame] += (reply.messages[p.message]!.parts[p.part] as { text: string }).text.slice(p.start, p.end)
      expect(inParts).toEqual(chunks.map((c) => c.t))
    }), { numRuns: 200 })
  })
})
