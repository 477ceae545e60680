// The real SDKs read replayResponse(fixture) through their custom `fetch` option (the way
// test/support/differential.ts drives them, nothing reaching the network), and compareReply
// holds their final objects against the reference: equal on clean fixtures; on the streams
// where an SDK is known to rebuild the reply wrongly (docs/wire-formats.md#the-sdks-as-oracles), the named cause.
// Reads are cut every 7 bytes, so frames and UTF-8 characters arrive split.

import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { Fixture } from '../../src/exchange/fixture.js'
import { compareReply, replayResponse, type Comparison } from '../../src/testing.js'
import { cutEvery, fixtureOf, wire } from '../debug/compare-support.js'
import { forbidGlobalFetch, ORACLE_BASE } from '../support/differential.js'

forbidGlobalFetch()

/** A fetch answering only the unreachable base URL, with the fixture replayed. */
function replayFetch(fixture: Fixture): (input: unknown) => Promise<Response> {
  return async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url
    if (!url.startsWith(`${ORACLE_BASE}/`)) throw new Error(`unexpected URL ${url}`)
    return replayResponse(fixture)
  }
}

function fixture(name: string): Fixture {
  return fixtureOf(name, cutEvery(wire(name), 7))
}

async function openaiChat(name: string): Promise<Comparison> {
  const f = fixture(name)
  const client = new OpenAI({ apiKey: 'unused', baseURL: `${ORACLE_BASE}/v1`, maxRetries: 0, fetch: replayFetch(f) })
  return compareReply(f, await client.chat.completions.stream({ model: 'x', messages: [] }).finalChatCompletion())
}

async function openaiResponses(name: string): Promise<Comparison> {
  const f = fixture(name)
  const client = new OpenAI({ apiKey: 'unused', baseURL: `${ORACLE_BASE}/v1`, maxRetries: 0, fetch: replayFetch(f) })
  return compareReply(f, await client.responses.stream({ model: 'x', input: 'hi' }).finalResponse())
}

async function anthropic(name: string): Promise<Comparison> {
  const f = fixture(name)
  const client = new Anthropic({ apiKey: 'unused', baseURL: ORACLE_BASE, maxRetries: 0, fetch: replayFetch(f) })
  return compareReply(f, await client.messages.stream({ model: 'x', max_tokens: 1, messages: [] }).finalMessage())
}

/** The cause view of a comparison: field, cause, frame, message. */
function causes(c: Comparison): string[][] {
  return c.differences.map((d) => [d.field, d.cause, String(d.frame), d.message])
}

describe('openai-node finalChatCompletion()', () => {
  // openai-node keeps no reasoning key unless the wire sent one, and a usage key only with a usage chunk
  const clean: Record<string, string[]> = {
    'azure-empty-first-chunk': ['choices[0].reasoning', 'usage'],
    'crlf-line-endings': ['choices[0].reasoning', 'usage'],
    'duplicate-finish-and-usage': ['choices[0].reasoning'],
    'eof-field-only-block': ['choices[0].reasoning', 'usage'],
    'legacy-function-call': ['choices[0].reasoning', 'usage'],
    'multi-line-data': ['choices[0].reasoning', 'usage'],
    'n2-interleaved-choices': ['choices[0].reasoning', 'choices[1].reasoning', 'usage'],
    'tool-args-parsable-early-then-more': ['choices[0].reasoning', 'usage'],
    'tool-args-truncated-finish-length': ['choices[0].reasoning', 'usage'],
    'tool-call-include-usage': ['choices[0].reasoning'],
    'tool-calls-interleaved-parallel': ['choices[0].reasoning'],
    'tool-empty-name-first': ['choices[0].reasoning', 'usage'],
    'tool-name-after-first-argument': ['choices[0].reasoning', 'usage'],
    'tool-name-repeated-every-fragment': ['choices[0].reasoning', 'usage'],
  }
  for (const [name, notCompared] of Object.entries(clean)) {
    it(`is equal on ${name}`, async () => {
      expect(await openaiChat(`openai-chat/${name}.sse`)).toEqual({ equal: true, differences: [], notCompared })
    })
  }

  it('keeps only the last reasoning_content piece (Object.assign of each delta): overwritten, named at frame 1 where the lost text starts', async () => {
    const result = await openaiChat('openai-chat/demo-reasoning-parallel-tools.sse')
    expect(result.differences).toEqual([{
      field: 'choices[0].reasoning',
      expected: 'The user asks about Paris weather; I should call the tool for both cities in parallel.',
      got: 'for both cities in parallel.', offset: 0, frame: 1, cause: 'overwritten',
      message: 'The client kept only the text of frame 3 (the last of 3 frames writing the reasoning): it replaced the reasoning with each delta instead of appending.',
    }])
  })

  it('vLLM\'s `reasoning` field: the same overwrite', async () => {
    expect(causes(await openaiChat('openai-chat/vllm-reasoning-field.sse'))).toEqual([[
      'choices[0].reasoning', 'overwritten', '1', 'The client kept only the text of frame 3 (the last of 3 frames writing the reasoning): it replaced the reasoning with each delta instead of appending.',
    ]])
  })

  it('DeepSeek sends reasoning_content: null once the answer starts: the overwrite leaves it empty, and frame 4 is named', async () => {
    expect(causes(await openaiChat('openai-chat/deepseek-reasoning-content.sse'))).toEqual([[
      'choices[0].reasoning', 'overwritten', '1', 'The client\'s reasoning is empty: it replaced the reasoning with each delta instead of appending, and frame 4 sent "reasoning_content" as null.',
    ]])
  })

  it('OpenRouter\'s `reasoning`, null in frame 2: overwritten too', async () => {
    expect(causes(await openaiChat('openai-chat/openrouter-reasoning-details.sse'))).toEqual([[
      'choices[0].reasoning', 'overwritten', '0', 'The client\'s reasoning is empty: it replaced the reasoning with each delta instead of appending, and frame 2 sent "reasoning" as null.',
    ]])
  })

  it('merges two calls that reuse index 0 with different ids (Ollama\'s OpenAI endpoint)', async () => {
    expect(causes(await openaiChat('openai-chat/ollama-compat-index-zero-reused.sse'))).toEqual([[
      'choices[0].toolCalls', 'tool-calls-merged', '1',
      'The client merged tool calls 0 and 1 into one: both came at index 0, with different ids ("call_a", "call_b"), and a new id at a reused index starts a new call.',
    ]])
  })

  it('stringifies Mistral\'s array content: other, at the frame of the first text', async () => {
    const result = await openaiChat('openai-chat/mistral-array-content.sse')
    expect(result.differences.map((d) => [d.field, d.cause, d.offset, d.frame])).toEqual([['choices[0].content', 'other', 0, 3]])
    expect(result.differences[0]!.got).toMatch(/^\[object Object\]/)
  })
})

describe('openai-node responses finalResponse()', () => {
  for (const name of ['incomplete-max-output-tokens', 'keepalive-events', 'reasoning-summary-text-function-call', 'reasoning-text-custom-tool-call', 'refusal']) {
    it(`is equal on ${name}, every field compared`, async () => {
      expect(await openaiResponses(`openai-responses/${name}.sse`)).toEqual({ equal: true, differences: [], notCompared: [] })
    })
  }

  it('takes response.completed\'s text over the deltas (the reference keeps the deltas): other, at the first delta\'s frame', async () => {
    expect((await openaiResponses('openai-responses/completed-differs-from-deltas.sse')).differences.map((d) => [d.field, d.expected, d.got, d.cause])).toEqual([
      ['choices[0].content', 'Hello', 'DIFFERENT', 'other'],
    ])
  })

  it('lets output_item.done\'s empty name replace the call\'s name: named at frame 2, which gave it', async () => {
    expect(causes(await openaiResponses('openai-responses/function-call-done-empty-name.sse'))).toEqual([[
      'choices[0].toolCalls[0].name', 'other', '2', 'The client\'s name of tool call 0 is ""; the reference\'s is "test_tool" (given by frame 2).',
    ]])
  })
})

describe('@anthropic-ai/sdk finalMessage()', () => {
  for (const name of ['no-arg-tool', 'parallel-tool-use', 'pings-server-tool-web-search', 'thinking-text-tool-use', 'usage-merged']) {
    it(`is equal on ${name} (an Anthropic Message carries no refusal)`, async () => {
      expect(await anthropic(`anthropic/${name}.sse`)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
    })
  }

  it('repairs truncated tool input into an object: tool-arguments-differ, at the first arguments frame', async () => {
    const result = await anthropic('anthropic/truncated-tool-input-max-tokens.sse')
    expect(result.differences.map((d) => [d.field, d.got, d.offset, d.frame, d.cause])).toEqual([
      ['choices[0].toolCalls[0].arguments', { path: 'notes.md' }, null, 2, 'tool-arguments-differ'],
    ])
    expect(result.differences[0]!.message).toMatch(/^The client holds \{"path":"notes.md"\} as the arguments of tool call 0, but the reference's arguments are not valid JSON \(.+\): the client repaired or guessed them\.$/)
  })
})
