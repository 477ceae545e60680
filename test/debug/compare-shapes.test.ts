// compareReply reads every accepted client result: each shape built as its SDK or server
// returns it for a repository fixture is equal to the reference, and a field it does not carry
// is listed in notCompared instead of compared. The reference may be a fixture (object or
// JSON text), a Reply or a body.

import { describe, expect, it } from 'vitest'
import { fixtureToJson } from '../../src/exchange/fixture.js'
import { merge } from '../../src/library.js'
import { compareReply } from '../../src/index.js'
import { CLIENT_SHAPES, detectClientShape } from '../../src/debug/client-shapes.js'
import { buggyChatClient, cutEvery, fixtureOf, wire } from './compare-support.js'

const DEEPSEEK = 'openai-chat/deepseek-reasoning-content.sse'

describe('plain text', () => {
  it('is choice 0\'s content; every other field is not compared', () => {
    expect(compareReply(fixtureOf(DEEPSEEK), 'Answer: 42')).toEqual({
      equal: true, differences: [],
      notCompared: ['choices[0].reasoning', 'choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'usage'],
    })
  })

  it('against a two-choice reference: the other choice is listed as not compared', () => {
    const name = 'openai-chat/n2-interleaved-choices.sse'
    expect(compareReply(fixtureOf(name), 'Red apple pie').notCompared).toEqual([
      'choices[0].reasoning', 'choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'choices[1]', 'usage',
    ])
  })
})

describe('a Deltascope Reply', () => {
  it('equal to merge() of the same body, every field compared', () => {
    const name = 'openai-chat/demo-reasoning-parallel-tools.sse'
    expect(compareReply(fixtureOf(name), merge(wire(name)))).toEqual({ equal: true, differences: [], notCompared: [] })
  })

  it('a missing choice and an extra one are differences of their own', () => {
    const name = 'openai-chat/n2-interleaved-choices.sse'
    const reply = merge(wire(name))
    const shifted = { ...reply, choices: [reply.choices[0]!, { ...reply.choices[1]!, index: 2 }] }
    expect(compareReply(fixtureOf(name), shifted).differences.map((d) => [d.field, d.cause, d.message])).toEqual([
      ['choices[1]', 'other', 'The client\'s result has no choice 1.'],
      ['choices[2]', 'other', 'The client\'s result has a choice 2 the reference does not have.'],
    ])
  })
})

describe('OpenAI chat completions', () => {
  it('a completion (finalChatCompletion\'s shape) with reasoning_content, tool calls, finish and usage', () => {
    const name = 'openai-chat/demo-reasoning-parallel-tools.sse'
    const reads = cutEvery(wire(name), 11)
    expect(compareReply(fixtureOf(name, reads), buggyChatClient(reads))).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
  })

  it('a bare message: null is the empty text; no finish reason or usage to compare; no reasoning key, no reasoning compared', () => {
    const name = 'openai-chat/tool-args-parsable-early-then-more.sse'
    const reply = merge(wire(name))
    const call = reply.choices[0]!.toolCalls[0]!
    const message = {
      role: 'assistant', content: null, refusal: null,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    }
    expect(reply.choices[0]!.content).toBe('')
    expect(compareReply(fixtureOf(name), message)).toEqual({
      equal: true, differences: [], notCompared: ['choices[0].reasoning', 'choices[0].finishReason', 'usage'],
    })
  })

  it('a legacy function_call is tool call 0', () => {
    const name = 'openai-chat/legacy-function-call.sse'
    const call = merge(wire(name)).choices[0]!.toolCalls[0]!
    const message = { role: 'assistant', content: null, function_call: { name: call.name, arguments: call.arguments } }
    expect(compareReply(fixtureOf(name), message).differences).toEqual([])
  })

  it('vLLM\'s `reasoning` key is read when there is no reasoning_content', () => {
    const name = 'openai-chat/vllm-reasoning-field.sse'
    const choice = merge(wire(name)).choices[0]!
    const message = { role: 'assistant', content: choice.content, reasoning: choice.reasoning }
    expect(compareReply(fixtureOf(name), message).differences).toEqual([])
  })
})

describe('an OpenAI Responses response', () => {
  it('message parts, reasoning summary parts (a paragraph each), a function call, status and usage', () => {
    const name = 'openai-responses/reasoning-summary-text-function-call.sse'
    const response = {
      id: 'resp_1', object: 'response', status: 'completed', incomplete_details: null,
      output: [
        {
          type: 'reasoning', id: 'rs_1',
          summary: [{ type: 'summary_text', text: '**Checking the weather**\n\nThe user wants Paris weather; I\'ll call the tool.' }, { type: 'summary_text', text: '**Answering briefly**\n\nOne sentence first, then the call.' }],
        },
        { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Checking the weather in Paris.', annotations: [] }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_Yx2cP8wLm4Rk9TqE1vNs', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      ],
      usage: { input_tokens: 62, output_tokens: 148, total_tokens: 210 },
    }
    expect(detectClientShape(response)).toBe('openai-response')
    expect(compareReply(fixtureOf(name), response)).toEqual({ equal: true, differences: [], notCompared: [] })
  })
})

describe('an Anthropic Message', () => {
  it('thinking, text and tool_use blocks (input as an object), stop_reason and usage; no refusal to compare', () => {
    const name = 'anthropic/thinking-text-tool-use.sse'
    const message = {
      id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'User wants weather; call the tool.', signature: 'EqQB' },
        { type: 'text', text: 'Let me check the weather.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { unit: 'fahrenheit', location: 'San Francisco, CA' } },
      ],
      stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 472, output_tokens: 89, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: null },
    }
    expect(compareReply(fixtureOf(name), message)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
  })

  it('usage is compared on the client\'s keys: a summed output_tokens is a difference naming frame 6', () => {
    const name = 'anthropic/usage-merged.sse'
    const reply = merge(wire(name))
    const message = { type: 'message', role: 'assistant', content: [{ type: 'text', text: reply.choices[0]!.content }], stop_reason: reply.choices[0]!.finishReason, usage: { output_tokens: 91 } }
    const result = compareReply(fixtureOf(name), message)
    expect(result.differences.map((d) => [d.field, d.expected, d.got, d.cause])).toEqual([['usage.output_tokens', reply.usage!['output_tokens'], 91, 'other']])
  })
})

describe('a Gemini GenerateContentResponse', () => {
  it('thought parts are reasoning, text parts content; finishReason and usageMetadata', () => {
    const name = 'gemini/thought-parts.sse'
    const response = {
      candidates: [{
        index: 0, finishReason: 'STOP',
        content: {
          role: 'model',
          parts: [
            { text: '**Analyzing the question**\n\nThe user asks whether 91 is prime.', thought: true },
            { text: '**Checking divisors**\n\n91 = 7 × 13.', thought: true },
            { text: 'No, 91 is not prime: ' },
            { text: '91 = 7 × 13.' },
          ],
        },
      }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 14, totalTokenCount: 109, thoughtsTokenCount: 83 },
    }
    expect(compareReply(fixtureOf(name), response)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
  })

  it('functionCall parts compare by their args as values; a reference call without id leaves the client\'s id alone', () => {
    const name = 'gemini/parallel-identical-calls.sse'
    const call = (args: object) => ({ functionCall: { id: 'made-up', name: 'get_weather', args } })
    const response = {
      candidates: [{
        index: 0, finishReason: 'STOP',
        content: { role: 'model', parts: [{ text: '**Planning** need weather', thought: true }, call({ city: 'Paris' }), call({ city: 'Paris' }), call({ unit: 'celsius', city: 'Lyon' })] },
      }],
    }
    expect(compareReply(fixtureOf(name), response)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal', 'usage'] })
  })
})

describe('Ollama\'s final /api/chat object', () => {
  it('message content, thinking and tool calls (arguments objects), done_reason, and the counters as usage', () => {
    const name = 'ollama/demo-thinking-tool-calls.ndjson'
    const final = {
      model: 'qwen3:8b', created_at: '2025-05-27T22:54:57.148Z', done: true, done_reason: 'stop',
      message: {
        role: 'assistant', content: 'Checking both cities…', thinking: 'The user wants the weather in Toronto and Paris.',
        tool_calls: [
          { function: { name: 'get_current_weather', arguments: { format: 'celsius', location: 'Toronto' } } },
          { function: { name: 'get_current_weather', arguments: { format: 'celsius', location: 'Paris' } } },
        ],
      },
      total_duration: 4883583458, load_duration: 1334875, prompt_eval_count: 26, prompt_eval_duration: 342546000, eval_count: 282, eval_duration: 4535599000,
    }
    expect(compareReply(fixtureOf(name), final)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
  })

  it('a message without `thinking` does not compare the reasoning', () => {
    const name = 'ollama/chat-thinking.ndjson'
    const choice = merge(wire(name)).choices[0]!
    const final = { model: 'm', done: true, done_reason: choice.finishReason, message: { role: 'assistant', content: choice.content } }
    expect(compareReply(fixtureOf(name), final)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].reasoning', 'choices[0].refusal', 'usage'] })
  })
})

describe('an AI SDK UIMessage', () => {
  it('text, reasoning and tool-<name> parts (input as a value); no finish reason, usage or refusal to compare', () => {
    const name = 'ai-sdk/reasoning-text-tool-call.sse'
    const message = {
      id: 'msg_wK3p9aZ1', role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'reasoning', text: 'Need weather.', state: 'done' },
        { type: 'text', text: 'Let me check.', state: 'done' },
        { type: 'tool-getWeather', toolCallId: 'call_Wx1', state: 'input-available', input: { city: 'SF' } },
      ],
    }
    expect(compareReply(fixtureOf(name), message)).toEqual({
      equal: true, differences: [], notCompared: ['choices[0].refusal', 'choices[0].finishReason', 'usage'],
    })
  })

  it('a dynamic-tool part names its tool in toolName', () => {
    const name = 'ai-sdk/reasoning-text-tool-call.sse'
    const message = { role: 'assistant', parts: [{ type: 'reasoning', text: 'Need weather.' }, { type: 'text', text: 'Let me check.' }, { type: 'dynamic-tool', toolName: 'getWeather', toolCallId: 'call_Wx1', input: { city: 'NY' } }] }
    expect(compareReply(fixtureOf(name), message).differences.map((d) => [d.field, d.got, d.cause, d.message])).toEqual([[
      'choices[0].toolCalls[0].arguments', { city: 'NY' }, 'tool-arguments-differ',
      'The client holds {"city":"NY"} as the arguments of tool call 0; the reference\'s parse to {"city":"SF"}.',
    ]])
  })
})

describe('results compareReply cannot read, and references of every kind', () => {
  const accepted = Object.values(CLIENT_SHAPES)

  it('an unrecognised shape is one difference of cause other naming the accepted shapes', () => {
    const result = compareReply(fixtureOf(DEEPSEEK), { answer: 42 })
    expect(result.equal).toBe(false)
    expect(result.notCompared).toEqual([])
    expect(result.differences.map((d) => [d.field, d.got, d.offset, d.frame, d.cause])).toEqual([['', { answer: 42 }, null, null, 'other']])
    expect(result.differences[0]!.message).toBe(
      `The client's result could not be read (it is none of the shapes compareReply reads): compareReply accepts ${accepted.slice(0, -1).join(', ')} or ${accepted.at(-1)}.`,
    )
  })

  it('null, a number and an object whose getter throws are values too, never a throw', () => {
    const hostile = { role: 'assistant', get content(): string { throw new Error('boom') } }
    for (const value of [null, undefined, 7, [], hostile]) {
      const result = compareReply(fixtureOf(DEEPSEEK), value)
      expect(result.differences.map((d) => d.cause)).toEqual(['other'])
    }
    expect(compareReply(fixtureOf(DEEPSEEK), hostile).differences[0]!.message).toMatch(/^The client's result could not be read \(reading it threw \(boom\)\): compareReply accepts/)
  })

  it('the fixture as JSON text, the body as bytes or text, and a Reply give the same answer on a correct client', () => {
    const fixture = fixtureOf(DEEPSEEK, cutEvery(wire(DEEPSEEK), 13))
    const client = buggyChatClient(cutEvery(wire(DEEPSEEK), 13))
    const body = wire(DEEPSEEK)
    for (const reference of [fixture, fixtureToJson(fixture), body, new TextDecoder().decode(body), merge(body)]) {
      expect(compareReply(reference, client)).toEqual({ equal: true, differences: [], notCompared: ['choices[0].refusal'] })
    }
  })

  it('a body whose provider the merger cannot tell is read with the merge options given', () => {
    const body = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
    expect(compareReply(body, 'Hi', { mergeOptions: { provider: 'openai-chat' } }).equal).toBe(true)
  })

  it('a reference that is none of fixture, Reply or body throws a TypeError (it is the test\'s own input)', () => {
    expect(() => compareReply(42 as never, 'x')).toThrow(TypeError)
  })
})
