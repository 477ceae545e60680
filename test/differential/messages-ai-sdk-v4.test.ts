// AI SDK 4 data streams (`toDataStreamResponse()`, `0:"text"` lines) against the client that
// read them: callChatApi of @ai-sdk/ui-utils 1 (what useChat ran in ai 4), given a custom fetch
// that answers with a fixture's exact bytes on every chunking. The message it showed last must
// be Reply.messages, message by message (test/support/differential-messages.ts).

import { describe, expect, it } from 'vitest'
import { fixturesFor, forbidGlobalFetch } from '../support/differential.js'
import { chunkings, expectAgreement, replyView } from '../support/differential-messages.js'
import { runDataStreamClient, v4MessageView } from '../support/message-clients.js'

forbidGlobalFetch()

const fixtures = fixturesFor('ai-sdk-v4')
/**
 * Where the client and Deltascope part on purpose: a `9` whose args differ from the streamed
 * fragments. The client shows the `9`'s args; Deltascope keeps what streamed (the fragments
 * another client would have shown) and reports the difference (final-mismatch).
 */
const ARGS_DIFFER = 'ai-sdk-v4/tool-call-streaming-args-differ.txt'
/** A line with an unknown code: the client throws on it; Deltascope records it and reads on. */
const BROKEN = 'ai-sdk-v4/broken-lines.txt'

describe('ai-sdk-v4 fixtures vs AI SDK 4 callChatApi, message by message', () => {
  it('there are the fixtures this suite is about', () => {
    expect(fixtures.map((f) => f.name).sort()).toEqual([
      BROKEN, 'ai-sdk-v4/continued-steps-annotations.txt', 'ai-sdk-v4/error-after-text.txt',
      'ai-sdk-v4/reasoning-signature-redacted.txt', 'ai-sdk-v4/server-side-tool-roundtrip.txt', ARGS_DIFFER,
    ])
  })

  for (const f of fixtures) {
    for (const c of chunkings(f.wire)) {
      it(`${f.name} (${c.name}): the client's message is Reply.messages`, async () => {
        const end = await runDataStreamClient(c.chunks)
        if (f.name === BROKEN) {
          // the line the client threw on is Reply.errors' first frame error
          expect(end.threw).toBe('Failed to parse stream string. Invalid code x.')
          expect(f.reply.errors[0]).toMatchObject({ frame: 2, line: 3, raw: 'x:"not a code"\n' })
          return
        }
        expect(end.message).toBeDefined()
        const view = [v4MessageView(end.message!)]
        // a `3:` part: the client throws its text; Deltascope keeps it as the message's error part
        const ours = f.reply.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'error' ? [p.message] : [])))
        expect(end.threw === null ? [] : [end.threw]).toEqual(ours)
        if (f.name === ARGS_DIFFER) {
          const mine = replyView(f.reply.messages, 'parsed')
          expect(view).toEqual([{ ...mine[0]!, calls: [{ ...mine[0]!.calls[0]!, args: { testArg: 'test-value' } }] }])
          expect(mine[0]!.calls[0]!.args).toBe('{"testArg":"test-value"}}')
          return
        }
        expectAgreement(f, [end.message], view, 'parsed')
      })
    }
  }

  it('a tool round trip, written out: the call, its result, then the next step\'s text, in one message with no id of the wire\'s', () => {
    const f = fixtures.find((x) => x.name === 'ai-sdk-v4/server-side-tool-roundtrip.txt')!
    expect(replyView(f.reply.messages, 'parsed')).toEqual([{
      id: null, role: 'assistant', text: 'The weather in London is sunny.', reasoning: '',
      calls: [{ id: 'tool-call-id', name: 'tool-name', args: { city: 'London' } }],
      results: [{ toolCallId: 'tool-call-id', output: { weather: 'sunny' }, isError: false }],
    }])
  })
})
