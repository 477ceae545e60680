// Cohere v2 chat streaming (`POST /v2/chat`, `stream: true`): SSE whose `event:` names repeat
// the JSON `type` (dispatch is on the JSON, as proxies drop the event lines):
// message-start → (content-start → content-delta* → content-end)* | tool-plan-delta* →
// (tool-call-start → tool-call-delta* → tool-call-end)* → citation-start / citation-end →
// message-end. One choice (0), the assistant's.
//
// - content-delta `delta.message.content.text` is content; `.thinking` is reasoning.
// - tool-plan-delta is the model's plan before its calls: not content; kept out, said once.
// - `delta.message.tool_calls` is ONE object (not an array) keyed by the frame's `index`;
//   an array (some compatible servers) is read element by element with the same key.
// - message-end: `delta.finish_reason` (COMPLETE, MAX_TOKENS, TOOL_CALL, ERROR…), `usage`
//   ({billed_units, tokens}), and `error` (a string) which is a stream error; it is the terminal.
// - citation-*, content-end, tool-call-end and debug carry nothing for the reply.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { argumentsText, arr, excerpt, index, isObject, quote, str, usageObject, type JsonObject } from './shared.js'

const CHOICE = 0

/** Event types of the v2 chat stream; each needs `delta` as an object or `index` as a number (below). */
const OWN_TYPES: ReadonlySet<string> = new Set([
  'message-start', 'content-start', 'content-delta', 'content-end', 'tool-plan-delta',
  'tool-call-start', 'tool-call-delta', 'tool-call-end', 'citation-start', 'citation-end',
  'message-end',
])

/** Events that carry nothing for the reply: no note. */
const QUIET_TYPES: ReadonlySet<string> = new Set(['content-end', 'tool-call-end', 'citation-start', 'citation-end', 'debug'])

export const cohere: ProviderAdapter = {
  id: 'cohere',
  // api.cohere.com/v2/chat (not /v2/chat/completions, which is OpenAI-compatible)
  urlPattern: /\/v2\/chat(?:$|[?#])/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    const type = str(j['type'])
    if (type === null || !OWN_TYPES.has(type)) return false
    // Other hyphenated event streams (agent UIs) use tool-call-start with a toolCallId.
    if ('toolCallId' in j) return false
    return isObject(j['delta']) || index(j['index']) !== null
  },
  createMapper(): FrameMapper {
    let planNoted = false
    return {
      map(frame: ParsedFrame): Delta[] {
        const j = frame.json
        if (!isObject(j)) return []
        const type = str(j['type'])
        const message = messageOf(j)
        switch (type) {
          case 'message-start':
            return [{ type: 'choice', choice: CHOICE, role: str(message['role']) ?? 'assistant' }]
          case 'content-start':
          case 'content-delta':
            return contentDeltas(message['content'], type === 'content-start')
          case 'tool-plan-delta': {
            if (planNoted || str(message['tool_plan']) === null) return []
            planNoted = true
            return [{ type: 'note', level: 'info', message: 'the tool plan (tool-plan-delta) is the model\'s plan before its tool calls: kept out of the reply' }]
          }
          case 'tool-call-start':
          case 'tool-call-delta':
            return toolCallDeltas(j, message['tool_calls'])
          case 'message-end':
            return messageEnd(j)
        }
        if (type !== null && QUIET_TYPES.has(type)) return []
        return [{ type: 'note', level: 'info', message: `ignored Cohere event type ${quote(j['type'] ?? null)}` }]
      },
    }
  },
}

/** `delta.message`, or an empty object. */
function messageOf(j: JsonObject): JsonObject {
  const delta = j['delta']
  if (!isObject(delta)) return {}
  const message = delta['message']
  return isObject(message) ? message : {}
}

/** Text is content, thinking is reasoning; a start block usually carries "" (nothing). */
function contentDeltas(content: unknown, start: boolean): Delta[] {
  if (!isObject(content)) return []
  const out: Delta[] = []
  const text = str(content['text'])
  const thinking = str(content['thinking'])
  if (text !== null && !(start && text === '')) out.push({ type: 'text', choice: CHOICE, channel: 'content', text })
  if (thinking !== null && !(start && thinking === '')) out.push({ type: 'text', choice: CHOICE, channel: 'reasoning', text: thinking })
  if (out.length === 0 && start) out.push({ type: 'choice', choice: CHOICE })
  return out
}

/** One object (Cohere) or an array of them (compatible servers), keyed by the frame's index. */
function toolCallDeltas(j: JsonObject, calls: unknown): Delta[] {
  const key = index(j['index'])
  const out: Delta[] = []
  const list = Array.isArray(calls) ? arr(calls) : [calls]
  for (const call of list) {
    if (!isObject(call)) continue
    const fn = isObject(call['function']) ? call['function'] : {}
    out.push({
      type: 'tool-call',
      choice: CHOICE,
      key: key ?? index(call['index']),
      id: str(call['id']),
      callType: str(call['type']),
      name: str(fn['name']),
      arguments: argumentsText(fn['arguments']),
    })
  }
  return out
}

function messageEnd(j: JsonObject): Delta[] {
  const delta = isObject(j['delta']) ? j['delta'] : {}
  const out: Delta[] = []
  const error = delta['error']
  if (typeof error === 'string' && error !== '') {
    out.push({ type: 'stream-error', message: excerpt(error, 1000), errorType: 'message-end', payload: j })
  } else if (error !== undefined && error !== null && error !== '') {
    out.push({ type: 'stream-error', message: `message-end error ${quote(error, 200)}`, errorType: 'message-end', payload: j })
  }
  const reason = str(delta['finish_reason'])
  if (reason) out.push({ type: 'finish', choice: CHOICE, reason })
  const usage = usageObject(delta['usage'])
  if (usage) out.push({ type: 'usage', usage })
  out.push({ type: 'done' })
  return out
}
