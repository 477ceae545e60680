import { describe, it, expect } from 'vitest'
import { openaiResponses } from '../../src/providers/openai-responses.js'
import { Accumulator } from '../../src/core/accumulator.js'
import { SYMPTOMS, type Delta } from '../../src/index.js'

type Ev = Record<string, unknown>

/** Maps events (event line = JSON type, as the API sends) through one mapper. */
function mapAll(events: Ev[]): Delta[][] {
  const mapper = openaiResponses.createMapper()
  return events.map((json, seq) => mapper.map({ seq, event: typeof json['type'] === 'string' ? json['type'] : null, json }))
}

function accumulate(events: Ev[]): { acc: Accumulator; state: ReturnType<Accumulator['state']> } {
  const acc = new Accumulator()
  mapAll(events).forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  return { acc, state: acc.state() }
}

const created: Ev = {
  type: 'response.created', sequence_number: 0,
  response: { id: 'resp_1', object: 'response', status: 'in_progress', model: 'o4-mini-2025-04-16', output: [], usage: null },
}
const msgAdded = (output_index: number): Ev => ({
  type: 'response.output_item.added', sequence_number: 1, output_index,
  item: { id: 'msg_1', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
})
const textDelta = (delta: string, output_index = 0, content_index = 0): Ev => ({
  type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index, content_index, delta, logprobs: [],
})
const textDone = (text: string, output_index = 0, content_index = 0): Ev => ({
  type: 'response.output_text.done', sequence_number: 3, item_id: 'msg_1', output_index, content_index, text, logprobs: [],
})
const summaryDelta = (summary_index: number, delta: string, output_index = 0): Ev => ({
  type: 'response.reasoning_summary_text.delta', sequence_number: 4, item_id: 'rs_1', output_index, summary_index, delta,
})
const summaryDone = (summary_index: number, text: string, output_index = 0): Ev => ({
  type: 'response.reasoning_summary_text.done', sequence_number: 5, item_id: 'rs_1', output_index, summary_index, text,
})
const usage = { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 60, output_tokens_details: { reasoning_tokens: 32 }, total_tokens: 100 }
const completed = (output: unknown[], extra: Ev = {}): Ev => ({
  type: 'response.completed', sequence_number: 9,
  response: { id: 'resp_1', object: 'response', status: 'completed', output, usage, ...extra },
})
const message = (text: string): Ev => ({
  id: 'msg_1', type: 'message', status: 'completed', role: 'assistant',
  content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
})

describe('openaiResponses.recognizes', () => {
  it('claims response.* types with or without an event line', () => {
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: { type: 'response.created' } })).toBe(true)
    expect(openaiResponses.recognizes({ seq: 0, event: 'response.output_text.delta', json: { type: 'response.output_text.delta' } })).toBe(true)
  })

  it('ignores other shapes', () => {
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: { type: 'message_start' } })).toBe(false)
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: { type: 'keepalive' } })).toBe(false)
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: { object: 'chat.completion.chunk', choices: [] } })).toBe(false)
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: ['response.created'] })).toBe(false)
    expect(openaiResponses.recognizes({ seq: 0, event: null, json: { type: 1 } })).toBe(false)
  })
})

describe('openaiResponses mapper', () => {
  it('announces one assistant choice once', () => {
    const deltas = mapAll([created, msgAdded(0)])
    expect(deltas[0]).toEqual([{ type: 'choice', choice: 0, role: 'assistant' }])
    expect(deltas[1]).toEqual([])
  })

  it('maps text, refusal and both reasoning kinds to their channels', () => {
    const deltas = mapAll([
      textDelta('Hi'),
      { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 1, delta: 'No.' },
      { type: 'response.reasoning_text.delta', item_id: 'rs_1', output_index: 1, content_index: 0, delta: 'think' },
    ])
    expect(deltas.flat().filter((d) => d.type === 'text')).toEqual([
      { type: 'text', choice: 0, channel: 'content', text: 'Hi' },
      { type: 'text', choice: 0, channel: 'refusal', text: 'No.' },
      { type: 'text', choice: 0, channel: 'reasoning', text: 'think' },
    ])
  })

  it('maps a function call: name and call_id from output_item.added, fragments by output_index', () => {
    const deltas = mapAll([
      created,
      { type: 'response.output_item.added', output_index: 2, item: { id: 'fc_1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1', name: 'get_weather' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: '{"city":' },
    ])
    expect(deltas[1]).toEqual([{ type: 'tool-call', choice: 0, key: 2, callType: 'function', id: 'call_1', name: 'get_weather', arguments: null }])
    expect(deltas[2]).toEqual([{ type: 'tool-call', choice: 0, key: 2, arguments: '{"city":' }])
  })

  it('maps keepalive to nothing, and an unknown non-response event to a note', () => {
    const deltas = mapAll([{ type: 'keepalive', sequence_number: 3 }, { type: 'response.web_search_call.searching', output_index: 0 }, { type: 'surprise' }])
    expect(deltas[0]).toEqual([])
    expect(deltas[1]).toEqual([])
    expect(deltas[2]).toEqual([{ type: 'note', level: 'info', message: 'unknown event "surprise" ignored' }])
  })

  it('never throws on hostile shapes', () => {
    const hostile: Ev[] = [
      { type: 'response.output_text.delta', delta: 7 },
      { type: 'response.output_item.added', item: 'x', output_index: -1 },
      { type: 'response.output_item.added', output_index: 1e300, item: { type: 'function_call' } },
      { type: 'response.function_call_arguments.delta', output_index: '__proto__', delta: 'x' },
      { type: 'response.completed', response: { output: [null, 3, { type: 'message', content: 'no' }], usage: [1] } },
      { type: 'response.failed', response: 'x' },
      { type: 'response.incomplete' },
      { type: 'error' },
    ]
    expect(() => accumulate(hostile)).not.toThrow()
  })

  it('does not mistake inherited property names for event or item types', () => {
    const deltas = mapAll([
      { type: 'constructor.delta', delta: 'x' },
      { type: '__proto__.done', text: 'x' },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'constructor', name: 'f' } },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'toString', name: 'f' } },
    ])
    expect(deltas.flat().filter((d) => d.type !== 'note' && d.type !== 'choice')).toEqual([])
  })

  it('takes the item id when call_id is empty', () => {
    const deltas = mapAll([{ type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: '', name: 'f', arguments: '' } }])
    expect(deltas[0]).toContainEqual({ type: 'tool-call', choice: 0, key: 0, callType: 'function', id: 'fc_1', name: 'f', arguments: null })
  })
})

describe('openaiResponses accumulated', () => {
  it('joins reasoning summary parts with a blank line and compares each part without false alarms', () => {
    const { acc, state } = accumulate([
      created,
      { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
      summaryDelta(0, '**Plan** I should '), summaryDelta(0, 'check.'),
      summaryDone(0, '**Plan** I should check.'),
      summaryDelta(1, '**Answer** '), summaryDelta(1, 'Then reply.'),
      summaryDone(1, '**Answer** Then reply.'),
      msgAdded(1), textDelta('Sunny.', 1),
      textDone('Sunny.', 1),
      completed([
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: '**Plan** I should check.' }, { type: 'summary_text', text: '**Answer** Then reply.' }] },
        message('Sunny.'),
      ]),
    ])
    expect(state.choices).toEqual([{
      index: 0, role: 'assistant', content: 'Sunny.', reasoning: '**Plan** I should check.\n\n**Answer** Then reply.', refusal: '',
      toolCalls: [], finishReason: 'completed',
    }])
    expect(state.usage).toEqual(usage)
    expect(state.done).toBe(true)
    expect(acc.diagnostics).toEqual([])
  })

  it('keeps the deltas when response.completed says otherwise, with one diagnostic', () => {
    const { acc, state } = accumulate([created, msgAdded(0), textDelta('Hel'), textDelta('lo'), textDone('Hello'), completed([message('DIFFERENT')])])
    expect(state.choices[0]?.content).toBe('Hello')
    expect(acc.diagnostics).toEqual([{
      frame: 5, level: 'warning', code: 'final-mismatch', symptom: SYMPTOMS['final-mismatch'],
      message: 'response.completed: the final content differs from the concatenated deltas (first difference at character 0: deltas "Hello", final "DIFFERENT"); the deltas are kept',
    }])
  })

  it('reports a part-level .done mismatch once', () => {
    const { acc, state } = accumulate([created, textDelta('Hello'), textDone('Help')])
    expect(state.choices[0]?.content).toBe('Hello')
    expect(acc.diagnostics.map((d) => d.code)).toEqual(['final-mismatch'])
    expect(acc.diagnostics[0]?.message).toContain('response.output_text.done')
  })

  it('joins content parts with nothing and compares the terminal output part by part', () => {
    const { acc, state } = accumulate([
      created, msgAdded(0), textDelta('One.', 0, 0), textDone('One.', 0, 0), textDelta(' Two.', 0, 1), textDone(' Two.', 0, 1),
      completed([{ ...message('One.'), content: [{ type: 'output_text', text: 'One.' }, { type: 'output_text', text: ' Two.' }] }]),
    ])
    expect(state.choices[0]?.content).toBe('One. Two.')
    expect(acc.diagnostics).toEqual([])
  })

  it('never appends a final part that did not stream to a channel that has text', () => {
    const { acc, state } = accumulate([created, summaryDelta(0, 'First.'), summaryDone(1, 'Second.')])
    expect(state.choices[0]?.reasoning).toBe('First.')
    expect(acc.diagnostics.map((d) => [d.code, d.level])).toEqual([['final-mismatch', 'warning']])
  })

  it('takes the final text when no delta arrived', () => {
    const { state } = accumulate([created, textDone('Whole'), completed([message('Whole')])])
    expect(state.choices[0]?.content).toBe('Whole')
  })

  it('keeps a known tool name when output_item.done brings an empty one', () => {
    const { acc, state } = accumulate([
      created,
      { type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', arguments: '', call_id: 'call_1', name: 'test_tool' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '1}' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '{"a":1}' },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'fc_1', type: 'function_call', arguments: '{"a":1}', call_id: 'call_1', name: '' } },
    ])
    expect(state.choices[0]?.toolCalls).toEqual([{
      index: 0, id: 'call_1', type: 'function', name: 'test_tool', arguments: '{"a":1}', parsedArguments: { a: 1 }, argumentsError: null,
    }])
    expect(state.done).toBe(false)
    expect(acc.diagnostics).toEqual([])
  })

  it('maps custom tool input and MCP arguments as calls of their own type', () => {
    const { state } = accumulate([
      created,
      { type: 'response.output_item.added', output_index: 0, item: { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_c', name: 'grammar', input: '' } },
      { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 0, delta: 'print(1)' },
      { type: 'response.custom_tool_call_input.done', item_id: 'ctc_1', output_index: 0, input: 'print(1)' },
      { type: 'response.output_item.added', output_index: 1, item: { id: 'mcp_1', type: 'mcp_call', name: 'roll', server_label: 'dice', arguments: '' } },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcp_1', output_index: 1, delta: '{"n":2}' },
    ])
    expect(state.choices[0]?.toolCalls.map((t) => [t.index, t.id, t.type, t.name, t.arguments])).toEqual([
      [0, 'call_c', 'custom', 'grammar', 'print(1)'],
      [1, 'mcp_1', 'mcp', 'roll', '{"n":2}'],
    ])
  })

  it('creates a call first seen in the terminal output, with its type', () => {
    const { state } = accumulate([created, completed([{ id: 'fc_9', type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{}' }])])
    expect(state.choices[0]?.toolCalls).toEqual([{
      index: 0, id: 'call_9', type: 'function', name: 'f', arguments: '{}', parsedArguments: {}, argumentsError: null,
    }])
  })

  it('ends an incomplete response with its reason and usage', () => {
    const { state } = accumulate([created, textDelta('Once upon'), {
      type: 'response.incomplete', sequence_number: 4,
      response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [message('Once upon')], usage: { input_tokens: 5, output_tokens: 16, total_tokens: 21 } },
    }])
    expect(state.choices[0]?.finishReason).toBe('max_output_tokens')
    expect(state.usage).toEqual({ input_tokens: 5, output_tokens: 16, total_tokens: 21 })
    expect(state.done).toBe(true)
  })

  it('ends a failed response with a stream error and keeps the partial text', () => {
    const { acc, state } = accumulate([created, textDelta('Partial'), {
      type: 'response.failed', sequence_number: 4,
      response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'The model failed.' }, output: [], usage: null },
    }])
    expect(state.choices[0]).toMatchObject({ content: 'Partial', finishReason: 'failed' })
    expect(state.done).toBe(true)
    expect(state.usage).toBeNull()
    expect(acc.streamErrors).toMatchObject([{ frame: 2, message: 'The model failed.', code: 'server_error' }])
    expect(acc.diagnostics).toEqual([{
      frame: 2, level: 'error', code: 'provider-error', message: 'the provider sent an error (code "server_error"): "The model failed."',
      symptom: SYMPTOMS['provider-error'],
    }])
  })

  it('records an error event as a stream error without ending the stream', () => {
    const { acc, state } = accumulate([created, textDelta('Hi'), { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null, sequence_number: 2 }])
    expect(acc.streamErrors).toMatchObject([{ frame: 2, message: 'Slow down.', code: 'rate_limit_exceeded', type: null }])
    expect(state.done).toBe(false)
    expect(state.choices[0]?.content).toBe('Hi')
  })
})
