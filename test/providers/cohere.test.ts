import { describe, expect, it } from 'vitest'
import { cohere } from '../../src/providers/cohere.js'
import { defaultRegistry } from '../../src/providers/index.js'
import type { Delta } from '../../src/index.js'

/** Feeds Cohere v2 events (SSE data, event name = type) through one mapper. */
function mapAll(events: unknown[]): Delta[][] {
  const mapper = cohere.createMapper()
  return events.map((json, seq) => mapper.map({ seq, event: null, json }))
}

const yes = (json: unknown, event: string | null = null) => cohere.recognizes({ seq: 0, event, json })
const msg = (message: unknown) => ({ delta: { message } })

describe('cohere.recognizes', () => {
  it('claims the v2 chat event types that carry a delta object or an index', () => {
    expect(yes({ type: 'message-start', id: 'm', ...msg({ role: 'assistant' }) })).toBe(true)
    expect(yes({ type: 'content-delta', index: 0, ...msg({ content: { text: 'a' } }) })).toBe(true)
    expect(yes({ type: 'tool-call-end', index: 0 })).toBe(true)
    expect(yes({ type: 'citation-end', index: 3 })).toBe(true)
    expect(yes({ type: 'message-end', delta: { finish_reason: 'COMPLETE' } })).toBe(true)
  })

  it('leaves a Cohere type without its delta or index, and other hyphenated agent streams, alone', () => {
    expect(yes({ type: 'content-delta' })).toBe(false)
    expect(yes({ type: 'tool-call-start', toolCallId: 'c', toolName: 'x', delta: {} })).toBe(false)
    expect(yes({ type: 'text-delta', id: '0', delta: 'a' })).toBe(false)
    expect(yes({ type: 'message_start', message: {} })).toBe(false)
    expect(yes({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' })).toBe(false)
    expect(yes('content-delta')).toBe(false)
    expect(yes({ type: 7, index: 0 })).toBe(false)
  })

  it('is registered, and a /v2/chat URL names it but /v2/chat/completions does not', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: 'content-delta', json: { type: 'content-delta', index: 0, ...msg({ content: { text: 'a' } }) } })?.id).toBe('cohere')
    expect(defaultRegistry.hint({ url: 'https://api.cohere.com/v2/chat' })?.id).toBe('cohere')
    expect(defaultRegistry.hint({ url: 'https://example.com/v2/chat/completions' })?.id).not.toBe('cohere')
  })
})

describe('cohere mapper', () => {
  it('message-start names the assistant; content text is content and content thinking is reasoning', () => {
    expect(mapAll([
      { type: 'message-start', id: 'm', ...msg({ role: 'assistant', content: [], tool_calls: [] }) },
      { type: 'content-start', index: 0, ...msg({ content: { type: 'thinking', thinking: '' } }) },
      { type: 'content-delta', index: 0, ...msg({ content: { thinking: 'hmm' } }) },
      { type: 'content-delta', index: 1, ...msg({ content: { text: 'Hi' } }) },
    ])).toEqual([
      [{ type: 'choice', choice: 0, role: 'assistant' }],
      [{ type: 'choice', choice: 0 }],
      [{ type: 'text', choice: 0, channel: 'reasoning', text: 'hmm' }],
      [{ type: 'text', choice: 0, channel: 'content', text: 'Hi' }],
    ])
  })

  it('the tool plan is kept out of the reply, said once', () => {
    expect(mapAll([
      { type: 'tool-plan-delta', ...msg({ tool_plan: 'I will' }) },
      { type: 'tool-plan-delta', ...msg({ tool_plan: ' search' }) },
    ])).toEqual([
      [{ type: 'note', level: 'info', message: 'the tool plan (tool-plan-delta) is the model\'s plan before its tool calls: kept out of the reply' }],
      [],
    ])
  })

  it('tool_calls is one object keyed by the frame index; an array is read element by element', () => {
    expect(mapAll([
      { type: 'tool-call-start', index: 2, ...msg({ tool_calls: { id: 'c1', type: 'function', function: { name: 'f', arguments: '' } } }) },
      { type: 'tool-call-delta', index: 2, ...msg({ tool_calls: { function: { arguments: '{"a":' } } }) },
      { type: 'tool-call-start', index: 3, ...msg({ tool_calls: [{ id: 'c2', function: { name: 'g', arguments: '{}' } }] }) },
      { type: 'tool-call-delta', index: 2, ...msg({ tool_calls: 'nonsense' }) },
    ])).toEqual([
      [{ type: 'tool-call', choice: 0, key: 2, id: 'c1', callType: 'function', name: 'f', arguments: '' }],
      [{ type: 'tool-call', choice: 0, key: 2, id: null, callType: null, name: null, arguments: '{"a":' }],
      [{ type: 'tool-call', choice: 0, key: 3, id: 'c2', callType: null, name: 'g', arguments: '{}' }],
      [],
    ])
  })

  it('message-end gives the finish reason, the usage, the terminal marker, and its error string as a stream error', () => {
    const end = { type: 'message-end', delta: { error: 'boom', finish_reason: 'ERROR', usage: { tokens: { output_tokens: 2 } } } }
    expect(mapAll([end])).toEqual([[
      { type: 'stream-error', message: 'boom', errorType: 'message-end', payload: end },
      { type: 'finish', choice: 0, reason: 'ERROR' },
      { type: 'usage', usage: { tokens: { output_tokens: 2 } } },
      { type: 'done' },
    ]])
  })

  it('citations, ends and debug events are quiet; an unknown type is a note; wrong types are nothing', () => {
    expect(mapAll([
      { type: 'citation-start', index: 0, ...msg({ citations: { start: 0, end: 1 } }) },
      { type: 'content-end', index: 0 },
      { type: 'stream-start' },
      { type: 'content-delta', index: 0, ...msg({ content: { text: 7 } }) },
      { type: 'content-delta', index: 0, delta: 'x' },
      null,
    ])).toEqual([
      [],
      [],
      [{ type: 'note', level: 'info', message: 'ignored Cohere event type "stream-start"' }],
      [],
      [],
      [],
    ])
  })
})
