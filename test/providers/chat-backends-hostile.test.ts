// The LangGraph and LibreChat readers on hostile data: every event name they know, with data of
// every wrong shape, in every field they read. Whatever arrives, no frame fails (an adapter
// that threw would be a frame-failed error), and the Reply survives JSON.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'

const WRONG: unknown[] = [null, 0, -1, 1.5, 1e308, '', 'x', true, [], [null], [1, 'a'], {}, { __proto__: 1 }, [[[]]], { toString: 1 }]

/** A value of the usual shape with one field replaced by each wrong value, recursively one level down. */
function variants(base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [...WRONG]
  for (const key of Object.keys(base)) {
    for (const w of WRONG) out.push({ ...base, [key]: w })
    const inner = base[key]
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      for (const ik of Object.keys(inner)) for (const w of WRONG) out.push({ ...base, [key]: { ...(inner as object), [ik]: w } })
    }
  }
  return out
}

function failures(provider: string, frames: Array<[string, unknown]>): string[] {
  const m = createMerger({ provider })
  m.push(frames.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(''))
  const reply = m.end()
  JSON.parse(JSON.stringify(reply))
  return m.diagnostics().filter((d) => d.code === 'frame-failed').map((d) => d.message)
}

describe('hostile data never fails a frame', () => {
  it('LangGraph: every stream mode and event-protocol event, every field of every shape', () => {
    const message = { type: 'ai', id: 'm', content: [{ type: 'tool_use', id: 't', name: 'f', partial_json: '{' }], tool_calls: [{ id: 't', name: 'f', args: {} }], tool_call_chunks: [{ index: 0, args: '{' }], response_metadata: { stop_reason: 'x' }, usage_metadata: { a: 1 }, additional_kwargs: { reasoning_content: 'r' } }
    const frames: Array<[string, unknown]> = []
    for (const v of variants(message)) {
      frames.push(['messages', [v, {}]], ['messages|ns', [{ ...message, type: 'AIMessageChunk' }, v]], ['messages/partial', [v]], ['messages/complete', [v]])
    }
    for (const mode of ['metadata', 'messages/metadata', 'values', 'error', 'end', 'debug', 'surprise']) for (const w of WRONG) frames.push([mode, w])
    const event = { event: 'content-block-delta', run_id: 'r', index: 0, delta: { type: 'block-delta', fields: { type: 'tool_call_chunk', args: '{' } }, content: { type: 'text', text: 'x' } }
    for (const name of ['message-start', 'content-block-start', 'content-block-delta', 'content-block-finish', 'message-finish', 'usage']) {
      for (const v of variants({ ...event, event: name })) frames.push(['messages', { type: 'event', method: 'messages', params: { namespace: [], data: v } }])
    }
    for (const w of WRONG) frames.push(['lifecycle', { type: 'event', method: 'lifecycle', params: { namespace: w, data: w } }])
    expect(failures('langgraph', frames)).toEqual([])
  })

  it('LibreChat: every key shape and step event, every field of every shape', () => {
    const frames: Array<[string, unknown]> = []
    const steps = {
      on_run_step: { id: 's', index: 0, stepDetails: { type: 'tool_calls', tool_calls: [{ id: 'a', name: 'f', args: '{}' }] } },
      on_run_step_delta: { id: 's', delta: { type: 'tool_calls', tool_calls: [{ index: 0, args: '{' }] } },
      on_run_step_completed: { result: { id: 's', tool_call: { id: 'a', name: 'f', args: { x: 1 } } } },
      on_message_delta: { id: 's', delta: { content: [{ type: 'text', text: 'x' }] } },
      on_reasoning_delta: { id: 's', delta: { content: [{ type: 'think', think: 'x' }] } },
    }
    for (const [event, data] of Object.entries(steps)) for (const v of variants(data)) frames.push(['message', { event, data: v }])
    for (const v of variants({ final: true, responseMessage: { text: 'x', content: [{ type: 'text', text: 'x' }], error: false } })) frames.push(['message', v])
    for (const v of variants({ message: true, text: 'x' })) frames.push(['message', v])
    for (const v of variants({ type: 'text', text: { value: 'x' }, index: 0, messageId: 'r' })) frames.push(['message', v])
    for (const w of WRONG) frames.push(['error', w], ['message', w])
    expect(failures('librechat', frames)).toEqual([])
  })
})
