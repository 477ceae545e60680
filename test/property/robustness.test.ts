// Robustness: merge() never throws, whatever the bytes — random bytes, every fixture mutated
// (byte flips, deletions, insertions of framing and UTF-8 troublemakers, truncation) — and
// what it returns is consistent with the merger's accessors: frameCount = frames.length, every error is
// one 'invalid' frame (same raw, offset = its start, same line and message), offsets match the
// bytes. Time grows linearly (a guard against quadratic behaviour, not a benchmark), and
// pathological shapes (5 MB line, 1 MB of CR or LF, 100k-deep nesting, a 100k-element array,
// hostile indexes and "__proto__" keys) are handled with exact results.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMerger, merge } from '../../src/index.js'
import type { MergeOptions, Reply } from '../../src/index.js'
import { inspectMerger, type Inspection } from '../support/inspect.js'
import { concat, enc, expectOffsetsMatchBytes, mergeChunks, wireFixtures } from '../support/property.js'

const fixtures = wireFixtures()

/** The invariants every body must satisfy; returns the inspection for further checks. */
function expectConsistent(bytes: Uint8Array, options: MergeOptions): Inspection {
  let reply: Reply | undefined
  expect(() => { reply = merge(bytes, options) }).not.toThrow()
  const m = createMerger(options)
  m.push(bytes)
  expect(m.end()).toEqual(reply)
  const ins = inspectMerger(m)
  const r = reply!
  expect(r.frameCount).toBe(ins.frames.length)
  expect(m.frameCount).toBe(ins.frames.length)
  ins.frames.forEach((f, i) => {
    expect(f.seq).toBe(i)
    if (f.unterminated) expect(i).toBe(ins.frames.length - 1)
    // kind follows from the data alone: [DONE] first, then JSON.parse
    let parses = true
    try { JSON.parse(f.data) } catch { parses = false }
    const byData = f.data.length <= 16 && f.data.trim() === '[DONE]' ? 'done' : parses ? 'data' : 'invalid'
    // the data-stream and event-stream framings may reject a frame whatever its data (an unknown code, a bad CRC)
    if (!(f.kind === 'invalid' && (ins.transport === 'data-stream' || ins.transport === 'eventstream' || ins.transport === 'connect'))) expect(f.kind).toBe(byData)
  })
  // errors[] is exactly the invalid frames, pointing at them
  expect(r.errors).toEqual(
    ins.frames.filter((f) => f.kind === 'invalid').map((f) => ({ frame: f.seq, offset: f.start, line: f.line, raw: f.raw, message: f.error!.message })),
  )
  for (const e of r.errors) {
    const f = ins.frames[e.frame]!
    expect(e.raw).toBe(f.raw)
    expect(e.offset).toBe(f.start)
  }
  // choices and tool calls come sorted by index
  const sorted = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x)
  expect(sorted(r.choices.map((c) => c.index))).toBe(true)
  for (const c of r.choices) expect(sorted(c.toolCalls.map((t) => t.index))).toBe(true)
  expectOffsetsMatchBytes(bytes, ins)
  return ins
}

const TRANSPORTS = fc.constantFrom<MergeOptions>({}, { transport: 'sse' }, { transport: 'ndjson' }, { transport: 'json' }, { contentType: 'text/event-stream' })

/** Pieces that matter to framing, JSON and UTF-8. */
const TROUBLE: Uint8Array[] = ['\r', '\n', '\r\n', '\n\n', ':', '{', '}', '"', '[', ']', ',', '\\', '[DONE]', 'data: ', 'event: ', 'id: '].map((t) => enc.encode(t))
  .concat([new Uint8Array([0xc3]), new Uint8Array([0xff]), new Uint8Array([0xef, 0xbb, 0xbf]), new Uint8Array([0xe2, 0x82]), new Uint8Array([0xf0, 0x9f, 0x98, 0x80])])

type Mutation = { op: 'flip'; at: number; value: number } | { op: 'delete'; at: number; length: number } | { op: 'insert'; at: number; piece: number } | { op: 'truncate'; at: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), piece: fc.nat(TROUBLE.length - 1) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
)

function mutate(bytes: Uint8Array, ms: Mutation[]): Uint8Array {
  let b = bytes
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1)
    if (m.op === 'flip') { if (at < b.length) { b = b.slice(); b[at] = m.value } }
    else if (m.op === 'delete') b = concat(b.subarray(0, at), b.subarray(at + m.length))
    else if (m.op === 'insert') b = concat(b.subarray(0, at), TROUBLE[m.piece]!, b.subarray(at))
    else b = b.subarray(0, at)
  }
  return b
}

describe('robustness: never throws, stays consistent', () => {
  it('random bytes up to 64 KB, under every transport', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 * 1024 }), TRANSPORTS, (bytes, options) => {
        expectConsistent(bytes, options)
      }),
      { numRuns: 20 },
    )
  })

  it('random sequences of framing / JSON / UTF-8 troublemakers and letters', () => {
    const piece = fc.oneof(fc.constantFrom(...TROUBLE), fc.constantFrom('a', 'x1', ' ', '€', '0', 'true', '"k":').map((t) => enc.encode(t)))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), TRANSPORTS, (pieces, options) => {
        expectConsistent(concat(...pieces), options)
      }),
      { numRuns: 300 },
    )
  })

  for (const f of fixtures) {
    it(`${f.name}: random mutations`, () => {
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 8 }), fc.constantFrom<MergeOptions>(f.options, {}), (ms, options) => {
          expectConsistent(mutate(f.wire, ms), options)
        }),
        { numRuns: 12 },
      )
    })
  }

  // every truncation point of the small fixtures (the merge of a prefix is what a client
  // shows when the connection drops there)
  const SMALL = 600
  const small = fixtures.filter((f) => f.wire.length <= SMALL)
  it(`truncation at every position of the ${small.length} fixtures of at most ${SMALL} bytes`, () => {
    for (const f of small) {
      for (let at = 0; at <= f.wire.length; at++) {
        const ins = expectConsistent(f.wire.subarray(0, at), f.options)
        if (at === f.wire.length) expect(ins.reply).toEqual(merge(f.wire, f.options))
      }
    }
  }, 60_000)
})

// ---------------------------------------------------------------------------
// Time: linear in the body's size. 8× the bytes may take at most LIMIT× the time (linear is
// 8×, quadratic 64×; the slack absorbs JIT and GC noise on a shared 2-core machine); min of 3
// interleaved runs each, in CPU time.

const LIMIT = 32
/** Below this, a 0.5 MB time is mostly noise. */
const FLOOR_MS = 10

/** A small deterministic PRNG, so the big inputs cost no fast-check time. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Random SSE lines: mostly valid chunks with multi-byte text, comments, pings, broken JSON, a few invalid bytes. */
function randomSseLines(size: number, seed: number): Uint8Array {
  const rnd = prng(seed)
  const words = ['Hello', ' wörld', ' €', ' 😀', ' 中文', ' \\"q\\"', ' ok']
  const line = (): Uint8Array => {
    const r = rnd()
    if (r < 0.6) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join('')
      return enc.encode(`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${text}"}}]}\n\n`)
    }
    if (r < 0.75) return enc.encode(': keep-alive\n\n')
    if (r < 0.85) return enc.encode('event: ping\r\n\r\n')
    if (r < 0.88) return enc.encode('data: {"choices":[{"index":0,"delta":{"content":"cut\r\r')
    if (r < 0.97) return enc.encode('data: {"a":\ndata: 1}\r\n\n')
    return concat(enc.encode('data: "'), new Uint8Array([0xff]), enc.encode('"\n\n'))
  }
  const out = new Uint8Array(size)
  let at = 0
  while (at < size) {
    const p = line()
    out.set(p.subarray(0, Math.min(p.length, size - at)), at)
    at += p.length
  }
  return out
}

/** A JSON array of random elements: Gemini chunks, scalars, nested arrays, strings with brackets. */
function randomJsonArray(size: number, seed: number): Uint8Array {
  const rnd = prng(seed)
  const els = [
    '{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi €😀"}]},"index":0}]}',
    '{"candidates":[{"content":{"parts":[{"text":"]},{\\"x"}]}}]}', '1', '"a,]b"', '[1,[2,{"k":[]}]]', 'null', '{"usageMetadata":{"promptTokenCount":3}}',
  ].map((t) => enc.encode(t))
  const out = new Uint8Array(size)
  out[0] = 0x5b
  let at = 1
  while (at < size) {
    const p = concat(els[Math.floor(rnd() * els.length)]!, enc.encode(rnd() < 0.5 ? ',' : ',\n'))
    out.set(p.subarray(0, Math.min(p.length, size - at)), at)
    at += p.length
  }
  return out
}

/** A fixture repeated to `size` bytes, one random mutation every ~4 KB. */
function mutatedFixtureOfSize(wire: Uint8Array, size: number, seed: number): Uint8Array {
  const rnd = prng(seed)
  const out = new Uint8Array(size)
  for (let at = 0; at < size; at += wire.length) out.set(wire.subarray(0, Math.min(wire.length, size - at)), at)
  for (let k = 0; k < size / 4096; k++) {
    const at = Math.floor(rnd() * size)
    const piece = TROUBLE[Math.floor(rnd() * TROUBLE.length)]!
    out.set(piece.subarray(0, Math.min(piece.length, size - at)), at)
  }
  return out
}

function randomAscii(size: number, seed: number): Uint8Array {
  const rnd = prng(seed)
  const out = new Uint8Array(size)
  for (let i = 0; i < size; i++) out[i] = Math.floor(rnd() * 128)
  return out
}

/** CPU time (user + system, ms) of one run: other processes on a shared machine do not count. */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage()
  run()
  const d = process.cpuUsage(before)
  return (d.user + d.system) / 1000
}

/** Min of 3 runs of each, interleaved so that a slow moment of the machine hits both. */
function bestOf3Each(a: () => void, b: () => void): [number, number] {
  let ta = Infinity
  let tb = Infinity
  for (let i = 0; i < 3; i++) {
    ta = Math.min(ta, cpuMs(a))
    tb = Math.min(tb, cpuMs(b))
  }
  return [ta, tb]
}

function pushIn(bytes: Uint8Array, size: number, options: MergeOptions): Reply {
  const m = createMerger(options)
  for (let i = 0; i < bytes.length; i += size) m.push(bytes.subarray(i, i + size))
  return m.end()
}

describe('robustness: time is linear in the size', () => {
  const KB = 1024
  const biggest = [...fixtures].sort((a, b) => b.wire.length - a.wire.length)[0]
  const kinds: Array<[string, (size: number) => Uint8Array, (b: Uint8Array) => unknown]> = [
    ['random SSE lines, one push', (n) => randomSseLines(n, 1), (b) => merge(b)],
    ['random SSE lines, 1 KB pushes', (n) => randomSseLines(n, 2), (b) => pushIn(b, 1024, {})],
    ['random ASCII bytes as SSE', (n) => randomAscii(n, 3), (b) => merge(b, { transport: 'sse' })],
    ['a random JSON array', (n) => randomJsonArray(n, 4), (b) => merge(b)],
  ]
  if (biggest) kinds.push([`mutated ${biggest.name}`, (n) => mutatedFixtureOfSize(biggest.wire, n, 5), (b) => merge(b, biggest.options)])

  for (const [name, make, run] of kinds) {
    it(`${name}: 4 MB takes at most ${LIMIT}× the time of 0.5 MB`, () => {
      const small = make(512 * KB)
      const large = make(4096 * KB)
      run(small) // warm up the JIT
      run(small)
      const [tSmall, tLarge] = bestOf3Each(() => run(small), () => run(large))
      expect(tLarge, `0.5 MB: ${tSmall.toFixed(1)} ms, 4 MB: ${tLarge.toFixed(1)} ms`).toBeLessThan(LIMIT * Math.max(tSmall, FLOOR_MS))
    }, 60_000)
  }
})

// ---------------------------------------------------------------------------

describe('robustness: pathological shapes', () => {
  it('a 5 MB single line without newline, pushed in 64-byte chunks: one unterminated frame', () => {
    const n = 5 * 1024 * 1024
    const body = concat(enc.encode('data: "'), new Uint8Array(n).fill(0x61), enc.encode('"'))
    const m = createMerger()
    for (let i = 0; i < body.length; i += 64) m.push(body.subarray(i, i + 64))
    expect(m.end()).toEqual({ transport: 'sse', provider: 'generic', done: false, frameCount: 1, choices: [], messages: [], usage: null, errors: [] })
    const f = m.frame(0)
    expect([f.kind, f.start, f.end, f.byteStart, f.byteEnd, f.line, f.unterminated, f.data.length]).toEqual(['data', 0, n + 8, 0, n + 8, 1, true, n + 2])
    // the same as NDJSON: one frame, the whole line
    const nd = concat(enc.encode('"'), new Uint8Array(n).fill(0x62), enc.encode('"'))
    const r = pushIn(nd, 64, { transport: 'ndjson' })
    expect([r.frameCount, r.errors]).toEqual([1, []])
  })

  for (const [name, byte] of [['CR', 0x0d], ['LF', 0x0a]] as const) {
    it(`1 MB of only ${name}: no frame; between two frames, the line numbers count every ${name}`, () => {
      const n = 1024 * 1024
      const only = new Uint8Array(n).fill(byte)
      expect(merge(only)).toEqual({ transport: 'unknown', provider: 'generic', done: false, frameCount: 0, choices: [], messages: [], usage: null, errors: [] })
      const forced = mergeChunks([only], { transport: 'sse' })
      expect([forced.reply.frameCount, forced.ins.entries.length]).toEqual([0, 0])
      expect(mergeChunks([only], { transport: 'ndjson' }).reply.frameCount).toBe(0)
      // data: 1 ‹n × byte› data: 2 — the first ends its line and a blank line; n − 1 blank lines follow
      const body = concat(enc.encode('data: 1'), only, enc.encode('data: 2'))
      for (const chunks of [[body], Array.from({ length: Math.ceil(body.length / 4096) }, (_, i) => body.subarray(i * 4096, (i + 1) * 4096))]) {
        const { ins } = mergeChunks(chunks)
        expect(ins.frames.map((f) => [f.data, f.line, f.start, f.end, f.byteStart, f.byteEnd, f.unterminated])).toEqual([
          ['1', 1, 0, 8, 0, 8, false],
          ['2', n + 1, n + 7, n + 14, n + 7, n + 14, true],
        ])
      }
    })
  }

  it('100k-deep nesting in a frame: valid, unclosed and wrongly closed, without overflowing the stack', () => {
    const depth = 100_000
    const open = '['.repeat(depth)
    const close = ']'.repeat(depth)
    const objOpen = '{"a":'.repeat(depth)
    const body = `data: ${open}${close}\n\ndata: ${open}\n\ndata: ${objOpen}1${'}'.repeat(depth - 1)}\n\ndata: ${open}${close.slice(1)}}\n\n`
    let ins: Inspection | undefined
    expect(() => { ins = mergeChunks([enc.encode(body)], { transport: 'sse' }).ins }).not.toThrow()
    const frames = ins!.frames
    expect(frames.map((f) => f.kind)).toEqual(['data', 'invalid', 'invalid', 'invalid'])
    expect(frames.slice(1).map((f) => f.error)).toEqual([
      { message: `Unexpected end of JSON input at position ${depth} (expected a value or ']')`, position: depth },
      { message: `Unexpected end of JSON input at position ${5 * depth + 1 + depth - 1} (expected ',' or a closing bracket)`, position: 5 * depth + 1 + depth - 1 },
      { message: `Unexpected character '}' at position ${2 * depth - 1} (expected ',' or ']')`, position: 2 * depth - 1 },
    ])
    expect(ins!.reply.errors.map((e) => [e.frame, e.offset, e.line])).toEqual([[1, frames[1]!.start, 3], [2, frames[2]!.start, 5], [3, frames[3]!.start, 7]])
  })

  it('a JSON-array body with 100k elements', () => {
    const n = 100_000
    const el = '{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]},"index":0}]}'
    const body = enc.encode(`[${Array(n).fill(el).join(',\n')}]`)
    const r = merge(body)
    expect(r).toEqual({
      transport: 'json', provider: 'gemini', done: false, frameCount: n,
      choices: [{ index: 0, role: 'model', content: 'a'.repeat(n), reasoning: '', refusal: '', toolCalls: [], finishReason: null }],
      messages: [{ id: null, role: 'model', parts: [{ type: 'text', text: 'a'.repeat(n) }] }],
      usage: null, errors: [],
    })
    expect(pushIn(body, 64 * 1024, {})).toEqual(r)
  })

  it('index: 1e9 in choices and tool calls costs nothing and keeps the wire index', () => {
    const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`
    const body =
      chunk({ object: 'chat.completion.chunk', choices: [{ index: 1e9, delta: { role: 'assistant', content: 'big', tool_calls: [{ index: 1e9, id: 'call_1', function: { name: 'f', arguments: '{"a":' } }] } }] }) +
      chunk({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'zero' } }, { index: 1e9, delta: { tool_calls: [{ index: 1e9, function: { arguments: '1}' } }, { index: 2 ** 53, function: { name: 'unsafe', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] }) +
      'data: [DONE]\n\n'
    const t = performance.now()
    const r = merge(body)
    expect(performance.now() - t).toBeLessThan(1000)
    expect(r).toEqual({
      transport: 'sse', provider: 'openai-chat', done: true, frameCount: 3,
      choices: [
        { index: 0, role: null, content: 'zero', reasoning: '', refusal: '', toolCalls: [], finishReason: null },
        {
          index: 1e9, role: 'assistant', content: 'big', reasoning: '', refusal: '',
          toolCalls: [
            // 2**53 is not a safe integer: no usable index, so it is the next call in order of arrival
            { index: 1, id: null, type: 'function', name: 'unsafe', arguments: '{}', parsedArguments: {}, argumentsError: null },
            { index: 1e9, id: 'call_1', type: 'function', name: 'f', arguments: '{"a":1}', parsedArguments: { a: 1 }, argumentsError: null },
          ],
          finishReason: 'tool_calls',
        },
      ],
      // each choice a message of its own, its calls in the choice's order
      messages: [
        { id: null, role: null, parts: [{ type: 'text', text: 'zero' }] },
        {
          id: null, role: 'assistant', parts: [
            { type: 'text', text: 'big' },
            { type: 'tool-call', id: null, name: 'unsafe', arguments: '{}', parsedArguments: {}, argumentsError: null },
            { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"a":1}', parsedArguments: { a: 1 }, argumentsError: null },
          ],
        },
      ],
      usage: null, errors: [],
    })
    // Anthropic block index and Gemini candidate index 1e9
    const anth = merge(
      'event: message_start\ndata: {"type":"message_start","message":{"role":"assistant","usage":{"input_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":1000000000,"content_block":{"type":"tool_use","id":"toolu_1","name":"t","input":{}}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1000000000,"delta":{"type":"input_json_delta","partial_json":"{\\"q\\":1}"}}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    )
    expect(anth.choices[0]!.toolCalls).toEqual([{ index: 1e9, id: 'toolu_1', type: 'tool_use', name: 't', arguments: '{"q":1}', parsedArguments: { q: 1 }, argumentsError: null }])
    const gem = merge('data: {"candidates":[{"index":1000000000,"content":{"role":"model","parts":[{"text":"g"}]},"finishReason":"STOP"}]}\n\n')
    expect(gem.choices.map((c) => [c.index, c.content, c.finishReason])).toEqual([[1e9, 'g', 'STOP']])
  })

  it('"__proto__" keys in chunks, choices, deltas, tool calls and arguments: no pollution, nothing taken from them', () => {
    const body =
      'data: {"__proto__":{"polluted":1},"object":"chat.completion.chunk","choices":[{"index":0,"__proto__":{"finish_reason":"evil"},"delta":{"__proto__":{"content":"EVIL","role":"evil"},"role":"assistant","content":"ok","tool_calls":[{"index":0,"__proto__":{"id":"evil"},"id":"call_1","function":{"__proto__":{"name":"evil"},"name":"f","arguments":"{\\"__proto__\\":{\\"polluted\\":2}}"}}]}}]}\n\n' +
      'data: {"object":"chat.completion.chunk","choices":[{"index":"__proto__","delta":{"content":"!"}}]}\n\n' +
      'data: [DONE]\n\n'
    const r = merge(body)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    const parsed = JSON.parse('{"__proto__":{"polluted":2}}')
    expect(r).toEqual({
      transport: 'sse', provider: 'openai-chat', done: true, frameCount: 3,
      choices: [
        // the second chunk's choice has index "__proto__" (not a number): its position, 0, is used
        { index: 0, role: 'assistant', content: 'ok!', reasoning: '', refusal: '', toolCalls: [{ index: 0, id: 'call_1', type: 'function', name: 'f', arguments: '{"__proto__":{"polluted":2}}', parsedArguments: parsed, argumentsError: null }], finishReason: null },
      ],
      messages: [{
        id: null, role: 'assistant', parts: [
          { type: 'text', text: 'ok!' },
          { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{"__proto__":{"polluted":2}}', parsedArguments: parsed, argumentsError: null },
        ],
      }],
      usage: null, errors: [],
    })
    // the parsed arguments keep "__proto__" as an own key, as JSON.parse does
    expect(Object.keys(r.choices[0]!.toolCalls[0]!.parsedArguments as object)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(r.choices[0]!.toolCalls[0]!.parsedArguments)).toBe(Object.prototype)
  })

  it('a usage object with a "__proto__" key', () => {
    const r = merge('data: {"choices":[],"usage":{"__proto__":{"x":1},"prompt_tokens":3}}\n\n')
    expect(Object.keys(r.usage!)).toEqual(['__proto__', 'prompt_tokens'])
  })

  // a "__proto__" usage field is kept as an own property with its value (merging it by plain
  // assignment would set the object's prototype instead and silently lose the field)
  it('usage {"__proto__":{"x":1},"prompt_tokens":3} keeps both keys', () => {
    const r = merge('data: {"choices":[],"usage":{"__proto__":{"x":1},"prompt_tokens":3}}\n\n')
    expect(Object.keys(r.usage!)).toEqual(['__proto__', 'prompt_tokens'])
    expect(Object.getOwnPropertyDescriptor(r.usage, '__proto__')?.value).toEqual({ x: 1 })
  })
})
