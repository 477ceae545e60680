import { describe, it, expect } from 'vitest'
import { gemini } from '../../src/providers/gemini.js'
import { Accumulator } from '../../src/core/accumulator.js'
import type { Delta, FrameMapper } from '../../src/index.js'

function mapAll(frames: unknown[], mapper: FrameMapper = gemini.createMapper()): Delta[][] {
  return frames.map((json, seq) => mapper.map({ seq, event: null, json }))
}

/** Maps, flushes at the end (as merge does), and applies everything to a fresh accumulator. */
function accumulate(frames: unknown[]): { acc: Accumulator; state: ReturnType<Accumulator['state']> } {
  const mapper = gemini.createMapper()
  const acc = new Accumulator()
  mapAll(frames, mapper).forEach((deltas, seq) => deltas.forEach((d) => acc.apply(d, seq)))
  for (const d of mapper.flush?.() ?? []) acc.apply(d, frames.length - 1)
  return { acc, state: acc.state() }
}

const model = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, ...extra }],
})

describe('gemini.recognizes', () => {
  it('claims candidates, usageMetadata or promptFeedback', () => {
    expect(gemini.recognizes({ seq: 0, event: null, json: { candidates: [] } })).toBe(true)
    expect(gemini.recognizes({ seq: 0, event: null, json: { usageMetadata: { totalTokenCount: 1 } } })).toBe(true)
    expect(gemini.recognizes({ seq: 0, event: null, json: { promptFeedback: { blockReason: 'SAFETY' } } })).toBe(true)
  })

  it('leaves other shapes alone', () => {
    expect(gemini.recognizes({ seq: 0, event: null, json: { choices: [] } })).toBe(false)
    expect(gemini.recognizes({ seq: 0, event: null, json: { error: { code: 500 } } })).toBe(false)
    expect(gemini.recognizes({ seq: 0, event: null, json: { candidates: 'x' } })).toBe(false)
    expect(gemini.recognizes({ seq: 0, event: null, json: [{ candidates: [] }] })).toBe(false)
    expect(gemini.recognizes({ seq: 0, event: null, json: null })).toBe(false)
  })
})

describe('gemini mapper', () => {
  it('maps text and thought parts to content and reasoning', () => {
    expect(mapAll([
      model([{ text: '**Planning** need weather', thought: true }, { text: 'Let me check.' }], { index: 0 }),
    ])).toEqual([[
      { type: 'choice', choice: 0, role: 'model' },
      { type: 'text', choice: 0, channel: 'reasoning', text: '**Planning** need weather' },
      { type: 'text', choice: 0, channel: 'content', text: 'Let me check.' },
    ]])
  })

  it('adds nothing for an empty signature-only part; finishReason gives finish and done', () => {
    expect(mapAll([
      { ...model([{ text: '', thoughtSignature: 'AY89a18i' }], { finishReason: 'STOP' }), usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 9, totalTokenCount: 10 } },
    ])).toEqual([[
      { type: 'choice', choice: 0, role: 'model' },
      { type: 'finish', choice: 0, reason: 'STOP' },
      { type: 'done' },
      { type: 'usage', usage: { promptTokenCount: 1, candidatesTokenCount: 9, totalTokenCount: 10 } },
    ]])
  })

  it('makes every functionCall part a whole new call', () => {
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }
    expect(mapAll([model([{ ...call, thoughtSignature: 'CiQB' }, call, { functionCall: { id: 'fc_1', name: 'now' } }])])).toEqual([[
      { type: 'choice', choice: 0, role: 'model' },
      { type: 'tool-call', choice: 0, key: null, whole: true, id: null, name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', choice: 0, key: null, whole: true, id: null, name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', choice: 0, key: null, whole: true, id: 'fc_1', name: 'now', arguments: '{}' },
    ]])
  })

  it('uses candidate.index, else the position', () => {
    expect(mapAll([{ candidates: [{ index: 1, content: { role: 'model', parts: [{ text: 'B' }] } }, { content: { parts: [{ text: 'x' }] } }] }])).toEqual([[
      { type: 'choice', choice: 1, role: 'model' },
      { type: 'text', choice: 1, channel: 'content', text: 'B' },
      { type: 'choice', choice: 1, role: null },
      { type: 'text', choice: 1, channel: 'content', text: 'x' },
    ]])
  })

  it('maps an error chunk to a stream error', () => {
    const chunk = { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }
    expect(mapAll([chunk])).toEqual([[
      { type: 'stream-error', message: 'The model is overloaded. Please try again later.', code: 503, errorType: 'UNAVAILABLE', payload: chunk },
    ]])
  })

  it('maps a prompt block to a finish on choice 0, a note and done', () => {
    expect(mapAll([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } }])).toEqual([[
      { type: 'choice', choice: 0, role: null },
      { type: 'finish', choice: 0, reason: 'PROHIBITED_CONTENT' },
      { type: 'note', level: 'warning', message: 'prompt blocked: PROHIBITED_CONTENT' },
      { type: 'done' },
      { type: 'usage', usage: { promptTokenCount: 7, totalTokenCount: 7 } },
    ]])
  })

  it('never throws on odd frames', () => {
    const odd: unknown[] = [
      null, 1, 'x', [], {}, { candidates: null }, { candidates: [null, 1, { content: 'x' }, { content: { parts: 'x' } }] },
      { candidates: [{ content: { parts: [null, { text: 5 }, { functionCall: 'x' }, { functionCall: { args: null } }] } }] },
      { candidates: [{ content: { parts: [{ functionCall: { partialArgs: [null, { jsonPath: 5 }, { jsonPath: '$..' }, { jsonPath: '$.a[999999]', numberValue: 1 }] } }] } }] },
      { candidates: [{ index: -3, finishReason: 7 }] }, { promptFeedback: 'x' }, { error: null }, { error: 'boom' },
    ]
    const mapper = gemini.createMapper()
    for (const json of odd) expect(() => mapper.map({ seq: 0, event: null, json })).not.toThrow()
    expect(() => mapper.flush?.()).not.toThrow()
  })
})

describe('gemini Vertex partialArgs', () => {
  const open = model([{ functionCall: { name: 'get_weather', willContinue: true } }])
  const piece1 = model([{ functionCall: { partialArgs: [{ jsonPath: '$.location', stringValue: 'Bos', willContinue: true }], willContinue: true } }])
  const piece2 = model([{ functionCall: { partialArgs: [{ jsonPath: '$.location', stringValue: 'ton' }, { jsonPath: '$.days', numberValue: 3 }] } }])
  const close = model([{ functionCall: {} }])

  it('emits one whole call only when the call closes', () => {
    expect(mapAll([open, piece1, piece2, close])).toEqual([
      [{ type: 'choice', choice: 0, role: 'model' }],
      [{ type: 'choice', choice: 0, role: 'model' }],
      [{ type: 'choice', choice: 0, role: 'model' }],
      [
        { type: 'choice', choice: 0, role: 'model' },
        { type: 'tool-call', choice: 0, key: null, whole: true, id: null, name: 'get_weather', arguments: '{"location":"Boston","days":3}' },
      ],
    ])
  })

  it('rebuilds {"location":"Boston","days":3} from Vertex streamed arguments', () => {
    const { state } = accumulate([open, piece1, piece2, close])
    expect(state.choices[0]?.toolCalls).toEqual([{
      index: 0, id: null, type: 'function', name: 'get_weather',
      arguments: '{"location":"Boston","days":3}', parsedArguments: { location: 'Boston', days: 3 }, argumentsError: null,
    }])
  })

  it('builds nested paths, booleans, nulls and arrays; a "__proto__" key stays a key', () => {
    const [, deltas] = mapAll([
      model([{ functionCall: { name: 'f', willContinue: true } }]),
      model([{ functionCall: { partialArgs: [
        { jsonPath: '$.a.b', stringValue: 'x' }, { jsonPath: '$.a.c', boolValue: false },
        { jsonPath: '$.n', nullValue: 'NULL_VALUE' }, { jsonPath: '$.list[0].k', numberValue: 1 },
        { jsonPath: '$.list[1]', stringValue: 'y' }, { jsonPath: '$.__proto__.polluted', boolValue: true },
      ], willContinue: false } }]),
    ])
    const call = deltas?.find((d) => d.type === 'tool-call')
    expect(call).toEqual({
      type: 'tool-call', choice: 0, key: null, whole: true, id: null, name: 'f',
      arguments: '{"a":{"b":"x","c":false},"n":null,"list":[{"k":1},"y"],"__proto__":{"polluted":true}}',
    })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('closes an open call when a finishReason arrives, and flushes one never closed', () => {
    const finished = accumulate([open, piece1, model([], { finishReason: 'STOP' })]).state
    expect(finished.choices[0]?.toolCalls.map((t) => t.arguments)).toEqual(['{"location":"Bos"}'])
    const cut = gemini.createMapper()
    mapAll([open, piece1], cut)
    expect(cut.flush?.()).toEqual([
      { type: 'note', level: 'warning', message: 'choice 0: streamed function call "get_weather" was never closed; arguments are what arrived' },
      { type: 'tool-call', choice: 0, key: null, whole: true, id: null, name: 'get_weather', arguments: '{"location":"Bos"}' },
    ])
  })

  it('a new opener closes the previous streamed call', () => {
    const { state } = accumulate([
      open, piece2,
      model([{ functionCall: { name: 'get_time', willContinue: true } }]),
      model([{ functionCall: { partialArgs: [{ jsonPath: '$.tz', stringValue: 'UTC' }] } }]),
      close,
    ])
    expect(state.choices[0]?.toolCalls.map((t) => [t.index, t.name, t.arguments])).toEqual([
      [0, 'get_weather', '{"location":"ton","days":3}'],
      [1, 'get_time', '{"tz":"UTC"}'],
    ])
  })
})

describe('gemini through the accumulator', () => {
  it('keeps two identical parallel calls as two, and merges running usage field by field', () => {
    const { state } = accumulate([
      { candidates: [{ content: { role: 'model', parts: [{ text: '**Planning** need weather', thought: true }] }, index: 0 }], usageMetadata: { promptTokenCount: 20, totalTokenCount: 20, thoughtsTokenCount: 8 } },
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB0e2Kb' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 30, totalTokenCount: 58, thoughtsTokenCount: 8 } },
    ])
    const call = (index: number) => ({
      index, id: null, type: 'function', name: 'get_weather',
      arguments: '{"city":"Paris"}', parsedArguments: { city: 'Paris' }, argumentsError: null,
    })
    expect(state).toEqual({
      done: true,
      usage: { promptTokenCount: 20, totalTokenCount: 58, thoughtsTokenCount: 8, candidatesTokenCount: 30 },
      choices: [{
        index: 0, role: 'model', content: '', reasoning: '**Planning** need weather', refusal: '',
        toolCalls: [call(0), call(1)], finishReason: 'STOP',
      }],
      messages: [{
        id: null, role: 'model', parts: [
          { type: 'reasoning', text: '**Planning** need weather' },
          { type: 'tool-call', id: null, name: 'get_weather', arguments: '{"city":"Paris"}', parsedArguments: { city: 'Paris' }, argumentsError: null },
          { type: 'tool-call', id: null, name: 'get_weather', arguments: '{"city":"Paris"}', parsedArguments: { city: 'Paris' }, argumentsError: null },
        ],
      }],
    })
  })

  it('keeps counts through a Vertex trafficType-only usage chunk', () => {
    const { state } = accumulate([
      { ...model([{ text: 'Hi' }]), usageMetadata: { promptTokenCount: 1, totalTokenCount: 1, trafficType: 'ON_DEMAND' } },
      { ...model([{ text: ' there' }]), usageMetadata: { trafficType: 'ON_DEMAND' } },
      { ...model([{ text: '', thoughtSignature: 'AY89' }], { finishReason: 'STOP' }), usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 9, totalTokenCount: 10, trafficType: 'ON_DEMAND' } },
    ])
    expect(state.usage).toEqual({ promptTokenCount: 1, totalTokenCount: 10, trafficType: 'ON_DEMAND', candidatesTokenCount: 9 })
    expect(state.choices[0]?.content).toBe('Hi there')
  })
})
