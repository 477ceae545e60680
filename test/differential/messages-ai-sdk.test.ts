// AI SDK UI message streams against the AI SDK's own client (ai 6): DefaultChatTransport, given
// a custom fetch that answers with a fixture's exact bytes, parses the SSE body into
// UIMessageChunks, and readUIMessageStream reduces them into the UIMessage the chat UI shows.
// Its last UIMessage must be Reply.messages, message by message (test/support/differential-messages.ts),
// on every chunking of the body.

import { describe, expect, it } from 'vitest'
import { fixturesFor, forbidGlobalFetch } from '../support/differential.js'
import { chunkings, expectAgreement, replyView } from '../support/differential-messages.js'
import { runUiClient, uiMessageView } from '../support/message-clients.js'

// the clients get the fixture's fetch; anything reaching for the global one fails
forbidGlobalFetch()

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
        const end = await runUiClient(c.chunks)
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
