// A client's result that is a list of messages, read into one neutral shape: an AI SDK
// UIMessage[] (parts in order), AG-UI `messages`, LangGraph `values.messages` (LangChain
// messages, also as `{messages: [...]}`), an OpenAI or Anthropic message list. compareReply
// then holds them against Reply.messages message by message (compare-messages.ts).
//
// Untrusted input, as in client-shapes.ts: nothing here throws on a wrong type.

/** Arguments as the client holds them: text (OpenAI wire) or a parsed value (Anthropic input, Gemini args, Ollama, AI SDK). */
export type ClientArguments = { text: string } | { value: unknown }

export type ClientPart =
  | { type: 'text' | 'reasoning'; text: string }
  | { type: 'tool-call'; id: string | null; name: string | null; arguments?: ClientArguments }
  | { type: 'tool-result'; toolCallId: string | null; output: unknown }

export interface ClientMessage {
  id: string | null
  role: string | null
  parts: ClientPart[]
  /** The shape keeps its parts in the order they streamed (UIMessage); else only text, reasoning, calls and results apart. */
  ordered: boolean
}

export const MESSAGE_LIST_SHAPES = {
  'ai-sdk-ui-messages': 'an AI SDK UIMessage[]',
  'langchain-messages': "LangGraph's values.messages (LangChain messages, or {messages: [...]})",
  'chat-messages': 'a message list (AG-UI messages, OpenAI or Anthropic messages)',
} as const

export type MessageListShape = keyof typeof MESSAGE_LIST_SHAPES

type Obj = Record<string, unknown>

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

/** LangChain message types and the role each is. */
const LANGCHAIN_ROLES: ReadonlyMap<string, string> = new Map([
  ['ai', 'assistant'], ['AIMessage', 'assistant'], ['AIMessageChunk', 'assistant'],
  ['human', 'user'], ['HumanMessage', 'user'], ['tool', 'tool'], ['ToolMessage', 'tool'], ['system', 'system'], ['SystemMessage', 'system'],
])

/** The list a result holds: an array, or the `messages` of a state object. */
function listOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value
  if (isObject(value) && Array.isArray(value['messages']) && !Array.isArray(value['choices'])) return value['messages']
  return null
}

/** Which message list this is, or null when it is none. */
export function detectMessageList(value: unknown): MessageListShape | null {
  const list = listOf(value)
  if (list === null || !list.every(isObject)) return null
  const items = list as Obj[]
  if (items.some((m) => Array.isArray(m['parts']))) return 'ai-sdk-ui-messages'
  if (items.some((m) => typeof m['type'] === 'string' && LANGCHAIN_ROLES.has(m['type']))) return 'langchain-messages'
  if (items.every((m) => typeof m['role'] === 'string')) return 'chat-messages'
  return null
}

export function readMessageList(value: unknown, shape: MessageListShape): ClientMessage[] {
  const list = (listOf(value) ?? []).filter(isObject)
  switch (shape) {
    case 'ai-sdk-ui-messages': return list.map(uiMessage)
    case 'langchain-messages': return list.map(langchainMessage)
    case 'chat-messages': return list.map(chatMessage)
  }
}

function argumentsOf(v: unknown): ClientArguments | undefined {
  if (v === undefined) return undefined
  return typeof v === 'string' ? { text: v } : { value: v }
}

/** Text as a string, or the text of a list of blocks ({type: "text", text}). */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v
  return arr(v).map((b) => (isObject(b) && (b['type'] === 'text' || b['type'] === undefined) ? str(b['text']) ?? '' : typeof b === 'string' ? b : '')).join('')
}

/**
 * UIMessage parts: text, reasoning, and tool parts with their input and, once there, their
 * output or error. AI SDK 4's message (`useChat` of ai 4) has the same list with its own
 * names: a reasoning part's text is `reasoning`, a call is a `tool-invocation` part.
 */
function uiMessage(m: Obj): ClientMessage {
  const parts: ClientPart[] = []
  for (const part of arr(m['parts'])) {
    if (!isObject(part)) continue
    const type = str(part['type']) ?? ''
    if (type === 'text' || type === 'reasoning') parts.push({ type, text: str(part['text']) ?? str(part['reasoning']) ?? '' })
    else if (type === 'tool-invocation' && isObject(part['toolInvocation'])) {
      const t = part['toolInvocation']
      const id = str(t['toolCallId'])
      const call: ClientPart = { type: 'tool-call', id, name: str(t['toolName']) }
      const args = argumentsOf(t['args'])
      if (args) call.arguments = args
      parts.push(call)
      if (t['state'] === 'result') parts.push({ type: 'tool-result', toolCallId: id, output: t['result'] })
    } else if (type === 'dynamic-tool' || type.startsWith('tool-')) {
      const id = str(part['toolCallId'])
      const call: ClientPart = { type: 'tool-call', id, name: type === 'dynamic-tool' ? str(part['toolName']) : type.slice('tool-'.length) }
      const args = argumentsOf(part['input'])
      if (args) call.arguments = args
      parts.push(call)
      if (part['state'] === 'output-available') parts.push({ type: 'tool-result', toolCallId: id, output: part['output'] })
      else if (part['state'] === 'output-error') parts.push({ type: 'tool-result', toolCallId: id, output: part['errorText'] })
    }
  }
  return { id: str(m['id']), role: str(m['role']), parts, ordered: true }
}

/** A LangChain message: content (string or blocks), tool_calls with parsed args, a tool's result. */
function langchainMessage(m: Obj): ClientMessage {
  const role = LANGCHAIN_ROLES.get(str(m['type']) ?? '') ?? str(m['type'])
  const parts: ClientPart[] = []
  if (role === 'tool') {
    parts.push({ type: 'tool-result', toolCallId: str(m['tool_call_id']), output: m['content'] })
    return { id: str(m['id']), role, parts, ordered: false }
  }
  const reasoning = arr(m['content']).map((b) => (isObject(b) && b['type'] === 'thinking' ? str(b['thinking']) ?? '' : isObject(b) && b['type'] === 'reasoning' ? str(b['reasoning']) ?? '' : '')).join('')
  if (reasoning !== '') parts.push({ type: 'reasoning', text: reasoning })
  parts.push({ type: 'text', text: textOf(m['content']) })
  for (const c of arr(m['tool_calls'])) {
    if (!isObject(c)) continue
    const call: ClientPart = { type: 'tool-call', id: str(c['id']), name: str(c['name']) }
    const args = argumentsOf(c['args'])
    if (args) call.arguments = args
    parts.push(call)
  }
  return { id: str(m['id']), role, parts, ordered: false }
}

/** AG-UI (toolCalls, toolCallId, a `reasoning` role), OpenAI (tool_calls, tool_call_id) or Anthropic (content blocks) messages. */
function chatMessage(m: Obj): ClientMessage {
  const role = str(m['role'])
  const id = str(m['id'])
  const parts: ClientPart[] = []
  const toolCallId = str(m['toolCallId']) ?? str(m['tool_call_id'])
  if (role === 'tool') {
    parts.push({ type: 'tool-result', toolCallId, output: m['content'] })
    return { id, role, parts, ordered: false }
  }
  if (role === 'reasoning') {
    parts.push({ type: 'reasoning', text: textOf(m['content']) })
    return { id, role, parts, ordered: false }
  }
  const blocks = arr(m['content']).filter(isObject)
  const thinking = blocks.map((b) => (b['type'] === 'thinking' ? str(b['thinking']) ?? '' : '')).join('')
  if (thinking !== '') parts.push({ type: 'reasoning', text: thinking })
  parts.push({ type: 'text', text: textOf(m['content']) })
  for (const b of blocks) {
    if (b['type'] === 'tool_use') {
      const call: ClientPart = { type: 'tool-call', id: str(b['id']), name: str(b['name']) }
      const args = argumentsOf(b['input'])
      if (args) call.arguments = args
      parts.push(call)
    } else if (b['type'] === 'tool_result') parts.push({ type: 'tool-result', toolCallId: str(b['tool_use_id']), output: b['content'] })
  }
  for (const c of [...arr(m['toolCalls']), ...arr(m['tool_calls'])]) {
    if (!isObject(c)) continue
    const fn = isObject(c['function']) ? c['function'] : {}
    const call: ClientPart = { type: 'tool-call', id: str(c['id']), name: str(fn['name']) }
    const args = argumentsOf(fn['arguments'])
    if (args) call.arguments = args
    parts.push(call)
  }
  return { id, role, parts, ordered: false }
}
