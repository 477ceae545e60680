// LibreChat (src/providers/librechat.ts): one rule per test. Frames shaped as LibreChat's own
// tests write them (client/src/hooks/SSE/__tests__/frames.spec.ts, useStepHandler.spec.ts).

import { describe, expect, it } from 'vitest'
import { createMerger, type Reply } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { librechat } from '../../src/providers/librechat.js'

type Frame = [event: string, data: unknown]

const sse = (frames: Frame[]) => frames.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join('')

function read(frames: Frame[]) {
  const m = createMerger()
  m.push(sse(frames))
  const reply = m.end()
  return { reply, diagnostics: m.diagnostics().map((d) => [d.frame, d.code]), provenance: m.provenance(), errors: m.streamErrors() }
}

const choice = (r: Reply) => r.choices[0]!
const step = (event: string, data: unknown): Frame => ['message', { event, data }]
const text = (id: string, t: string) => step('on_message_delta', { id, delta: { content: [{ type: 'text', text: t }] } })
const toolStep = (id: string, calls: unknown[]) => step('on_run_step', { id, runId: 'r1', index: 1, type: 'tool_calls', stepDetails: { type: 'tool_calls', tool_calls: calls } })
const final = (responseMessage: unknown): Frame => ['message', { final: true, conversation: { conversationId: 'c1' }, responseMessage }]

describe('recognition', () => {
  const claims = (event: string, json: unknown) => librechat.recognizes({ seq: 0, event, json })

  it('each of its message frame shapes names it', () => {
    expect([
      claims('message', { created: true, message: { messageId: 'u' } }),
      claims('message', { event: 'on_run_step', data: { id: 's' } }),
      claims('message', { final: true, responseMessage: { text: '' } }),
      claims('message', { sync: true, requestMessage: {} }),
      claims('message', { message: true, text: 'Hi', messageId: 'r' }),
      claims('message', { type: 'text', text: 'Hi', index: 0, messageId: 'r' }),
      claims('error', { error: true, final: true, text: 'boom', messageId: 'r' }),
    ]).toEqual([true, true, true, true, true, true, true])
  })

  it('other protocols\' frames are not its own: Anthropic\'s error, AG-UI\'s text events, a frame under another event name', () => {
    expect([
      claims('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      claims('message', { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hi' }),
      claims('data', { event: 'on_message_delta', data: {} }),
      claims('message', { event: 'message_start', data: {} }),
    ]).toEqual([false, false, false, false])
  })

  it('the default registry names a LibreChat stream librechat and an Anthropic error anthropic', () => {
    expect([
      defaultRegistry.recognize({ seq: 0, event: 'message', json: { event: 'on_message_delta', data: { id: 's', delta: {} } } })?.id,
      defaultRegistry.recognize({ seq: 0, event: 'error', json: { type: 'error', error: { type: 'api_error', message: 'x' } } })?.id,
    ]).toEqual(['librechat', 'anthropic'])
  })
})

describe('agents step events', () => {
  it('a frame with both final and event is final, as the client checks keys in order', () => {
    const { reply } = read([text('s1', 'Hi'), ['message', { final: true, event: 'on_message_delta', data: { id: 's1', delta: { content: [{ type: 'text', text: 'X' }] } }, responseMessage: { text: 'Hi' } }]])
    expect([choice(reply).content, reply.done]).toEqual(['Hi', true])
  })

  it('a delta that arrives before its step is applied', () => {
    const { reply } = read([text('s1', 'early'), step('on_run_step', { id: 's1', runId: 'r1', index: 0, stepDetails: { type: 'message_creation' } })])
    expect(choice(reply).content).toBe('early')
  })

  it('a run step\'s args are the arguments only when no fragment comes', () => {
    const { reply } = read([toolStep('t1', [{ id: 'tool-call-1', name: 'test_tool', args: '{}', type: 'tool_call' }])])
    expect(choice(reply).toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([['tool-call-1', 'test_tool', '{}']])
  })

  it('fragments of two steps are two calls, in order of appearance', () => {
    const { reply } = read([
      toolStep('t1', [{ id: 'a', name: 'f', args: '', type: 'tool_call' }]),
      toolStep('t2', [{ id: 'b', name: 'g', args: '', type: 'tool_call' }]),
      step('on_run_step_delta', { id: 't2', delta: { type: 'tool_calls', tool_calls: [{ args: '{"y":2}' }] } }),
      step('on_run_step_delta', { id: 't1', delta: { type: 'tool_calls', tool_calls: [{ args: '{"x":1}' }] } }),
    ])
    expect(choice(reply).toolCalls.map((t) => [t.index, t.id, t.arguments])).toEqual([[0, 'a', '{"x":1}'], [1, 'b', '{"y":2}']])
  })

  it('a completed call whose args differ from the fragments is a final-mismatch; the fragments are kept', () => {
    const { reply, diagnostics } = read([
      toolStep('t1', [{ id: 'a', name: 'f', args: '', type: 'tool_call' }]),
      step('on_run_step_delta', { id: 't1', delta: { type: 'tool_calls', tool_calls: [{ args: '{"x":1}' }] } }),
      step('on_run_step_completed', { result: { id: 't1', index: 1, tool_call: { id: 'a', name: 'f', args: '{"x":2}', output: 'ok' } } }),
    ])
    expect([choice(reply).toolCalls[0]!.arguments, diagnostics.filter(([, c]) => c !== 'no-terminal-event')]).toEqual(['{"x":1}', [[2, 'final-mismatch']]])
  })

  it('a completed call with parsed args fills a call that had no fragment, and is not compared with one that had', () => {
    const { reply, diagnostics } = read([
      toolStep('t1', [{ id: 'a', name: 'f', type: 'tool_call' }]),
      step('on_run_step_completed', { result: { id: 't1', tool_call: { id: 'a', name: 'f', args: { q: 1 } } } }),
      toolStep('t2', [{ id: 'b', name: 'g', type: 'tool_call' }]),
      step('on_run_step_delta', { id: 't2', delta: { type: 'tool_calls', tool_calls: [{ args: '{"r": 2}' }] } }),
      step('on_run_step_completed', { result: { id: 't2', tool_call: { id: 'b', name: 'g', args: { r: 2 } } } }),
    ])
    expect(choice(reply).toolCalls.map((t) => t.arguments)).toEqual(['{"q":1}', '{"r": 2}'])
    expect(diagnostics.filter(([, c]) => c !== 'no-terminal-event')).toEqual([])
  })

  it('side-channel step events (agent updates, summaries, usage) are not the reply', () => {
    const { reply, diagnostics } = read([
      step('on_agent_update', { agent_update: { index: 0, runId: 'r1', agentId: 'a' } }),
      step('on_token_usage', { input: 5 }),
      text('s1', 'ok'),
      final({ text: 'ok' }),
    ])
    expect([choice(reply).content, diagnostics]).toEqual(['ok', []])
  })
})

describe('final, legacy frames, errors', () => {
  it('final fills the content when no delta came (a non-streamed reply)', () => {
    const { reply, diagnostics } = read([final({ messageId: 'r1', text: 'Whole answer.' })])
    expect([choice(reply).content, reply.done, diagnostics]).toEqual(['Whole answer.', true, [[0, 'final-mismatch']]])
  })

  it('a final text that differs from the merged one is a final-mismatch; the merged text is kept', () => {
    const { reply, diagnostics } = read([text('s1', 'Hello'), final({ content: [{ type: 'text', text: 'Hello!' }] })])
    expect([choice(reply).content, diagnostics]).toEqual(['Hello', [[1, 'final-mismatch']]])
  })

  it('a final whose responseMessage is an error is a stream error', () => {
    const { errors, reply } = read([text('s1', 'Part'), final({ error: true, text: 'The model failed' })])
    expect([errors.map((e) => [e.frame, e.message]), choice(reply).content]).toEqual([[[1, 'The model failed']], 'Part'])
  })

  it('legacy content parts are snapshots of their part: two parts write one after the other', () => {
    const part = (index: number, t: string): Frame => ['message', { type: 'text', text: { value: t }, index, messageId: 'r-1' }]
    const { reply, provenance } = read([part(0, 'One'), part(0, 'One.'), part(1, ' Two'), part(1, ' Two.')])
    expect([choice(reply).content, provenance.map((p) => [p.frame, p.start, p.end])]).toEqual(['One. Two.', [[0, 0, 3], [1, 3, 4], [2, 4, 8], [3, 8, 9]]])
  })

  it('a legacy text snapshot that shrinks leaves the shorter text, with the diagnostic', () => {
    const t = (s: string): Frame => ['message', { message: true, text: s, messageId: 'r' }]
    const { reply, diagnostics } = read([t('Hello there'), t('Hello')])
    expect([choice(reply).content, diagnostics.filter(([, c]) => c !== 'no-terminal-event')]).toEqual(['Hello', [[1, 'snapshot-rewrote']]])
  })

  it('a frame that is not an object, or has none of the keys, is an info note', () => {
    const { diagnostics } = read([text('s1', 'x'), ['message', { other: 1 }], ['message', [1, 2]]])
    expect(diagnostics.filter(([, c]) => c !== 'no-terminal-event')).toEqual([[1, 'note'], [2, 'note']])
  })
})
