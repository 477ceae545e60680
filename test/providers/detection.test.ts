// Detection never takes a stream of one listed protocol for another: every frame of every
// fixture is recognised by its own provider's adapter or by none, and the fixture merged with
// no hint (no URL, no Content-Type, no forced provider) names its own provider from its frames.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { loadFixtures } from '../support/fixtures.js'

const fixtures = loadFixtures({ tolerant: true })

/**
 * Formats some of whose frames are another format's byte for byte: Qwen Chat sends plain
 * OpenAI chunks (no `phase`) between its phased ones, and those are openai-chat's to claim;
 * its stream is still named by its own frames, checked below.
 */
const SHARED_FRAMES: Record<string, readonly string[]> = { qwen: ['openai-chat'] }

describe('detection across every provider\'s fixtures', () => {
  for (const f of fixtures) {
    const own = f.name.slice(0, f.name.indexOf('/'))
    it(`${f.name}: no frame is claimed by another provider, and the stream names ${own}`, () => {
      // a stream read with user rules (test/fixtures/rules) is claimed by no built-in adapter, and the rules are forced
      const m = createMerger({ transport: f.options.transport, ...(f.options.rules ? { rules: f.options.rules } : {}) })
      m.push(f.wire)
      m.end()
      for (const frame of m.frames()) {
        if (frame.kind !== 'data') continue
        const by = defaultRegistry.recognize({ seq: frame.seq, event: frame.event, json: frame.json })
        if (by !== null && !(SHARED_FRAMES[own] ?? []).includes(by.id)) expect(`frame ${frame.seq}: ${by.id}`).toBe(`frame ${frame.seq}: ${own}`)
      }
      expect(m.providerChoice()).toEqual({ id: own, reason: own === 'rules' ? 'forced' : 'frames' })
    })
  }
})

// The two framings that are neither SSE nor NDJSON: every adapter is asked, not only the first
// that answers, so a frame claimed by two adapters shows here whatever the registry order.
describe('the AI SDK v4 data stream and Bedrock ConverseStream are claimed by their own adapter alone', () => {
  const claimants = (event: string | null, json: unknown) =>
    defaultRegistry.ids.filter((id) => defaultRegistry.adapter(id).recognizes({ seq: 0, event, json }))
  const v4 = createMerger({})
  v4.push(new TextEncoder().encode('f:{"messageId":"m"}\n0:"Hi"\ng:"why"\nb:{"toolCallId":"c","toolName":"f"}\nc:{"toolCallId":"c","argsTextDelta":"{}"}\n9:{"toolCallId":"c","toolName":"f","args":{}}\na:{"toolCallId":"c","result":1}\ne:{"finishReason":"stop","usage":{},"isContinued":false}\nd:{"finishReason":"stop"}\n3:"oops"\n'))
  v4.end()

  it('every data-stream part: ai-sdk-v4 only', () => {
    expect(v4.frames().map((f) => [f.event, claimants(f.event, f.json)])).toEqual(v4.frames().map((f) => [f.event, ['ai-sdk-v4']]))
  })

  it('every ConverseStream event and exception: bedrock only', () => {
    const events: Array<[string, unknown]> = [
      ['messageStart', { role: 'assistant', p: 'a' }], ['contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't', name: 'f' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'a' } }], ['contentBlockStop', { contentBlockIndex: 0 }],
      ['messageStop', { stopReason: 'end_turn' }], ['metadata', { usage: { inputTokens: 1 }, metrics: { latencyMs: 1 } }],
      ['exception:throttlingException', { message: 'slow down' }],
    ]
    expect(events.map(([e, j]) => [e, claimants(e, j)])).toEqual(events.map(([e]) => [e, ['bedrock']]))
  })

  it('a v5 UI message part and an Anthropic event are not claimed by either', () => {
    expect([
      claimants(null, { type: 'text-delta', id: '0', delta: 'a' }),
      claimants('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a' } }),
    ]).toEqual([['ai-sdk'], ['anthropic']])
  })
})

// Every adapter is asked about every frame of the Chinese chat apps' fixtures, not
// only the first that answers, so a frame two adapters claim shows whatever the registry order
// (Qwen Chat's phase-less chunks are openai-chat's too, byte for byte: SHARED_FRAMES).
describe("the chat apps' frames are claimed by their own adapter alone", () => {
  const claimants = (event: string | null, json: unknown) =>
    defaultRegistry.ids.filter((id) => defaultRegistry.adapter(id).recognizes({ seq: 0, event, json }))
  for (const app of ['deepseek', 'kimi', 'qwen', 'doubao', 'chatglm', 'yuanbao']) {
    it(`${app}: each frame of its fixtures is claimed by ${app} or by nobody`, () => {
      for (const f of fixtures.filter((x) => x.name.startsWith(`${app}/`))) {
        const m = createMerger(f.options)
        m.push(f.wire)
        m.end()
        for (const frame of m.frames()) {
          if (frame.kind !== 'data') continue
          const by = claimants(frame.event, frame.json).filter((id) => !(SHARED_FRAMES[app] ?? []).includes(id))
          expect([f.name, frame.seq, by.filter((id) => id !== app)]).toEqual([f.name, frame.seq, []])
        }
      }
    })
  }
})
