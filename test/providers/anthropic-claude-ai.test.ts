// claude.ai's Anthropic extras and a message_start that already holds the reply (as a resumed
// stream sends it):
// src/providers/anthropic.ts, rules beside the ones in anthropic.test.ts.

import { describe, expect, it } from 'vitest'
import { anthropic } from '../../src/providers/anthropic.js'
import type { Delta } from '../../src/index.js'

/** Feeds Anthropic events (event name = type) through one mapper. */
function mapAll(events: Array<Record<string, unknown>>): Delta[][] {
  const mapper = anthropic.createMapper()
  return events.map((json, seq) => mapper.map({ seq, event: typeof json['type'] === 'string' ? json['type'] : null, json }))
}

const start = (message: Record<string, unknown>) => ({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', ...message } })

describe('anthropic: claude.ai extras', () => {
  it('message_limit is the account\'s usage windows: nothing for the reply, no note', () => {
    expect(mapAll([{ type: 'message_limit', message_limit: { type: 'within_limit', windows: {} } }])).toEqual([[]])
  })

  it('thinking_summary_delta and tool_use_block_update_delta add nothing to reasoning or content', () => {
    expect(mapAll([
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_summary_delta', summary: { summary: 'Planning.' } } },
      { type: 'content_block_delta', index: 1, delta: { type: 'tool_use_block_update_delta', message: 'Searching' } },
    ])).toEqual([[], []])
  })

  it('input_json_delta at the index of a block kept out of the reply (a tool_result) is not a call\'s arguments', () => {
    const [, , deltas] = mapAll([
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_result', tool_use_id: 't', content: [] } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '[{"type": "knowledge"}]' } },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{}' } },
    ])
    expect(deltas).toEqual([{ type: 'tool-call', choice: 0, key: 3, arguments: '{}' }])
    expect(mapAll([
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_result', content: [] } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '[]' } },
    ])[1]).toEqual([])
  })

  it('a kept-out index that a later tool block reuses streams that call\'s arguments again', () => {
    const out = mapAll([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_result', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } },
    ])
    expect(out[2]).toEqual([{ type: 'tool-call', choice: 0, key: 0, arguments: '{}' }])
  })
})

describe('anthropic: a message_start that already holds content', () => {
  it('its blocks are part of the reply, each at its position\'s index, and its stop_reason is the finish reason', () => {
    expect(mapAll([start({
      content: [
        { type: 'thinking', thinking: 'plan', signature: 's' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
        { type: 'redacted_thinking', data: 'x' },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 3 },
    })])).toEqual([[
      { type: 'choice', choice: 0, role: 'assistant' },
      { type: 'text', choice: 0, channel: 'reasoning', text: 'plan' },
      { type: 'text', choice: 0, channel: 'content', text: 'Hello' },
      { type: 'tool-call', choice: 0, key: 2, id: 'toolu_1', name: 'f', callType: 'tool_use', argumentsIfEmpty: '{"a":1}' },
      { type: 'note', level: 'info', message: 'content block 3: redacted_thinking block kept out of the reply' },
      { type: 'finish', choice: 0, reason: 'tool_use' },
      { type: 'usage', usage: { input_tokens: 3 } },
    ]])
  })

  it('an empty content list, a null stop_reason and odd content values add nothing', () => {
    expect(mapAll([start({ content: [], stop_reason: null })])).toEqual([[{ type: 'choice', choice: 0, role: 'assistant' }]])
    expect(mapAll([start({ content: 'text', stop_reason: 7 })])).toEqual([[{ type: 'choice', choice: 0, role: 'assistant' }]])
    expect(mapAll([start({ content: [null, 3, 'x'] })])).toEqual([[{ type: 'choice', choice: 0, role: 'assistant' }]])
  })
})
