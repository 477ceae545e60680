// The fixtures written by the protocols' own encoders (test/support/encoded-fixtures.ts): their
// stored bytes are exactly what the encoder writes today, and their Reply.messages, written out
// here, is what the real client ends with (the per-protocol suites run the clients on them
// with every chunking; this file states the values).

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FIXTURES_DIR, loadFixtures } from '../support/fixtures.js'
import { agUiSubagentSse, aiSdkInterleavedSse } from '../support/encoded-fixtures.js'
import { replyView } from '../support/differential-messages.js'

const stored = (name: string) => readFileSync(`${FIXTURES_DIR}${name}`, 'utf8')
const fixture = (name: string) => loadFixtures({ tolerant: true }).find((f) => f.name === name)!

describe('fixtures written by the protocols\' own encoders', () => {
  it('ag-ui/encoder-subagent-interleaved.sse is @ag-ui/encoder EventEncoder\'s output, byte for byte', () => {
    expect(stored('ag-ui/encoder-subagent-interleaved.sse')).toBe(agUiSubagentSse())
  })

  it('ai-sdk/writer-interleaved-parts-failed-tool.sse is ai createUIMessageStream + JsonToSseTransformStream\'s output, byte for byte', async () => {
    expect(stored('ai-sdk/writer-interleaved-parts-failed-tool.sse')).toBe(await aiSdkInterleavedSse())
  })

  it('ag-ui/encoder-subagent-interleaved: three messages streaming at once kept apart; the result after its call\'s message', () => {
    const f = fixture('ag-ui/encoder-subagent-interleaved.sse')
    expect(f.reply.done).toBe(true)
    expect(f.reply.messages.map((m) => [m.id, m.role, m.name ?? null])).toEqual([
      ['msg_plan', 'assistant', null], ['msg_pack', 'assistant', null], ['msg_w', 'assistant', 'weather'], ['tool_w', 'tool', 'weather'],
    ])
    expect(replyView(f.reply.messages, 'text')).toEqual([
      { id: 'msg_plan', role: 'assistant', text: 'Plan: train to Bergen, then the ferry.', reasoning: '', calls: [], results: [] },
      { id: 'msg_pack', role: 'assistant', text: 'Pack: rain jacket, wool socks.', reasoning: '', calls: [], results: [] },
      { id: 'msg_w', role: 'assistant', text: 'Checking the forecast: rain 🌧, 9 °C.', reasoning: '', calls: [{ id: 'call_w', name: 'forecast', args: '{"city":"Bergen"}' }], results: [] },
      { id: 'tool_w', role: 'tool', text: '', reasoning: '', calls: [], results: [{ toolCallId: 'call_w', output: 'rain, 9 °C', isError: false }] },
    ])
    // the subagent's text keeps its place around the call it made
    expect(f.reply.messages[2]!.parts.map((p) => p.type)).toEqual(['text', 'tool-call', 'text'])
  })

  it('ai-sdk/writer-interleaved-parts-failed-tool: parts in the order they started, each with its own text', () => {
    const f = fixture('ai-sdk/writer-interleaved-parts-failed-tool.sse')
    expect(f.reply.done).toBe(true)
    expect(f.reply.messages).toEqual([{
      id: 'msg_ix', role: 'assistant', parts: [
        { type: 'reasoning', text: 'Two lookups; answer both.' },
        { type: 'text', text: 'Tides: high at 12:58.' },
        { type: 'text', text: 'Weather: rain, 9 °C 🌧.' },
        { type: 'tool-call', id: 'call_tide', name: 'tides', arguments: '{"port":"Bergen"}', parsedArguments: { port: 'Bergen' }, argumentsError: null },
        { type: 'tool-result', toolCallId: 'call_tide', output: { high: '12:58' }, isError: false },
        { type: 'tool-call', id: 'call_fc', name: 'forecast', arguments: '{"city":"Bergen","days":2}', parsedArguments: { city: 'Bergen', days: 2 }, argumentsError: null },
        { type: 'tool-result', toolCallId: 'call_fc', output: 'forecast service timed out', isError: true },
        { type: 'text', text: 'No two-day forecast.' },
      ],
    }])
  })
})
