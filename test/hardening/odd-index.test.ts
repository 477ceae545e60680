// Hostile or careless input: Responses tool calls vanished silently when `output_index` was -1, "0",
// 1.5, null or 2^53 (no call, no error, no diagnostic). Now the call is kept in order of
// arrival, its later events routed by their item_id, with a warning that says why; a call the
// wire keyed properly is never captured by it.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'

const sse = (frames: unknown[]) => frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')
const SYMPTOM = 'A client that keys tool calls by output_index (an array position) drops this call, throws, or merges it into another.'

function oddStream(outputIndex: unknown): unknown[] {
  const at = outputIndex === undefined ? {} : { output_index: outputIndex }
  return [
    { type: 'response.created', response: {} },
    { type: 'response.output_item.added', ...at, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '' } },
    { type: 'response.function_call_arguments.delta', ...at, item_id: 'fc_1', delta: '{"city":' },
    { type: 'response.function_call_arguments.delta', ...at, item_id: 'fc_1', delta: '"Paris"}' },
    { type: 'response.function_call_arguments.done', ...at, item_id: 'fc_1', arguments: '{"city":"Paris"}' },
    { type: 'response.output_item.done', ...at, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' } },
    { type: 'response.completed', response: { status: 'completed', output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] } },
  ]
}

const CALL = { index: 0, id: 'call_1', type: 'function', name: 'get_weather', arguments: '{"city":"Paris"}', parsedArguments: { city: 'Paris' }, argumentsError: null }

describe('Responses: a call whose output_index is unusable', () => {
  for (const [label, value, shown] of [
    ['-1', -1, '-1'], ['"0"', '0', '"0"'], ['1.5', 1.5, '1.5'], ['null', null, 'null'], ['2^53', 2 ** 53, '9007199254740992'], ['missing', undefined, 'missing'],
  ] as const) {
    it(`output_index ${label}: the call is kept whole, with one warning saying why`, () => {
      const m = createMerger()
      m.push(sse(oddStream(value)))
      const reply = m.end()
      expect(reply.choices[0]!.toolCalls).toEqual([CALL])
      expect(m.diagnostics().filter((d) => d.code === 'note')).toEqual([{
        frame: 1, level: 'warning', code: 'note', symptom: SYMPTOM,
        message: `response.output_item.added: output_index ${shown} is not a usable index (a non-negative integer); the call "call_1" is kept in order of arrival`,
      }])
      expect(m.diagnostics().filter((d) => d.code === 'final-mismatch')).toEqual([])
    })
  }

  it('kept in order of arrival beside calls keyed properly, never capturing their fragments', () => {
    const m = createMerger()
    m.push(sse([
      { type: 'response.created', response: {} },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_a', call_id: 'call_a', name: 'a', arguments: '' } },
      { type: 'response.output_item.added', output_index: -1, item: { type: 'function_call', id: 'fc_b', call_id: 'call_b', name: 'b', arguments: '' } },
      { type: 'response.output_item.added', output_index: 1, item: { type: 'function_call', id: 'fc_c', call_id: 'call_c', name: 'c', arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: 1, item_id: 'fc_c', delta: '{"c":' },
      { type: 'response.function_call_arguments.delta', output_index: -1, item_id: 'fc_b', delta: '{"b":' },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_a', delta: '{"a":1}' },
      { type: 'response.function_call_arguments.delta', output_index: 1, item_id: 'fc_c', delta: '3}' },
      { type: 'response.function_call_arguments.delta', output_index: -1, item_id: 'fc_b', delta: '2}' },
    ]))
    const calls = m.end().choices[0]!.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments])
    expect(calls).toEqual([[0, 'call_a', 'a', '{"a":1}'], [1, 'call_b', 'b', '{"b":2}'], [1, 'call_c', 'c', '{"c":3}']])
  })

  it('arguments events of an item never announced: one call from its item_id, kept', () => {
    const m = createMerger()
    m.push(sse([
      { type: 'response.created', response: {} },
      { type: 'response.function_call_arguments.delta', output_index: '0', item_id: 'fc_9', delta: '{}' },
      { type: 'response.function_call_arguments.done', output_index: '0', item_id: 'fc_9', arguments: '{}' },
    ]))
    expect(m.end().choices[0]!.toolCalls).toEqual([{ index: 0, id: 'fc_9', type: 'function', name: null, arguments: '{}', parsedArguments: {}, argumentsError: null }])
    expect(m.diagnostics().filter((d) => d.code === 'note').map((d) => d.message)).toEqual([
      'response.function_call_arguments.delta: output_index "0" is not a usable index (a non-negative integer); the call "fc_9" is kept in order of arrival',
    ])
  })

  it('a call first seen whole in output_item.done with an unusable index is kept', () => {
    const m = createMerger()
    m.push(sse([
      { type: 'response.created', response: {} },
      { type: 'response.output_item.done', output_index: null, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]))
    expect(m.end().choices[0]!.toolCalls).toEqual([CALL])
  })
})
