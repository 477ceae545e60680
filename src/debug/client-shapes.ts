// What a user's client produced, read into one partial neutral shape so compareReply can hold
// it against the reference Reply. Each SDK's final object is recognised by its own fields; a
// field the result does not carry at all stays absent (not compared), while a field it
// carries as null is the empty text, as the Reply has it.
//
// The client result is untrusted input: nothing here throws on a wrong type; a value that is
// not what the shape says is read as empty text or left out. A list of messages is read by
// client-messages.ts and compared message by message.

import { detectMessageList, MESSAGE_LIST_SHAPES, readMessageList, type ClientArguments, type ClientMessage, type MessageListShape } from './client-messages.js'

export type { ClientArguments }

/** The client results compareReply reads, by the object that produces them. */
export const CLIENT_SHAPES = {
  'text': "plain text (choice 0's content)",
  'deltascope-reply': 'a Deltascope Reply',
  'openai-chat-completion': "an OpenAI chat completion (openai-node's finalChatCompletion())",
  'openai-chat-message': "an OpenAI chat completion's message",
  'openai-response': "an OpenAI Responses response (openai-node's finalResponse())",
  'anthropic-message': "an Anthropic Message (finalMessage())",
  'gemini-response': 'a Gemini GenerateContentResponse',
  'ollama-chat': "Ollama's final /api/chat object",
  'ai-sdk-ui-message': 'an AI SDK UIMessage',
  ...MESSAGE_LIST_SHAPES,
} as const

export type ClientShape = keyof typeof CLIENT_SHAPES


export interface ClientToolCall {
  /** Absent: the client keeps no id for its calls. */
  id?: string | null
  name?: string | null
  arguments?: ClientArguments
}

/** One choice as the client has it; an absent field is one the result does not carry. */
export interface ClientChoice {
  index: number
  content?: string
  reasoning?: string
  refusal?: string
  toolCalls?: ClientToolCall[]
  finishReason?: string | null
}

export interface ClientView {
  shape: ClientShape
  /** The shape holds one reply only (the reference's other choices are not compared). */
  singleChoice: boolean
  choices: ClientChoice[]
  /** A list of messages (compared with Reply.messages, message by message, instead of the choices). */
  messages?: ClientMessage[]
  /** Absent: the result carries no usage. */
  usage?: Record<string, unknown> | null
}

type Obj = Record<string, unknown>

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function has(o: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key)
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

/** Text as a client holds it: null is the empty text; an array of text parts is their concatenation. */
function text(v: unknown): string {
  if (typeof v === 'string') return v
  if (Array.isArray(v)) return v.map((p) => (isObject(p) ? str(p['text']) ?? '' : typeof p === 'string' ? p : '')).join('')
  return ''
}

function argumentsOf(v: unknown): ClientArguments | undefined {
  if (v === undefined) return undefined
  return typeof v === 'string' ? { text: v } : { value: v }
}

/** Which result this is, or null when compareReply cannot read it. */
export function detectClientShape(value: unknown): ClientShape | null {
  if (typeof value === 'string') return 'text'
  if (Array.isArray(value)) return detectMessageList(value)
  if (!isObject(value)) return null
  const v = value
  if (Array.isArray(v['choices'])) {
    if (typeof v['provider'] === 'string' && has(v, 'transport')) return 'deltascope-reply'
    if (v['object'] === 'chat.completion' || v['choices'].some((c) => isObject(c) && isObject(c['message']))) return 'openai-chat-completion'
    return null
  }
  if (Array.isArray(v['candidates'])) return 'gemini-response'
  if (v['object'] === 'response' || (Array.isArray(v['output']) && has(v, 'status'))) return 'openai-response'
  if (Array.isArray(v['content']) && (v['type'] === 'message' || has(v, 'stop_reason') || isAnthropicBlocks(v['content']))) return 'anthropic-message'
  if (Array.isArray(v['parts'])) return 'ai-sdk-ui-message'
  if (isObject(v['message']) && (has(v, 'done') || has(v, 'done_reason') || has(v, 'created_at'))) return 'ollama-chat'
  if (typeof v['role'] === 'string' && (has(v, 'content') || has(v, 'tool_calls') || has(v, 'function_call'))) return 'openai-chat-message'
  // a state holding its messages (LangGraph values, an AG-UI agent)
  return detectMessageList(v)
}

function isAnthropicBlocks(content: unknown[]): boolean {
  return content.length > 0 && content.every((b) => isObject(b) && typeof b['type'] === 'string' && (has(b, 'text') || has(b, 'thinking') || has(b, 'input') || has(b, 'data')))
}

/** The result in the neutral shape, or null when it is no shape compareReply reads. */
export function readClientResult(value: unknown): ClientView | null {
  const shape = detectClientShape(value)
  if (shape === null) return null
  const v = value as Obj
  switch (shape) {
    case 'text': return { shape, singleChoice: true, choices: [{ index: 0, content: value as string }] }
    case 'deltascope-reply': return readReply(v)
    case 'openai-chat-completion': return readChatCompletion(v)
    case 'openai-chat-message': return { shape, singleChoice: true, choices: [readChatMessage(v, 0)] }
    case 'openai-response': return readResponse(v)
    case 'anthropic-message': return readAnthropic(v)
    case 'gemini-response': return readGemini(v)
    case 'ollama-chat': return readOllama(v)
    case 'ai-sdk-ui-message': return readUiMessage(v)
    default: return { shape, singleChoice: true, choices: [], messages: readMessageList(value, shape as MessageListShape) }
  }
}

function withUsage(view: ClientView, o: Obj, key: string): ClientView {
  if (has(o, key)) view.usage = isObject(o[key]) ? (o[key] as Obj) : null
  return view
}

function readReply(r: Obj): ClientView {
  const choices = arr(r['choices']).filter(isObject).map((c, position): ClientChoice => ({
    index: typeof c['index'] === 'number' ? c['index'] : position,
    content: text(c['content']),
    reasoning: text(c['reasoning']),
    refusal: text(c['refusal']),
    toolCalls: arr(c['toolCalls']).filter(isObject).map((t) => ({
      id: str(t['id']), name: str(t['name']), arguments: { text: text(t['arguments']) },
    })),
    finishReason: str(c['finishReason']),
  }))
  return withUsage({ shape: 'deltascope-reply', singleChoice: false, choices }, r, 'usage')
}

function readChatCompletion(c: Obj): ClientView {
  const choices = arr(c['choices']).filter(isObject).map((choice, position) => {
    const index = typeof choice['index'] === 'number' ? choice['index'] : position
    const out = readChatMessage(isObject(choice['message']) ? choice['message'] : {}, index)
    if (has(choice, 'finish_reason')) out.finishReason = str(choice['finish_reason'])
    return out
  })
  return withUsage({ shape: 'openai-chat-completion', singleChoice: false, choices }, c, 'usage')
}

/** An OpenAI message (also Ollama's): reasoning is `reasoning_content ?? reasoning`, read only when the message has one of the keys. */
function readChatMessage(m: Obj, index: number): ClientChoice {
  const out: ClientChoice = { index }
  if (has(m, 'content')) out.content = text(m['content'])
  if (has(m, 'reasoning_content') || has(m, 'reasoning')) out.reasoning = str(m['reasoning_content']) ?? str(m['reasoning']) ?? ''
  else if (has(m, 'thinking')) out.reasoning = text(m['thinking'])
  if (has(m, 'refusal')) out.refusal = text(m['refusal'])
  // the API leaves tool_calls out when there are none
  if (Array.isArray(m['tool_calls'])) out.toolCalls = m['tool_calls'].filter(isObject).map(chatToolCall)
  else if (isObject(m['function_call'])) out.toolCalls = [chatToolCall({ function: m['function_call'] })]
  else out.toolCalls = []
  return out
}

function chatToolCall(t: Obj): ClientToolCall {
  const fn = isObject(t['function']) ? t['function'] : {}
  const call: ClientToolCall = { name: str(fn['name']) }
  if (has(t, 'id')) call.id = str(t['id'])
  const args = argumentsOf(fn['arguments'])
  if (args) call.arguments = args
  return call
}

const RESPONSE_CALLS: ReadonlySet<unknown> = new Set(['function_call', 'custom_tool_call', 'mcp_call'])

/** Responses output items: message parts, reasoning parts (each its own paragraph, as the Reply joins them), call items. */
function readResponse(r: Obj): ClientView {
  let content = ''
  let refusal = ''
  const reasoning: string[] = []
  const toolCalls: ClientToolCall[] = []
  for (const item of arr(r['output'])) {
    if (!isObject(item)) continue
    if (item['type'] === 'message') {
      for (const part of arr(item['content'])) {
        if (!isObject(part)) continue
        if (part['type'] === 'output_text') content += text(part['text'])
        else if (part['type'] === 'refusal') refusal += text(part['refusal'])
      }
    } else if (item['type'] === 'reasoning') {
      for (const part of [...arr(item['summary']), ...arr(item['content'])]) {
        const t = isObject(part) ? text(part['text']) : ''
        if (t !== '') reasoning.push(t)
      }
    } else if (RESPONSE_CALLS.has(item['type'])) {
      const call: ClientToolCall = { id: str(item['call_id']) ?? str(item['id']), name: str(item['name']) }
      const args = argumentsOf(item['arguments'] ?? item['input'])
      if (args) call.arguments = args
      toolCalls.push(call)
    }
  }
  const choice: ClientChoice = { index: 0, content, reasoning: reasoning.join('\n\n'), refusal, toolCalls }
  if (has(r, 'status')) {
    const status = str(r['status'])
    const details = isObject(r['incomplete_details']) ? str(r['incomplete_details']['reason']) : null
    choice.finishReason = status === 'incomplete' ? details ?? status : status
  }
  return withUsage({ shape: 'openai-response', singleChoice: true, choices: [choice] }, r, 'usage')
}

const ANTHROPIC_CALLS: ReadonlySet<unknown> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use'])

function readAnthropic(m: Obj): ClientView {
  let content = ''
  let reasoning = ''
  const toolCalls: ClientToolCall[] = []
  for (const block of arr(m['content'])) {
    if (!isObject(block)) continue
    if (block['type'] === 'text') content += text(block['text'])
    else if (block['type'] === 'thinking') reasoning += text(block['thinking'])
    else if (ANTHROPIC_CALLS.has(block['type'])) {
      const call: ClientToolCall = { id: str(block['id']), name: str(block['name']) }
      const args = argumentsOf(block['input'])
      if (args) call.arguments = args
      toolCalls.push(call)
    }
  }
  const choice: ClientChoice = { index: 0, content, reasoning, toolCalls }
  if (has(m, 'stop_reason')) choice.finishReason = str(m['stop_reason'])
  return withUsage({ shape: 'anthropic-message', singleChoice: true, choices: [choice] }, m, 'usage')
}

function readGemini(r: Obj): ClientView {
  const choices = arr(r['candidates']).filter(isObject).map((c, position) => {
    let content = ''
    let reasoning = ''
    const toolCalls: ClientToolCall[] = []
    const parts = isObject(c['content']) ? arr(c['content']['parts']) : []
    for (const part of parts) {
      if (!isObject(part)) continue
      if (typeof part['text'] === 'string') {
        if (part['thought'] === true) reasoning += part['text']
        else content += part['text']
      }
      if (isObject(part['functionCall'])) {
        const fc = part['functionCall']
        const call: ClientToolCall = { name: str(fc['name']), arguments: { value: fc['args'] ?? {} } }
        if (has(fc, 'id')) call.id = str(fc['id'])
        toolCalls.push(call)
      }
    }
    const choice: ClientChoice = { index: typeof c['index'] === 'number' ? c['index'] : position, content, reasoning, toolCalls }
    if (has(c, 'finishReason')) choice.finishReason = str(c['finishReason'])
    return choice
  })
  return withUsage({ shape: 'gemini-response', singleChoice: false, choices }, r, 'usageMetadata')
}

/** Ollama's usage: the counters of the final object, as the Reply keeps them. */
const OLLAMA_COUNTERS = ['prompt_eval_count', 'eval_count', 'total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration']

function readOllama(r: Obj): ClientView {
  const choice = readChatMessage(r['message'] as Obj, 0)
  if (has(r, 'done_reason')) choice.finishReason = str(r['done_reason'])
  const view: ClientView = { shape: 'ollama-chat', singleChoice: true, choices: [choice] }
  const counters = OLLAMA_COUNTERS.filter((k) => has(r, k))
  if (counters.length > 0) view.usage = Object.fromEntries(counters.map((k) => [k, r[k]]))
  return view
}

/** UIMessage parts: text, reasoning, and tool parts (`tool-<name>`, or `dynamic-tool` with toolName). */
function readUiMessage(m: Obj): ClientView {
  let content = ''
  let reasoning = ''
  const toolCalls: ClientToolCall[] = []
  for (const part of arr(m['parts'])) {
    if (!isObject(part)) continue
    const type = str(part['type']) ?? ''
    if (type === 'text') content += text(part['text'])
    else if (type === 'reasoning') reasoning += text(part['text'])
    else if (type === 'dynamic-tool' || type.startsWith('tool-')) {
      const call: ClientToolCall = {
        id: str(part['toolCallId']),
        name: type === 'dynamic-tool' ? str(part['toolName']) : type.slice('tool-'.length),
      }
      const args = argumentsOf(part['input'])
      if (args) call.arguments = args
      toolCalls.push(call)
    }
  }
  return { shape: 'ai-sdk-ui-message', singleChoice: true, choices: [{ index: 0, content, reasoning, toolCalls }] }
}
