// ChatGLM / 智谱清言 on the web (src/providers/chatglm.ts), one rule per test: the whole reply
// each frame, read as snapshots per part; <think> as reasoning; the app's search as a tool call.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { chatglm } from '../../src/providers/chatglm.js'
import { defaultRegistry } from '../../src/providers/index.js'

const part = (logic: string, content: object[], more: object = {}) => ({ logic_id: logic, role: 'assistant', content, status: 'init', ...more })
const text = (t: string) => ({ type: 'text', text: t, status: 'init' })
const frame = (parts: object[], status = 'init', more: object = {}) => `data: ${JSON.stringify({ conversation_id: 'c', parts, status, ...more })}\n\n`

function read(body: string) {
  const m = createMerger({ contentType: 'text/event-stream' })
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('chatglm.recognizes', () => {
  it('claims a frame with parts, a status and its conversation or assistant id; nothing else', () => {
    const yes = (json: unknown) => chatglm.recognizes({ seq: 0, event: null, json })
    expect([yes({ conversation_id: 'c', parts: [], status: 'init' }), yes({ assistant_id: 'a', parts: [], status: 'finish' }), yes({ parts: [], status: 'init' }), yes({ candidates: [{ content: { parts: [] } }] })])
      .toEqual([true, true, false, false])
  })

  it('its URL names it', () => {
    expect([defaultRegistry.hint({ url: 'https://chatglm.cn/chatglm/backend-api/assistant/stream' })?.id, defaultRegistry.hint({ url: 'https://chatglm.cn/chatglm/user-api/user/refresh' })?.id]).toEqual(['chatglm', undefined])
  })
})

describe('reading ChatGLM', () => {
  it('two parts one after another fill the content in order; a part that shrinks is a rewrite', () => {
    const { choice, diagnostics } = read(frame([part('a', [text('One')])]) + frame([part('a', [text('One.')]), part('b', [text(' Two')])]) + frame([part('a', [text('One.')]), part('b', [text(' To')])]))
    expect(choice.content).toBe('One. To')
    expect(diagnostics.filter((d) => d[2] === 'snapshot-rewrote').map((d) => d[0])).toEqual([2])
  })

  it('<think> at the start is reasoning, a partial "<thi" shows nothing yet, and a think item is reasoning too', () => {
    const { choice, diagnostics } = read(frame([part('a', [text('<thi')])]) + frame([part('a', [text('<think>hm</think>ok')])]) + frame([part('a', [text('<think>hm</think>ok'), { type: 'think', think: '!' }])]))
    expect([choice.reasoning, choice.content, diagnostics.filter((d) => d[2] === 'snapshot-rewrote')]).toEqual(['hm!', 'ok', []])
  })

  it('an earlier part that changes after a later one has text is noted, not applied', () => {
    const { choice, diagnostics } = read(frame([part('a', [text('A')]), part('b', [text('B')])]) + frame([part('a', [text('AX')]), part('b', [text('B')])]))
    expect(choice.content).toBe('AB')
    expect(diagnostics.filter((d) => d[2] === 'note').map((d) => [d[0], d[3]])).toEqual([[1, 'an earlier text item ("a/0") changed after another: the change is not applied']])
  })

  it("a quote_result's metadata_list gives the open search its results", () => {
    const call = part('s', [{ type: 'tool_calls', tool_calls: { name: 'browser', arguments: '{"search_query":[{"q":"x"}]}' } }, { type: 'quote_result' }], { meta_data: { metadata_list: [{ title: 'T', url: 'https://t' }] } })
    const { choice } = read(frame([call]) + frame([call, part('a', [text('y')])], 'finish'))
    expect(choice.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['browser', '{"queries":["x"],"results":[{"title":"T","url":"https://t"}]}']])
  })

  it('intervene is the finish (the content filter stopped it); a last_error message is a provider error', () => {
    const { choice, reply, diagnostics } = read(frame([part('a', [text('x')])], 'intervene', { last_error: { code: 'SENSITIVE', message: '内容不合规' } }))
    expect([choice.finishReason, reply.done]).toEqual(['intervene', true])
    expect(diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[3])).toEqual(['the provider sent an error (code "SENSITIVE"): "内容不合规"'])
  })

  it("content that is not text (an image) is noted once, and a user's part is not the reply", () => {
    const { choice, diagnostics } = read(frame([{ logic_id: 'u', role: 'user', content: [text('q')] }, part('a', [{ type: 'image', image: [] }, text('x')])]))
    expect([choice.content, diagnostics.filter((d) => d[2] === 'note').map((d) => d[3])]).toEqual(['x', ['content of type "image" is not reply text: kept out']])
  })
})
