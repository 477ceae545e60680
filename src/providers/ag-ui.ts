// AG-UI, the Agent User Interaction protocol (CopilotKit, Mastra, pydantic-ai, LangGraph and
// CrewAI adapters…): SSE `data: {json}` events (an `event:` line is optional), dispatched on the
// JSON `type` (docs.ag-ui.com; ag-ui-protocol/ag-ui sdks/typescript/packages/core/src/events.ts).
// One choice (0), the assistant's; its text is the messages' text joined in the order they
// started (docs/wire-formats.md#messages).
//
// - Messages are kept apart by `messageId`, in the order they start: two messages may stream at
//   once (the 1.0 client accepts it), and a subagent's (`subagentRunId`, after
//   SUBAGENT_STARTED) interleave with the parent's. A message in a subagent's lane is named by
//   the subagent (SUBAGENT_STARTED `name`, else its subagentRunId).
// - TEXT_MESSAGE_START / CONTENT / END and TEXT_MESSAGE_CHUNK: `delta` is content. A message
//   whose role is not `assistant` (a user or system message echoed by the run) is kept out.
// - REASONING_* and the legacy THINKING_*: `delta` of the *_CONTENT and *_CHUNK events is
//   reasoning (in its messageId's message, when it names one); starts, ends and encrypted
//   values carry no text.
// - TOOL_CALL_START / ARGS / END and TOOL_CALL_CHUNK build calls keyed by the order in which
//   their toolCallId first appears; id = toolCallId, name = toolCallName; the wire never names
//   a call type (the Reply shows `function`). A call is a part of its `parentMessageId`'s
//   message, else of a message of its own id, as the client files it. A TOOL_CALL_CHUNK
//   (TEXT_MESSAGE_CHUNK) without its id continues the chunked call (message) still open in
//   its lane: any other event but the pass-through ones closes it, as the client's
//   transformChunks does (sdks/typescript/packages/client/src/chunks/transform.ts).
//   TOOL_CALL_RESULT is a `tool` message holding the result, placed as the client places it:
//   right after the message holding its call and the results already there.
// - RUN_FINISHED ends the run; RUN_ERROR {message, code} is a stream error and also ends it.
//   AG-UI has no finish reason: none is invented.
// - STATE_SNAPSHOT, STATE_DELTA (RFC 6902), MESSAGES_SNAPSHOT, ACTIVITY_*, STEP_*, RAW and
//   CUSTOM are not the reply.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { excerpt, isObject, quote, str, type JsonObject } from './shared.js'

const CHOICE = 0

/** What an event type needs to be claimed: a string field, an array field, any field, or nothing. */
type Need = { string: string } | { array: string } | { key: string } | null

const OWN_TYPES: ReadonlyMap<string, Need> = new Map<string, Need>([
  ['RUN_STARTED', { string: 'runId' }], ['RUN_FINISHED', { string: 'runId' }], ['RUN_ERROR', { string: 'message' }],
  ['STEP_STARTED', { string: 'stepName' }], ['STEP_FINISHED', { string: 'stepName' }],
  ['TEXT_MESSAGE_START', { string: 'messageId' }], ['TEXT_MESSAGE_CONTENT', { string: 'messageId' }],
  ['TEXT_MESSAGE_END', { string: 'messageId' }], ['TEXT_MESSAGE_CHUNK', null],
  ['TOOL_CALL_START', { string: 'toolCallId' }], ['TOOL_CALL_ARGS', { string: 'toolCallId' }],
  ['TOOL_CALL_END', { string: 'toolCallId' }], ['TOOL_CALL_RESULT', { string: 'toolCallId' }], ['TOOL_CALL_CHUNK', null],
  ['THINKING_START', null], ['THINKING_END', null],
  ['THINKING_TEXT_MESSAGE_START', null], ['THINKING_TEXT_MESSAGE_CONTENT', { string: 'delta' }], ['THINKING_TEXT_MESSAGE_END', null],
  ['REASONING_START', null], ['REASONING_END', null], ['REASONING_MESSAGE_START', null],
  ['REASONING_MESSAGE_CONTENT', { string: 'delta' }], ['REASONING_MESSAGE_END', null], ['REASONING_MESSAGE_CHUNK', null],
  ['REASONING_ENCRYPTED_VALUE', null],
  ['STATE_SNAPSHOT', { key: 'snapshot' }], ['STATE_DELTA', { array: 'delta' }], ['MESSAGES_SNAPSHOT', { array: 'messages' }],
  ['ACTIVITY_SNAPSHOT', { string: 'messageId' }], ['ACTIVITY_DELTA', { string: 'messageId' }],
  ['RAW', { key: 'event' }], ['CUSTOM', { string: 'name' }],
  ['SUBAGENT_STARTED', { string: 'subagentRunId' }], ['SUBAGENT_FINISHED', { string: 'subagentRunId' }], ['SUBAGENT_ERROR', { string: 'subagentRunId' }],
])

/** Events that carry nothing for the reply: no note. */
const QUIET_TYPES: ReadonlySet<string> = new Set([
  'RUN_STARTED', 'STEP_STARTED', 'STEP_FINISHED', 'TEXT_MESSAGE_END', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
  'THINKING_START', 'THINKING_END', 'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_END',
  'REASONING_START', 'REASONING_END', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_END', 'REASONING_ENCRYPTED_VALUE',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'RAW', 'CUSTOM',
  'SUBAGENT_FINISHED',
])

/** Events the client passes through without closing a chunked message or call. */
const PASS_THROUGH: ReadonlySet<string> = new Set([
  'RAW', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'REASONING_ENCRYPTED_VALUE', 'SUBAGENT_STARTED', 'SUBAGENT_FINISHED', 'SUBAGENT_ERROR',
])

/** Channel of the events whose `delta` is text. */
const TEXT_TYPES: ReadonlyMap<string, 'content' | 'reasoning'> = new Map([
  ['TEXT_MESSAGE_CONTENT', 'content'], ['TEXT_MESSAGE_CHUNK', 'content'],
  ['THINKING_TEXT_MESSAGE_CONTENT', 'reasoning'], ['REASONING_MESSAGE_CONTENT', 'reasoning'], ['REASONING_MESSAGE_CHUNK', 'reasoning'],
])

/** At most this many message ids keep their role; past it, messages count as the assistant's. */
const MAX_ROLES = 10_000

export const agUi: ProviderAdapter = {
  id: 'ag-ui',
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    const type = str(j['type'])
    if (type === null || !OWN_TYPES.has(type)) return false
    const need = OWN_TYPES.get(type) ?? null
    if (need === null) return true
    if ('string' in need) return typeof j[need.string] === 'string'
    if ('array' in need) return Array.isArray(j[need.array])
    return need.key in j
  },
  createMapper(): FrameMapper {
    const mapper = new AgUiMapper()
    return { map: (frame) => mapper.map(frame) }
  },
}

class AgUiMapper {
  private announced = false
  /** Tool calls by toolCallId: their key (the order of first appearance) and their message. */
  private readonly calls = new Map<string, { key: number; message: string }>()
  /** Per lane (a subagentRunId, '' for the run's own), the toolCallId a TOOL_CALL_CHUNK without one continues. */
  private readonly lastChunked = new Map<string, string>()
  /** Per lane, the messageId a TEXT_MESSAGE_CHUNK without one continues. */
  private readonly chunkedMessage = new Map<string, string>()
  /** Messages that are not the assistant's, by messageId. */
  private readonly roles = new Map<string, string>()
  /** Messages already named (a message delta said so). */
  private readonly opened = new Set<string>()
  /** Subagents' names by subagentRunId (SUBAGENT_STARTED). */
  private readonly lanes = new Map<string, string>()
  /** Per lane, its latest message: a SUBAGENT_ERROR ends it. */
  private readonly laneMessage = new Map<string, string>()
  private keptOutNoted = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j)) return []
    const type = str(j['type'])
    const out: Delta[] = []
    if (type === null) return out
    const lane = str(j['subagentRunId']) ?? ''
    // The client closes a chunked tool call on any other event but the pass-through ones.
    if (type !== 'TOOL_CALL_CHUNK' && !PASS_THROUGH.has(type)) this.lastChunked.delete(lane)
    if (type !== 'TEXT_MESSAGE_CHUNK' && !PASS_THROUGH.has(type)) this.chunkedMessage.delete(lane)
    switch (type) {
      case 'TEXT_MESSAGE_START': {
        this.role(j)
        this.announce(out)
        const id = str(j['messageId'])
        if (id !== null && !this.roles.has(id)) this.open(out, id, str(j['role']) ?? 'assistant', lane)
        return out
      }
      case 'REASONING_MESSAGE_START': {
        // a reasoning message of its own (role "reasoning" in 1.0): opened with the role it gives
        const id = str(j['messageId'])
        if (id !== null) this.open(out, id, str(j['role']), lane)
        return out
      }
      case 'TOOL_CALL_START':
        return this.toolCall(out, str(j['toolCallId']), str(j['toolCallName']), null, str(j['parentMessageId']), lane)
      case 'TOOL_CALL_ARGS':
        return this.toolCall(out, str(j['toolCallId']), null, str(j['delta']), null, lane)
      case 'TOOL_CALL_CHUNK': {
        const id = str(j['toolCallId']) ?? this.lastChunked.get(lane) ?? null
        if (id === null) {
          out.push({ type: 'note', level: 'warning', message: 'TOOL_CALL_CHUNK without a toolCallId and no chunked call open: ignored (the AG-UI client throws here)' })
          return out
        }
        this.lastChunked.set(lane, id)
        return this.toolCall(out, id, str(j['toolCallName']), str(j['delta']), str(j['parentMessageId']), lane)
      }
      case 'TOOL_CALL_RESULT':
        return this.toolResult(out, j, lane)
      case 'SUBAGENT_STARTED':
        if (lane !== '' && this.lanes.size < MAX_ROLES) this.lanes.set(lane, str(j['name']) ?? str(j['agentName']) ?? lane)
        return out
      case 'SUBAGENT_ERROR': {
        const message = excerpt(str(j['message']) ?? 'SUBAGENT_ERROR without a message', 1000)
        const last = this.laneMessage.get(lane)
        out.push({ type: 'stream-error', message, code: str(j['code']), errorType: 'SUBAGENT_ERROR', payload: j, ...(last === undefined ? {} : { messageId: last }) })
        return out
      }
      case 'RUN_FINISHED':
        out.push({ type: 'done' })
        return out
      case 'RUN_ERROR': {
        const code = str(j['code'])
        out.push({ type: 'stream-error', message: excerpt(str(j['message']) ?? 'RUN_ERROR without a message', 1000), code, errorType: 'RUN_ERROR', payload: j })
        out.push({ type: 'done' })
        return out
      }
    }
    const channel = TEXT_TYPES.get(type)
    if (channel !== undefined) return this.text(out, channel, j, lane)
    if (QUIET_TYPES.has(type)) return out
    out.push({ type: 'note', level: 'info', message: `ignored AG-UI event type ${quote(type)}` })
    return out
  }

  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  /** A message's first event names it, with its role and, in a subagent's lane, the subagent. */
  private open(out: Delta[], id: string, role: string | null, lane: string, after?: string): void {
    if (lane !== '') this.laneMessage.set(lane, id)
    if (this.opened.has(id)) return
    this.opened.add(id)
    const name = lane === '' ? null : this.lanes.get(lane) ?? lane
    out.push({ type: 'message', choice: CHOICE, messageId: id, role, name, ...(after === undefined ? {} : { after }) })
  }

  /** Remembers a message that is not the assistant's (TEXT_MESSAGE_START / _CHUNK role). */
  private role(j: JsonObject): void {
    const id = str(j['messageId'])
    const role = str(j['role'])
    if (id === null || role === null || role === 'assistant' || this.roles.size >= MAX_ROLES) return
    this.roles.set(id, role)
  }

  private text(out: Delta[], channel: 'content' | 'reasoning', j: JsonObject, lane: string): Delta[] {
    let id = str(j['messageId'])
    if (j['type'] === 'TEXT_MESSAGE_CHUNK') {
      this.role(j)
      id = id ?? this.chunkedMessage.get(lane) ?? null
      if (id !== null) this.chunkedMessage.set(lane, id)
    }
    const role = id === null ? undefined : this.roles.get(id)
    if (channel === 'content' && role !== undefined) {
      if (!this.keptOutNoted) {
        this.keptOutNoted = true
        out.push({ type: 'note', level: 'info', message: `message ${quote(id)} is the ${excerpt(role, 40)}'s, not the assistant's: kept out of the reply` })
      }
      return out
    }
    this.announce(out)
    // a reasoning message is the assistant's thinking: the role the client gives it is not on the wire here
    if (id !== null) this.open(out, id, channel === 'content' ? 'assistant' : str(j['role']), lane)
    const delta = str(j['delta'])
    if (delta !== null) out.push({ type: 'text', choice: CHOICE, channel, text: delta, ...(id === null ? {} : { messageId: id }) })
    return out
  }

  private toolCall(out: Delta[], id: string | null, name: string | null, fragment: string | null, parent: string | null, lane: string): Delta[] {
    if (id === null) return out
    this.announce(out)
    let call = this.calls.get(id)
    if (call === undefined) {
      // the client files a call under its parent message, else under a message of the call's id
      call = { key: this.calls.size, message: parent ?? id }
      this.calls.set(id, call)
      this.open(out, call.message, 'assistant', lane)
    }
    out.push({ type: 'tool-call', choice: CHOICE, key: call.key, id, name, arguments: fragment, messageId: call.message })
    return out
  }

  /** TOOL_CALL_RESULT: a tool message holding the call's output. */
  private toolResult(out: Delta[], j: JsonObject, lane: string): Delta[] {
    const callId = str(j['toolCallId'])
    const id = str(j['messageId']) ?? `tool:${callId ?? ''}`
    this.announce(out)
    // the client files the result right after the message holding its call (and the results
    // already there), not at the end (client src/apply/default.ts, TOOL_CALL_RESULT)
    const owner = callId === null ? undefined : this.calls.get(callId)?.message
    this.open(out, id, str(j['role']) ?? 'tool', lane, owner)
    const error = j['error']
    out.push({ type: 'tool-result', choice: CHOICE, messageId: id, toolCallId: callId, output: j['content'] ?? null, isError: error !== undefined && error !== null && error !== false })
    return out
  }
}
