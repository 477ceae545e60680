// Doubao on the web (src/providers/doubao.ts), one rule per test: named events, content blocks
// by type (text, thinking, search), the answer read once from CHUNK_DELTA or STREAM_CHUNK.

import { describe, expect, it } from 'vitest'
import { createMerger } from '../../src/index.js'
import { defaultRegistry } from '../../src/providers/index.js'
import { doubao } from '../../src/providers/doubao.js'

const ev = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
const text = (t: string, more: object = {}) => ({ block_type: 10000, content: { text_block: { text: t } }, ...more })
const chunk = (...blocks: object[]) => ev('STREAM_CHUNK', { patch_op: [{ patch_object: 1, patch_value: { content_block: blocks } }] })

function read(body: string) {
  const m = createMerger({ contentType: 'text/event-stream' })
  m.push(new TextEncoder().encode(body))
  const reply = m.end()
  return { reply, choice: reply.choices[0]!, diagnostics: m.diagnostics().map((d) => [d.frame, d.level, d.code, d.message]) }
}

describe('doubao.recognizes', () => {
  it('claims its own event names with a JSON object, nothing else', () => {
    const yes = (event: string | null, json: unknown) => doubao.recognizes({ seq: 0, event, json })
    expect([yes('STREAM_CHUNK', {}), yes('CHUNK_DELTA', { text: 'a' }), yes('SSE_REPLY_END', { end_type: 1 }), yes('STREAM_CHUNK', 'x'), yes(null, { text: 'a' }), yes('message', { text: 'a' })])
      .toEqual([true, true, true, false, false, false])
  })

  it('its URLs name it: Doubao and Dola', () => {
    expect([
      defaultRegistry.hint({ url: 'https://www.doubao.com/chat/completion?aid=497858' })?.id,
      defaultRegistry.hint({ url: 'https://www.dola.com/samantha/chat/completion' })?.id,
      defaultRegistry.hint({ url: 'https://www.doubao.com/alice/message/list' })?.id,
    ]).toEqual(['doubao', 'doubao', undefined])
  })
})

describe('reading Doubao', () => {
  it('patch_type 2 replaces the block\'s text (a snapshot warning), other patches append', () => {
    const { choice, diagnostics } = read(chunk(text('draft', { block_id: 'a' })) + chunk(text('Final', { block_id: 'a', patch_type: 2 })) + chunk(text(' answer', { block_id: 'a' })))
    expect(choice.content).toBe('Final answer')
    expect(diagnostics.filter((d) => d[2] === 'snapshot-rewrote').map((d) => d[0])).toEqual([1])
  })

  it('text under a thinking block is reasoning; a hidden block and an unknown block type are kept out, noted', () => {
    const { choice, diagnostics } = read(
      chunk({ block_id: 'th', block_type: 10040, content: { thinking_block: {} } }, text('想', { block_id: 't', parent_id: 'th' })) +
      chunk(text('secret', { block_id: 'h', control_info: { is_visible: false } }), { block_id: 'v', block_type: 10052, content: {} }) +
      chunk(text('答', { block_id: 'x' })),
    )
    expect([choice.reasoning, choice.content]).toEqual(['想', '答'])
    expect(diagnostics.filter((d) => d[2] === 'note').map((d) => [d[0], d[3]])).toEqual([
      [1, 'a block with control_info.is_visible false is not shown: kept out'], [1, 'block_type 10052 is not reply text: kept out'],
    ])
  })

  it('when STREAM_CHUNK brings the answer first, a CHUNK_DELTA repeating it is noted, not appended', () => {
    const { choice, diagnostics } = read(chunk(text('Hi', { block_id: 'a' })) + ev('CHUNK_DELTA', { text: 'Hi' }))
    expect(choice.content).toBe('Hi')
    expect(diagnostics.filter((d) => d[2] === 'note').map((d) => d[3])).toEqual(['CHUNK_DELTA repeats the answer text that STREAM_CHUNK brings: read from STREAM_CHUNK alone'])
  })

  it('a brief that differs from the streamed text is a final-text mismatch', () => {
    const { choice, diagnostics } = read(ev('CHUNK_DELTA', { text: 'Hello' }) + ev('SSE_REPLY_END', { end_type: 1, msg_finish_attr: { brief: 'Hello world' } }))
    expect([choice.content, choice.finishReason]).toEqual(['Hello', 'end_type 1'])
    expect(diagnostics.filter((d) => d[2] === 'final-mismatch').map((d) => d[0])).toEqual([1])
  })

  it('content and patch_op sent as JSON text (double-encoded) are read as what they encode', () => {
    const notify = `event: STREAM_MSG_NOTIFY\ndata: ${JSON.stringify({ content: JSON.stringify({ content_block: [text('Hello ', { block_id: 'a' })] }) })}\n\n`
    const patch = `event: STREAM_CHUNK\ndata: ${JSON.stringify({ patch_op: JSON.stringify([{ patch_value: { content_block: [{ block_id: 'a', block_type: 10000, content: JSON.stringify({ text_block: { text: 'world' } }) }] } }]) })}\n\n`
    expect(read(notify + patch).choice.content).toBe('Hello world')
  })

  it('STREAM_ERROR is a provider error with its code and message', () => {
    const { diagnostics } = read(ev('STREAM_ERROR', { error_code: 710022004, error_msg: 'rate limited' }))
    expect(diagnostics.filter((d) => d[2] === 'provider-error').map((d) => d[3])).toEqual(['the provider sent an error (code 710022004): "rate limited"'])
  })
})
