// Qwen on the web (src/providers/qwen.ts), one rule per test: Qwen Chat's phased deltas and
// its web search, Tongyi's whole-message snapshots.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { qwen } from '../../src/providers/qwen.js'

const yes = (json: unknown) => qwen.recognizes({ seq: 0, event: null, json })
const chunk = (delta: object, extra: object = {}) => ({ choices: [{ delta, ...extra }] })
const sse = (...frames: Array<object | string>) => frames.map((f) => `data: ${typeof f === 'string' ? f : JSON.stringify(f)}\n\n`).join('')
const tongyi = (text: string, msgStatus = 'generating', more: object = {}) => ({ contents: [{ content: text, contentType: 'text', role: 'assistant' }], msgStatus, sessionId: 's', msgId: 'm', canShare: true, ...more })

function read(body: string, options: { contentType?: string; url?: string } = { contentType: 'text/event-stream' }) {
  const m = createMerger(options)
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('qwen.recognizes', () => {
  it('claims a delta that names its phase, the response.created frame and a Tongyi frame', () => {
    expect([yes(chunk({ phase: 'think', content: 'a' })), yes({ 'response.created': { chat_id: 'c' } }), yes(tongyi('a'))]).toEqual([true, true, true])
  })

  it('leaves plain OpenAI chunks to openai-chat, and frames without their fields alone', () => {
    expect([yes(chunk({ content: 'a' })), yes({ msgStatus: 'finished' }), yes({ type: 'response.created' })]).toEqual([false, false, false])
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: chunk({ content: 'a' }) })?.id).toBe('openai-chat')
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: chunk({ phase: 'answer', content: 'a' }) })?.id).toBe('qwen')
  })

  it('its URLs name it: Qwen Chat and Tongyi', () => {
    expect([
      defaultRegistry.hint({ url: 'https://chat.qwen.ai/api/v2/chat/completions?chat_id=abc' })?.id,
      defaultRegistry.hint({ url: 'https://qianwen.biz.aliyun.com/dialog/conversation' })?.id,
      defaultRegistry.hint({ url: 'https://chat.qwen.ai/api/v2/chats/new' })?.id,
    ]).toEqual(['qwen', 'qwen', undefined])
  })
})

describe('reading Qwen Chat', () => {
  it('think is reasoning, answer and phase-less deltas content; a finish_reason is the finish', () => {
    const { choice } = read(sse(chunk({ phase: 'think', content: 'r' }), chunk({ phase: 'answer', content: 'a' }), chunk({ content: 'b' }, { finish_reason: 'stop' }), '[DONE]'))
    expect([choice.reasoning, choice.content, choice.finishReason]).toEqual(['r', 'ab', 'stop'])
  })

  it('a web_search phase is the tool call web_search; two searches apart are two calls', () => {
    const search = (q: string, url: string) => chunk({ phase: 'web_search', function_call: { name: 'web_search', arguments: JSON.stringify({ queries: [q] }) }, extra: { web_search_info: [{ url }] } })
    const { choice } = read(sse(search('a', 'https://a'), chunk({ phase: 'think', content: 't' }), search('b', 'https://b'), chunk({ phase: 'answer', content: 'x' })))
    expect(choice.toolCalls.map((c) => [c.index, c.name, c.arguments])).toEqual([
      [0, 'web_search', '{"queries":["a"],"results":[{"url":"https://a"}]}'],
      [1, 'web_search', '{"queries":["b"],"results":[{"url":"https://b"}]}'],
    ])
  })

  it('arguments that are not JSON give no queries, the results still count', () => {
    const { choice } = read(sse(chunk({ phase: 'web_search', function_call: { name: 'web_search', arguments: '{"queries": [' }, extra: { web_search_info: [{ url: 'u' }] } })))
    expect(choice.toolCalls.map((c) => c.arguments)).toEqual(['{"queries":[],"results":[{"url":"u"}]}'])
  })

  it('an error payload, or success: false with its code and details, is a provider error', () => {
    const a = read(sse({ error: { code: 'RateLimited', message: 'slow down' } }), { contentType: 'text/event-stream', url: 'https://chat.qwen.ai/api/v2/chat/completions' })
    const b = read(sse({ success: false, data: { code: 'Bad_Request', details: 'chat is in progress' } }), { contentType: 'text/event-stream', url: 'https://chat.qwen.ai/api/v2/chat/completions' })
    expect([a, b].map((r) => r.diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[3]))).toEqual([
      ['the provider sent an error (code "RateLimited"): "slow down"'], ['the provider sent an error (code "Bad_Request"): "chat is in progress"'],
    ])
  })
})

describe('reading Tongyi', () => {
  it('each frame is the whole message: a rewrite replaces the text, with a snapshot warning', () => {
    const { choice, diagnostics } = read(sse(tongyi('Hello wor'), tongyi('Hello world'), tongyi('Hi', 'finished')))
    expect([choice.content, choice.finishReason]).toEqual(['Hi', 'finished'])
    expect(diagnostics.filter((d) => d[2] === 'snapshot-rewrote').map((d) => d[0])).toEqual([2])
  })

  it('canShare false is a content filter; an errorCode on the last frame a provider error', () => {
    const filtered = read(sse(tongyi('a', 'finished', { canShare: false })))
    const failed = read(sse(tongyi('', 'finished', { errorCode: 'B500', errorMsg: '服务繁忙' })))
    expect(filtered.choice.finishReason).toBe('content_filter')
    expect(failed.diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[3])).toEqual(['the provider sent an error (code "B500"): "服务繁忙"'])
  })

  it("the user's contents and contents that are not text are not the reply", () => {
    const frame = { ...tongyi('x'), contents: [{ content: 'q', contentType: 'text', role: 'user' }, { content: '{}', contentType: 'plugin', role: 'assistant' }, { content: 'x', contentType: 'text', role: 'assistant' }] }
    const { choice, diagnostics } = read(sse(frame))
    expect([choice.content, diagnostics.filter((d) => d[2] === 'note').map((d) => d[3])]).toEqual(['x', ['contents of type "plugin" are not reply text: kept out']])
  })
})
