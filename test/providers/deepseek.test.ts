// DeepSeek on the web (src/providers/deepseek.ts), one rule per test: path operations on one
// response object, sticky paths and ops, fragments by type, the app's search as a tool call.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { deepseek } from '../../src/providers/deepseek.js'

const yes = (json: unknown, event: string | null = null) => deepseek.recognizes({ seq: 0, event, json })
const sse = (...frames: Array<object | string>) => frames.map((f) => typeof f === 'string' ? f : `data: ${JSON.stringify(f)}\n\n`).join('')
const snapshot = (...fragments: object[]) => ({ v: { response: { message_id: 2, fragments } } })

function read(body: string, options: { contentType?: string; url?: string } = { contentType: 'text/event-stream' }) {
  const m = createMerger(options)
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('deepseek.recognizes', () => {
  it('claims the whole-response frame, operations on response paths with upper-case ops, and the ready event', () => {
    expect([
      yes(snapshot({ type: 'THINK', content: 'a' })), yes({ p: 'response/fragments/-1/content', o: 'APPEND', v: 'a' }),
      yes({ p: 'response/status', v: 'FINISHED' }), yes({ p: 'response', o: 'BATCH', v: [] }),
      yes({ request_message_id: 1, response_message_id: 2 }, 'ready'),
    ]).toEqual([true, true, true, true, true])
  })

  it("leaves ChatGPT web's operations (paths from /, lower-case ops), bare values and other frames alone", () => {
    expect([
      yes({ p: '/message/content/parts/0', o: 'append', v: 'a' }), yes({ v: 'a' }), yes({ p: 'response/x', o: 'append', v: 1 }),
      yes({ v: { response: {} }, c: 1 }), yes({ p: 'message', v: 'a' }), yes({ click_behavior: 'none' }, 'close'),
    ]).toEqual([false, false, false, false, false, false])
  })

  it('is registered before chatgpt-web, and its URLs name it', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { p: 'response/fragments/-1/content', o: 'APPEND', v: 'a' } })?.id).toBe('deepseek')
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { p: '/message/content/parts/0', o: 'append', v: 'a' } })?.id).toBe('chatgpt-web')
    expect([
      defaultRegistry.hint({ url: 'https://chat.deepseek.com/api/v0/chat/completion' })?.id,
      defaultRegistry.hint({ url: 'https://chat.deepseek.com/api/v0/chat/regenerate' })?.id,
      defaultRegistry.hint({ url: 'https://chat.deepseek.com/api/v0/chat_session/create' })?.id,
    ]).toEqual(['deepseek', 'deepseek', undefined])
  })
})

describe('reading the operations', () => {
  it('a bare value continues the last path with the last op; a content path without an op appends', () => {
    const { choice } = read(sse(snapshot({ type: 'RESPONSE', content: 'A' }), { p: 'response/fragments/-1/content', v: 'B' }, { v: 'C' }, { p: 'response/fragments/-1/content', o: 'APPEND', v: 'D' }, { v: 'E' }))
    expect(choice.content).toBe('ABCDE')
  })

  it('a SET of the latest fragment\'s content replaces its text, with a snapshot warning', () => {
    const { choice, diagnostics } = read(sse(snapshot({ type: 'RESPONSE', content: 'Hel' }), { p: 'response/fragments/-1/content', o: 'SET', v: 'Hello' }, { p: 'response/fragments/-1/content', o: 'SET', v: 'Hi' }))
    expect(choice.content).toBe('Hi')
    expect(diagnostics.filter((d) => d[2] === 'snapshot-rewrote').map((d) => d[0])).toEqual([2])
  })

  it('a BATCH applies its items at paths relative to its own: a fragment appended, its content, the usage', () => {
    const { reply, choice } = read(sse(
      snapshot({ type: 'THINK', content: 'hm' }),
      { p: 'response', o: 'BATCH', v: [{ p: 'accumulated_token_usage', v: 340 }, { p: 'fragments', o: 'APPEND', v: [{ type: 'RESPONSE', content: 'x' }] }, { p: 'fragments/-1/content', o: 'APPEND', v: 'y' }] },
    ))
    expect([choice.reasoning, choice.content, reply.usage]).toEqual(['hm', 'xy', { accumulated_token_usage: 340 }])
  })

  it('a bare list of operations is a batch on the response: its status ends it', () => {
    const { reply, choice } = read(sse(snapshot({ type: 'RESPONSE', content: 'x' }), { v: [{ p: 'status', v: 'FINISHED' }, { p: 'quasi_status', v: 'FINISHED' }] }))
    expect([choice.finishReason, reply.done]).toEqual(['FINISHED', true])
  })

  it('an APPEND of one fragment object at response/fragments/-1 opens it', () => {
    const { choice } = read(sse({ p: 'response/fragments/-1', o: 'APPEND', v: { type: 'TEXT', content: 'BOT' } }, { p: 'response/fragments/-1/content', o: 'APPEND', v: '_OK' }))
    expect(choice.content).toBe('BOT_OK')
  })

  it('status FAILED is the finish and a provider error; an error body ({code, msg}) at the URL is one too', () => {
    const failed = read(sse(snapshot({ type: 'RESPONSE', content: '' }), { p: 'response/status', v: 'FAILED' }))
    expect([failed.choice.finishReason, failed.diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[0])]).toEqual(['FAILED', [1]])
    const auth = read(sse({ code: 40003, msg: 'Authorization Failed', data: null }), { contentType: 'text/event-stream', url: 'https://chat.deepseek.com/api/v0/chat/completion' })
    expect([auth.reply.provider, auth.diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[3])]).toEqual(['deepseek', ['the provider sent an error (code 40003): "Authorization Failed"']])
  })

  it('a fragment type that is not text (an unknown one) is noted once and kept out', () => {
    const { choice, diagnostics } = read(sse(snapshot({ type: 'IMAGE', content: 'x' }), { p: 'response/fragments/-1/content', o: 'APPEND', v: 'y' }))
    expect([choice.content, diagnostics.filter((d) => d[2] === 'note').map((d) => [d[0], d[3]])]).toEqual(['', [[0, 'fragment type "IMAGE" is not reply text: kept out']]])
  })

  it('a bare value before any path (the URL told) is noted, not applied', () => {
    const { reply, diagnostics } = read(sse({ v: 'x' }, snapshot({ type: 'RESPONSE', content: 'y' })), { contentType: 'text/event-stream', url: 'https://chat.deepseek.com/api/v0/chat/completion' })
    expect(reply.choices.map((c) => c.content)).toEqual(['y'])
    expect(diagnostics.filter((d) => d[2] === 'note').map((d) => [d[0], d[3]])).toEqual([[0, 'a value with no path before any path: "x" is not applied']])
  })
})

describe('the search fragment', () => {
  it('is the tool call search: its queries and results (SET replaces them, APPEND adds), closed by the next fragment', () => {
    const { choice } = read(sse(
      snapshot({ id: 2, type: 'SEARCH', queries: ['q'], results: [] }),
      { p: 'response/fragments/-1/results', v: [{ url: 'https://a', cite_index: 1 }] },
      { p: 'response/fragments/-1/results', o: 'APPEND', v: [{ url: 'https://b', cite_index: 2 }] },
      { p: 'response/fragments', o: 'APPEND', v: [{ type: 'RESPONSE', content: 'see [citation:2]' }] },
    ))
    expect(choice.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([['fragment:2', 'search', '{"queries":["q"],"results":[{"url":"https://a","cite_index":1},{"url":"https://b","cite_index":2}]}']])
    expect(choice.content).toBe('see [citation:2]')
  })

  it('two search rounds between thinking are two calls, in order', () => {
    const { choice } = read(sse(
      snapshot({ type: 'THINK', content: 'a' }),
      { p: 'response/fragments', o: 'APPEND', v: [{ type: 'SEARCH', queries: ['1'] }] },
      { p: 'response/fragments', o: 'APPEND', v: [{ type: 'THINK', content: 'b' }] },
      { p: 'response/fragments', o: 'APPEND', v: [{ type: 'SEARCH', queries: ['2'] }] },
    ))
    expect([choice.reasoning, choice.toolCalls.map((c) => [c.index, JSON.parse(c.arguments).queries])]).toEqual(['ab', [[0, ['1']], [1, ['2']]]])
  })
})
