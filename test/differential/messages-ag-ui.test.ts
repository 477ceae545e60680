// AG-UI streams against AG-UI's own client (@ag-ui/client 1.0): HttpAgent, given a custom fetch
// that answers with a fixture's exact bytes, parses the SSE body (parseSSEStream), expands
// chunk events (transformChunks), verifies them, and reduces them (defaultApplyEvents) into
// `agent.messages`. After runAgent that list must be Reply.messages, message by message, in
// the same order, on every chunking of the body.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fixturesFor, forbidGlobalFetch } from '../support/differential.js'
import { chunkings, expectAgreement } from '../support/differential-messages.js'
import { agUiView, runAgent } from '../support/message-clients.js'
import type { FixtureCase } from '../support/fixtures.js'

// the clients get the fixture's fetch; anything reaching for the global one fails
forbidGlobalFetch()

type Dict = Record<string, unknown>

// the client warns on every deprecated THINKING_* event and on fields it strips: the warnings are its, not a result
let warn: ReturnType<typeof vi.spyOn>
beforeAll(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterAll(() => warn.mockRestore())

/** The run's messages in the client's list: the input a MESSAGES_SNAPSHOT echoes (a user message) is not the run's. */
const runMessages = (messages: Dict[]) => messages.filter((m) => m['role'] !== 'user')

const fixtures = fixturesFor('ag-ui')
/** The one fixture the client cannot read: a frame cut mid-JSON, which aborts its run. */
const BROKEN = 'ag-ui/run-error-after-broken-frame.sse'

async function expectClientAgrees(f: FixtureCase, chunks: readonly Uint8Array[]): Promise<void> {
  const end = await runAgent(chunks)
  expect(end.threw).toBeNull()
  expectAgreement(f, end.messages, runMessages(end.messages).map(agUiView), 'text')
}

describe('ag-ui fixtures vs @ag-ui/client 1.0 HttpAgent, message by message', () => {
  it('there are the message fixtures this suite is about', () => {
    expect(fixtures.map((f) => f.name)).toEqual(expect.arrayContaining([
      'ag-ui/subagent-and-two-open-messages.sse', 'ag-ui/encoder-subagent-interleaved.sse', 'ag-ui/text-tool-call-state-run-finished.sse',
      'ag-ui/reasoning-and-chunk-events.sse', BROKEN,
    ]))
  })

  for (const f of fixtures.filter((x) => x.name !== BROKEN)) {
    for (const c of chunkings(f.wire)) {
      it(`${f.name} (${c.name}): the client's agent.messages are Reply.messages`, async () => {
        await expectClientAgrees(f, c.chunks)
      })
    }
  }

  it(`${BROKEN}: the client is not the oracle here — an unparsable frame throws out of runAgent and its messages stay empty; we keep what arrived`, async () => {
    const f = fixtures.find((x) => x.name === BROKEN)!
    const end = await runAgent([f.wire])
    expect(end.threw).toBe('Unterminated string in JSON at position 68')
    expect(end.messages).toEqual([])
    expect(f.reply.messages.map((m) => m.id)).toEqual([null, 'msg_001'])
  })

  it('the subagent fixture, written out: the tool result right after its call\'s message (as the client files it), three texts kept apart', async () => {
    const f = fixtures.find((x) => x.name === 'ag-ui/subagent-and-two-open-messages.sse')!
    const end = await runAgent([f.wire])
    expect(end.messages.map(agUiView)).toEqual([
      { id: 'msg_lead', role: 'assistant', text: "I'll ask the researcher while I draft. Done.", reasoning: '', calls: [], results: [] },
      { id: 'msg_r1', role: 'assistant', text: 'Searching the archive: 3 records.', reasoning: '', calls: [{ id: 'call_s1', name: 'search', args: '{"q":"1953 flood"}' }], results: [] },
      { id: 'msg_tool_s1', role: 'tool', text: '', reasoning: '', calls: [], results: [{ toolCallId: 'call_s1', output: '3 records', isError: false }] },
      { id: 'msg_lead2', role: 'assistant', text: 'Draft: the flood of 1953…', reasoning: '', calls: [], results: [] },
    ])
    // the client keeps the lane as subagentRunId; we name the subagent's messages after SUBAGENT_STARTED's name
    expect(end.messages.map((m) => m['subagentRunId'] ?? null)).toEqual([null, 'sub_r1', 'sub_r1', null])
    expect(f.reply.messages.map((m) => m.name ?? null)).toEqual([null, 'researcher', 'researcher', null])
  })
})
