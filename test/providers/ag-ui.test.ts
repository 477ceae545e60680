import { describe, expect, it } from 'vitest'
import { agUi } from '../../src/providers/ag-ui.js'
import { defaultRegistry } from '../../src/providers/index.js'
import type { Delta } from '../../src/index.js'

/** Feeds AG-UI events (SSE data, no event name) through one mapper. */
function mapAll(events: unknown[]): Delta[][] {
  const mapper = agUi.createMapper()
  return events.map((json, seq) => mapper.map({ seq, event: null, json }))
}

const yes = (json: unknown) => agUi.recognizes({ seq: 0, event: null, json })
const ASSISTANT: Delta = { type: 'choice', choice: 0, role: 'assistant' }
const content = (text: string): Delta => ({ type: 'text', choice: 0, channel: 'content', text })
const reasoning = (text: string): Delta => ({ type: 'text', choice: 0, channel: 'reasoning', text })

describe('agUi.recognizes', () => {
  it('claims the AG-UI event types with the field each one requires', () => {
    expect(yes({ type: 'RUN_STARTED', threadId: 't', runId: 'r' })).toBe(true)
    expect(yes({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' })).toBe(true)
    expect(yes({ type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{' })).toBe(true)
    expect(yes({ type: 'TEXT_MESSAGE_CHUNK', delta: 'a' })).toBe(true)
    expect(yes({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: 'a' })).toBe(true)
    expect(yes({ type: 'STATE_DELTA', delta: [] })).toBe(true)
    expect(yes({ type: 'RUN_ERROR', message: 'x' })).toBe(true)
  })

  it('leaves an AG-UI type without its required field, lower-case look-alikes and other formats alone', () => {
    expect(yes({ type: 'TEXT_MESSAGE_CONTENT', delta: 'a' })).toBe(false)
    expect(yes({ type: 'RUN_ERROR', error: 'x' })).toBe(false)
    expect(yes({ type: 'STATE_DELTA', delta: {} })).toBe(false)
    expect(yes({ type: 'text_message_content', content: 'a' })).toBe(false)
    expect(yes({ type: 'text-delta', id: '0', delta: 'a' })).toBe(false)
    expect(yes({ type: 'content-delta', index: 0, delta: {} })).toBe(false)
    expect(yes({ type: 'content_block_delta', index: 0 })).toBe(false)
    expect(yes(['RUN_STARTED'])).toBe(false)
  })

  it('is registered and wins on its own frames', () => {
    expect(defaultRegistry.recognize({ seq: 0, event: null, json: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } })?.id).toBe('ag-ui')
    expect(defaultRegistry.recognize({ seq: 0, event: 'TEXT_MESSAGE_START', json: { type: 'TEXT_MESSAGE_START', messageId: 'm' } })?.id).toBe('ag-ui')
  })
})

describe('agUi mapper', () => {
  it('text message content is content, announced as the assistant\'s once', () => {
    expect(mapAll([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
    ])).toEqual([[], [ASSISTANT], [content('Hi')], []])
  })

  it('a message whose role is not the assistant\'s is kept out, with one note', () => {
    expect(mapAll([
      { type: 'TEXT_MESSAGE_START', messageId: 'u', role: 'user' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'question' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'more' },
    ])).toEqual([
      [ASSISTANT],
      [{ type: 'note', level: 'info', message: 'message "u" is the user\'s, not the assistant\'s: kept out of the reply' }],
      [],
    ])
  })

  it('REASONING_* and THINKING_* content is reasoning; their starts, ends and encrypted values are quiet', () => {
    expect(mapAll([
      { type: 'REASONING_START', messageId: 'r' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'a' },
      { type: 'REASONING_MESSAGE_CHUNK', delta: 'b' },
      { type: 'REASONING_ENCRYPTED_VALUE', entityId: 'r', encryptedValue: 'x' },
      { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'c' },
      { type: 'THINKING_END' },
    ])).toEqual([[], [ASSISTANT, reasoning('a')], [reasoning('b')], [], [reasoning('c')], []])
  })

  it('tool calls are keyed by first appearance of their toolCallId, with id and name, arguments appended', () => {
    expect(mapAll([
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'f' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'g' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'a' },
      { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'a', content: 'ok' },
    ])).toEqual([
      [ASSISTANT, { type: 'tool-call', choice: 0, key: 0, id: 'a', name: 'f', arguments: null }],
      [{ type: 'tool-call', choice: 0, key: 1, id: 'b', name: 'g', arguments: null }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'a', name: null, arguments: '{}' }],
      [],
      [],
    ])
  })

  it('a TOOL_CALL_CHUNK without an id continues the open chunked call, and none after another event', () => {
    expect(mapAll([
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'f', delta: '{' },
      { type: 'TOOL_CALL_CHUNK', delta: '}' },
      { type: 'STEP_FINISHED', stepName: 's' },
      { type: 'TOOL_CALL_CHUNK', delta: 'x' },
    ])).toEqual([
      [ASSISTANT, { type: 'tool-call', choice: 0, key: 0, id: 'c', name: 'f', arguments: '{' }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'c', name: null, arguments: '}' }],
      [],
      [{ type: 'note', level: 'warning', message: 'TOOL_CALL_CHUNK without a toolCallId and no chunked call open: ignored (the AG-UI client throws here)' }],
    ])
  })

  it('RUN_FINISHED is the terminal marker; RUN_ERROR is a stream error and also ends the run', () => {
    const error = { type: 'RUN_ERROR', message: 'Rate limit exceeded', code: 'RATE_LIMITED' }
    expect(mapAll([{ type: 'RUN_FINISHED', threadId: 't', runId: 'r' }, error])).toEqual([
      [{ type: 'done' }],
      [{ type: 'stream-error', message: 'Rate limit exceeded', code: 'RATE_LIMITED', errorType: 'RUN_ERROR', payload: error }, { type: 'done' }],
    ])
  })

  it('state, snapshots, steps, raw and custom events are quiet; an unknown type is a note; odd values add nothing', () => {
    expect(mapAll([
      { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'hi' }] },
      { type: 'CUSTOM', name: 'x', value: 1 },
      { type: 'SUBAGENT_STARTED' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 5 },
      { type: 'TOOL_CALL_ARGS', delta: '{' },
      { type: 9 },
      'RUN_FINISHED',
    ])).toEqual([
      [], [], [],
      [{ type: 'note', level: 'info', message: 'ignored AG-UI event type "SUBAGENT_STARTED"' }],
      [ASSISTANT],
      [],
      [],
      [],
    ])
  })
})
