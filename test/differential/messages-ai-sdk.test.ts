// AI SDK UI message streams against the AI SDK's own client (ai 6): DefaultChatTransport, given
// a custom fetch that answers with a fixture's exact bytes, parses the SSE body into
// UIMessageChunks, and readUIMessageStream reduces them into the UIMessage the chat UI shows.
// Its last UIMessage must be Reply.messages, message by message (test/support/differential-messages.ts),
// on every chunking of the body.

import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { ORACLE_BASE, fixturesFor } from '../support/differential.js'
import { bodyFetch, chunkings, expectAgreement, replyView, type MessageView } from '../support/differential-messages.js'

const URL_ = `${ORACLE_BASE}/api/chat`

interface ClientEnd {
  message: UIMessage | undefined
  /** What the client reported through onError (an `error` chunk), in order. */
  errors: string[]
}

/** The AI SDK's chat client on the body: transport (SSE → chunks) then the UIMessage reducer. */
async function runClient(chunks: readonly Uint8Array[]): Promise<ClientEnd> {
  const urls: string[] = []
  const transport = new DefaultChatTransport({ api: URL_, fetch: bodyFetch(chunks, URL_, urls) as typeof fetch })
  const stream = await transport.sendMessages({ chatId: 'chat', messages: [], abortSignal: undefined, trigger: 'submit-message', messageId: undefined })
  const errors: string[] = []
  let message: UIMessage | undefined
  for await (const m of readUIMessageStream({ stream, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) })) message = m
  expect(urls).toEqual([URL_])
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

const fixtures = fixturesFor('ai-sdk')

describe('ai-sdk fixtures vs ai 6 DefaultChatTransport + readUIMessageStream, message by message', () => {
  it('there are the message fixtures this suite is about', () => {
    expect(fixtures.map((f) => f.name)).toEqual(expect.arrayContaining([
      'ai-sdk/tool-error-approval-request-source.sse', 'ai-sdk/writer-interleaved-parts-failed-tool.sse', 'ai-sdk/multi-step-two-tool-calls.sse',
      'ai-sdk/reasoning-text-tool-call.sse',
    ]))
  })

  for (const f of fixtures) {
    for (const c of chunkings(f.wire)) {
      it(`${f.name} (${c.name}): the client's UIMessage is Reply.messages`, async () => {
        const end = await runClient(c.chunks)
        expect(end.message).toBeDefined()
        expectAgreement(f, [end.message], [uiMessageView(end.message!)], 'parsed')
        // an `error` chunk is not a part of the UIMessage: the client reports it; we keep it as an error part
        const ours = f.reply.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'error' ? [p.message] : [])))
        expect(end.errors).toEqual(ours)
      })
    }
  }

  it('the plain view of a fixture with a failed tool, a source and an approval request, written out', () => {
    const f = fixtures.find((x) => x.name === 'ai-sdk/tool-error-approval-request-source.sse')!
    expect(replyView(f.reply.messages, 'parsed')).toEqual([{
      id: 'msg_Ap7', role: 'assistant',
      text: 'Looking up the file list.No access; I can delete the stale lock instead.',
      reasoning: '',
      calls: [{ id: 'call_ls', name: 'listFiles', args: { dir: '/tmp' } }, { id: 'call_rm', name: 'deleteFile', args: { path: '/tmp/app.lock' } }],
      results: [{ toolCallId: 'call_ls', output: "EACCES: permission denied, scandir '/tmp'", isError: true }],
    }])
  })
})
