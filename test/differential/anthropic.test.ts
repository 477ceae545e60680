// Differential tests against @anthropic-ai/sdk: MessageStream.finalMessage() is fed the same
// bytes as our merger through a custom `fetch` (docs/wire-formats.md#the-sdks-as-oracles, docs/architecture.md#testing) and must agree
// exactly on text, thinking, tool_use blocks, stop_reason and usage for clean streams.
// Where the SDK is documented to disagree with our requirements (docs/wire-formats.md#the-sdks-as-oracles:
// it needs `event:` lines and message_stop, partial-JSON-repairs input, throws on error events and
// malformed frames), the fixture is excluded from the comparison with its reason, and a test
// asserts that the SDK does disagree on it (it throws, or the comparison fails); the
// divergences themselves are asserted below.

import Anthropic from '@anthropic-ai/sdk'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { merge, type Reply } from '../../src/index.js'
import {
  ORACLE_BASE, askOracle, checkGenerated, describeFixtures, divergenceTests, enc, forbidGlobalFetch, fragmentedTextArb,
  firstChoice, generatedSseArb, isObject, splitAt, toolCallArb, withoutNulls, type Divergence, type Fragmented, type Ours, type SseEvent,
} from '../support/differential.js'

forbidGlobalFetch()

function sdkMessage(chunks: readonly Uint8Array[]) {
  return askOracle(chunks, `${ORACLE_BASE}/v1/messages`, (fetch) =>
    new Anthropic({ apiKey: 'unused', baseURL: ORACLE_BASE, maxRetries: 0, fetch }).messages.stream({ model: 'x', max_tokens: 1, messages: [] }).finalMessage())
}

type SdkMessage = Awaited<ReturnType<typeof sdkMessage>>

// ---------------------------------------------------------------------------
// The compared view

interface ToolView {
  index: number
  id: string | null
  type: string | null
  name: string | null
  input: unknown
}

interface MessageView {
  role: string | null
  content: string
  reasoning: string
  toolCalls: ToolView[]
  finishReason: string | null
  usage: Record<string, unknown> | null
}

function oursView(reply: Reply): MessageView {
  const { role, content, reasoning, toolCalls, finishReason, usage } = firstChoice(reply)
  const tools = toolCalls.map((t) => ({ index: t.index, id: t.id, type: t.type, name: t.name, input: t.parsedArguments }))
  return { role, content, reasoning, toolCalls: tools, finishReason, usage }
}

function sdkView(m: SdkMessage): MessageView {
  const text: string[] = []
  const thinking: string[] = []
  const toolCalls: ToolView[] = []
  m.content.forEach((block, index) => {
    if (block.type === 'text') text.push(block.text)
    else if (block.type === 'thinking') thinking.push(block.thinking)
    else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      // `input` is a lazy getter over the SDK's own (partial) JSON parse of the fragments
      toolCalls.push({ index, id: block.id, type: block.type, name: block.name, input: block.input })
    }
  })
  return {
    role: m.role,
    content: text.join(''),
    reasoning: thinking.join(''),
    toolCalls,
    finishReason: m.stop_reason,
    // we drop null usage fields by design (docs/architecture.md#usage); the SDK keeps message_start's nulls
    usage: withoutNulls(m.usage),
  }
}

// ---------------------------------------------------------------------------
// Which streams the SDK can judge

type Judgement = { kind: 'compare'; ours: Ours } | { kind: 'skip'; reason: string }

/** The reason a stream is excluded, or "compare". */
const reasonOf = (j: Judgement): string => (j.kind === 'skip' ? j.reason : 'compare')

function judge(ours: Ours): Judgement {
  const skip = (reason: string): Judgement => ({ kind: 'skip', reason })
  if (ours.reply.transport !== 'sse') return skip(`transport ${ours.reply.transport}`)
  let starts = 0
  let stop = false
  let blocks = 0
  for (const [i, f] of ours.frames.entries()) {
    if (f.kind === 'invalid') return skip('malformed frame: the SDK throws on JSON.parse')
    if (f.kind === 'done') return skip('a [DONE] frame (OpenRouter): the SDK JSON-parses it and throws')
    if (f.event === null) return skip('frames without `event:` lines (proxy): the SDK ignores them')
    if (f.event === 'error') return skip('an `event: error`: the SDK throws APIError and loses the partial message')
    if (f.unterminated && i === ours.frames.length - 1) return skip('the last event lacks its blank line: the SDK drops it')
    if (f.event === 'ping') continue // skipped by the SDK before any parse
    if (stop) return skip('events after message_stop')
    const j = f.json
    if (!isObject(j)) return skip('a frame that is not a JSON object')
    const type = j['type']
    if (type === 'message_start') {
      starts++
      // a resumed response's message_start already holds blocks: the SDK's snapshot starts with them
      const content = isObject(j['message']) ? j['message']['content'] : null
      if (Array.isArray(content)) blocks += content.length
    }
    if (type === 'message_stop') stop = true
    if (type === 'content_block_start') {
      if (j['index'] !== blocks) return skip('a block index that is not its position: the SDK pushes blocks, it does not index them')
      blocks++
    }
    if (type === 'content_block_delta' && (typeof j['index'] !== 'number' || j['index'] >= blocks)) {
      return skip('a delta for a block that was not started: the SDK drops it')
    }
    if (type === 'message_delta') {
      const usage = j['usage']
      if (!isObject(usage) || typeof usage['output_tokens'] !== 'number') return skip('message_delta without usage.output_tokens: the SDK overwrites it with undefined')
      if (isObject(j['delta']) && j['delta']['stop_reason'] == null) return skip('a message_delta with stop_reason null: the SDK overwrites the reason, we keep the last non-null one')
    }
  }
  if (starts !== 1) return skip(`${starts} message_start events: the SDK needs exactly one`)
  if (!stop) return skip('no message_stop (truncated): the SDK produces no final message')
  return { kind: 'compare', ours }
}

/** Compares one stream; truncated tool input is the one documented divergence handled inline. */
async function compare(chunks: readonly Uint8Array[], ours: Ours): Promise<void> {
  const want = sdkView(await sdkMessage(chunks))
  const have = oursView(ours.reply)
  const calls = ours.reply.choices[0]?.toolCalls ?? []
  for (const [i, call] of calls.entries()) {
    if (call.argumentsError === null) continue
    // Expected divergence (docs/wire-formats.md#anthropic-tool-input): the SDK partial-JSON-repairs truncated
    // input (`{"path": "notes.md", "content": "# Meet…` → `{path: "notes.md"}`); we keep the raw
    // string, report argumentsError and give parsedArguments null. Never repaired.
    expect(call.parsedArguments).toBeNull()
    expect(isObject(want.toolCalls[i]?.input)).toBe(true)
    want.toolCalls[i]!.input = null
  }
  expect(have).toEqual(want)
  expect(ours.reply.done).toBe(true)
}

// ---------------------------------------------------------------------------
// Fixtures

describeFixtures<Judgement>({
  provider: 'anthropic',
  title: 'anthropic fixtures vs @anthropic-ai/sdk MessageStream',
  judge,
  excluded: (j) => (j.kind === 'skip' ? j.reason : null),
  compare: (chunks, _j, ours) => compare(chunks, ours),
  notes: (_j, ours) => (ours.reply.choices[0]?.toolCalls.some((t) => t.argumentsError !== null) ? ['truncated tool input: SDK repair as expected divergence'] : []),
})

// ---------------------------------------------------------------------------
// Documented divergences, asserted (docs/wire-formats.md#the-sdks-as-oracles). If the SDK changes, these fail.

const ev = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`
const start = ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } })
const textBlock = (index: number, ...texts: string[]) =>
  ev('content_block_start', { index, content_block: { type: 'text', text: '' } }) +
  texts.map((text) => ev('content_block_delta', { index, delta: { type: 'text_delta', text } })).join('') +
  ev('content_block_stop', { index })
const end = (reason = 'end_turn') => ev('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 5 } }) + ev('message_stop', {})

describe('anthropic documented divergences from @anthropic-ai/sdk', () => {
  const cases: Array<Divergence<SdkMessage>> = [
    {
      name: 'frames without event: lines (proxy): the SDK sees nothing, we dispatch on JSON type',
      body: (start + textBlock(0, 'Bon', 'jour') + end()).replace(/^event: .*\n/gm, ''),
      because: /without `event:`/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/without sending any chunks/) },
      ours: (r) => expect([r.choices[0]!.content, r.done]).toEqual(['Bonjour', true]),
    },
    {
      name: 'OpenRouter trailing `event: data` / [DONE]: the SDK throws on JSON.parse, we treat it as an end marker',
      body: start + textBlock(0, '4') + end() + 'event: data\ndata: [DONE]\n\n',
      because: /\[DONE\]/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/JSON/) },
      ours: (r) => expect([r.choices[0]!.content, r.errors]).toEqual(['4', []]),
    },
    {
      name: 'event: error mid-stream: the SDK throws, we keep the partial text and no finish',
      body: start + ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'The capital is Par' } }) +
        'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n',
      because: /event: error/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/Overloaded/) },
      ours: (r) => expect([r.choices[0]!.content, r.choices[0]!.finishReason]).toEqual(['The capital is Par', null]),
    },
    {
      name: 'malformed frame: the SDK throws, we record it and merge the rest',
      body: start + ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'A' } }) +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"B"}\n\n' +
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'C' } }) + ev('content_block_stop', { index: 0 }) + end(),
      because: /malformed/,
      sdk: async (run) => { await expect(run()).rejects.toThrow() },
      ours: (r) => expect([r.choices[0]!.content, r.errors.length]).toEqual(['AC', 1]),
    },
    {
      name: 'no message_stop (truncated stream): the SDK has no final message, we return the partial reply',
      body: start + textBlock(0, 'Hi'),
      because: /no message_stop/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/without producing a Message/) },
      ours: (r) => expect([r.choices[0]!.content, r.done]).toEqual(['Hi', false]),
    },
    {
      name: 'last event without its blank line: the SDK drops message_stop and throws, we dispatch it',
      body: (start + textBlock(0, 'Hi') + end()).replace(/\n\n$/, ''),
      because: /blank line/,
      sdk: async (run) => { await expect(run()).rejects.toThrow(/without producing a Message/) },
      ours: (r) => expect([r.choices[0]!.content, r.done]).toEqual(['Hi', true]),
    },
  ]
  divergenceTests(cases, (_bytes, ours) => reasonOf(judge(ours)), sdkMessage)

  it('whole input in content_block_start followed by one empty input_json_delta: the SDK resets input to {}, we keep the start input', async () => {
    // Not seen from the real API (its tool_use starts carry `input: {}`), but the SDK's rule is
    // `jsonBuf ? partialParse(jsonBuf) : {}` once any delta arrived (internal/message-stream-utils.ts);
    // ours: no non-empty fragment → the start block's input (docs/wire-formats.md#anthropic-tool-input).
    const body = start +
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }) +
      ev('content_block_stop', { index: 0 }) + end('tool_use')
    const bytes = enc.encode(body)
    const block = (await sdkMessage([bytes])).content[0]
    expect(block?.type === 'tool_use' && block.input).toEqual({})
    expect(merge(bytes).choices[0]!.toolCalls[0]!.parsedArguments).toEqual({ a: 1 })
  })

  it('truncated tool input with stop_reason max_tokens: the SDK repairs it, we report the error', async () => {
    const body = start +
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "notes.md", "content": "# Meet' } }) +
      ev('content_block_stop', { index: 0 }) + end('max_tokens')
    const bytes = enc.encode(body)
    const sdk = await sdkMessage([bytes])
    const block = sdk.content[0]
    expect(block?.type === 'tool_use' && block.input).toEqual({ path: 'notes.md' })
    const call = merge(bytes).choices[0]!.toolCalls[0]!
    expect([call.arguments, call.parsedArguments, call.argumentsError !== null]).toEqual(['{"path": "notes.md", "content": "# Meet', null, true])
  })
})

// ---------------------------------------------------------------------------
// Generated clean streams

interface GenBlock {
  /** thinking: an interleaved thinking block; redacted: redacted_thinking; result: web_search_tool_result (whole blocks). */
  kind: 'text' | 'tool_use' | 'thinking' | 'redacted' | 'result'
  text: Fragmented
  /** text: citations_delta events inserted before these fragment positions. */
  citations: number[]
  /** text: the first fragment rides on content_block_start (`text: "…"`). */
  inStart: boolean
  tool: { id: string; name: string; args: string; cuts: number[]; emptyFirst: boolean; noDeltas: boolean } | null
}

const toolArb = fc
  .tuple(toolCallArb(/^(toolu|srvtoolu)_[A-Za-z0-9]{6,24}$/), fc.record({ emptyFirst: fc.boolean(), noDeltas: fc.boolean() }))
  .map(([call, shape]) => ({ ...call, ...shape }))

const noText = fc.constant<Fragmented>({ text: '', fragments: [] })
const blockArb: fc.Arbitrary<GenBlock> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant<'text'>('text'), text: fragmentedTextArb, citations: fc.array(fc.nat(), { maxLength: 2 }), inStart: fc.boolean(), tool: fc.constant(null) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant<'tool_use'>('tool_use'), text: noText, citations: fc.constant<number[]>([]), inStart: fc.constant(false), tool: toolArb }) },
  fc.record({ kind: fc.constant<'thinking'>('thinking'), text: fragmentedTextArb, citations: fc.constant<number[]>([]), inStart: fc.constant(false), tool: fc.constant(null) }),
  fc.record({ kind: fc.constantFrom<'redacted' | 'result'>('redacted', 'result'), text: noText, citations: fc.constant<number[]>([]), inStart: fc.constant(false), tool: fc.constant(null) }),
)

const nullableNat = (max: number) => fc.option(fc.nat(max), { freq: 4 })

const genArb = fc.record({
  thinking: fc.option(fc.record({ text: fragmentedTextArb, signature: fc.base64String({ minLength: 4, maxLength: 40 }) }), { freq: 2 }),
  blocks: fc.array(blockArb, { maxLength: 5 }).filter((b) => b.filter((x) => x.kind === 'tool_use').length <= 3),
  startUsage: fc.record({
    input_tokens: fc.nat(100000),
    cache_creation_input_tokens: nullableNat(5000),
    cache_read_input_tokens: nullableNat(5000),
    cache_creation: fc.record({ ephemeral_5m_input_tokens: fc.nat(100), ephemeral_1h_input_tokens: fc.nat(100) }),
    output_tokens: fc.nat(5),
    service_tier: fc.constantFrom('standard', 'priority'),
  }, { requiredKeys: ['input_tokens', 'output_tokens'] }),
  deltaUsage: fc.record({
    output_tokens: fc.nat(100000),
    input_tokens: nullableNat(100000),
    cache_creation_input_tokens: nullableNat(5000),
    cache_read_input_tokens: nullableNat(5000),
    server_tool_use: fc.option(fc.record({ web_search_requests: fc.nat(5) })),
  }, { requiredKeys: ['output_tokens'] }),
  stop: fc.constantFrom('end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn'),
  pings: fc.array(fc.nat(), { maxLength: 5 }),
  /** An event type the SDK does not know (the API may add some): both must ignore it. */
  unknown: fc.option(fc.nat()),
})

type Gen = typeof genArb extends fc.Arbitrary<infer T> ? T : never

function events(g: Gen): SseEvent[] {
  const out: SseEvent[] = []
  const push = (type: string, body: Record<string, unknown>) => out.push({ event: type, data: JSON.stringify({ type, ...body }) })
  push('message_start', { message: { id: 'msg_01XyZ', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: g.startUsage } })
  let index = 0
  if (g.thinking) {
    const i = index++
    push('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '', signature: '' } })
    for (const thinking of g.thinking.text.fragments) push('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking } })
    push('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: g.thinking.signature } })
    push('content_block_stop', { index: i })
  }
  for (const b of g.blocks) {
    const i = index++
    if (b.kind === 'text') {
      const frags = [...b.text.fragments]
      const first = b.inStart ? frags.shift() ?? '' : ''
      push('content_block_start', { index: i, content_block: { type: 'text', text: first } })
      frags.forEach((text, fi) => {
        if (b.citations.some((c) => c % frags.length === fi)) {
          push('content_block_delta', { index: i, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', cited_text: 'Sunny.', url: 'https://example.com/', title: 'Weather', encrypted_index: 'Eo8BCi' } } })
        }
        push('content_block_delta', { index: i, delta: { type: 'text_delta', text } })
      })
    } else if (b.kind === 'thinking') {
      push('content_block_start', { index: i, content_block: { type: 'thinking', thinking: '', signature: '' } })
      for (const thinking of b.text.fragments) push('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking } })
      push('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } })
    } else if (b.kind === 'redacted') {
      push('content_block_start', { index: i, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' } })
    } else if (b.kind === 'result') {
      push('content_block_start', { index: i, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', title: 'Weather', url: 'https://example.com/', encrypted_content: 'EqgfCioI', page_age: null }] } })
    } else {
      const t = b.tool!
      const server = t.id.startsWith('srv')
      // noDeltas: the input comes whole in content_block_start and no input_json_delta follows
      // (a tool with no parameters, docs/wire-formats.md#anthropic-tool-input: `input: {}`; whole inputs otherwise)
      const input: unknown = t.noDeltas ? JSON.parse(t.args) : {}
      push('content_block_start', { index: i, content_block: { type: server ? 'server_tool_use' : 'tool_use', id: t.id, name: t.name, input } })
      if (!t.noDeltas) {
        if (t.emptyFirst) push('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: '' } })
        for (const partial_json of splitAt(t.args, t.cuts)) push('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json } })
      }
    }
    push('content_block_stop', { index: i })
  }
  push('message_delta', { delta: { stop_reason: g.stop, stop_sequence: g.stop === 'stop_sequence' ? '\n\nHuman:' : null }, usage: g.deltaUsage })
  push('message_stop', {})
  if (g.unknown !== null) out.splice(1 + (g.unknown % (out.length - 1)), 0, { event: 'message_annotation', data: JSON.stringify({ type: 'message_annotation', annotation: { kind: 'future' } }) })
  // pings anywhere (also before message_start)
  const ping: SseEvent = { event: 'ping', data: '{"type": "ping"}' }
  for (const p of g.pings) out.splice(p % (out.length + 1), 0, ping)
  return out
}

const streamArb = generatedSseArb(genArb, events, false)

describe('generated clean Anthropic streams: ours = @anthropic-ai/sdk', () => {
  it('text, thinking, tool_use input, stop_reason and usage agree', async () => {
    await checkGenerated(streamArb, 100, async ({ g, chunks, ours }) => {
      expect(reasonOf(judge(ours))).toBe('compare')
      await compare(chunks, ours)
      // and ours is what the generator meant
      const c = ours.reply.choices[0]!
      expect(c.content).toBe(g.blocks.filter((b) => b.kind === 'text').map((b) => b.text.text).join(''))
      expect(c.reasoning).toBe((g.thinking?.text.text ?? '') + g.blocks.filter((b) => b.kind === 'thinking').map((b) => b.text.text).join(''))
      expect(c.toolCalls.map((t) => t.parsedArguments)).toEqual(g.blocks.flatMap((b) => (b.tool ? [JSON.parse(b.tool.args)] : [])))
    })
  })
})

