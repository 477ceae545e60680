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
const content = (text: string, messageId?: string): Delta => ({ type: 'text', choice: 0, channel: 'content', text, ...(messageId === undefined ? {} : { messageId }) })
const reasoning = (text: string, messageId?: string): Delta => ({ type: 'text', choice: 0, channel: 'reasoning', text, ...(messageId === undefined ? {} : { messageId }) })
const message = (messageId: string, role: string | null, name: string | null = null): Delta => ({ type: 'message', choice: 0, messageId, role, name })

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
    ])).toEqual([[], [ASSISTANT, message('m', 'assistant')], [content('Hi', 'm')], []])
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
    ])).toEqual([[], [ASSISTANT, message('r', null), reasoning('a', 'r')], [reasoning('b')], [], [reasoning('c')], []])
  })

  it('tool calls are keyed by first appearance of their toolCallId, with id and name, arguments appended', () => {
    expect(mapAll([
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'f' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'g' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'a' },
      { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'a', content: 'ok' },
    ])).toEqual([
      [ASSISTANT, message('a', 'assistant'), { type: 'tool-call', choice: 0, key: 0, id: 'a', name: 'f', arguments: null, messageId: 'a' }],
      [message('b', 'assistant'), { type: 'tool-call', choice: 0, key: 1, id: 'b', name: 'g', arguments: null, messageId: 'b' }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'a', name: null, arguments: '{}', messageId: 'a' }],
      [],
      [{ ...message('x', 'tool'), after: 'a' }, { type: 'tool-result', choice: 0, messageId: 'x', toolCallId: 'a', output: 'ok', isError: false }],
    ])
  })

  it('a TOOL_CALL_CHUNK without an id continues the open chunked call, and none after another event', () => {
    expect(mapAll([
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c', toolCallName: 'f', delta: '{' },
      { type: 'TOOL_CALL_CHUNK', delta: '}' },
      { type: 'STEP_FINISHED', stepName: 's' },
      { type: 'TOOL_CALL_CHUNK', delta: 'x' },
    ])).toEqual([
      [ASSISTANT, message('c', 'assistant'), { type: 'tool-call', choice: 0, key: 0, id: 'c', name: 'f', arguments: '{', messageId: 'c' }],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'c', name: null, arguments: '}', messageId: 'c' }],
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
      { type: 'SUBAGENT_PAUSED' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 5 },
      { type: 'TOOL_CALL_ARGS', delta: '{' },
      { type: 9 },
      'RUN_FINISHED',
    ])).toEqual([
      [], [], [],
      [{ type: 'note', level: 'info', message: 'ignored AG-UI event type "SUBAGENT_PAUSED"' }],
      [ASSISTANT, message('m', 'assistant')],
      [],
      [],
      [],
    ])
  })

  it('a tool call is a part of its parent message; a result is a tool message placed after it (as the client files it); a failed result is an error', () => {
    expect(mapAll([
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'f', parentMessageId: 'm' },
      { type: 'TOOL_CALL_RESULT', messageId: 't', toolCallId: 'a', content: 'boom', role: 'tool', error: 'boom' },
    ])).toEqual([
      [ASSISTANT, message('m', 'assistant')],
      [{ type: 'tool-call', choice: 0, key: 0, id: 'a', name: 'f', arguments: null, messageId: 'm' }],
      [{ ...message('t', 'tool'), after: 'm' }, { type: 'tool-result', choice: 0, messageId: 't', toolCallId: 'a', output: 'boom', isError: true }],
    ])
  })

  it('a subagent\'s messages are named by the subagent; its error ends its latest message', () => {
    expect(mapAll([
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sub1', name: 'researcher' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sub2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', subagentRunId: 'sub1' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'x', subagentRunId: 'sub2' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'y', subagentRunId: 'sub2' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'sub1', message: 'gave up' },
    ])).toEqual([
      [],
      [],
      [ASSISTANT, message('m1', 'assistant', 'researcher')],
      [message('m2', 'assistant', 'sub2'), content('x', 'm2')],
      [content('y', 'm2')],
      [{ type: 'stream-error', message: 'gave up', code: null, errorType: 'SUBAGENT_ERROR', messageId: 'm1', payload: { type: 'SUBAGENT_ERROR', subagentRunId: 'sub1', message: 'gave up' } }],
    ])
  })
})
