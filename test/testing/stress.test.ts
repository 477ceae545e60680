// stressClient: the user's client under every chunking of one capture. The real SDKs pass
// every chunking of clean captures; a hand-written client with one bug is caught by the
// chunking that exposes it, with the cause and the frame; a client that hangs or throws is a
// failure saying so; the report is the same for the same capture and chunkings.

import Anthropic from '@anthropic-ai/sdk'
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { fixtureToJson } from '../../src/exchange/fixture.js'
import { DEFAULT_CHUNKINGS, stressClient, type StressClient, type StressReport } from '../../src/testing.js'
import { cutEvery, fixtureOf, wire } from '../debug/compare-support.js'
import { ORACLE_BASE } from '../support/differential.js'
import { chatClient, chatFixture, type Bug } from './stress-clients.js'

type SdkFetch = NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetch']

const openaiChat: StressClient = async (fetch) => {
  const client = new OpenAI({ apiKey: 'unused', baseURL: `${ORACLE_BASE}/v1`, maxRetries: 0, fetch: fetch as SdkFetch })
  return await client.chat.completions.stream({ model: 'x', messages: [] }).finalChatCompletion()
}

const openaiResponses: StressClient = async (fetch) => {
  const client = new OpenAI({ apiKey: 'unused', baseURL: `${ORACLE_BASE}/v1`, maxRetries: 0, fetch: fetch as SdkFetch })
  return await client.responses.stream({ model: 'x', input: 'hi' }).finalResponse()
}

const anthropic: StressClient = async (fetch) => {
  const client = new Anthropic({ apiKey: 'unused', baseURL: ORACLE_BASE, maxRetries: 0, fetch: fetch as NonNullable<ConstructorParameters<typeof Anthropic>[0]>['fetch'] })
  return await client.messages.stream({ model: 'x', max_tokens: 1, messages: [] }).finalMessage()
}

/** The AI SDK's chat transport (what useChat runs), its UI message stream read to the last message. */
const aiSdkChat: StressClient = async (fetch) => {
  const transport = new DefaultChatTransport({ api: `${ORACLE_BASE}/api/chat`, fetch: fetch as typeof globalThis.fetch })
  const stream = await transport.sendMessages({ chatId: 'c1', messages: [], trigger: 'submit-message', messageId: undefined, abortSignal: undefined })
  let last: UIMessage | undefined
  for await (const message of readUIMessageStream({ stream })) last = message
  return last
}

/** Per run: the chunking and whether it was equal, or its failure. */
function verdicts(report: StressReport): Record<string, true | string> {
  return Object.fromEntries(report.runs.map((r) => [r.chunking, r.equal ? true : r.error ? `${r.error.kind}: ${r.error.message}` : r.comparison!.differences.map((d) => `${d.field} ${d.cause} @${d.frame}`).join('; ')]))
}

const EVERY_RUN_EQUAL = Object.fromEntries(DEFAULT_CHUNKINGS.map((n) => [n, true]))

describe('real clients pass every chunking of clean captures', () => {
  it('openai-node chat.completions.stream().finalChatCompletion(), on 2-, 3- and 4-byte characters', async () => {
    const report = await stressClient(openaiChat, chatFixture())
    expect(verdicts(report)).toEqual(EVERY_RUN_EQUAL)
    expect(report).toMatchObject({ ok: true, notApplicable: [], firstFailure: null })
  })

  it('openai-node on parallel tool calls whose fragments interleave', async () => {
    const name = 'openai-chat/tool-calls-interleaved-parallel.sse'
    const report = await stressClient(openaiChat, fixtureOf(name, cutEvery(wire(name), 100)))
    // no multi-byte character in it: utf8-split has nothing to cut
    expect(report.notApplicable).toEqual([{ chunking: 'utf8-split', reason: 'the body has no multi-byte character' }])
    expect(verdicts(report)).toEqual({ ...EVERY_RUN_EQUAL, 'utf8-split': undefined })
    expect(report.ok).toBe(true)
  })

  it('openai-node responses.stream().finalResponse(), reasoning and a function call', async () => {
    const name = 'openai-responses/reasoning-summary-text-function-call.sse'
    const report = await stressClient(openaiResponses, fixtureOf(name, cutEvery(wire(name), 300)), { chunkings: DEFAULT_CHUNKINGS.filter((n) => n !== 'utf8-split') })
    expect(verdicts(report)).toEqual({ ...EVERY_RUN_EQUAL, 'utf8-split': undefined })
  })

  it('@anthropic-ai/sdk messages.stream().finalMessage(), with pings, a server tool and multi-byte text', async () => {
    const name = 'anthropic/pings-server-tool-web-search.sse'
    const report = await stressClient(anthropic, fixtureOf(name, cutEvery(wire(name), 200)))
    expect(verdicts(report)).toEqual(EVERY_RUN_EQUAL)
  })

  it('@anthropic-ai/sdk on thinking, text and a tool call', async () => {
    const name = 'anthropic/thinking-text-tool-use.sse'
    const report = await stressClient(anthropic, fixtureOf(name, cutEvery(wire(name), 64)), { chunkings: DEFAULT_CHUNKINGS.filter((n) => n !== 'utf8-split') })
    expect(verdicts(report)).toEqual({ ...EVERY_RUN_EQUAL, 'utf8-split': undefined })
  })

  it('the AI SDK chat transport (ai 6, DefaultChatTransport + readUIMessageStream) on reasoning, text and a tool call', async () => {
    const name = 'ai-sdk/reasoning-text-tool-call.sse'
    const report = await stressClient(aiSdkChat, fixtureOf(name, cutEvery(wire(name), 90)), { chunkings: DEFAULT_CHUNKINGS.filter((n) => n !== 'utf8-split') })
    expect(verdicts(report)).toEqual({ ...EVERY_RUN_EQUAL, 'utf8-split': undefined })
    expect(report.ok).toBe(true)
  })

  it('the hand-written client without a bug passes every chunking too', async () => {
    expect(verdicts(await stressClient(chatClient(), chatFixture()))).toEqual(EVERY_RUN_EQUAL)
  })
})

describe('each buggy client is caught by the chunking that exposes it', () => {
  const failing = async (bug: Bug) => {
    const report = await stressClient(chatClient(bug), chatFixture(), { timeoutMs: 500 })
    return Object.fromEntries(Object.entries(verdicts(report)).filter(([, v]) => v !== true))
  }

  it('parsing each read on its own: frame-straddle, dropped-frames at frame 1 (and every cut that splits frames)', async () => {
    expect(await failing('parse-each-read')).toEqual({
      'bytes-1': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
      'frame-straddle': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
      'utf8-split': 'choices[0].content dropped-frames @1',
      'line-straddle': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
      'random:1': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
      'random:2': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
      'random:3': 'choices[0].content dropped-frames @1; choices[0].finishReason finish-reason-differs @4',
    })
    const report = await stressClient(chatClient('parse-each-read'), chatFixture(), { chunkings: ['frame-straddle'] })
    expect(report.firstFailure!.comparison!.differences[0]!.message).toBe(
      'The client dropped frames 1–3: their text ("Café ", …) is missing from the content; frame 1 arrived split across reads 1 and 2, frame 2 across reads 2 and 3, frame 3 across reads 3 and 4: a client that parses each read on its own drops them.',
    )
  })

  it('decoding each read on its own: utf8-split, at frame 1 where "é" was cut', async () => {
    expect(await failing('decode-each-read')).toEqual({
      'bytes-1': 'choices[0].content utf8-split @1',
      'utf8-split': 'choices[0].content utf8-split @1',
      'random:1': 'choices[0].content utf8-split @3',
    })
    const report = await stressClient(chatClient('decode-each-read'), chatFixture(), { chunkings: ['utf8-split'] })
    expect(report.firstFailure!.comparison!.differences[0]!.message).toBe(
      'The client decoded each network read on its own (without {stream: true}): "é" in frame 1 was split across reads 0 and 1 and came out as U+FFFD U+FFFD (5 characters damaged).',
    )
  })

  it('splitting only on \\n\\n: crlf and cr, where it finds no event at all', async () => {
    expect(await failing('split-on-lf-lf')).toEqual({
      'crlf': 'choices[0].content truncated @1; choices[0].finishReason finish-reason-differs @4',
      'cr': 'choices[0].content truncated @1; choices[0].finishReason finish-reason-differs @4',
    })
  })

  it('taking ":" comment lines as data: comments (and retry-id, whose id and retry lines it takes as data too)', async () => {
    expect(await failing('comment-as-data')).toEqual({
      'comments': 'choices[0].content truncated @1; choices[0].finishReason finish-reason-differs @4',
      'retry-id': 'choices[0].content truncated @1; choices[0].finishReason finish-reason-differs @4',
    })
  })

  it('reading "data: " with its space: no-space', async () => {
    expect(await failing('data-with-space')).toEqual({
      'no-space': 'choices[0].content truncated @1; choices[0].finishReason finish-reason-differs @4',
    })
  })

  it('a client that hangs (it waits for a "data: [DONE]" line that no-space does not send) is reported as timed out', async () => {
    const report = await stressClient(chatClient('done-line-only'), chatFixture(), { chunkings: ['recorded', 'no-space'], timeoutMs: 300 })
    expect(report.runs.map((r) => [r.chunking, r.equal, r.comparison === null, r.error])).toEqual([
      ['recorded', true, false, undefined],
      ['no-space', false, true, { kind: 'timed-out', message: 'the client did not settle within 300 ms' }],
    ])
    expect(report.runs[1]!.ms).toBeGreaterThanOrEqual(299)
    expect(report.firstFailure).toBe(report.runs[1])
    expect(report.ok).toBe(false)
  })
})

describe('runs, errors and the report', () => {
  it('a client that throws fails its run with the error; the other runs go on', async () => {
    let calls = 0
    const report = await stressClient(async () => {
      if (++calls === 1) throw new TypeError('boom')
      return 'not the reply'
    }, chatFixture(), { chunkings: ['whole', 'bytes-1'] })
    expect(report.runs.map((r) => [r.chunking, r.equal, r.error])).toEqual([
      ['whole', false, { kind: 'threw', message: 'TypeError: boom' }],
      ['bytes-1', false, undefined],
    ])
    expect(report.runs[1]!.comparison!.differences.map((d) => d.field)).toEqual(['choices[0].content'])
  })

  it('the fetch given answers every call with a fresh replay of the run\'s reads, and honours the caller\'s abort signal', async () => {
    const report = await stressClient(async (fetch) => {
      const a = await (await fetch('https://x.test/a')).text()
      const b = await (await fetch(new URL('https://x.test/b'))).text()
      const aborted = new AbortController()
      const c = await fetch('https://x.test/c', { signal: aborted.signal })
      aborted.abort(new Error('stop'))
      const error = await c.text().then(() => 'read', (e: Error) => e.message)
      return a === b && error === 'stop' ? a.length : -1
    }, chatFixture(), { chunkings: ['bytes-1'] })
    // the result, a number, is no reply: what matters is that the client computed it
    expect(report.runs[0]!.comparison!.differences[0]!.message).toMatch(/^The client's result could not be read/)
    expect(report.runs[0]!.comparison!.differences[0]!.got).toBe(644) // the body's characters (653 bytes)
  })

  it('takes the fixture as JSON text; only the chunkings asked for run, in that order, each once', async () => {
    const report = await stressClient(chatClient(), fixtureToJson(chatFixture()), { chunkings: ['random:9', 'whole', 'random:9'] })
    expect(report.runs.map((r) => [r.chunking, r.equal])).toEqual([['random:9', true], ['whole', true]])
  })

  it('is deterministic: the same capture and chunkings give the same report, times aside', async () => {
    const run = async () => (await stressClient(chatClient('parse-each-read'), chatFixture())).runs.map(({ ms: _ms, ...rest }) => rest)
    expect(await run()).toEqual(await run())
  })

  it('rejects the test\'s own mistakes: an unknown chunking, no chunking, a bad timeout, a recording that is no fixture', async () => {
    await expect(stressClient(chatClient(), chatFixture(), { chunkings: ['lf'] })).rejects.toThrow('stress: unknown chunking "lf" (one of recorded, whole, bytes-1, frame-straddle, utf8-split, line-straddle, crlf, cr, comments, no-space, retry-id, random:<seed>)')
    await expect(stressClient(chatClient(), chatFixture(), { chunkings: [] })).rejects.toThrow('stress: no chunking given (omit chunkings for every one)')
    await expect(stressClient(chatClient(), chatFixture(), { timeoutMs: 0 })).rejects.toThrow('stress: timeoutMs must be a number of ms above 0 (got 0)')
    await expect(stressClient(chatClient(), '{"format":"x"}')).rejects.toThrow('Not a Deltascope fixture: format is "x", expected "deltascope-fixture"')
  })
})
