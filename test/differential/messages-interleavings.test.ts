// Interleaved variants of the encoder-written runs: each message's (AG-UI) or part's (AI SDK)
// events stay in their order, the queues are interleaved by fast-check, the protocol's own
// writer writes the bytes, a seeded chunking cuts them, and the real client must end with
// exactly Reply.messages (test/support/differential-messages.ts). The LangGraph variants are in
// messages-langgraph.test.ts (no writer is installed for it: the recorded bytes are reordered).

import { EventEncoder } from '@ag-ui/encoder'
import type { BaseEvent } from '@ag-ui/core'
import { createUIMessageStream, JsonToSseTransformStream, type UIMessageChunk } from 'ai'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { merge } from '../../src/index.js'
import { chunkBytes, enc, forbidGlobalFetch, interleave } from '../support/differential.js'
import { expectAgreement, seededSizes } from '../support/differential-messages.js'
import { agUiSubagentEvents } from '../support/encoded-fixtures.js'
import type { FixtureCase } from '../support/fixtures.js'
import { agUiView, runAgent, runUiClient, uiMessageView } from '../support/message-clients.js'

// the clients get the fixture's fetch; anything reaching for the global one fails
forbidGlobalFetch()

const OPTIONS = { contentType: 'text/event-stream' }
const picksArb = fc.array(fc.nat({ max: 11 }), { minLength: 1, maxLength: 16 })

function variant(name: string, body: string): FixtureCase {
  const wire = enc.encode(body)
  return { name, wire, options: OPTIONS, reply: merge(wire, OPTIONS), description: '', diagnostics: [] } // no suite diagnoses a variant
}

let warn: ReturnType<typeof vi.spyOn>
beforeAll(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterAll(() => warn.mockRestore())

describe('ag-ui: interleavings of two parent messages and a subagent\'s, written by EventEncoder, read by HttpAgent', () => {
  const events = agUiSubagentEvents() as unknown as Array<Record<string, unknown>>
  const lane = (e: Record<string, unknown>) => (e['subagentRunId'] !== undefined || e['type'] === 'SUBAGENT_STARTED' ? 'sub' : (e['messageId'] as string))
  const body = events.slice(1, -1)
  const queues = ['msg_plan', 'msg_pack', 'sub'].map((q) => body.filter((e) => lane(e) === q))

  it('the queues hold every event of the run but its start and end', () => {
    expect(queues.map((q) => q.length)).toEqual([5, 5, 11])
    expect(queues.flat().length).toBe(body.length)
  })

  it('30 interleavings, each cut by a seeded chunking: the client ends with Reply.messages', async () => {
    const encoder = new EventEncoder({ accept: 'text/event-stream' })
    await fc.assert(fc.asyncProperty(picksArb, fc.nat(), async (picks, seed) => {
      const run = [events[0]!, ...interleave(queues, picks), events[events.length - 1]!]
      const f = variant('ag-ui interleaving', run.map((e) => encoder.encode(e as unknown as BaseEvent)).join(''))
      const end = await runAgent(chunkBytes(f.wire, seededSizes(seed, 64, 50)))
      expect(end.threw).toBeNull()
      expectAgreement(f, end.messages, end.messages.map(agUiView), 'text')
      // in the order the messages started, whatever the interleaving; the result right after its call's message
      const started = ['msg_plan', 'msg_pack', 'msg_w'].sort((a, b) => firstNamed(run, a) - firstNamed(run, b))
      expect(end.messages.map((m) => m['id'])).toEqual(started.flatMap((id) => (id === 'msg_w' ? [id, 'tool_w'] : [id])))
    }), { numRuns: 30, seed: 27 })
  })
})

/** Where a message is first named in a run. */
function firstNamed(run: Array<Record<string, unknown>>, id: string): number {
  return run.findIndex((e) => e['messageId'] === id)
}

describe('ai-sdk: interleavings of a step\'s parts, written by createUIMessageStream, read by readUIMessageStream', () => {
  const head: UIMessageChunk[] = [{ type: 'start', messageId: 'msg_iv' }, { type: 'start-step' }]
  const queues: UIMessageChunk[][] = [
    [{ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'Think ' }, { type: 'reasoning-delta', id: 'r', delta: 'twice.' }, { type: 'reasoning-end', id: 'r' }],
    [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'Tides: ' }, { type: 'text-delta', id: 'a', delta: 'high 12:58.' }, { type: 'text-end', id: 'a' }],
    [{ type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'b', delta: 'Weather: ' }, { type: 'text-delta', id: 'b', delta: 'rain 🌧.' }, { type: 'text-end', id: 'b' }],
    [
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'tides' }, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"port":' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"Bergen"}' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'tides', input: { port: 'Bergen' } },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'timed out' },
    ],
  ]
  const tail: UIMessageChunk[] = [{ type: 'finish-step' }, { type: 'finish', finishReason: 'stop' }]

  async function written(chunks: UIMessageChunk[]): Promise<string> {
    const stream = createUIMessageStream({ execute: ({ writer }) => chunks.forEach((c) => writer.write(c)) })
    let out = ''
    const reader = stream.pipeThrough(new JsonToSseTransformStream()).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) out += r.value
    return out
  }

  it('30 interleavings, each cut by a seeded chunking: the client\'s UIMessage is Reply.messages, parts in start order', async () => {
    await fc.assert(fc.asyncProperty(picksArb, fc.nat(), async (picks, seed) => {
      const f = variant('ai-sdk interleaving', await written([...head, ...interleave(queues, picks), ...tail]))
      const end = await runUiClient(chunkBytes(f.wire, seededSizes(seed, 64, 50)))
      expectAgreement(f, [end.message], [uiMessageView(end.message!)], 'parsed')
      const texts = f.reply.messages[0]!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
      expect([...texts].sort()).toEqual(['Tides: high 12:58.', 'Weather: rain 🌧.'])
    }), { numRuns: 30, seed: 27 })
  })
})
