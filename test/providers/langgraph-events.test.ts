// LangGraph's event protocol (src/providers/langgraph-events.ts): one rule per test. Frames
// shaped as in langchain-ai/langgraphjs libs/sdk/src/tests/fixtures/*.sse, cut to the fields read.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { langgraph } from '../../src/providers/langgraph.js'

let seq = 0
const ev = (method: string, data: unknown, namespace: string[] = ['model_request:1']) =>
  `event: ${method}\ndata: ${JSON.stringify({ type: 'event', event_id: String(++seq), seq, method, params: { namespace, timestamp: 0, data } })}\n\n`
const msg = (data: Record<string, unknown>, run = 'run-a') => ev('messages', { ...data, run_id: run })

function read(body: string) {
  const m = createMerger()
  m.push(body)
  const reply = m.end()
  return { reply, choice: reply.choices[0], diagnostics: m.diagnostics().filter((d) => d.code !== 'no-terminal-event').map((d) => [d.frame, d.code]), errors: m.streamErrors() }
}

describe('the event protocol', () => {
  it('its frames name LangGraph whatever their event name', () => {
    expect([
      langgraph.recognizes({ seq: 0, event: 'lifecycle', json: { type: 'event', method: 'lifecycle', params: {} } }),
      langgraph.recognizes({ seq: 0, event: null, json: { type: 'event', method: 'messages', params: { data: {} } } }),
      langgraph.recognizes({ seq: 0, event: 'message', json: { jsonrpc: '2.0', method: 'notify', params: {} } }),
    ]).toEqual([true, true, false])
  })

  it('text blocks append their start text and text-delta; reasoning blocks likewise; a matching finish says nothing', () => {
    const { choice, diagnostics } = read(
      msg({ event: 'message-start', id: 'm1' }) +
      msg({ event: 'content-block-start', index: 0, content: { type: 'reasoning', reasoning: 'Think' } }) +
      msg({ event: 'content-block-delta', index: 0, delta: { type: 'reasoning-delta', reasoning: 'ing.' } }) +
      msg({ event: 'content-block-finish', index: 0, content: { type: 'reasoning', reasoning: 'Thinking.' } }) +
      msg({ event: 'content-block-start', index: 1, content: { type: 'text', text: '' } }) +
      msg({ event: 'content-block-delta', index: 1, delta: { type: 'text-delta', text: 'Two' } }) +
      msg({ event: 'content-block-delta', index: 1, delta: { type: 'text-delta', text: ' ways.' } }) +
      msg({ event: 'content-block-finish', index: 1, content: { type: 'text', text: 'Two ways.' } }),
    )
    expect([choice?.reasoning, choice?.content, diagnostics]).toEqual(['Thinking.', 'Two ways.', []])
  })

  it('a block finish that differs from what was built is a final-mismatch of that block; the built text is kept', () => {
    const { choice, diagnostics } = read(
      msg({ event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: 'Hel' } }) +
      msg({ event: 'content-block-finish', index: 0, content: { type: 'text', text: 'Hello' } }),
    )
    expect([choice?.content, diagnostics]).toEqual(['Hel', [[1, 'final-mismatch']]])
  })

  it('tool_call_chunk args are the text so far; input_json_delta fragments of the same call are not read twice', () => {
    const chunk = (args: string) => msg({ event: 'content-block-delta', index: 0, delta: { type: 'block-delta', fields: { type: 'tool_call_chunk', id: 'toolu_1', name: 'calculator', args } } })
    const frag = (input: string) => msg({ event: 'content-block-delta', index: 0, delta: { type: 'block-delta', fields: { index: 0, input, type: 'input_json_delta' } } })
    const { choice } = read(
      msg({ event: 'content-block-start', index: 0, content: { type: 'tool_use', id: 'toolu_1', name: 'calculator', input: '' } }) +
      chunk('') + frag('{"expre') + chunk('{"expre') + frag('ssion": "1+1"}') + chunk('{"expression": "1+1"}') +
      msg({ event: 'content-block-finish', index: 0, content: { type: 'input_json_delta', id: 'toolu_1', name: 'calculator', args: '{"expression": "1+1"}' } }),
    )
    expect(choice?.toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([['toolu_1', 'calculator', '{"expression": "1+1"}']])
  })

  it('a call with only input_json_delta fragments appends them', () => {
    const frag = (input: string) => msg({ event: 'content-block-delta', index: 2, delta: { type: 'block-delta', fields: { type: 'input_json_delta', input } } })
    const { choice } = read(msg({ event: 'content-block-start', index: 2, content: { type: 'tool_use', id: 't', name: 'f' } }) + frag('{"a"') + frag(':1}'))
    expect(choice?.toolCalls.map((t) => t.arguments)).toEqual(['{"a":1}'])
  })

  it('a tool\'s message (message-start with role tool) is not the reply', () => {
    const { choice } = read(
      msg({ event: 'message-start', id: 'tool-msg', role: 'tool', tool_call_id: 'toolu_1' }, 'run-tool') +
      msg({ event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: '{"value":2}' } }, 'run-tool') +
      msg({ event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: 'It is 2.' } }, 'run-b'),
    )
    expect(choice?.content).toBe('It is 2.')
  })

  it('the finish reason is the last message\'s, given when the root lifecycle completes, which ends the run; a subgraph\'s completion does not', () => {
    const { reply, diagnostics } = read(
      msg({ event: 'message-finish', reason: 'tool_use' }, 'run-a') +
      msg({ event: 'content-block-delta', index: 0, delta: { type: 'text-delta', text: 'Done' } }, 'run-b') +
      msg({ event: 'message-finish', reason: 'stop', usage: { input_tokens: 3 } }, 'run-b') +
      ev('lifecycle', { event: 'completed', graph_name: 'model_request' }) +
      ev('lifecycle', { event: 'completed', graph_name: 'agent' }, []),
    )
    expect([reply.choices[0]?.finishReason, reply.done, reply.usage, diagnostics]).toEqual(['stop', true, { input_tokens: 3 }, []])
  })

  it('the root lifecycle failed is a stream error', () => {
    const { errors } = read(ev('lifecycle', { event: 'failed', error: 'GraphRecursionError' }, []))
    expect(errors.map((e) => [e.frame, e.message])).toEqual([[0, 'GraphRecursionError']])
  })
})
