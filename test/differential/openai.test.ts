// Differential tests against openai-node (v6): the SDK's own accumulators
// (ChatCompletionStream.finalChatCompletion, ResponseStream.finalResponse) are fed the same
// bytes as our merger through a custom `fetch` (docs/wire-formats.md#the-sdks-as-oracles, docs/architecture.md#testing) and must agree
// exactly on the compared fields, on clean streams. Where openai-node is known to disagree
// with our requirements (docs/wire-formats.md#the-sdks-as-oracles), the fixture is excluded
// from the comparison with its reason, and a test asserts that openai-node does disagree on it
// (it throws, or the comparison fails); the divergences themselves are asserted explicitly.

import OpenAI from 'openai'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { merge, type MergeOptions, type Reply } from '../../src/index.js'
import {
  ORACLE_BASE, askOracle, checkGenerated, describeFixtures, divergenceTests, enc, forbidGlobalFetch, fragmentedTextArb,
  firstChoice, generatedSseArb, interleave, isObject, oursChunked, splitAt, toolCallArb, withoutNulls, type Divergence, type Fragmented,
  type GenToolBase, type OracleFetch, type Ours, type SseEvent,
} from '../support/differential.js'

const BASE_URL = `${ORACLE_BASE}/v1`

forbidGlobalFetch()

function client(fetch: OracleFetch): OpenAI {
  return new OpenAI({ apiKey: 'unused', baseURL: BASE_URL, maxRetries: 0, fetch })
}

function sdkChat(chunks: readonly Uint8Array[]) {
  return askOracle(chunks, `${BASE_URL}/chat/completions`, (fetch) => client(fetch).chat.completions.stream({ model: 'x', messages: [] }).finalChatCompletion())
}

function sdkResponse(chunks: readonly Uint8Array[]) {
  return askOracle(chunks, `${BASE_URL}/responses`, (fetch) => client(fetch).responses.stream({ model: 'x', input: 'hi' }).finalResponse())
}

// ===========================================================================
// Chat Completions: the compared view

interface CallView {
  index: number
  id: string | null
  type: string | null
  name: string | null
  arguments: string
}

interface ChatChoiceView {
  index: number
  role: string | null
  content: string
  refusal: string
  toolCalls: CallView[]
  finishReason: string | null
}

interface ChatView {
  choices: ChatChoiceView[]
  usage: Record<string, unknown> | null
}

/** Our tool call as the SDKs' calls are compared. */
const callView = (t: Reply['choices'][number]['toolCalls'][number]): CallView => ({ index: t.index, id: t.id, type: t.type, name: t.name, arguments: t.arguments })

function oursChatView(reply: Reply): ChatView {
  return {
    choices: reply.choices.map((c) => ({
      index: c.index,
      role: c.role,
      content: c.content,
      refusal: c.refusal,
      toolCalls: c.toolCalls.map(callView),
      finishReason: c.finishReason,
    })),
    usage: reply.usage,
  }
}

type SdkCompletion = Awaited<ReturnType<typeof sdkChat>>

function sdkChatView(completion: SdkCompletion): ChatView {
  return {
    choices: completion.choices.map((c) => {
      const m = c.message
      let toolCalls: CallView[] = []
      if (m.function_call) {
        // we map the legacy function_call to toolCalls[0], type 'function', no id (docs/wire-formats.md#legacy-function-calls)
        toolCalls = [{ index: 0, id: null, type: 'function', name: m.function_call.name, arguments: m.function_call.arguments }]
      } else if (m.tool_calls) {
        toolCalls = m.tool_calls.map((t, i) => ({ index: i, id: t.id, type: t.type, name: t.function.name, arguments: t.function.arguments }))
      }
      return {
        index: c.index,
        role: m.role,
        content: m.content ?? '', // the SDK keeps null until a non-empty fragment; we keep ""
        refusal: m.refusal ?? '',
        toolCalls,
        finishReason: c.finish_reason,
      }
    }),
    // usage: nulls dropped on our side by design (docs/architecture.md#usage)
    usage: withoutNulls(completion.usage),
  }
}

// ===========================================================================
// Chat Completions: which fixtures openai-node can judge

interface ChatClassification {
  /** Why the SDK cannot be compared on this stream at all (docs/wire-formats.md#the-sdks-as-oracles). */
  skip: string | null
  /** Delta keys carrying reasoning: the SDK keeps only the last value (docs/wire-formats.md#reasoning-fields). */
  reasoningKeys: Set<string>
  /** Per choice, per reasoning key: the last value a delta gave (Object.assign semantics). */
  lastReasoning: Map<number, Map<string, unknown>>
  /** Calls whose id never came on the wire: the SDK invents `call_<uuid>`, we keep null. */
  idless: boolean
  /** Why usage cannot be compared, if it cannot. */
  usageSkip: string | null
}

const REASONING_KEYS = ['reasoning_content', 'reasoning', 'reasoning_details']

function classifyChat(ours: Ours): ChatClassification {
  const out: ChatClassification = { skip: null, reasoningKeys: new Set(), lastReasoning: new Map(), idless: false, usageSkip: null }
  const fail = (reason: string): ChatClassification => ({ ...out, skip: reason })
  if (ours.reply.transport !== 'sse') return fail(`transport ${ours.reply.transport}: the SDK reads SSE only`)
  // openai-node JSON-parses every block it dispatches, but ignores all after [DONE], and v6 never
  // dispatches a last block that lacks its blank line (its `end` is then the end of the body)
  const doneSeq = ours.frames.find((f) => f.kind === 'done')?.seq ?? Infinity
  if (ours.entries.some((e) => e.kind === 'empty' && e.beforeFrame <= doneSeq && e.end < ours.chars)) {
    return fail('an event block without data: openai-node JSON-parses "" and throws')
  }
  const calls = new Map<string, { id: string | null; name: string | null }>()
  const toolIndexes = new Map<number, Set<number>>()
  const choiceState = new Map<number, { role: boolean; finish: boolean; legacy: boolean; tools: boolean; fnName: boolean }>()
  let seenDone = false
  let lastIdChunk = -1
  const usageChunks: number[] = []
  let xgroq = false
  for (const f of ours.frames) {
    if (f.kind === 'invalid') return fail('malformed frame: openai-node aborts the stream')
    if (f.kind === 'done') { seenDone = true; continue }
    if (seenDone) return fail('frames after [DONE]: openai-node stops reading at [DONE]')
    if (f.event !== null && f.event.startsWith('thread.')) return fail('thread.* events: openai-node treats them as Assistants events')
    const j = f.json
    if (!isObject(j)) return fail('a frame that is not a JSON object')
    if (j['error']) return fail('mid-stream error payload: openai-node throws APIError and loses the text')
    if (!Array.isArray(j['choices'])) return fail('a chunk without a choices array: openai-node iterates chunk.choices')
    if (j['id']) lastIdChunk = f.seq
    if (j['usage'] !== undefined && j['usage'] !== null) usageChunks.push(f.seq)
    if (isObject(j['x_groq']) && isObject(j['x_groq']['usage'])) xgroq = true
    for (const choice of j['choices'] as unknown[]) {
      if (!isObject(choice)) return fail('a choice that is not an object')
      const ci = choice['index']
      if (typeof ci !== 'number' || !Number.isSafeInteger(ci) || ci < 0) return fail('a choice without an integer index')
      const st = choiceState.get(ci) ?? { role: false, finish: false, legacy: false, tools: false, fnName: false }
      choiceState.set(ci, st)
      if (choice['finish_reason']) st.finish = true
      const delta = choice['delta']
      if (!isObject(delta)) continue
      if (delta['role']) st.role = true
      if (delta['content'] !== undefined && delta['content'] !== null && typeof delta['content'] !== 'string') {
        return fail('array content: openai-node stringifies it ("[object Object]")')
      }
      for (const k of REASONING_KEYS) {
        if (k in delta) {
          out.reasoningKeys.add(k)
          const per = out.lastReasoning.get(ci) ?? new Map<string, unknown>()
          per.set(k, delta[k])
          out.lastReasoning.set(ci, per)
        }
      }
      if (delta['function_call'] !== undefined && delta['function_call'] !== null) {
        const fn = delta['function_call']
        if (!isObject(fn)) return fail('a function_call that is not an object')
        st.legacy = true
        if (fn['name']) st.fnName = true
      }
      const tcs = delta['tool_calls']
      if (tcs === undefined || tcs === null) continue
      if (!Array.isArray(tcs)) return fail('tool_calls as an object: openai-node expects an array')
      st.tools = true
      for (const tc of tcs) {
        if (!isObject(tc)) return fail('a tool call that is not an object')
        const ti = tc['index']
        if (typeof ti !== 'number' || !Number.isSafeInteger(ti) || ti < 0) {
          return fail('a tool call without an index: openai-node v6 drops it (see the divergence test below)')
        }
        const fn = isObject(tc['function']) ? tc['function'] : {}
        if (fn['arguments'] !== undefined && fn['arguments'] !== null && typeof fn['arguments'] !== 'string') {
          return fail('arguments as an object: openai-node concatenates them as strings')
        }
        const key = `${ci}:${ti}`
        const id = typeof tc['id'] === 'string' && tc['id'] !== '' ? tc['id'] : null
        const name = typeof fn['name'] === 'string' && fn['name'] !== '' ? fn['name'] : null
        const known = calls.get(key)
        if (!known) {
          if (!tc['type']) return fail('a tool call without `type`: openai-node throws')
          calls.set(key, { id, name })
          const set = toolIndexes.get(ci) ?? new Set<number>()
          set.add(ti)
          toolIndexes.set(ci, set)
          if (id === null) out.idless = true
        } else {
          if (id === 'null' && known.id !== null && known.id !== 'null') {
            return fail('placeholder id "null" on a continuation fragment: openai-node overwrites the real id with it')
          }
          if (id !== null && known.id !== null && id !== known.id) {
            return fail(`a second id at tool index ${ti}: openai-node overwrites the id and merges the calls`)
          }
          if (id !== null && known.id === null) known.id = id
          if (name !== null && known.name !== null && name !== known.name) {
            return fail('a tool name that changes between fragments: openai-node keeps the last')
          }
          if (name !== null && known.name === null) known.name = name
        }
      }
    }
  }
  const dense = (s: Set<number> | Iterable<number>) => { const a = [...s].sort((x, y) => x - y); return a.every((v, i) => v === i) }
  if (!dense(choiceState.keys())) return fail('sparse choice indexes: openai-node keeps a holey array')
  for (const [ci, set] of toolIndexes) {
    if (!dense(set)) return fail(`sparse tool-call indexes in choice ${ci}: openai-node crashes`)
  }
  for (const [ci, st] of choiceState) {
    if (!st.finish) return fail(`choice ${ci} has no finish_reason: openai-node throws "missing finish_reason"`)
    if (!st.role) return fail(`choice ${ci} has no role: openai-node throws "missing role"`)
    if (st.legacy && st.tools) return fail(`choice ${ci} mixes function_call and tool_calls: openai-node drops the tool calls`)
    if (st.legacy && !st.fnName) return fail(`choice ${ci}: function_call without a name: openai-node throws`)
  }
  if (xgroq) out.usageSkip = 'Groq x_groq.usage: we read it as usage, openai-node leaves it in x_groq'
  else if (usageChunks.some((seq) => seq !== lastIdChunk)) {
    out.usageSkip = 'usage outside the last chunk with an id: openai-node copies chunk fields wholesale from chunks with an id, we merge field by field'
  }
  return out
}

/**
 * What to do with one chat stream. openai-node v6 (installed) never dispatches a final
 * event that lacks its blank line: its SSEDecoder only dispatches on an empty line and
 * `_iterSSEMessages` does not send one at EOF. openai-node 7 flushes it (openai/openai-node
 * PR #2726), and so do we (docs/wire-formats.md#unterminated-last-event).
 * Expected divergence, encoded here: the SDK is compared with our merge of the body *without*
 * that last event; when dropping it loses a finish_reason, the SDK must throw instead.
 */
type ChatJudgement =
  | { kind: 'compare'; ours: Ours; cls: ChatClassification; droppedLast: boolean }
  | { kind: 'sdk-throws'; pattern: RegExp; why: string }
  /** `ours`: what a comparison would be made against (without the dropped last event, if any). */
  | { kind: 'skip'; reason: string; ours: Ours }

function judgeChat(bytes: Uint8Array, full: Ours, options: MergeOptions = {}): ChatJudgement {
  const fullCls = classifyChat(full)
  // a reason that is not about the missing finish applies whatever the SDK does with the last event
  if (fullCls.skip && !/finish_reason/.test(fullCls.skip)) return { kind: 'skip', reason: fullCls.skip, ours: full }
  const last = full.frames[full.frames.length - 1]
  if (last && last.unterminated && last.kind !== 'done') {
    const cut = oursChunked([bytes.subarray(0, last.byteStart)], options)
    const cls = classifyChat(cut)
    // openai-node finalizes choice by choice and throws at the first one without a finish_reason
    // (or, when the cut also left a hole in the tool indexes, possibly at that first)
    if (cut.reply.choices.some((c) => c.finishReason === null)) {
      const pattern = cls.skip && !/finish_reason/.test(cls.skip) ? /./ : /missing finish_reason/
      return { kind: 'sdk-throws', pattern, why: 'openai-node v6 drops the unterminated last event, which carried a finish_reason' }
    }
    if (cls.skip) return { kind: 'skip', reason: `openai-node v6 drops the unterminated last event; then: ${cls.skip}`, ours: cut }
    return { kind: 'compare', ours: cut, cls, droppedLast: true }
  }
  if (fullCls.skip) return { kind: 'skip', reason: fullCls.skip, ours: full }
  return { kind: 'compare', ours: full, cls: fullCls, droppedLast: false }
}

async function runJudgement(chunks: readonly Uint8Array[], j: ChatJudgement): Promise<void> {
  if (j.kind === 'skip') throw new Error(`not comparable: ${j.reason}`)
  if (j.kind === 'sdk-throws') {
    await expect(sdkChat(chunks)).rejects.toThrow(j.pattern)
    return
  }
  await compareChat(chunks, j.ours, j.cls)
}

/**
 * Whether openai-node agrees with us on a stream excluded from the comparison: it is run as for
 * a compared stream, and compared with every expected divergence allowed (SDK-invented ids,
 * usage not compared, no reasoning check) — the classification of an excluded stream stops at
 * its first reason, so it cannot tell which of them apply. If even this fails, the SDK disagrees.
 */
async function sdkAgreesOnExcluded(chunks: readonly Uint8Array[], ours: Ours): Promise<boolean> {
  const lenient: ChatClassification = { skip: null, reasoningKeys: new Set(), lastReasoning: new Map(), idless: true, usageSkip: 'not compared' }
  let agreed = true
  try {
    await compareChat(chunks, ours, lenient)
  } catch {
    agreed = false
  }
  return agreed
}

/** Compares the SDK and us on one clean (or partially comparable) chat stream. */
async function compareChat(chunks: readonly Uint8Array[], ours: Ours, cls: ChatClassification): Promise<void> {
  const completion = await sdkChat(chunks)
  const want = sdkChatView(completion)
  const have = oursChatView(ours.reply)
  if (cls.idless) {
    // Expected divergence: openai-node invents `call_<uuid>` for a call whose id never came;
    // we report null (the wire said nothing).
    for (const [ci, c] of have.choices.entries()) {
      for (const [ti, t] of c.toolCalls.entries()) {
        const sdkCall = want.choices[ci]?.toolCalls[ti]
        if (t.id === null && sdkCall && sdkCall.type !== null) {
          expect(sdkCall.id).toMatch(/^call_/)
          sdkCall.id = null
        }
      }
    }
  }
  if (cls.usageSkip) { have.usage = null; want.usage = null }
  expect(have).toEqual(want)
  // Expected divergence (docs/wire-formats.md#reasoning-fields): openai-node Object.assigns unknown delta
  // keys, so each reasoning field holds only its last fragment; ours concatenates them
  // into `reasoning` (checked by the fixture's own expected Reply).
  for (const [ci, per] of cls.lastReasoning) {
    const message = completion.choices[ci]?.message as unknown as Record<string, unknown> | undefined
    if (!message || completion.choices[ci]?.message.function_call) continue
    for (const [k, v] of per) expect(message[k]).toEqual(v)
  }
}

// ===========================================================================
// Chat Completions: fixtures

describeFixtures<ChatJudgement>({
  provider: 'openai-chat',
  title: 'openai-chat fixtures vs openai-node ChatCompletionStream',
  judge: (ours, f) => judgeChat(f.wire, ours, f.options),
  excluded: (j) => (j.kind === 'skip' ? j.reason : null),
  compare: (chunks, j) => runJudgement(chunks, j),
  // compared against `j.ours`: the body without an unterminated last event openai-node v6 drops
  agrees: (chunks, j, ours) => sdkAgreesOnExcluded(chunks, j.kind === 'skip' ? j.ours : ours),
  notes: (j) => j.kind === 'sdk-throws' ? [`expected divergence: ${j.why}`] : j.kind === 'skip' ? [] : [
    j.cls.reasoningKeys.size > 0 ? `reasoning (${[...j.cls.reasoningKeys].join(', ')}) as expected divergence` : '',
    j.cls.usageSkip ? 'usage not compared' : '',
    j.droppedLast ? 'unterminated last event dropped by openai-node v6' : '',
  ].filter(Boolean),
})

// ===========================================================================
// Chat Completions: hand-written samples (docs/wire-formats.md#openai-chat-completions), compared the same way

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1730000000, model: 'gpt-4o-2024-08-06', choices, ...extra })
const sse = (...datas: string[]) => datas.map((d) => `data: ${d}\n\n`).join('')

const chatSamples: Record<string, string> = {
  'typical frames (content, tool call, usage chunk)': sse(
    chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }], { system_fingerprint: 'fp_1', usage: null }),
    chunk([{ index: 0, delta: { content: 'Checking.' }, logprobs: null, finish_reason: null }], { usage: null }),
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_A', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, logprobs: null, finish_reason: null }], { usage: null }),
    chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }, finish_reason: null }], { usage: null }),
    chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }], { usage: null }),
    chunk([], { usage: { prompt_tokens: 50, completion_tokens: 18, total_tokens: 68 } }),
    '[DONE]',
  ),
  'legacy function_call': sse(
    chunk([{ index: 0, delta: { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '' } }, finish_reason: null }]),
    chunk([{ index: 0, delta: { function_call: { arguments: '{"loc' } }, finish_reason: null }]),
    chunk([{ index: 0, delta: { function_call: { arguments: '":"SF"}' } }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'function_call' }]),
    '[DONE]',
  ),
  'Azure first chunk with empty id/model and prompt_filter_results': sse(
    JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }),
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null, content_filter_results: {} }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop', content_filter_results: {} }]),
    '[DONE]',
  ),
  'n>1 interleaved choices in one chunk': sse(
    chunk([{ index: 1, delta: { role: 'assistant', content: 'B' }, finish_reason: null }, { index: 0, delta: { role: 'assistant', content: 'A' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: '1' }, finish_reason: 'stop' }]),
    chunk([{ index: 1, delta: { content: '2' }, finish_reason: null }]),
    chunk([{ index: 1, delta: {}, finish_reason: 'length' }]),
    '[DONE]',
  ),
  'refusal deltas': sse(
    chunk([{ index: 0, delta: { role: 'assistant', content: null, refusal: '' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { refusal: "I'm sorry, " }, finish_reason: null }]),
    chunk([{ index: 0, delta: { refusal: 'I cannot help.' }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    '[DONE]',
  ),
  'no trailing blank line after [DONE]: nothing lost on either side': sse(
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }]),
  ) + 'data: [DONE]',
  'DeepSeek reasoning_content: compared except reasoning': sse(
    chunk([{ index: 0, delta: { role: 'assistant', content: null, reasoning_content: 'Think ' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: null, reasoning_content: 'hard.' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: 'Answer', reasoning_content: null }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    '[DONE]',
  ),
}

describe('openai-chat hand-written samples vs openai-node', () => {
  for (const [name, body] of Object.entries(chatSamples)) {
    it(name, async () => {
      const bytes = enc.encode(body)
      const ours = oursChunked([bytes])
      const j = judgeChat(bytes, ours)
      expect(j.kind).toBe('compare')
      await runJudgement([bytes], j)
    })
  }

  it('DeepSeek reasoning_content: ours concatenates, openai-node keeps the last value', async () => {
    const bytes = enc.encode(chatSamples['DeepSeek reasoning_content: compared except reasoning']!)
    const completion = await sdkChat([bytes])
    expect(merge(bytes).choices[0]!.reasoning).toBe('Think hard.')
    // the last delta carried reasoning_content: null, and Object.assign copied it
    expect((completion.choices[0]!.message as unknown as Record<string, unknown>)['reasoning_content']).toBeNull()
  })
})

// ===========================================================================
// Chat Completions: the documented divergences, asserted (docs/wire-formats.md#the-sdks-as-oracles). If openai-node
// changes, these fail and the exclusions above should be revisited.

describe('openai-chat documented divergences from openai-node', () => {
  const role = chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])
  const stop = chunk([{ index: 0, delta: {}, finish_reason: 'stop' }])
  const calls = chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }])
  const tc = (call: Record<string, unknown>) => chunk([{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }])

  const cases: Array<Divergence<SdkCompletion>> = [
    {
      name: 'reused index 0 for two calls: SDK merges into invalid JSON, we split',
      body: sse(role,
        tc({ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }),
        tc({ index: 0, id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } }), calls, '[DONE]'),
      because: /second id/,
      sdk: async (run) => {
        const c = await run()
        const t = c.choices[0]!.message.tool_calls!
        expect(t).toHaveLength(1)
        expect(t[0]!.type === 'function' && t[0]!.function.arguments).toBe('{"path":"a"}{"path":"b"}')
      },
      ours: (r) => expect(r.choices[0]!.toolCalls.map((t) => [t.id, t.arguments])).toEqual([['call_a', '{"path":"a"}'], ['call_b', '{"path":"b"}']]),
    },
    {
      // Reported to throw; v6.49 (installed) does not: `tool_calls[undefined] ??= {}` sets a property
      // named "undefined" on the array, and the final message has no tool calls (docs/wire-formats.md#tool-call-fragments).
      name: 'missing tool-call index: SDK silently drops the calls, we keep both',
      body: sse(role,
        chunk([{ index: 0, delta: { tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }, finish_reason: null }]),
        chunk([{ index: 0, delta: { tool_calls: [{ id: 't2', type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: null }]), calls, '[DONE]'),
      because: /without an index/,
      sdk: async (run) => { expect((await run()).choices[0]!.message.tool_calls).toEqual([]) },
      ours: (r) => expect(r.choices[0]!.toolCalls.map((t) => t.name)).toEqual(['f', 'g']),
    },
    {
      name: 'missing type: SDK throws, we default to "function"',
      body: sse(role, tc({ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }), calls, '[DONE]'),
      because: /without `type`/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/type/) },
      ours: (r) => expect(r.choices[0]!.toolCalls[0]!.type).toBe('function'),
    },
    {
      name: 'sparse tool-call index: SDK crashes, we keep the call',
      body: sse(role, tc({ index: 1, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }), calls, '[DONE]'),
      because: /sparse tool-call/,
      sdk: async (run) => { await expect(run()).rejects.toThrow() },
      ours: (r) => expect(r.choices[0]!.toolCalls.map((t) => t.index)).toEqual([1]),
    },
    {
      name: 'mid-stream error frame: SDK throws, we keep the partial text',
      body: sse(role, chunk([{ index: 0, delta: { content: 'Hel' }, finish_reason: null }]),
        JSON.stringify({ error: { code: 502, message: 'Provider disconnected' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })),
      because: /mid-stream error/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/Provider disconnected/) },
      ours: (r) => expect([r.choices[0]!.content, r.choices[0]!.finishReason]).toEqual(['Hel', 'error']),
    },
    {
      name: 'malformed frame: SDK aborts, we record it and merge the rest',
      body: sse(role, chunk([{ index: 0, delta: { content: 'A' }, finish_reason: null }]),
        '{"id":"c1","choices":[{"index":0,"delta":{"content":"B"}', chunk([{ index: 0, delta: { content: 'C' }, finish_reason: 'stop' }]), '[DONE]'),
      because: /malformed/,
      sdk: async (run) => { await expect(run()).rejects.toThrow() },
      ours: (r) => expect([r.choices[0]!.content, r.errors.length]).toEqual(['AC', 1]),
    },
    {
      name: 'Mistral array content: SDK stringifies, we split reasoning and content',
      body: sse(role, chunk([{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }] }, finish_reason: null }]),
        chunk([{ index: 0, delta: { content: 'Answer' }, finish_reason: null }]), stop, '[DONE]'),
      because: /array content/,
      sdk: async (run) => { expect((await run()).choices[0]!.message.content).toBe('[object Object]Answer') },
      ours: (r) => expect([r.choices[0]!.reasoning, r.choices[0]!.content]).toEqual(['hmm', 'Answer']),
    },
    {
      // openai-node 7 has the EOF flush (PR #2726); v6 has none (docs/wire-formats.md#unterminated-last-event).
      name: 'last event without its blank line: openai-node v6 drops it and throws, we dispatch it',
      body: sse(role, chunk([{ index: 0, delta: { content: 'Hel' }, finish_reason: null }])) +
        `data: ${chunk([{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }])}`,
      because: /./,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/missing finish_reason/) },
      ours: (r) => expect([r.choices[0]!.content, r.choices[0]!.finishReason]).toEqual(['Hello', 'stop']),
    },
    {
      name: '`event: ping` block without data: SDK throws, we ignore it',
      body: sse(role) + 'event: ping\n\n' + sse(chunk([{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }]), '[DONE]'),
      because: /without data/,
      sdk: async (run) => { await expect(run()).rejects.toThrow() },
      ours: (r) => expect(r.choices[0]!.content).toBe('ok'),
    },
  ]

  divergenceTests(cases, (bytes, ours) => {
    const j = judgeChat(bytes, ours)
    return j.kind === 'skip' ? j.reason : j.kind === 'sdk-throws' ? j.why : 'compare'
  }, sdkChat)
})

// ===========================================================================
// Chat Completions: generated clean streams

interface GenTool extends GenToolBase {
  /** The first fragment also carries the first piece of the arguments. */
  firstCarriesArgs: boolean
  /** Continuation shapes: 0 `{index,function:{arguments}}`, 1 with `id:null,type:null,name:null`, 2 with `id:""`, 3 repeating id, type and name. */
  shapes: number[]
}

interface GenChoice {
  mode: 'text' | 'tools' | 'function'
  content: Fragmented
  refusal: Fragmented | null
  tools: GenTool[]
  finish: string
  /** The finish_reason rides on the choice's last delta instead of an empty one. */
  finishWithLast: boolean
  /** Order in which the content, refusal and tool queues are merged. */
  picks: number[]
}

interface GenChat {
  choices: GenChoice[]
  picks: number[]
  group: boolean[]
  usage: Record<string, unknown> | null
  azureFirst: boolean
  obfuscation: boolean
  done: boolean
  fingerprint: string | null
  /** finish_reason on non-final chunks: null, absent, or "" (Ollama compat, docs/wire-formats.md#finish-and-usage). */
  pendingFinish: 0 | 1 | 2
  /** Usage on the last choice chunk instead of an extra `choices: []` chunk. */
  usageOnLast: boolean
  /** Continuation deltas carry `content: null`. */
  nullFields: boolean
  /** Every delta repeats `role: "assistant"`. */
  roleEvery: boolean
}

const toolArb: fc.Arbitrary<GenTool> = fc
  .tuple(toolCallArb(/^call_[A-Za-z0-9]{4,24}$/), fc.record({ firstCarriesArgs: fc.boolean(), shapes: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 4 }) }))
  .map(([call, shape]) => ({ ...call, ...shape }))

const choiceArb: fc.Arbitrary<GenChoice> = fc.constantFrom<GenChoice['mode']>('text', 'text', 'tools', 'tools', 'function').chain((mode) =>
  fc.record({
    mode: fc.constant(mode),
    content: fragmentedTextArb,
    refusal: mode === 'text' ? fc.option(fragmentedTextArb, { freq: 4 }) : fc.constant(null),
    tools: mode === 'tools' ? fc.array(toolArb, { minLength: 1, maxLength: 3 }) : mode === 'function' ? fc.tuple(toolArb) : fc.constant([]),
    finish: mode === 'tools' ? fc.constantFrom('tool_calls', 'tool_calls', 'stop') : mode === 'function' ? fc.constant('function_call') : fc.constantFrom('stop', 'stop', 'length', 'content_filter'),
    finishWithLast: fc.boolean(),
    picks: fc.array(fc.nat(), { maxLength: 12 }),
  }),
)

const usageArb = fc.record({
  prompt_tokens: fc.nat(100000),
  completion_tokens: fc.nat(100000),
  total_tokens: fc.nat(200000),
  prompt_tokens_details: fc.record({ cached_tokens: fc.nat(1000), audio_tokens: fc.nat(10) }),
  completion_tokens_details: fc.record({ reasoning_tokens: fc.nat(1000), audio_tokens: fc.nat(10), accepted_prediction_tokens: fc.nat(10), rejected_prediction_tokens: fc.nat(10) }),
}, { requiredKeys: ['prompt_tokens', 'completion_tokens', 'total_tokens'] })

const genChatArb: fc.Arbitrary<GenChat> = fc.record({
  choices: fc.array(choiceArb, { minLength: 1, maxLength: 3 }),
  picks: fc.array(fc.nat(), { maxLength: 16 }),
  group: fc.array(fc.boolean(), { maxLength: 16 }),
  usage: fc.option(usageArb, { freq: 2 }),
  azureFirst: fc.boolean(),
  obfuscation: fc.boolean(),
  done: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  fingerprint: fc.option(fc.constant('fp_44709d6fcb')),
  pendingFinish: fc.constantFrom<0 | 1 | 2>(0, 0, 1, 2),
  usageOnLast: fc.boolean(),
  nullFields: fc.boolean(),
  roleEvery: fc.boolean(),
})

interface ChoiceEvent {
  choice: number
  delta: Record<string, unknown>
  finish: string | null
}

/** The chat.completion.chunk data payloads of a generated stream. */
function chatPayloads(g: GenChat): string[] {
  const perChoice = g.choices.map((c, ci): ChoiceEvent[] => {
    const ev = (delta: Record<string, unknown>, finish: string | null = null): ChoiceEvent =>
      ({
        choice: ci,
        delta: {
          ...(g.roleEvery ? { role: 'assistant' } : {}),
          ...(g.nullFields && !('content' in delta) && c.mode !== 'function' ? { content: null } : {}),
          ...delta,
        },
        finish,
      })
    const queues: ChoiceEvent[][] = [c.content.fragments.map((f) => ev({ content: f }))]
    if (c.refusal) queues.push(c.refusal.fragments.map((f) => ev({ refusal: f })))
    c.tools.forEach((t, ti) => {
      const pieces = splitAt(t.args, t.cuts)
      const first = t.firstCarriesArgs ? pieces.shift() ?? '' : ''
      const q: ChoiceEvent[] = []
      if (c.mode === 'function') {
        q.push(ev({ function_call: { name: t.name, arguments: first } }))
        for (const p of pieces) q.push(ev({ function_call: { arguments: p } }))
      } else {
        q.push(ev({ tool_calls: [{ index: ti, id: t.id, type: 'function', function: { name: t.name, arguments: first } }] }))
        pieces.forEach((p, pi) => {
          const shape = t.shapes[pi % t.shapes.length]!
          const call = shape === 0 ? { index: ti, function: { arguments: p } }
            : shape === 1 ? { index: ti, id: null, type: null, function: { name: null, arguments: p } }
              : shape === 2 ? { index: ti, id: '', function: { arguments: p } }
                : { index: ti, id: t.id, type: 'function', function: { name: t.name, arguments: p } }
          q.push(ev({ tool_calls: [call] }))
        })
      }
      queues.push(q)
    })
    const body = interleave(queues, c.picks)
    const roleDelta: Record<string, unknown> = c.mode === 'function' ? { role: 'assistant', content: null } : { role: 'assistant', content: '', refusal: null }
    const lastEvent = body[body.length - 1]
    if (c.finishWithLast && lastEvent) return [ev(roleDelta), ...body.slice(0, -1), { ...lastEvent, finish: c.finish }]
    return [ev(roleDelta), ...body, ev({}, c.finish)]
  })
  const events = interleave(perChoice, g.picks)
  // group consecutive events of different choices into one chunk (case 49)
  const chunks: ChoiceEvent[][] = []
  events.forEach((e, i) => {
    const last = chunks[chunks.length - 1]
    if (last && g.group[i % Math.max(1, g.group.length)] && !last.some((x) => x.choice === e.choice)) last.push(e)
    else chunks.push([e])
  })
  const base = { id: 'chatcmpl-Bx9', object: 'chat.completion.chunk', created: 1730000000, model: 'gpt-4o-2024-08-06' }
  const extra = (): Record<string, unknown> => ({
    ...(g.fingerprint ? { system_fingerprint: g.fingerprint } : {}),
    ...(g.usage ? { usage: null } : {}),
    ...(g.obfuscation ? { obfuscation: 'k3Yq' } : {}),
  })
  const out: string[] = []
  if (g.azureFirst) out.push(JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] }))
  const pending = g.pendingFinish === 0 ? { finish_reason: null } : g.pendingFinish === 1 ? {} : { finish_reason: '' }
  chunks.forEach((group, i) => {
    const onLast = g.usage && g.usageOnLast && i === chunks.length - 1 ? { usage: g.usage } : {}
    out.push(JSON.stringify({
      ...base,
      choices: group.map((e) => ({ index: e.choice, delta: e.delta, logprobs: null, ...(e.finish ? { finish_reason: e.finish } : pending) })),
      ...extra(),
      ...onLast,
    }))
  })
  if (g.usage && !g.usageOnLast) out.push(JSON.stringify({ ...base, choices: [], usage: g.usage, ...(g.fingerprint ? { system_fingerprint: g.fingerprint } : {}) }))
  if (g.done) out.push('[DONE]')
  return out
}

const chatStreamArb = generatedSseArb(genChatArb, (g) => chatPayloads(g).map((data) => ({ data })), true)

describe('generated clean chat streams: ours = openai-node', () => {
  it('content, refusal, tool calls, legacy function_call, finish reasons and usage agree', async () => {
    await checkGenerated(chatStreamArb, 100, async ({ g, bytes, chunks, ours }) => {
      const j = judgeChat(bytes, ours)
      expect(j.kind).not.toBe('skip')
      if (j.kind === 'compare') expect(j.cls.usageSkip).toBeNull()
      await runJudgement(chunks, j)
      // and ours equals what the generator meant
      const view = oursChatView(ours.reply)
      expect(view.choices.map((c) => c.content)).toEqual(g.choices.map((c) => c.content.text))
      expect(view.choices.map((c) => c.toolCalls.map((t) => t.arguments))).toEqual(g.choices.map((c) => c.tools.map((t) => t.args)))
    })
  })
})

// ===========================================================================
// Responses API

interface ResponsesView {
  content: string
  refusal: string
  reasoning: string
  toolCalls: CallView[]
  finishReason: string | null
  usage: Record<string, unknown> | null
}

function oursResponsesView(reply: Reply): ResponsesView {
  const { content, refusal, reasoning, toolCalls, finishReason, usage } = firstChoice(reply)
  return { content, refusal, reasoning, toolCalls: toolCalls.map(callView), finishReason, usage }
}

type SdkResponse = Awaited<ReturnType<typeof sdkResponse>>

function sdkResponsesView(r: SdkResponse): ResponsesView {
  const refusal: string[] = []
  const reasoning: string[] = []
  const toolCalls: CallView[] = []
  r.output.forEach((item, i) => {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'refusal') refusal.push(part.refusal)
    } else if (item.type === 'reasoning') {
      // ours: each summary / reasoning_text part is a paragraph, joined with "\n\n" (src/providers/openai-responses.ts)
      for (const s of item.summary) if (s.text !== '') reasoning.push(s.text)
      for (const s of item.content ?? []) if (s.text !== '') reasoning.push(s.text)
    } else if (item.type === 'function_call') {
      toolCalls.push({ index: i, id: item.call_id, type: 'function', name: item.name, arguments: item.arguments })
    } else if (item.type === 'custom_tool_call') {
      toolCalls.push({ index: i, id: item.call_id, type: 'custom', name: item.name, arguments: item.input })
    } else if (item.type === 'mcp_call') {
      toolCalls.push({ index: i, id: item.id, type: 'mcp', name: item.name, arguments: item.arguments })
    }
  })
  const status = r.status ?? null
  return {
    content: r.output_text,
    refusal: refusal.join(''),
    reasoning: reasoning.join('\n\n'),
    toolCalls,
    finishReason: status === 'incomplete' ? r.incomplete_details?.reason ?? status : status,
    usage: withoutNulls(r.usage),
  }
}

/** Events ResponseAccumulator handles; anything else makes it throw "Unhandled response stream event". */
const SDK_RESPONSE_EVENTS = new Set([
  'response.created', 'response.queued', 'response.in_progress', 'response.completed', 'response.failed', 'response.incomplete',
  'response.output_item.added', 'response.output_item.done', 'response.content_part.added', 'response.content_part.done',
  'response.output_text.delta', 'response.output_text.done', 'response.output_text.annotation.added',
  'response.refusal.delta', 'response.refusal.done', 'response.function_call_arguments.delta', 'response.function_call_arguments.done',
  'response.reasoning_text.delta', 'response.reasoning_text.done', 'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done',
  'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done', 'response.mcp_call_arguments.delta',
  'response.mcp_call_arguments.done', 'response.code_interpreter_call_code.delta', 'response.code_interpreter_call_code.done',
  'response.code_interpreter_call.in_progress', 'response.code_interpreter_call.interpreting', 'response.code_interpreter_call.completed',
  'response.file_search_call.in_progress', 'response.file_search_call.searching', 'response.file_search_call.completed',
  'response.web_search_call.in_progress', 'response.web_search_call.searching', 'response.web_search_call.completed',
  'response.image_generation_call.in_progress', 'response.image_generation_call.generating', 'response.image_generation_call.completed',
  'response.image_generation_call.partial_image', 'response.mcp_call.in_progress', 'response.mcp_call.completed', 'response.mcp_call.failed',
  'response.mcp_list_tools.in_progress', 'response.mcp_list_tools.completed', 'response.mcp_list_tools.failed',
  'response.audio.delta', 'response.audio.done', 'response.audio.transcript.delta', 'response.audio.transcript.done', 'keepalive',
])

/** Clean (comparable, docs/wire-formats.md#responses-finals): created … completed, deltas equal to the .done values. */
function classifyResponses(ours: Ours): string | null {
  if (ours.reply.transport !== 'sse') return `transport ${ours.reply.transport}`
  if (ours.entries.some((e) => e.kind === 'empty')) return 'an event block without data: openai-node JSON-parses "" and throws'
  let terminal = false
  for (const [i, f] of ours.frames.entries()) {
    if (f.kind === 'invalid') return 'malformed frame: openai-node aborts'
    if (f.kind === 'done') return '[DONE] in a Responses stream'
    const j = f.json
    if (!isObject(j)) return 'a frame that is not a JSON object'
    if (j['error']) return 'an error payload: openai-node throws'
    const type = j['type']
    if (typeof type !== 'string') return 'a frame without type'
    if (i === 0 && type !== 'response.created') return 'the first event is not response.created: openai-node throws'
    if (terminal) return 'events after the terminal event'
    if (type === 'error') return 'an error event: openai-node throws APIError'
    if (type === 'response.failed') return 'response.failed: not a clean stream'
    if (!SDK_RESPONSE_EVENTS.has(type)) return `event ${type}: openai-node throws "Unhandled response stream event"`
    if (type === 'response.completed' || type === 'response.incomplete') {
      terminal = true
      if (!isObject(j['response']) || !Array.isArray(j['response']['output'])) return 'a terminal event without response.output'
    }
  }
  if (!terminal) return 'no terminal event (truncated): openai-node resolves with the in-progress snapshot'
  if (ours.diagnostics.some((d) => d.code === 'final-mismatch' && d.level === 'warning')) {
    return 'deltas differ from the .done / response.completed values: the SDK takes the final, we keep the deltas'
  }
  return null
}

async function compareResponses(chunks: readonly Uint8Array[], ours: Ours): Promise<void> {
  const response = await sdkResponse(chunks)
  const want = sdkResponsesView(response)
  const have = oursResponsesView(ours.reply)
  // Expected divergence (docs/wire-formats.md#responses-finals, CLIProxyAPI#1004): an output_item.done /
  // response.completed item with `name: ""` replaces the SDK's item wholesale, so its name
  // becomes ""; we never overwrite a known name with an empty one and keep the name from
  // output_item.added.
  const added = new Map<number, string>()
  for (const f of ours.frames) {
    const j = f.json
    if (isObject(j) && j['type'] === 'response.output_item.added' && typeof j['output_index'] === 'number' && isObject(j['item']) && typeof j['item']['name'] === 'string') {
      added.set(j['output_index'], j['item']['name'])
    }
  }
  for (const call of want.toolCalls) {
    const name = added.get(call.index)
    if (call.name === '' && name) {
      expect(have.toolCalls.find((t) => t.index === call.index)?.name).toBe(name)
      call.name = name
    }
  }
  expect(have).toEqual(want)
  expect(ours.reply.done).toBe(true)
}

describeFixtures<string | null>({
  provider: 'openai-responses',
  title: 'openai-responses fixtures vs openai-node ResponseStream',
  judge: (ours) => classifyResponses(ours),
  excluded: (reason) => reason,
  compare: (chunks, _reason, ours) => compareResponses(chunks, ours),
})

// Generated Responses streams: message items (output_text / refusal parts), reasoning items
// (summary parts), function_call items, in sequence, deltas equal to the .done values.

interface GenItem {
  kind: 'message' | 'reasoning' | 'function_call'
  parts: Array<{ refusal: boolean; text: Fragmented }>
  call: GenTool | null
}

const itemArb: fc.Arbitrary<GenItem> = fc.constantFrom<GenItem['kind']>('message', 'message', 'reasoning', 'function_call').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    parts: kind === 'function_call' ? fc.constant([])
      : fc.array(fc.record({ refusal: kind === 'message' ? fc.boolean() : fc.constant(false), text: fragmentedTextArb }), { minLength: 1, maxLength: 2 }),
    call: kind === 'function_call' ? toolArb.map((t) => t as GenTool | null) : fc.constant(null),
  }),
)

const genResponsesArb = fc.record({
  items: fc.array(itemArb, { minLength: 1, maxLength: 4 }),
  terminal: fc.constantFrom('response.completed', 'response.completed', 'response.incomplete'),
  inProgress: fc.boolean(),
  eventLines: fc.boolean(),
  usage: fc.record({
    input_tokens: fc.nat(10000),
    input_tokens_details: fc.record({ cached_tokens: fc.nat(100) }),
    output_tokens: fc.nat(10000),
    output_tokens_details: fc.record({ reasoning_tokens: fc.nat(100) }),
    total_tokens: fc.nat(20000),
  }),
})

type GenResponses = typeof genResponsesArb extends fc.Arbitrary<infer T> ? T : never

function responsesEvents(g: GenResponses): SseEvent[] {
  let seq = 0
  const events: SseEvent[] = []
  const push = (type: string, body: Record<string, unknown>) => {
    events.push({ ...(g.eventLines ? { event: type } : {}), data: JSON.stringify({ type, sequence_number: seq++, ...body }) })
  }
  const base = { id: 'resp_1', object: 'response', created_at: 1730000000, model: 'gpt-4.1-2025-04-14', output: [] as unknown[], usage: null as unknown }
  push('response.created', { response: { ...base, status: 'in_progress' } })
  if (g.inProgress) push('response.in_progress', { response: { ...base, status: 'in_progress' } })
  const finals: unknown[] = []
  g.items.forEach((item, output_index) => {
    if (item.kind === 'message') {
      const item_id = `msg_${output_index}`
      push('response.output_item.added', { output_index, item: { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } })
      const done: unknown[] = []
      item.parts.forEach((p, content_index) => {
        const empty = p.refusal ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [], logprobs: [] }
        const full = p.refusal ? { type: 'refusal', refusal: p.text.text } : { type: 'output_text', text: p.text.text, annotations: [], logprobs: [] }
        push('response.content_part.added', { item_id, output_index, content_index, part: empty })
        for (const delta of p.text.fragments) {
          if (p.refusal) push('response.refusal.delta', { item_id, output_index, content_index, delta })
          else push('response.output_text.delta', { item_id, output_index, content_index, delta, logprobs: [] })
        }
        if (p.refusal) push('response.refusal.done', { item_id, output_index, content_index, refusal: p.text.text })
        else push('response.output_text.done', { item_id, output_index, content_index, text: p.text.text, logprobs: [] })
        push('response.content_part.done', { item_id, output_index, content_index, part: full })
        done.push(full)
      })
      const final = { id: item_id, type: 'message', status: 'completed', role: 'assistant', content: done }
      push('response.output_item.done', { output_index, item: final })
      finals.push(final)
    } else if (item.kind === 'reasoning') {
      const item_id = `rs_${output_index}`
      push('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } })
      const summary: unknown[] = []
      item.parts.forEach((p, summary_index) => {
        push('response.reasoning_summary_part.added', { item_id, output_index, summary_index, part: { type: 'summary_text', text: '' } })
        for (const delta of p.text.fragments) push('response.reasoning_summary_text.delta', { item_id, output_index, summary_index, delta })
        push('response.reasoning_summary_text.done', { item_id, output_index, summary_index, text: p.text.text })
        push('response.reasoning_summary_part.done', { item_id, output_index, summary_index, part: { type: 'summary_text', text: p.text.text } })
        summary.push({ type: 'summary_text', text: p.text.text })
      })
      const final = { id: item_id, type: 'reasoning', summary }
      push('response.output_item.done', { output_index, item: final })
      finals.push(final)
    } else {
      const t = item.call!
      const item_id = `fc_${output_index}`
      push('response.output_item.added', { output_index, item: { id: item_id, type: 'function_call', status: 'in_progress', call_id: t.id, name: t.name, arguments: '' } })
      for (const delta of splitAt(t.args, t.cuts)) push('response.function_call_arguments.delta', { item_id, output_index, delta })
      push('response.function_call_arguments.done', { item_id, output_index, arguments: t.args })
      const final = { id: item_id, type: 'function_call', status: 'completed', call_id: t.id, name: t.name, arguments: t.args }
      push('response.output_item.done', { output_index, item: final })
      finals.push(final)
    }
  })
  const incomplete = g.terminal === 'response.incomplete'
  push(g.terminal, {
    response: {
      ...base, status: incomplete ? 'incomplete' : 'completed', output: finals, usage: g.usage,
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    },
  })
  return events
}

const responsesStreamArb = generatedSseArb(genResponsesArb, responsesEvents, false)

describe('generated clean Responses streams: ours = openai-node', () => {
  it('output text, refusal, reasoning summary, function calls, status and usage agree', async () => {
    await checkGenerated(responsesStreamArb, 60, async ({ chunks, ours }) => {
      expect(classifyResponses(ours)).toBeNull()
      await compareResponses(chunks, ours)
    })
  })
})
