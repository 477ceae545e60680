// Hostile input: every per-frame cost bounded, so a long stream cannot freeze the reader. A call named "a" then N frames each
// adding `"name": "b"` (every diagnostic used to quote the whole name so far, and each frame
// joined it to compare: quadratic); Responses `*.done` after every delta (each compared the
// whole channel: 20,000 pairs 0.38 s, 60,000 took 26 s); the same for tool arguments and the AI
// SDK's tool-input-available. Diagnostics quote an excerpt; past 100 of a code they are counted.
// These pin the exact results and diagnostics of such storms; that their cost grows linearly is
// timed, so it is checked by `npm run fuzz` (storms of every event kind, the growth check), not
// in npm test, which runs no timed tests.

import { describe, expect, it } from 'vitest'
import { createMerger, createProviderRegistry, defaultRegistry, merge, type ProviderAdapter } from '../../src/index.js'

const sse = (frames: string[]) => frames.map((f) => `data: ${f}\n\n`).join('')
// Text, not test/support/streams.ts's openaiChunk: `fn` and `extra` are JSON fragments spliced in verbatim.
const chatCall = (fn: string, extra = '') => `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0${extra},"function":${fn}}]}}]}`

function nameFragments(n: number): string {
  return sse([chatCall('{"name":"a"}', ',"id":"c"'), ...Array.from({ length: n }, () => chatCall('{"name":"b"}')), '[DONE]'])
}

function responsesDonePairs(n: number): string {
  const frames = ['{"type":"response.created","response":{}}']
  for (let i = 0; i < n; i++) {
    frames.push(`{"type":"response.output_text.delta","output_index":0,"content_index":${i},"delta":"x"}`)
    frames.push(`{"type":"response.output_text.done","output_index":0,"content_index":${i},"text":"x"}`)
  }
  frames.push('{"type":"response.completed","response":{"status":"completed"}}')
  return sse(frames)
}

function argumentsDonePairs(n: number): string {
  const frames = ['{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""}}']
  for (let i = 0; i < n; i++) {
    frames.push('{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc","delta":"x"}')
    frames.push('{"type":"response.function_call_arguments.done","output_index":0,"item_id":"fc","arguments":"y"}')
  }
  return sse(frames)
}

function aiSdkInputPairs(n: number): string {
  const frames = ['{"type":"tool-input-start","toolCallId":"t","toolName":"f"}']
  for (let i = 0; i < n; i++) {
    frames.push('{"type":"tool-input-delta","toolCallId":"t","inputTextDelta":"1"}')
    frames.push('{"type":"tool-input-available","toolCallId":"t","toolName":"f","input":2}')
  }
  return sse(frames)
}

describe('tool-name fragments', () => {
  it('40,000 frames of "name":"b": the name is whole, 100 diagnostics quote 40 characters at most, the rest are counted', () => {
    const m = createMerger()
    m.push(nameFragments(40_000))
    const reply = m.end()
    expect(reply.choices[0]!.toolCalls[0]!.name).toBe('a' + 'b'.repeat(40_000))
    // the call never got arguments: one arguments-invalid beside the name's
    const all = m.diagnostics()
    expect(all.filter((d) => d.code !== 'tool-name-changed').map((d) => [d.code, d.level, d.frame])).toEqual([['arguments-invalid', 'warning', 0]])
    const diagnostics = all.filter((d) => d.code === 'tool-name-changed')
    expect(diagnostics).toHaveLength(101)
    expect(diagnostics[0]!.message).toBe('tool call 0: name fragment "b" appended to "a"')
    expect(diagnostics[99]!.message).toBe(`tool call 0: name fragment "b" appended to "a${'b'.repeat(39)}…"`)
    expect(diagnostics[100]!.message).toBe('39900 more tool-name-changed not listed (40000 in all), the first of them at frame 101')
    expect(Math.max(...diagnostics.map((d) => d.message.length))).toBe(86)
  })

})

describe('Responses *.done storms', () => {
  it('a .done after every delta: the text whole, no diagnostic', () => {
    const m = createMerger()
    m.push(responsesDonePairs(20_000))
    expect(m.end().choices[0]!.content).toBe('x'.repeat(20_000))
    expect(m.diagnostics()).toEqual([])
  })

  it('a differing function_call_arguments.done after every delta: 100 listed, the rest counted', () => {
    const m = createMerger()
    m.push(argumentsDonePairs(5_000))
    expect(m.end().choices[0]!.toolCalls[0]!.arguments).toBe('x'.repeat(5_000))
    const mismatches = m.diagnostics().filter((d) => d.code === 'final-mismatch')
    expect(mismatches).toHaveLength(101)
    expect(mismatches[0]!.message).toBe('response.function_call_arguments.done: final arguments of tool call 0 differ from the concatenated fragments (first difference at character 0: deltas "x", final "y"); the fragments are kept')
    expect(mismatches[100]!.message).toBe('4900 more final-mismatch not listed (5000 in all), the first of them at frame 202')
  })

  it('AI SDK: tool-input-available after every delta: the arguments whole', () => {
    expect(merge(aiSdkInputPairs(100)).choices[0]!.toolCalls[0]!.arguments).toBe('1'.repeat(100))
  })
})

describe('diagnostics quote an excerpt', () => {
  it('an ignored event type of 1 MB is quoted in 60 characters', () => {
    const type = 'response.' + 'z'.repeat(1_000_000)
    const m = createMerger()
    m.push(sse(['{"type":"response.created","response":{}}', `{"type":"surprise${'z'.repeat(1_000_000)}"}`, `{"type":${JSON.stringify(type)}}`]))
    m.end()
    expect(m.diagnostics().filter((d) => d.code === 'note').map((d) => d.message)).toEqual([
      `unknown event "surprise${'z'.repeat(52)}…" ignored`,
    ])
  })

  it('an unknown Anthropic block type of 10,000 characters is quoted in 60', () => {
    const m = createMerger()
    m.push(sse([`{"type":"message_start","message":{"role":"assistant"}}`, `{"type":"content_block_start","index":0,"content_block":{"type":"${'k'.repeat(10_000)}"}}`]))
    m.end()
    expect(m.diagnostics().find((d) => d.code === 'note')!.message).toBe(`content block 0: ${'k'.repeat(60)}… block kept out of the reply`)
  })

  it('a note any adapter words at length is cut at 500 characters', () => {
    const wordy: ProviderAdapter = {
      id: 'wordy', recognizes: () => true,
      createMapper: () => ({ map: () => [{ type: 'note', level: 'info', message: 'n'.repeat(10_000) }] }),
    }
    const m = createMerger({ registry: createProviderRegistry([wordy], defaultRegistry.fallback) })
    m.push(sse(['{}']))
    m.end()
    expect(m.diagnostics().find((d) => d.code === 'note')!.message).toBe('n'.repeat(500) + '…')
  })
})
