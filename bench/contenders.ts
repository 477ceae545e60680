// What the benchmark races: the floor, what users write today, the openai SDK's own
// accumulator, and Deltascope's merger (whole input and pushed in chunks).

import { createParser } from 'eventsource-parser'
import OpenAI from 'openai'
import { createMerger, merge } from '../src/library.js'
import type { StreamKind } from './generate.js'

export interface Contender {
  name: string
  /** Only for these stream kinds (the openai accumulator reads OpenAI chat only). */
  kinds?: StreamKind[]
  /** Untimed setup: what the network would have handed over already (the chunks). */
  prepare?(bytes: Uint8Array): unknown
  run(bytes: Uint8Array, kind: StreamKind, prepared?: unknown): unknown | Promise<unknown>
}

/** The physical floor: decode, split on blank lines (or newlines), JSON.parse every payload. No merging. */
export const floor: Contender = {
  name: 'floor (split + JSON.parse)',
  run(bytes, kind) {
    const text = new TextDecoder().decode(bytes)
    let n = 0
    if (kind === 'ollama') {
      for (const line of text.split('\n')) if (line !== '') { JSON.parse(line); n++ }
      return n
    }
    for (const block of text.split('\n\n')) {
      const at = block.indexOf('data: ')
      if (at < 0) continue
      const data = block.slice(at + 6)
      if (data !== '[DONE]') { JSON.parse(data); n++ }
    }
    return n
  },
}

/** eventsource-parser plus the accumulation a user would write by hand (NDJSON: a line split). */
export const userParser: Contender = {
  name: 'eventsource-parser + accumulate',
  run(bytes, kind) {
    const acc = { content: '', reasoning: '', args: new Map<number, string>() }
    const onJson = (j: any) => {
      if (kind === 'openai') {
        const d = j.choices?.[0]?.delta
        if (!d) return
        if (d.content) acc.content += d.content
        if (d.reasoning_content) acc.reasoning += d.reasoning_content
        for (const t of d.tool_calls ?? []) acc.args.set(t.index, (acc.args.get(t.index) ?? '') + (t.function?.arguments ?? ''))
      } else if (kind === 'anthropic') {
        if (j.type !== 'content_block_delta') return
        const d = j.delta
        if (d.type === 'text_delta') acc.content += d.text
        else if (d.type === 'thinking_delta') acc.reasoning += d.thinking
        else if (d.type === 'input_json_delta') acc.args.set(j.index, (acc.args.get(j.index) ?? '') + d.partial_json)
      } else {
        acc.content += j.message?.content ?? ''
        acc.reasoning += j.message?.thinking ?? ''
      }
    }
    const text = new TextDecoder().decode(bytes)
    if (kind === 'ollama') {
      for (const line of text.split('\n')) if (line !== '') onJson(JSON.parse(line))
    } else {
      const parser = createParser({ onEvent: (e) => { if (e.data !== '[DONE]') onJson(JSON.parse(e.data)) } })
      parser.feed(text)
    }
    for (const [k, v] of acc.args) JSON.parse(v.endsWith('}') ? v : '{}'), void k
    return acc
  },
}

/** The openai package's ChatCompletionStream accumulator, fed the bytes through a custom fetch. */
export const openaiSdk: Contender = {
  name: 'openai SDK accumulator',
  kinds: ['openai'],
  async run(bytes) {
    const client = new OpenAI({
      apiKey: 'unused', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0,
      fetch: async () => new Response(new ReadableStream({
        start(c) { for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536)); c.close() },
      }), { headers: { 'content-type': 'text/event-stream' } }),
    })
    return client.chat.completions.stream({ model: 'x', messages: [] }).finalChatCompletion()
  },
}

export const mergeWhole: Contender = {
  name: 'Deltascope merge()',
  run: (bytes) => merge(bytes),
}

const preparedBySize = new Map<number, WeakMap<Uint8Array, Uint8Array[]>>()

/** Chunks as a network delivers them: separate buffers, made before the clock starts. */
function pushIn(size: number): Contender {
  const prepared = preparedBySize.get(size) ?? new WeakMap<Uint8Array, Uint8Array[]>()
  preparedBySize.set(size, prepared)
  return {
    name: `Deltascope push() ${size >= 1024 ? `${size / 1024} KiB` : `${size} B`} chunks`,
    prepare(bytes) {
      // made once per input and reused by every round: 156,000 fresh views per 10 MB would
      // otherwise sit in the young generation and be copied by the scavenges of the timed run
      let chunks = prepared.get(bytes)
      if (!chunks) {
        chunks = []
        for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
        prepared.set(bytes, chunks)
      }
      return chunks
    },
    run(_bytes, _kind, prepared) {
      const m = createMerger()
      for (const chunk of prepared as Uint8Array[]) m.push(chunk)
      return m.end()
    },
  }
}

export const push64k = pushIn(65536)
export const push64 = pushIn(64)

export const CONTENDERS = [floor, userParser, openaiSdk, mergeWhole, push64k, push64]

/** A merger fed the whole body in one push: what the panel and a test harness do per request. */
export const mergerWhole: Contender = {
  name: 'Deltascope createMerger() + push + end',
  run(bytes) {
    const m = createMerger()
    m.push(bytes)
    return m.end()
  },
}
