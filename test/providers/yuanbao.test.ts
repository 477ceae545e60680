// Yuanbao on the web (src/providers/yuanbao.ts), one rule per test: typed frames, text and
// thinking as deltas, searchGuid as the tool call search.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { yuanbao } from '../../src/providers/yuanbao.js'

const sse = (...frames: Array<object | string>) => frames.map((f) => `data: ${typeof f === 'string' ? f : JSON.stringify(f)}\n\n`).join('')

function read(body: string) {
  const m = createMerger({ contentType: 'text/event-stream' })
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('yuanbao.recognizes', () => {
  it('claims its typed frames with their own fields, and leaves look-alikes alone', () => {
    const yes = (json: unknown) => yuanbao.recognizes({ seq: 0, event: null, json })
    expect([
      yes({ type: 'text', msg: 'a' }), yes({ type: 'text' }), yes({ type: 'think', title: 't', content: 'a' }), yes({ type: 'searchGuid', docs: [] }), yes({ type: 'step', msg: 'm', scene: 's' }),
      yes({ type: 'text', text: 'a' }), yes({ type: 'think', content: 'a' }), yes({ type: 'searchGuid' }), yes({ type: 'text', msg: 'a', index: 0 }),
    ]).toEqual([true, true, true, true, true, false, false, false, true])
  })

  it('its URL names it', () => {
    expect([defaultRegistry.hint({ url: 'https://yuanbao.tencent.com/api/chat/0c1e2d3f' })?.id, defaultRegistry.hint({ url: 'https://yuanbao.tencent.com/api/user/agent/conversation/list' })?.id]).toEqual(['yuanbao', undefined])
  })
})

describe('reading Yuanbao', () => {
  it('text msg is content, think content reasoning; [DONE] ends it', () => {
    const { reply, choice } = read(sse({ type: 'think', title: '思考中', iconType: 9, content: '想' }, { type: 'text', msg: '答' }, '[DONE]'))
    expect([choice.reasoning, choice.content, reply.done]).toEqual(['想', '答', true])
  })

  it('two searchGuid frames are two searches, each closed by the next', () => {
    const { choice } = read(sse({ type: 'searchGuid', docs: [{ index: 1 }] }, { type: 'searchGuid', docs: [{ index: 2 }] }, { type: 'text', msg: 'x' }))
    expect(choice.toolCalls.map((c) => [c.index, c.arguments])).toEqual([[0, '{"queries":[],"results":[{"index":1}]}'], [1, '{"queries":[],"results":[{"index":2}]}']])
  })

  it('an error frame is a provider error; an unknown frame type is noted once; page furniture is not', () => {
    const { diagnostics } = read(sse({ type: 'text', msg: 'a' }, { type: 'error', msg: '请求过于频繁', code: 429 }, { type: 'card', x: 1 }, { type: 'card', x: 2 }, { type: 'meta', v: 1 }))
    expect(diagnostics.filter((d) => d[2] === 'provider-error' || d[2] === 'note').map((d) => [d[0], d[2], d[3]])).toEqual([
      [1, 'provider-error', 'the provider sent an error (code 429): "请求过于频繁"'], [2, 'note', 'frame type "card" is not reply text: kept out'],
    ])
  })
})
