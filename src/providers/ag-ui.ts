// AG-UI, the Agent User Interaction protocol (CopilotKit, Mastra, pydantic-ai, LangGraph and
// CrewAI adapters…): SSE `data: {json}` events (an `event:` line is optional), dispatched on the
// JSON `type` (docs.ag-ui.com; ag-ui-protocol/ag-ui sdks/typescript/packages/core/src/events.ts).
// One choice (0), the assistant's.
//
// - TEXT_MESSAGE_START / CONTENT / END and TEXT_MESSAGE_CHUNK: `delta` is content. A message
//   whose role is not `assistant` (a user or system message echoed by the run) is kept out.
// - REASONING_* and the legacy THINKING_*: `delta` of the *_CONTENT and *_CHUNK events is
//   reasoning; starts, ends and encrypted values carry no text.
// - TOOL_CALL_START / ARGS / END and TOOL_CALL_CHUNK build calls keyed by the order in which
//   their toolCallId first appears; id = toolCallId, name = toolCallName; the wire never names
//   a call type (the Reply shows `function`). A TOOL_CALL_CHUNK (TEXT_MESSAGE_CHUNK) without
//   its id continues the chunked call (message) still open: any other event but the
//   pass-through ones closes it, as the client's transformChunks does
//   (sdks/typescript/packages/client/src/chunks/transform.ts). TOOL_CALL_RESULT is a result.
// - RUN_FINISHED ends the run; RUN_ERROR {message, code} is a stream error and also ends it.
//   AG-UI has no finish reason: none is invented.
// - STATE_SNAPSHOT, STATE_DELTA (RFC 6902), MESSAGES_SNAPSHOT, ACTIVITY_*, STEP_*, RAW and
//   CUSTOM are not the reply.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/types.js'
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
])

/** Events that carry nothing for the reply: no note. */
const QUIET_TYPES: ReadonlySet<string> = new Set([
  'RUN_STARTED', 'STEP_STARTED', 'STEP_FINISHED', 'TEXT_MESSAGE_END', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
  'THINKING_START', 'THINKING_END', 'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_END',
  'REASONING_START', 'REASONING_END', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_END', 'REASONING_ENCRYPTED_VALUE',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'RAW', 'CUSTOM',
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
  /** Tool calls by toolCallId: their key, the order of first appearance. */
  private readonly calls = new Map<string, number>()
  /** The toolCallId a TOOL_CALL_CHUNK without one continues. */
  private lastChunked: string | null = null
  /** The messageId a TEXT_MESSAGE_CHUNK without one continues. */
  private chunkedMessage: string | null = null
  /** Messages that are not the assistant's, by messageId. */
  private readonly roles = new Map<string, string>()
  private keptOutNoted = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j)) return []
    const type = str(j['type'])
    const out: Delta[] = []
    if (type === null) return out
    // The client closes a chunked tool call on any other event but the pass-through ones.
    if (type !== 'TOOL_CALL_CHUNK' && !PASS_THROUGH.has(type)) this.lastChunked = null
    if (type !== 'TEXT_MESSAGE_CHUNK' && !PASS_THROUGH.has(type)) this.chunkedMessage = null
    switch (type) {
      case 'TEXT_MESSAGE_START':
        this.role(j)
        this.announce(out)
        return out
      case 'TOOL_CALL_START':
        return this.toolCall(out, str(j['toolCallId']), str(j['toolCallName']), null)
      case 'TOOL_CALL_ARGS':
        return this.toolCall(out, str(j['toolCallId']), null, str(j['delta']))
      case 'TOOL_CALL_CHUNK': {
        const id = str(j['toolCallId']) ?? this.lastChunked
        if (id === null) {
          out.push({ type: 'note', level: 'warning', message: 'TOOL_CALL_CHUNK without a toolCallId and no chunked call open: ignored (the AG-UI client throws here)' })
          return out
        }
        this.lastChunked = id
        return this.toolCall(out, id, str(j['toolCallName']), str(j['delta']))
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
    if (channel !== undefined) return this.text(out, channel, j)
    if (QUIET_TYPES.has(type)) return out
    out.push({ type: 'note', level: 'info', message: `ignored AG-UI event type ${quote(type)}` })
    return out
  }

  private announce(out: Delta[]): void {
    if (this.announced) return
    this.announced = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  /** Remembers a message that is not the assistant's (TEXT_MESSAGE_START / _CHUNK role). */
  private role(j: JsonObject): void {
    const id = str(j['messageId'])
    const role = str(j['role'])
    if (id === null || role === null || role === 'assistant' || this.roles.size >= MAX_ROLES) return
    this.roles.set(id, role)
  }

  private text(out: Delta[], channel: 'content' | 'reasoning', j: JsonObject): Delta[] {
    let id = str(j['messageId'])
    if (j['type'] === 'TEXT_MESSAGE_CHUNK') {
      this.role(j)
      id = id ?? this.chunkedMessage
      this.chunkedMessage = id
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
    const delta = str(j['delta'])
    if (delta !== null) out.push({ type: 'text', choice: CHOICE, channel, text: delta })
    return out
  }

  private toolCall(out: Delta[], id: string | null, name: string | null, fragment: string | null): Delta[] {
    if (id === null) return out
    this.announce(out)
    let key = this.calls.get(id)
    if (key === undefined) {
      key = this.calls.size
      this.calls.set(id, key)
    }
    out.push({ type: 'tool-call', choice: CHOICE, key, id, name, arguments: fragment })
    return out
  }
}
