import { describe, it, expect } from 'vitest'
import { ollama } from '../../src/providers/ollama.js'
import { Accumulator } from '../../src/core/accumulator.js'
import type { Delta } from '../../src/index.js'

function mapAll(lines: unknown[]): Delta[][] {
  const mapper = ollama.createMapper()
  return lines.map((json, seq) => mapper.map({ seq, event: null, json }))
}

function accumulate(lines: unknown[]): { acc: Accumulator; state: ReturnType<Accumulator['state']> } {
  const acc = new Accumulator()
  mapAll(lines).forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  return { acc, state: acc.state() }
}

const at = '2025-05-27T22:54:57.6Z'
// Ollama's /api/chat objects, not OpenAI chunks: test/support/streams.ts does not write this format.
const chat = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ model: 'qwen3', created_at: at, message: { role: 'assistant', content: '', ...message }, done: false, ...extra })
const counters = {
  total_duration: 4883583458, load_duration: 1334875, prompt_eval_count: 26, prompt_eval_duration: 342546000,
  eval_count: 282, eval_duration: 4535599000,
}
const chatDone = (extra: Record<string, unknown> = {}) => chat({}, { done: true, done_reason: 'stop', ...counters, ...extra })

describe('ollama.recognizes', () => {
  it('claims chat and generate lines', () => {
    expect(ollama.recognizes({ seq: 0, event: null, json: chat({ content: 'Hi' }) })).toBe(true)
    expect(ollama.recognizes({ seq: 0, event: null, json: { response: 'Hi', done: false } })).toBe(true)
    expect(ollama.recognizes({ seq: 0, event: null, json: { model: 'm', created_at: at } })).toBe(true)
  })

  it('ignores other shapes', () => {
    expect(ollama.recognizes({ seq: 0, event: null, json: { error: 'boom' } })).toBe(false)
    expect(ollama.recognizes({ seq: 0, event: null, json: { done: 'true', response: 'x' } })).toBe(false)
    expect(ollama.recognizes({ seq: 0, event: null, json: { object: 'chat.completion.chunk', model: 'm', created: 1, choices: [] } })).toBe(false)
    expect(ollama.recognizes({ seq: 0, event: null, json: [{ done: true }] })).toBe(false)
  })
})

describe('ollama mapper', () => {
  it('maps a chat fragment to role, content and thinking', () => {
    expect(mapAll([chat({ content: 'A', thinking: 'T' })])[0]).toEqual([
      { type: 'choice', choice: 0, role: 'assistant' },
      { type: 'text', choice: 0, channel: 'content', text: 'A' },
      { type: 'text', choice: 0, channel: 'reasoning', text: 'T' },
    ])
  })

  it('maps each tool_calls element to a whole new call with JSON-text arguments', () => {
    const deltas = mapAll([chat({ tool_calls: [
      { function: { name: 'get_weather', arguments: { city: 'Paris' } } },
      { id: 'call_2', function: { index: 1, name: 'get_time', arguments: '{"tz":"CET"}' } },
    ] })])[0]
    expect(deltas?.filter((d) => d.type === 'tool-call')).toEqual([
      { type: 'tool-call', choice: 0, key: null, whole: true, id: null, callType: null, name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', choice: 0, key: null, whole: true, id: 'call_2', callType: null, name: 'get_time', arguments: '{"tz":"CET"}' },
    ])
  })

  it('maps only the counters that are present to usage', () => {
    const deltas = mapAll([{ model: 'm', created_at: at, response: '', done: true, done_reason: 'length', eval_count: 3, context: [1, 2], total_duration: null }])[0]
    expect(deltas).toEqual([
      { type: 'choice', choice: 0, role: null },
      { type: 'text', choice: 0, channel: 'content', text: '' },
      { type: 'finish', choice: 0, reason: 'length' },
      { type: 'usage', usage: { eval_count: 3 } },
      { type: 'done' },
    ])
  })

  it('maps an error line to a stream error only', () => {
    expect(mapAll([{ error: 'model runner has unexpectedly stopped' }])[0]).toEqual([
      { type: 'stream-error', message: 'model runner has unexpectedly stopped', payload: { error: 'model runner has unexpectedly stopped' } },
    ])
  })

  it('never throws on hostile shapes', () => {
    expect(() => accumulate([null, 1, 'x', [], { message: 'x' }, { message: { tool_calls: [null, { function: 3 }, { function: { arguments: { a: [1] } } }] } }, { done: true, eval_count: '3' }])).not.toThrow()
  })
})

describe('ollama accumulated', () => {
  it('rebuilds a chat reply with thinking, two identical calls kept apart, and the final counters', () => {
    const call = { function: { name: 'get_weather', arguments: { location: 'Toronto', format: 'celsius' } } }
    const { state } = accumulate([
      chat({ thinking: 'Okay, the user' }), chat({ thinking: ' wants weather.' }),
      chat({ tool_calls: [call, call] }),
      chatDone(),
    ])
    const args = '{"location":"Toronto","format":"celsius"}'
    const parsed = { location: 'Toronto', format: 'celsius' }
    expect(state.choices).toEqual([{
      index: 0, role: 'assistant', content: '', reasoning: 'Okay, the user wants weather.', refusal: '',
      toolCalls: [
        { index: 0, id: null, type: 'function', name: 'get_weather', arguments: args, parsedArguments: parsed, argumentsError: null },
        { index: 1, id: null, type: 'function', name: 'get_weather', arguments: args, parsedArguments: parsed, argumentsError: null },
      ],
      finishReason: 'stop',
    }])
    expect(state.usage).toEqual(counters)
    expect(state.done).toBe(true)
  })

  it('rebuilds /api/generate text with no role', () => {
    const { state } = accumulate([
      { model: 'llama3.2', created_at: at, response: 'The', done: false },
      { model: 'llama3.2', created_at: at, response: ' sky', done: false },
      { model: 'llama3.2', created_at: at, response: '', done: true, done_reason: 'stop', context: [1, 2], eval_count: 2 },
    ])
    expect(state.choices).toEqual([{ index: 0, role: null, content: 'The sky', reasoning: '', refusal: '', toolCalls: [], finishReason: 'stop' }])
    expect(state.usage).toEqual({ eval_count: 2 })
  })

  it('keeps the partial reply when an error line arrives', () => {
    const { acc, state } = accumulate([chat({ content: 'Hel' }), { error: 'boom' }])
    expect(state.choices[0]?.content).toBe('Hel')
    expect(state.done).toBe(false)
    expect(acc.streamErrors).toMatchObject([{ frame: 1, message: 'boom', code: null }])
  })
})
