import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createMerger, merge, suggestRules } from '../../src/index.js'

const f = (json: unknown, event: string | null = null) => ({ event, json })

describe('suggested rules', () => {
  it('a string field that holds a different piece each frame is the text, in append mode; ids and event types are not', () => {
    const s = suggestRules([
      f({ type: 'start', id: 'msg_0123456789' }),
      f({ type: 'chunk', id: 'msg_0123456789', text: 'Hello' }),
      f({ type: 'chunk', id: 'msg_0123456789', text: ', world' }),
      f({ type: 'chunk', id: 'msg_0123456789', text: '!' }),
      f({ type: 'end', id: 'msg_0123456789', reason: 'complete' }),
    ])
    expect(s.rules).toEqual({ version: 1, mode: 'append', text: 'text', finishReason: 'reason', done: { path: 'type', equals: 'end' } })
    expect(s.candidates).toEqual([{ path: 'text', mode: 'append', frames: 3, preview: 'Hello, world!' }])
  })

  it('a field whose value keeps growing is the text in snapshot mode; a reasoning-named one is the reasoning', () => {
    const s = suggestRules([
      f({ message: { thinking: 'Hm', content: { parts: ['Hel'] } } }),
      f({ message: { thinking: 'Hmm.', content: { parts: ['Hello'] } } }),
      f({ message: { thinking: 'Hmm.', content: { parts: ['Hello there'] } }, done: true }),
    ])
    expect(s.rules).toEqual({ version: 1, mode: 'snapshot', text: 'message.content.parts[*]', reasoning: 'message.thinking', done: 'done' })
  })

  it('elements of arrays become [*], and finish_reason, usage and error are found by name', () => {
    const s = suggestRules([
      f({ choices: [{ delta: { content: 'A' } }] }),
      f({ choices: [{ delta: { content: ' b c' } }] }),
      f({ choices: [{ delta: {}, finish_reason: 'stop' }], usage: { total: 3 } }),
      f({ error: { message: 'x' } }),
    ])
    expect(s.rules).toEqual({ version: 1, mode: 'append', text: 'choices[*].delta.content', finishReason: 'choices[*].finish_reason', usage: 'usage', error: 'error' })
  })

  it('frames with no changing string give no rules, and say why', () => {
    expect(suggestRules([f({ n: 1 }), f({ n: 2 })])).toEqual({ rules: null, candidates: [], reasons: ['no string field changes from frame to frame: nothing looks like streamed text'] })
    expect(suggestRules([])).toMatchObject({ rules: null })
  })

  it('the TGI recording: token.text, its special tokens skipped, the frame with generated_text the end: the fixture\'s rules but the finish reason', () => {
    const wire = readFileSync(new URL('../fixtures/rules/tgi-generate-stream.sse', import.meta.url))
    const m = createMerger()
    m.push(wire)
    m.end()
    const s = suggestRules(m.frames().map((fr) => f(fr.json, fr.event)))
    expect(s.rules).toEqual({ version: 1, mode: 'append', text: 'token.text', done: 'generated_text', skip: 'token.special' })
    const reply = merge(wire, { rules: s.rules! })
    expect(reply.choices[0]!.content).toBe(' Deep learning is a learning process that involves learning to learn.')
    expect(reply.done).toBe(true)
  })

  it('Dify\'s example stream: answer, metadata.usage and the message_end event, the fixture\'s rules exactly (event is not text)', () => {
    const wire = readFileSync(new URL('../fixtures/rules/dify-chat-messages.sse', import.meta.url))
    const expected = JSON.parse(readFileSync(new URL('../fixtures/rules/dify-chat-messages.expected.json', import.meta.url), 'utf8')) as { options: { rules: Record<string, unknown> } }
    const m = createMerger()
    m.push(wire)
    m.end()
    const s = suggestRules(m.frames().map((fr) => f(fr.json, fr.event)))
    const { name: _name, ...rules } = expected.options.rules
    expect(s.rules).toEqual(rules)
  })

  it('a deep or huge frame is looked at within bounds, without throwing', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 10_000; i++) deep = { a: deep }
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, `v${i}`]))
    expect(() => suggestRules([f(deep), f(wide), f(deep)])).not.toThrow()
  })
})
