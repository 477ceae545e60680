import { describe, it, expect } from 'vitest'
import { anthropic } from '../../src/providers/anthropic.js'
import { Accumulator } from '../../src/core/accumulator.js'
import type { Delta, FrameMapper } from '../../src/index.js'

/** Feeds [event, json] pairs through one mapper; returns the deltas per frame. */
function mapAll(frames: Array<[string | null, unknown]>, mapper: FrameMapper = anthropic.createMapper()): Delta[][] {
  return frames.map(([event, json], seq) => mapper.map({ seq, event, json }))
}

function accumulate(frames: Array<[string | null, unknown]>): { acc: Accumulator; state: ReturnType<Accumulator['state']> } {
  const acc = new Accumulator()
  mapAll(frames).forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  return { acc, state: acc.state() }
}

const messageStart = {
  type: 'message_start',
  message: {
    id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [],
    stop_reason: null, stop_sequence: null,
    usage: { input_tokens: 472, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  },
}

describe('anthropic.recognizes', () => {
  it('claims its own event types, with or without an event name', () => {
    for (const type of ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']) {
      expect(anthropic.recognizes({ seq: 0, event: null, json: { type } })).toBe(true)
    }
  })

  it('claims ping and error only when the event name agrees', () => {
    expect(anthropic.recognizes({ seq: 0, event: 'ping', json: { type: 'ping' } })).toBe(true)
    expect(anthropic.recognizes({ seq: 0, event: null, json: { type: 'ping' } })).toBe(false)
    const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
    expect(anthropic.recognizes({ seq: 0, event: 'error', json: error })).toBe(true)
    expect(anthropic.recognizes({ seq: 0, event: null, json: error })).toBe(false)
    // OpenAI Responses' error event has no nested error object
    expect(anthropic.recognizes({ seq: 0, event: 'error', json: { type: 'error', code: 'x', message: 'y' } })).toBe(false)
    expect(anthropic.recognizes({ seq: 0, event: 'error', json: { ...error, sequence_number: 3 } })).toBe(false)
  })

  it('ignores other shapes', () => {
    expect(anthropic.recognizes({ seq: 0, event: null, json: { object: 'chat.completion.chunk', choices: [] } })).toBe(false)
    expect(anthropic.recognizes({ seq: 0, event: null, json: { type: 'response.created' } })).toBe(false)
    expect(anthropic.recognizes({ seq: 0, event: null, json: [1] })).toBe(false)
    expect(anthropic.recognizes({ seq: 0, event: null, json: 'message_start' })).toBe(false)
    expect(anthropic.recognizes({ seq: 0, event: null, json: { type: 7 } })).toBe(false)
  })
})

describe('anthropic mapper', () => {
  it('maps message_start to the role and the initial usage', () => {
    expect(mapAll([['message_start', messageStart]])).toEqual([[
      { type: 'choice', choice: 0, role: 'assistant' },
      { type: 'usage', usage: { input_tokens: 472, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    ]])
  })

  it('maps block starts: text and thinking carry initial text, tool blocks open a call', () => {
    expect(mapAll([
      [null, { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      [null, { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'Hi' } }],
      [null, { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} } }],
      [null, { type: 'content_block_start', index: 3, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'x' } } }],
      [null, { type: 'content_block_start', index: 4, content_block: { type: 'mcp_tool_use', id: 'mcptoolu_01', name: 'echo', server_name: 's' } }],
    ])).toEqual([
      [],
      [{ type: 'text', choice: 0, channel: 'content', text: 'Hi' }],
      [{ type: 'tool-call', choice: 0, key: 2, id: 'toolu_01', name: 'get_weather', callType: 'tool_use', argumentsIfEmpty: '{}' }],
      [{ type: 'tool-call', choice: 0, key: 3, id: 'srvtoolu_01', name: 'web_search', callType: 'server_tool_use', argumentsIfEmpty: '{"query":"x"}' }],
      [{ type: 'tool-call', choice: 0, key: 4, id: 'mcptoolu_01', name: 'echo', callType: 'mcp_tool_use', argumentsIfEmpty: '{}' }],
    ])
  })

  it('keeps result and redacted blocks out of the reply (a note only)', () => {
    const [deltas] = mapAll([[null, { type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] } }]])
    expect(deltas).toEqual([{ type: 'note', level: 'info', message: 'content block 1: web_search_tool_result block kept out of the reply' }])
    const [redacted] = mapAll([[null, { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'EmwK' } }]])
    expect(redacted?.every((d) => d.type === 'note')).toBe(true)
  })

  it('maps block deltas by type', () => {
    expect(mapAll([
      [null, { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm. ' } }],
      [null, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }],
      [null, { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } }],
      [null, { type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location' } } }],
      [null, { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a":' } }],
      [null, { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }],
      [null, { type: 'content_block_stop', index: 2 }],
    ])).toEqual([
      [{ type: 'text', choice: 0, channel: 'reasoning', text: 'Hmm. ' }],
      [],
      [{ type: 'text', choice: 0, channel: 'content', text: 'Hello' }],
      [],
      [{ type: 'tool-call', choice: 0, key: 2, arguments: '{"a":' }],
      [{ type: 'tool-call', choice: 0, key: 2, arguments: '' }],
      [],
    ])
  })

  it('maps message_delta, message_stop, ping and error', () => {
    expect(mapAll([
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }],
      ['ping', { type: 'ping' }],
      ['message_stop', { type: 'message_stop' }],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ])).toEqual([
      [{ type: 'finish', choice: 0, reason: 'tool_use' }, { type: 'usage', usage: { output_tokens: 89 } }],
      [],
      [{ type: 'done' }],
      [{
        type: 'stream-error', message: 'Overloaded', code: null, errorType: 'overloaded_error',
        payload: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      }],
    ])
  })

  it('never throws on hostile or odd frames', () => {
    const odd: unknown[] = [
      null, 42, 'x', [], {}, { type: null }, { type: 'message_start' }, { type: 'message_start', message: [] },
      { type: 'content_block_start' }, { type: 'content_block_start', index: -1, content_block: { type: 'tool_use' } },
      { type: 'content_block_start', index: 1e9, content_block: { type: 'tool_use', input: null } },
      { type: 'content_block_delta', index: '__proto__', delta: { type: 'input_json_delta', partial_json: 5 } },
      { type: 'content_block_delta', delta: null }, { type: 'message_delta', delta: 'x', usage: [] },
      { type: 'error' }, { type: 'error', error: 'boom' }, { type: 'brand_new_event' },
    ]
    const mapper = anthropic.createMapper()
    for (const json of odd) expect(() => mapper.map({ seq: 0, event: null, json })).not.toThrow()
    expect(mapper.map({ seq: 0, event: null, json: { type: 'brand_new_event' } })).toEqual([
      { type: 'note', level: 'info', message: 'ignored Anthropic event type "brand_new_event"' },
    ])
    expect(mapper.map({ seq: 0, event: null, json: { type: 'content_block_start', index: -1, content_block: { type: 'tool_use' } } })).toEqual([
      { type: 'tool-call', choice: 0, key: null, id: null, name: null, callType: 'tool_use', argumentsIfEmpty: '{}' },
    ])
  })
})

describe('anthropic through the accumulator', () => {
  it('rebuilds a thinking + text + tool_use stream', () => {
    const { state } = accumulate([
      ['message_start', messageStart],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'User wants weather; ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'call the tool.' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me check the weather.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['ping', { type: 'ping' }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'ncisco, CA", "unit": "fahrenheit"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }],
      ['message_stop', { type: 'message_stop' }],
    ])
    expect(state).toEqual({
      done: true,
      usage: { input_tokens: 472, output_tokens: 89, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      choices: [{
        index: 0, role: 'assistant',
        content: 'Let me check the weather.',
        reasoning: 'User wants weather; call the tool.',
        refusal: '',
        toolCalls: [{
          index: 2, id: 'toolu_01', type: 'tool_use', name: 'get_weather',
          arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
          parsedArguments: { location: 'San Francisco, CA', unit: 'fahrenheit' },
          argumentsError: null,
        }],
        finishReason: 'tool_use',
      }],
      // the one choice as one message: reasoning, text, then the call (Anthropic's block order here)
      messages: [{
        id: null, role: 'assistant', parts: [
          { type: 'reasoning', text: 'User wants weather; call the tool.' },
          { type: 'text', text: 'Let me check the weather.' },
          {
            type: 'tool-call', id: 'toolu_01', name: 'get_weather', arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
            parsedArguments: { location: 'San Francisco, CA', unit: 'fahrenheit' }, argumentsError: null,
          },
        ],
      }],
    })
  })

  it('gives a tool without input deltas the arguments "{}"', () => {
    const { state } = accumulate([
      ['message_start', messageStart],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_02', name: 'get_time', input: {} } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } }],
      ['message_stop', { type: 'message_stop' }],
    ])
    expect(state.choices[0]?.toolCalls).toEqual([{
      index: 0, id: 'toolu_02', type: 'tool_use', name: 'get_time',
      arguments: '{}', parsedArguments: {}, argumentsError: null,
    }])
  })

  it('keeps truncated input raw and reports it, never repaired', () => {
    const { state } = accumulate([
      ['message_start', messageStart],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_03', name: 'get_weather', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "San Fr' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 64 } }],
      ['message_stop', { type: 'message_stop' }],
    ])
    expect(state.choices[0]?.finishReason).toBe('max_tokens')
    expect(state.choices[0]?.toolCalls).toEqual([{
      index: 0, id: 'toolu_03', type: 'tool_use', name: 'get_weather',
      arguments: '{"city": "San Fr', parsedArguments: null,
      argumentsError: 'Unexpected end of JSON input at position 16 (expected the rest of the value)',
    }])
  })

  it('keeps partial text after a mid-stream error; not done', () => {
    const { acc, state } = accumulate([
      ['message_start', messageStart],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial ' } }],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ])
    expect(state.done).toBe(false)
    expect(state.choices[0]?.content).toBe('Partial ')
    expect(state.choices[0]?.finishReason).toBe(null)
    expect(acc.streamErrors).toEqual([{
      frame: 3, message: 'Overloaded', code: null, type: 'overloaded_error',
      payload: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    }])
  })

  it('keeps parallel tool_use blocks apart by block index, even when interleaved', () => {
    const { state } = accumulate([
      [null, messageStart],
      [null, { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: {} } }],
      [null, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: {} } }],
      [null, { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
      [null, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
      [null, { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Rome"}' } }],
      [null, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } }],
    ])
    expect(state.choices[0]?.toolCalls.map((t) => [t.index, t.id, t.arguments])).toEqual([
      [0, 'toolu_a', '{"city":"Oslo"}'],
      [1, 'toolu_b', '{"city":"Rome"}'],
    ])
  })
})
