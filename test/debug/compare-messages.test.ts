// compareReply on a client's list of messages (LangGraph values.messages, AG-UI messages, an AI
// SDK UIMessage[], an OpenAI message list): compared with Reply.messages message by message,
// each difference naming the message and the part, and the frame behind a text difference.

import { describe, expect, it } from 'vitest'
import { compareReply } from '../../src/index.js'
import { detectClientShape } from '../../src/debug/client-shapes.js'
import { fixtureOf } from './compare-support.js'

const PARALLEL = 'langgraph/messages-tuple-parallel-branches.sse'
const SUBAGENT = 'ag-ui/subagent-and-two-open-messages.sse'
const TOOL_ERROR = 'ai-sdk/tool-error-approval-request-source.sse'
const human = { type: 'human', id: 'h1', content: 'Tide and weather for Bergen?' }

describe('LangGraph values.messages', () => {
  it('the client\'s two messages, by id, after the human input: equal', () => {
    const values = {
      messages: [
        human,
        { type: 'ai', id: 'run-m9a', content: 'Low water at 06:42. ', tool_calls: [] },
        { type: 'ai', id: 'run-m9b', content: 'Sunny, 4 °C. ', tool_calls: [] },
      ],
    }
    expect(detectClientShape(values)).toBe('langchain-messages')
    expect(compareReply(fixtureOf(PARALLEL), values)).toEqual({ equal: true, differences: [], notCompared: ['choices[0]', 'usage'] })
  })

  it('a client that appends every chunk to one message: the first message\'s text differs where the other branch\'s frame wrote, the second is missing', () => {
    const merged = [human, { type: 'ai', id: 'run-m9a', content: 'Low water Sunny, at 06:42. 4 °C. ' }]
    const { differences } = compareReply(fixtureOf(PARALLEL), merged)
    expect(differences.map((d) => [d.field, d.offset, d.frame, d.cause])).toEqual([
      ['messages[0].parts[0].text', 10, 3, 'other'],
      ['messages[1]', null, 2, 'other'],
    ])
    expect(differences[0]!.message).toMatch(/^Message 0 \(id "run-m9a", assistant\), part 0 \(text\): /)
    expect(differences[1]!.message).toBe('Message 1 (id "run-m9b", assistant): the client has no such message.')
  })
})

describe('AG-UI messages', () => {
  const messages = [
    { id: 'u1', role: 'user', content: 'What happened in 1953?' },
    { id: 'msg_lead', role: 'assistant', content: "I'll ask the researcher while I draft. Done." },
    {
      id: 'msg_r1', role: 'assistant', content: 'Searching the archive: 3 records.',
      toolCalls: [{ id: 'call_s1', type: 'function', function: { name: 'search', arguments: '{"q":"1953 flood"}' } }],
    },
    // @ag-ui/client files a result right after the message holding its call
    { id: 'msg_tool_s1', role: 'tool', toolCallId: 'call_s1', content: '3 records' },
    { id: 'msg_lead2', role: 'assistant', content: 'Draft: the flood of 1953…' },
  ]

  it('three messages open at once and a tool message, as the client ends: equal (its content joins a message\'s text parts)', () => {
    expect(detectClientShape(messages)).toBe('chat-messages')
    expect(compareReply(fixtureOf(SUBAGENT), messages).differences).toEqual([])
  })

  it('a wrong tool output names the tool message and its part', () => {
    const wrong = messages.map((m) => (m.id === 'msg_tool_s1' ? { ...m, content: '0 records' } : m))
    expect(compareReply(fixtureOf(SUBAGENT), wrong).differences.map((d) => [d.field, d.got, d.message])).toEqual([[
      'messages[2].parts[0].output', '0 records',
      'Message 2 (id "msg_tool_s1", tool), part 0 (result of "call_s1"): the client\'s output is "0 records"; the reference\'s is "3 records".',
    ]])
  })

  it('a subagent\'s message cut short: the difference is placed in the reference part it falls in, with the frame that wrote it', () => {
    const mixed = messages.map((m) => (m.id === 'msg_r1' ? { ...m, content: 'Searching the archive' } : m))
    expect(compareReply(fixtureOf(SUBAGENT), mixed).differences.map((d) => [d.field, d.offset, d.frame])).toEqual([
      ['messages[1].parts[2].text', 21, 16],
    ])
  })
})

describe('an AI SDK UIMessage[]', () => {
  const uiMessage = (overrides: { errorText?: string } = {}) => ({
    id: 'msg_Ap7', role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'text', text: 'Looking up the file list.', state: 'done' },
      { type: 'tool-listFiles', toolCallId: 'call_ls', state: 'output-error', input: { dir: '/tmp' }, errorText: overrides.errorText ?? "EACCES: permission denied, scandir '/tmp'" },
      { type: 'step-start' },
      { type: 'source-url', sourceId: 'src_1', url: 'https://nodejs.org/api/errors.html#eacces', title: 'Node.js errors' },
      { type: 'text', text: 'No access; I can delete the stale lock instead.', state: 'done' },
      { type: 'tool-deleteFile', toolCallId: 'call_rm', state: 'approval-requested', input: { path: '/tmp/app.lock' }, approval: { id: 'appr_1' } },
    ],
  })

  it('parts in order, the failed tool\'s error as its result: equal', () => {
    const list = [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Clean /tmp' }] }, uiMessage()]
    expect(detectClientShape(list)).toBe('ai-sdk-ui-messages')
    expect(compareReply(fixtureOf(TOOL_ERROR), list)).toEqual({ equal: true, differences: [], notCompared: ['choices[0]', 'usage'] })
  })

  it('a different error text is a difference of that result part', () => {
    expect(compareReply(fixtureOf(TOOL_ERROR), [uiMessage({ errorText: 'EPERM' })]).differences.map((d) => d.field)).toEqual(['messages[0].parts[2].output'])
  })

  it('a client that dropped the failed result: that result is missing, the parts after it still compared', () => {
    const m = uiMessage()
    const dropped = { ...m, parts: m.parts.map((p) => (p.type === 'tool-listFiles' ? { ...p, state: 'input-available' } : p)) }
    const { differences } = compareReply(fixtureOf(TOOL_ERROR), [dropped])
    expect(differences.map((d) => [d.field, d.message])).toEqual([[
      'messages[0].parts[2]',
      'Message 0 (id "msg_Ap7", assistant), part 2: the client has no result for call "call_ls".',
    ]])
  })

  it('a result is paired with its call by id, not by its place (a UIMessage keeps it in the call\'s part)', () => {
    const f = fixtureOf('ai-sdk/tool-input-available-without-deltas.sse')
    const parts = [
      { type: 'step-start' },
      { type: 'tool-getTime', toolCallId: 'fc_time_1', state: 'output-available', input: { timezone: 'Europe/Paris' }, output: { time: '14:05' } },
      { type: 'tool-listFiles', toolCallId: 'fc_files_2', state: 'output-available', input: {}, output: { files: [] } },
    ]
    expect(compareReply(f, [{ id: 'msg_Tz8', role: 'assistant', parts }]).differences).toEqual([])
    const wrong = parts.map((p) => (p.type === 'tool-listFiles' ? { ...p, output: { files: ['a'] } } : p))
    expect(compareReply(f, [{ id: 'msg_Tz8', role: 'assistant', parts: wrong }]).differences.map((d) => d.field)).toEqual(['messages[0].parts[3].output'])
  })
})

describe('an AI SDK 4 message (useChat of ai 4)', () => {
  const f = () => fixtureOf('ai-sdk-v4/server-side-tool-roundtrip.txt')
  const v4 = (result: unknown) => [{
    id: 'made-up', role: 'assistant', content: 'The weather in London is sunny.',
    parts: [
      { type: 'tool-invocation', toolInvocation: { state: 'result', step: 0, toolCallId: 'tool-call-id', toolName: 'tool-name', args: { city: 'London' }, result } },
      { type: 'text', text: 'The weather in London is sunny.' },
    ],
  }]

  it('its tool-invocation part is the call and, with state result, its result: equal when they are', () => {
    expect(compareReply(f(), v4({ weather: 'sunny' })).differences).toEqual([])
  })

  it('a different result is named by its message and part', () => {
    expect(compareReply(f(), v4({ weather: 'rain' })).differences.map((d) => d.field)).toEqual(['messages[0].parts[1].output'])
  })

  it('a reasoning part\'s text is its `reasoning` field', () => {
    const g = fixtureOf('ai-sdk-v4/reasoning-signature-redacted.txt')
    const reasoning = 'I will open the conversation with witty banter. Once the user has relaxed, I will pry for valuable information.'
    const parts = [{ type: 'reasoning', reasoning, details: [] }, { type: 'text', text: 'Hi there!' }]
    expect(compareReply(g, [{ id: 'step_123', role: 'assistant', parts }]).differences).toEqual([])
    expect(compareReply(g, [{ id: 'step_123', role: 'assistant', parts: [{ ...parts[0], reasoning: 'I will' }, parts[1]] }]).differences.map((d) => d.field)).toEqual(['messages[0].parts[0].text'])
  })
})

describe('an OpenAI message list', () => {
  it('pairs the last messages by position when the wire names no message id', () => {
    const list = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'wrong' }]
    const { differences } = compareReply(fixtureOf('openai-chat/crlf-line-endings.sse'), list)
    expect(differences.map((d) => [d.field, d.offset])).toEqual([['messages[0].parts[0].text', 0]])
    expect(differences[0]!.message).toMatch(/^Message 0 \(assistant\), part 0 \(text\): /)
  })
})
