// LangGraph messages-tuple streams against the LangGraph SDK's own client
// (@langchain/langgraph-sdk 1.15): `Client.runs.stream`, given a custom fetch (callerOptions)
// that answers with a fixture's exact bytes, parses the SSE body, and the StreamManager that
// useStream runs (React-free) merges the chunks per message id with its MessageTupleManager
// (LangChain's AIMessageChunk.concat) into `values.messages`. That list must be
// Reply.messages, message by message, on every chunking, and on any interleaving of the
// messages' chunks (a fan-out's branches stream at once).
//
// No LangGraph server is installed: the bytes are the recorded fixtures and their reorderings.

import { Client, MessageAssembler } from '@langchain/langgraph-sdk'
import { MessageTupleManager, StreamManager } from '@langchain/langgraph-sdk/ui'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { merge } from '../../src/index.js'
import { chunkBytes, enc, fixturesFor, forbidGlobalFetch, interleave, ORACLE_BASE } from '../support/differential.js'
import { bodyFetch, chunkings, expectAgreement, replyView, seededSizes, type MessageView } from '../support/differential-messages.js'
import type { FixtureCase } from '../support/fixtures.js'

// the clients get the fixture's fetch; anything reaching for the global one fails
forbidGlobalFetch()

const URL_ = `${ORACLE_BASE}/runs/stream`

type Dict = Record<string, unknown>

/** The SDK's client on the body: what `useStream` shows as `values.messages` once the run has ended. */
async function runClient(chunks: readonly Uint8Array[]): Promise<{ messages: Dict[]; error: unknown }> {
  const urls: string[] = []
  const client = new Client({ apiUrl: ORACLE_BASE, callerOptions: { fetch: bodyFetch(chunks, URL_, urls) as typeof fetch, maxRetries: 0 } })
  const manager = new StreamManager(new MessageTupleManager(), { throttle: false })
  // the SDK types the generator by stream mode; StreamManager takes any stream event
  const action = async (signal: AbortSignal) => client.runs.stream(null, 'agent', { input: {}, streamMode: 'messages-tuple', signal }) as never
  await manager.start(action, {
    getMessages: (v: Dict) => (v['messages'] as Dict[] | undefined) ?? [],
    setMessages: (v: Dict, messages: Dict[]) => ({ ...v, messages }),
    initialValues: {},
    callbacks: {},
  } as never)
  expect(urls).toEqual([URL_])
  const values = manager.values as Dict | null
  return { messages: (values?.['messages'] as Dict[] | undefined) ?? [], error: manager.error }
}

const ROLES: Record<string, string> = { ai: 'assistant', tool: 'tool', human: 'user' }

/** A LangChain message dict as the plain view: content, tool_calls with parsed args, a tool's result. */
function langchainView(m: Dict): MessageView {
  const type = m['type'] as string
  const view: MessageView = { id: m['id'] as string, role: ROLES[type] ?? type, text: '', reasoning: '', calls: [], results: [] }
  if (type === 'tool') {
    view.results.push({ toolCallId: m['tool_call_id'] as string, output: m['content'], isError: m['status'] === 'error' })
    return view
  }
  view.text = m['content'] as string
  for (const c of (m['tool_calls'] as Dict[] | undefined) ?? []) view.calls.push({ id: c['id'] as string, name: c['name'] as string, args: c['args'] })
  return view
}

const fixtures = fixturesFor('langgraph')
const tuples = fixtures.filter((f) => f.name.startsWith('langgraph/messages-tuple-'))
const others = fixtures.filter((f) => !tuples.includes(f))

async function expectClientAgrees(f: FixtureCase, chunks: readonly Uint8Array[]): Promise<void> {
  const end = await runClient(chunks)
  expect(end.error).toBeUndefined()
  expectAgreement(f, end.messages, end.messages.map(langchainView), 'parsed')
}

describe('langgraph messages-tuple fixtures vs @langchain/langgraph-sdk Client + StreamManager, message by message', () => {
  it('there are the message fixtures this suite is about', () => {
    expect(tuples.map((f) => f.name)).toEqual([
      'langgraph/messages-tuple-parallel-branches.sse', 'langgraph/messages-tuple-text-then-finish.sse', 'langgraph/messages-tuple-tool-steps-failed-tool.sse',
    ])
  })

  for (const f of tuples) {
    for (const c of chunkings(f.wire)) {
      it(`${f.name} (${c.name}): the client's values.messages are Reply.messages`, async () => {
        await expectClientAgrees(f, c.chunks)
      })
    }
  }

  it('the parallel branches, written out: two messages, each with its own text', async () => {
    const f = tuples.find((x) => x.name === 'langgraph/messages-tuple-parallel-branches.sse')!
    const { messages } = await runClient([f.wire])
    expect(messages.map(langchainView)).toEqual([
      { id: 'run-m9a', role: 'assistant', text: 'Low water at 06:42. ', reasoning: '', calls: [], results: [] },
      { id: 'run-m9b', role: 'assistant', text: 'Sunny, 4 °C. ', reasoning: '', calls: [], results: [] },
    ])
  })

  it('the failed tool, written out: the tool message keeps its error status, the answer follows', async () => {
    const f = tuples.find((x) => x.name === 'langgraph/messages-tuple-tool-steps-failed-tool.sse')!
    expect(replyView(f.reply.messages, 'parsed')).toEqual([
      { id: 'run-a1', role: 'assistant', text: 'Let me check both.', reasoning: '', results: [], calls: [
        { id: 'call_t1', name: 'tides', args: { port: 'Bergen' } }, { id: 'call_f1', name: 'forecast', args: { city: 'Bergen' } },
      ] },
      { id: 'tool-t1', role: 'tool', text: '', reasoning: '', calls: [], results: [{ toolCallId: 'call_t1', output: 'High water 12:58, low water 19:10.', isError: false }] },
      { id: 'tool-f1', role: 'tool', text: '', reasoning: '', calls: [], results: [{ toolCallId: 'call_f1', output: 'Error: forecast service timed out\n Please fix your mistakes.', isError: true }] },
      { id: 'run-a2', role: 'assistant', text: 'High water is at 12:58; the forecast is not available.', reasoning: '', calls: [], results: [] },
    ])
  })
})

/** A fixture's SSE events (blank-line separated), the ones of each message id kept as a queue in their order. */
function eventQueues(f: FixtureCase): { head: string[]; queues: string[][] } {
  const events = new TextDecoder().decode(f.wire).split('\n\n').filter((e) => e.trim() !== '')
  const head: string[] = []
  const byId = new Map<string, string[]>()
  for (const e of events) {
    const data = e.startsWith('event: messages\n') ? (JSON.parse(e.slice(e.indexOf('data:') + 5)) as [Dict, Dict]) : null
    const key = data?.[0]['id'] as string | undefined
    if (key === undefined) head.push(e)
    else byId.set(key, [...(byId.get(key) ?? []), e])
  }
  return { head, queues: [...byId.values()] }
}

describe('langgraph: any interleaving of the messages\' chunks, the client and Reply.messages agree', () => {
  for (const name of ['langgraph/messages-tuple-parallel-branches.sse', 'langgraph/messages-tuple-tool-steps-failed-tool.sse']) {
    it(`${name}: 25 interleavings, each cut by a seeded chunking`, async () => {
      const f = tuples.find((x) => x.name === name)!
      const { head, queues } = eventQueues(f)
      expect(queues.length).toBe(f.reply.messages.length)
      await fc.assert(fc.asyncProperty(fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 12 }), fc.nat(), async (picks, seed) => {
        const wire = enc.encode(`${[...head, ...interleave(queues, picks)].join('\n\n')}\n\n`)
        const variant: FixtureCase = { ...f, wire, reply: merge(wire, f.options) }
        // the messages do not depend on the interleaving: each keeps its text and calls, in first-chunk order
        expect(variant.reply.messages.map((m) => m.id).sort()).toEqual(f.reply.messages.map((m) => m.id).sort())
        await expectClientAgrees(variant, chunkBytes(wire, seededSizes(seed, 64, 60)))
      }), { numRuns: 25, seed: 27 })
    })
  }
})

describe('langgraph fixtures of other stream modes: the runs.stream client is not their oracle', () => {
  // events-*: LangGraph's event protocol (each frame {"type":"event","method":…}), read by the
  // SDK's newer stream controller, not by runs.stream + StreamManager, which takes a `messages`
  // frame for a [chunk, metadata] tuple and throws on it; partial-*: the legacy
  // messages/partial snapshots, which StreamManager does not read at all
  for (const f of others) {
    const events = f.name.startsWith('langgraph/events-')
    it(`${f.name}: StreamManager ${events ? 'throws on the first event-protocol frame' : 'ignores messages/partial'} and ends with no messages`, async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
      try {
        const end = await runClient([f.wire])
        expect(end.messages).toEqual([])
        expect(end.error === undefined ? null : String(end.error)).toBe(events ? 'TypeError: data is not iterable' : null)
      } finally {
        errors.mockRestore()
      }
      expect(f.reply.messages.length).toBeGreaterThan(0)
    })
  }
})

/** The event protocol's `messages` frames fed to the SDK's MessageAssembler: the messages it finished, in order. */
function assembled(f: FixtureCase): Array<{ id: string; blocks: Dict[] }> {
  const assembler = new MessageAssembler()
  const done: Array<{ id: string; blocks: Dict[] }> = []
  for (const block of new TextDecoder().decode(f.wire).split('\n\n')) {
    const line = block.split('\n').find((l) => l.startsWith('data:'))
    const frame = line === undefined ? null : (JSON.parse(line.slice(5)) as Dict)
    if (frame?.['method'] !== 'messages') continue
    const update = assembler.consume(frame as never)
    if (update?.kind === 'message-finish') done.push({ id: update.message.id, blocks: update.message.blocks as unknown as Dict[] })
  }
  return done
}

describe('langgraph event protocol: the SDK\'s MessageAssembler and Reply.messages, message by message', () => {
  it('events-react-agent-tool-call-then-answer: three messages with the assembler\'s ids, in its order: the call, the tool\'s result, the answer', () => {
    const f = others.find((x) => x.name === 'langgraph/events-react-agent-tool-call-then-answer.sse')!
    const messages = assembled(f)
    expect(messages.map((m) => [m.id, m.blocks.map((b) => b['type'])])).toEqual([
      ['msg_01U6vGrPqjfRQ8DbeuebcCxY', ['input_json_delta']],
      ['run-019de07f-e2ba-761f-8ead-103bab194544-tool-toolu_01RYpmgSmXeKZcyJWFNzNEt4', ['text']],
      ['msg_01M6YsZj7Wn3ivDWCFZFrmt7', ['text']],
    ])
    expect(f.reply.messages.map((m) => [m.id, m.role, m.parts.map((p) => p.type)])).toEqual([
      [messages[0]!.id, 'assistant', ['tool-call']],
      [messages[1]!.id, 'tool', ['tool-result']],
      [messages[2]!.id, 'assistant', ['text']],
    ])
    expect(f.reply.messages[0]!.parts[0]).toMatchObject({ type: 'tool-call', id: 'toolu_01RYpmgSmXeKZcyJWFNzNEt4', arguments: messages[0]!.blocks[0]!['args'] })
    expect(f.reply.messages[1]!.parts[0]).toEqual({ type: 'tool-result', toolCallId: 'toolu_01RYpmgSmXeKZcyJWFNzNEt4', output: messages[1]!.blocks[0]!['text'], isError: false })
    expect(f.reply.messages[2]!.parts[0]).toEqual({ type: 'text', text: messages[2]!.blocks[0]!['text'] })
  })

  it('events-reasoning-trimmed: one message, the assembler\'s id; its two reasoning blocks (an index reused) are one reasoning part', () => {
    const f = others.find((x) => x.name === 'langgraph/events-reasoning-trimmed.sse')!
    const messages = assembled(f)
    expect(messages.map((m) => [m.id, m.blocks.map((b) => b['type'])])).toEqual([['run-019e15fb-934e-7029-94f8-87176a5ffc6a', ['reasoning', 'reasoning', 'text']]])
    const blocks = messages[0]!.blocks
    expect(f.reply.messages.map((m) => [m.id, m.role, m.parts.map((p) => p.type)])).toEqual([[messages[0]!.id, 'assistant', ['reasoning', 'text']]])
    expect(f.reply.messages[0]!.parts[1]).toEqual({ type: 'text', text: blocks[2]!['text'] })
    // the recording's reasoning deltas were trimmed: the assembler keeps each block's finished
    // text, Deltascope what streamed (each block's start, in order), the finish compared apart
    const [first, second] = ['**Estimating multiplication mentally**\n\nThe user', '**Estimating multiplication methods**\n\nTo']
    expect(f.reply.messages[0]!.parts[0]).toEqual({ type: 'reasoning', text: first + second })
    expect([(blocks[0]!['reasoning'] as string).startsWith(first), (blocks[1]!['reasoning'] as string).startsWith(second)]).toEqual([true, true])
  })
})
