// Hostile input: JSON nested past the call stack (about 4,100 levels: an 8.3 KB frame) in
// every place a provider puts a parsed value. merge() used to throw RangeError (recursive
// JSON.stringify in the adapters), poisoning the merger; a Reply holding such a value could not
// be stringified. Now: the arguments keep their exact text, argumentsError names the limit,
// usage fields and error payloads past it are left out with a `too-deep` diagnostic, the
// frames after are merged, and every Reply stringifies.

import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, jsonText, nestingBeyond, valueTooDeep } from '../../src/core/json-depth.js'
import { createMerger, merge, SYMPTOMS, type Merger, type Reply } from '../../src/index.js'

const LEVELS = 4100
const deepArray = '['.repeat(LEVELS) + ']'.repeat(LEVELS)
const deepObject = '{"a":'.repeat(LEVELS) + '1' + '}'.repeat(LEVELS)
const TOO_DEEP = (position: number) => `nested deeper than 256 levels (at position ${position}): not parsed, the text is kept`

const sse = (...frames: string[]) => frames.map((f) => `data: ${f}\n\n`).join('')
// Text, not test/support/streams.ts's openaiChunk: the deltas and extras are deep JSON texts spliced in verbatim.
const chat = (delta: string, extra = '') => `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":${delta}}]${extra}}`
const chatText = (text: string) => chat(`{"content":${JSON.stringify(text)}}`)

function mergeAll(body: string, options: Parameters<typeof createMerger>[0] = {}): { reply: Reply; merger: Merger } {
  const merger = createMerger(options)
  merger.push(body)
  const reply = merger.end()
  return { reply, merger }
}

/** The Reply survives JSON.stringify, and merge() (which keeps nothing else) agrees with the merger. */
function expectSafe(body: string, reply: Reply, options: Parameters<typeof merge>[1] = {}): void {
  expect(() => JSON.stringify(reply)).not.toThrow()
  expect(merge(body, options)).toEqual(reply)
}

describe('deep JSON: the limit', () => {
  it('is 256 levels, counted on the text (strings skipped) and on values, without recursion', () => {
    expect(MAX_JSON_DEPTH).toBe(256)
    expect(nestingBeyond('['.repeat(256) + ']'.repeat(256))).toBe(-1)
    expect(nestingBeyond('['.repeat(257) + ']'.repeat(257))).toBe(256)
    expect(nestingBeyond(`"${'['.repeat(300)}"`)).toBe(-1)
    expect(nestingBeyond(`["\\"${'['.repeat(300)}"]`)).toBe(-1)
    expect(valueTooDeep(JSON.parse(deepArray))).toBe(true)
    expect(valueTooDeep(JSON.parse('['.repeat(256) + ']'.repeat(256)))).toBe(false)
  })

  it('jsonText writes JSON.stringify\'s text at any depth', () => {
    expect(jsonText(JSON.parse(deepArray))).toBe(deepArray)
    expect(jsonText(JSON.parse(deepObject))).toBe(deepObject)
    const mixed = { b: [1, 'x', null, true, { c: undefined, d: [] }], '__proto__': 2, e: -0 }
    expect(jsonText(mixed)).toBe(JSON.stringify(mixed))
    const deepMixed = JSON.parse('[' + '{"k":[1,"s",'.repeat(300) + 'null' + ']}'.repeat(300) + ']')
    expect(jsonText(deepMixed)).toBe('[' + '{"k":[1,"s",'.repeat(300) + 'null' + ']}'.repeat(300) + ']')
  })
})

describe('deep JSON in every place a provider puts a value', () => {
  it('OpenAI Chat: arguments given as an object keep their exact text, argumentsError names the limit, the next frames merge', () => {
    const frame = chat(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":${deepArray}}}]}`)
    expect(frame.length).toBe(8341) // 8.3 KB
    const body = sse(frame, chatText('after'), '[DONE]')
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.content).toBe('after')
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: 'c', type: 'function', name: 'f', arguments: deepArray, parsedArguments: null, argumentsError: TOO_DEEP(256),
    }])
    expect(reply.frameCount).toBe(3)
    expectSafe(body, reply)
  })

  it('OpenAI Chat: arguments given as a string of deep JSON are not parsed either', () => {
    const body = sse(chat(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":${JSON.stringify(deepArray)}}}]}`), '[DONE]')
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.toolCalls[0]).toMatchObject({ arguments: deepArray, parsedArguments: null, argumentsError: TOO_DEEP(256) })
    expectSafe(body, reply)
  })

  it('an error payload: a stream error without its payload, a too-deep diagnostic, the message an excerpt', () => {
    const body = sse(`{"object":"chat.completion.chunk","choices":[],"error":${deepObject}}`, chatText('after'), '[DONE]')
    const { reply, merger } = mergeAll(body)
    expect(reply.choices[0]!.content).toBe('after')
    expect(merger.streamErrors()).toEqual([{ frame: 0, message: '{"a":'.repeat(200) + '…', code: null, type: null, payload: null }])
    expect(merger.diagnostics().filter((d) => d.code === 'too-deep')).toEqual([{
      frame: 0, level: 'warning', code: 'too-deep', symptom: SYMPTOMS['too-deep'],
      message: 'the error payload of frame 0 is nested deeper than 256 levels: left out (payload null); the frame keeps its text',
    }])
    expect(() => JSON.stringify(merger.streamErrors())).not.toThrow()
    expectSafe(body, reply)
  })

  it('usage: a field nested too deep is left out of the Reply, the others kept, and said', () => {
    const body = sse(`{"object":"chat.completion.chunk","choices":[],"usage":{"total_tokens":3,"deep":${deepArray}}}`, '[DONE]')
    const { reply, merger } = mergeAll(body)
    expect(reply.usage).toEqual({ total_tokens: 3 })
    expect(merger.diagnostics().filter((d) => d.code === 'too-deep').map((d) => d.message)).toEqual([
      'usage field "deep" of frame 0 is nested deeper than 256 levels: left out of the Reply; the frame keeps its text',
    ])
    expectSafe(body, reply)
  })

  it('Anthropic: a tool_use block\'s input', () => {
    const body = sse(
      `{"type":"message_start","message":{"role":"assistant","usage":{"input_tokens":1}}}`,
      `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":${deepArray}}}`,
      `{"type":"content_block_stop","index":0}`,
      `{"type":"message_stop"}`,
    )
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: 't', type: 'tool_use', name: 'f', arguments: deepArray, parsedArguments: null, argumentsError: TOO_DEEP(256),
    }])
    expect(reply.done).toBe(true)
    expectSafe(body, reply)
  })

  it('Gemini: a functionCall\'s args', () => {
    const body = sse(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"x":${deepArray}}}}]},"finishReason":"STOP"}]}`)
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: null, type: 'function', name: 'f', arguments: `{"x":${deepArray}}`, parsedArguments: null, argumentsError: TOO_DEEP(260),
    }])
    expectSafe(body, reply)
  })

  it('Gemini (Vertex): a partialArgs path of 2,205 segments', () => {
    const path = '$' + '.a'.repeat(2205)
    const body = sse(
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","willContinue":true,"partialArgs":[{"jsonPath":"${path}","stringValue":"x"}]}}]}}]}`,
      `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}`,
    )
    const { reply } = mergeAll(body)
    const text = '{"a":'.repeat(2205) + '"x"' + '}'.repeat(2205)
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: null, type: 'function', name: 'f', arguments: text, parsedArguments: null, argumentsError: TOO_DEEP(1280),
    }])
    expectSafe(body, reply)
  })

  it('Ollama: tool call arguments', () => {
    const line = (message: string, done: boolean) => `{"model":"m","created_at":"2025-01-01T00:00:00Z","message":${message},"done":${done}}\n`
    const body = line(`{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"x":${deepArray}}}}]}`, false) +
      line('{"role":"assistant","content":"ok"}', true)
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.content).toBe('ok')
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: null, type: 'function', name: 'f', arguments: `{"x":${deepArray}}`, parsedArguments: null, argumentsError: TOO_DEEP(260),
    }])
    expectSafe(body, reply)
  })

  it('AI SDK: a tool-input-available input', () => {
    const body = sse(
      '{"type":"start"}',
      `{"type":"tool-input-available","toolCallId":"t1","toolName":"f","input":${deepArray}}`,
      '{"type":"finish"}',
      '[DONE]',
    )
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.toolCalls).toEqual([{
      index: 0, id: 't1', type: 'function', name: 'f', arguments: deepArray, parsedArguments: null, argumentsError: TOO_DEEP(256),
    }])
    expectSafe(body, reply)
  })

  it('at the limit exactly, arguments are parsed as before', () => {
    const atLimit = '['.repeat(256) + ']'.repeat(256)
    const body = sse(chat(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":${atLimit}}}]}`), '[DONE]')
    const { reply } = mergeAll(body)
    expect(reply.choices[0]!.toolCalls[0]!.argumentsError).toBeNull()
    expect(JSON.stringify(reply.choices[0]!.toolCalls[0]!.parsedArguments)).toBe(atLimit)
  })

  it('replyAt (the panel\'s scrubber) reads the same frames without throwing', () => {
    const body = sse(chat(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":${deepArray}}}]}`), chatText('after'), '[DONE]')
    const { reply, merger } = mergeAll(body)
    expect(merger.replyAt(0).choices[0]!.toolCalls[0]!.argumentsError).toBe(TOO_DEEP(256))
    expect(merger.replyAt(2)).toEqual(reply)
  })
})

describe('deep JSON in exports', () => {
  it('JSON Lines of a multi-line frame 4,100 levels deep: the value on one line, as JSON.stringify would write it', async () => {
    const { toJsonLines } = await import('../../src/exchange/raw.js')
    const m = createMerger()
    m.push(`data: ${deepArray.slice(0, 10)}\ndata: ${deepArray.slice(10)}\n\n`)
    m.end()
    expect(toJsonLines(m.frames())).toEqual({ text: deepArray + '\n', lines: 1, skipped: [] })
  })
})
