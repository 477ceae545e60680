// The real clients of the message protocols, each run on a body through its own custom fetch,
// and their end states as the plain message view (test/support/differential-messages.ts):
// AG-UI's HttpAgent (@ag-ui/client 1.0), the AI SDK's DefaultChatTransport +
// readUIMessageStream (ai 6), and AI SDK 4's callChatApi (@ai-sdk/ui-utils 1) for the v4 data stream. Shared by the per-protocol suites and the interleaving runs.

import { HttpAgent } from '@ag-ui/client'
import { callChatApi } from '@ai-sdk/ui-utils'
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import { expect, vi } from 'vitest'
import { ORACLE_BASE } from './differential.js'
import { bodyFetch, type MessageView } from './differential-messages.js'

export const AG_UI_URL = `${ORACLE_BASE}/agent`
export const AI_SDK_URL = `${ORACLE_BASE}/api/chat`

type Dict = Record<string, unknown>

/** HttpAgent on the body: its messages once runAgent has settled, and what it threw, if anything. */
export async function runAgent(chunks: readonly Uint8Array[]): Promise<{ messages: Dict[]; threw: string | null }> {
  const urls: string[] = []
  const agent = new HttpAgent({ url: AG_UI_URL, fetch: bodyFetch(chunks, AG_UI_URL, urls) as typeof fetch })
  let threw: string | null = null
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {}) // "Agent execution failed" before it rethrows
  try {
    await agent.runAgent({ runId: 'run' })
  } catch (e) {
    threw = e instanceof Error ? e.message : String(e)
  } finally {
    errors.mockRestore()
  }
  expect(urls).toEqual([AG_UI_URL])
  return { messages: agent.messages as unknown as Dict[], threw }
}

/** An AG-UI message as the plain view: content, toolCalls' argument text, a tool message's result. */
export function agUiView(m: Dict): MessageView {
  const role = m['role'] as string
  const view: MessageView = { id: m['id'] as string, role, text: '', reasoning: '', calls: [], results: [] }
  if (role === 'tool') view.results.push({ toolCallId: m['toolCallId'] as string, output: m['content'], isError: m['error'] !== undefined })
  else if (role === 'reasoning') view.reasoning = m['content'] as string
  else view.text = (m['content'] as string | undefined) ?? ''
  for (const c of (m['toolCalls'] as Array<{ id: string; function: { name: string; arguments: string } }> | undefined) ?? []) {
    view.calls.push({ id: c.id, name: c.function.name, args: c.function.arguments })
  }
  return view
}

interface ClientEnd {
  message: UIMessage | undefined
  /** What the client reported through onError (an `error` chunk), in order. */
  errors: string[]
}

/** The AI SDK's chat client on the body: transport (SSE → chunks) then the UIMessage reducer. */
export async function runUiClient(chunks: readonly Uint8Array[]): Promise<ClientEnd> {
  const urls: string[] = []
  const transport = new DefaultChatTransport({ api: AI_SDK_URL, fetch: bodyFetch(chunks, AI_SDK_URL, urls) as typeof fetch })
  const stream = await transport.sendMessages({ chatId: 'chat', messages: [], abortSignal: undefined, trigger: 'submit-message', messageId: undefined })
  const errors: string[] = []
  let message: UIMessage | undefined
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) })) message = m
  expect(urls).toEqual([AI_SDK_URL])
  return { message, errors }
}

/** A UIMessage as the plain view: a tool part is a call (its input) and, once settled, a result. */
export function uiMessageView(m: UIMessage): MessageView {
  const view: MessageView = { id: m.id, role: m.role, text: '', reasoning: '', calls: [], results: [] }
  for (const p of m.parts as Array<Record<string, unknown> & { type: string }>) {
    if (p.type === 'text') view.text += p['text'] as string
    else if (p.type === 'reasoning') view.reasoning += p['text'] as string
    else if (p.type === 'dynamic-tool' || p.type.startsWith('tool-')) {
      const id = p['toolCallId'] as string
      view.calls.push({ id, name: p.type === 'dynamic-tool' ? (p['toolName'] as string) : p.type.slice('tool-'.length), args: p['input'] })
      if (p['state'] === 'output-available') view.results.push({ toolCallId: id, output: p['output'], isError: false })
      else if (p['state'] === 'output-error') view.results.push({ toolCallId: id, output: p['errorText'], isError: true })
    }
  }
  return view
}

/** The id callChatApi gives a message whose stream named none (its generateId, here fixed). */
export const V4_MADE_UP_ID = 'made-up-by-the-client'

interface V4End {
  /** The last message the client showed (onUpdate), as ui-utils 1 builds it. */
  message: Dict | undefined
  /** What callChatApi threw (a `3:` error part), if anything. */
  threw: string | null
}

/** The AI SDK 4 chat client (callChatApi of @ai-sdk/ui-utils 1, what useChat ran) on a data stream body. */
export async function runDataStreamClient(chunks: readonly Uint8Array[]): Promise<V4End> {
  const urls: string[] = []
  let message: Dict | undefined
  let threw: string | null = null
  try {
    await callChatApi({
      api: AI_SDK_URL, body: { messages: [] }, streamProtocol: 'data', credentials: undefined, headers: undefined,
      abortController: () => null, restoreMessagesOnFailure: () => {}, onResponse: undefined,
      onUpdate: ({ message: m }) => { message = m as unknown as Dict }, onFinish: undefined, onToolCall: undefined,
      generateId: () => V4_MADE_UP_ID, fetch: bodyFetch(chunks, AI_SDK_URL, urls) as typeof fetch, lastMessage: undefined,
    })
  } catch (e) {
    threw = e instanceof Error ? e.message : String(e)
  }
  expect(urls).toEqual([AI_SDK_URL])
  return { message, threw }
}

/** An AI SDK 4 message as the plain view: its text and reasoning parts, each tool invocation a call and (with a result) a result. */
export function v4MessageView(m: Dict): MessageView {
  const id = m['id'] === V4_MADE_UP_ID ? null : (m['id'] as string)
  const view: MessageView = { id, role: m['role'] as string, text: '', reasoning: '', calls: [], results: [] }
  for (const p of m['parts'] as Array<Dict & { type: string }>) {
    if (p.type === 'text') view.text += p['text'] as string
    else if (p.type === 'reasoning') view.reasoning += p['reasoning'] as string
    else if (p.type === 'tool-invocation') {
      const t = p['toolInvocation'] as Dict
      view.calls.push({ id: t['toolCallId'] as string, name: t['toolName'] as string, args: t['args'] })
      if (t['state'] === 'result') view.results.push({ toolCallId: t['toolCallId'] as string, output: t['result'], isError: false })
    }
  }
  return view
}
