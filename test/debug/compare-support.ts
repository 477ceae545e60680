// Inputs for the compareReply tests: Deltascope fixtures made from the repository's wire
// fixtures (test/fixtures/<provider>/<name>) cut into network reads at chosen byte offsets,
// and a small OpenAI chat client whose bugs can be switched on one by one, so each cause is
// produced the way a real client produces it.

import { readFileSync } from 'node:fs'
import { toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { recording } from '../support/requests.js'

const ROOT = new URL('../fixtures/', import.meta.url).pathname

const URLS: Record<string, string> = {
  'openai-chat': 'https://api.openai.com/v1/chat/completions',
  'openai-responses': 'https://api.openai.com/v1/responses',
  'anthropic': 'https://api.anthropic.com/v1/messages',
  'gemini': 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
  'ollama': 'http://127.0.0.1:11434/api/chat',
  'ai-sdk': 'http://localhost:3000/api/chat',
  'ai-sdk-v4': 'http://localhost:3000/api/chat',
  'langgraph': 'http://127.0.0.1:2024/threads/t1/runs/stream',
  'ag-ui': 'http://localhost:8000/agent',
}

/** The wire bytes of test/fixtures/<name> (e.g. `openai-chat/deltascope-reasoning-content.sse`). */
export function wire(name: string): Uint8Array {
  return new Uint8Array(readFileSync(ROOT + name))
}

/** Bytes cut at these offsets (in any order): [0, c0), [c0, c1), …, [cn, end). */
export function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [0, ...[...cuts].sort((a, b) => a - b), bytes.length]
  return points.slice(1).map((end, i) => bytes.slice(points[i]!, end))
}

/** Bytes cut every `step` bytes. */
export function cutEvery(bytes: Uint8Array, step: number): Uint8Array[] {
  const cuts: number[] = []
  for (let at = step; at < bytes.length; at += step) cuts.push(at)
  return cutAt(bytes, cuts)
}

/** The byte offset just after the `n`-th occurrence (1-based) of `text` in the bytes. */
export function after(bytes: Uint8Array, text: string, n = 1): number {
  return at(bytes, text, n) + new TextEncoder().encode(text).length
}

/** The byte offset of the `n`-th occurrence (1-based) of `text` in the bytes. */
export function at(bytes: Uint8Array, text: string, n = 1): number {
  const needle = new TextEncoder().encode(text)
  let found = 0
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer
    if (++found === n) return i
  }
  throw new Error(`${JSON.stringify(text)} (occurrence ${n}) not found`)
}

/** A Deltascope fixture of the wire file, its body arriving as these reads (read i at 10 + 5·i ms). */
export function fixtureOf(name: string, reads: readonly Uint8Array[] = [wire(name)]): Fixture {
  const provider = name.split('/')[0]!
  const ndjson = name.endsWith('.ndjson')
  // an AI SDK 4 data stream (.txt) goes as the SDK sends it, text/plain
  const contentType = ndjson ? 'application/x-ndjson' : name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'text/event-stream; charset=utf-8'
  return toFixture(recording(reads.map((data, i) => [data, 10 + 5 * i]), {
    url: URLS[provider]!, requestHeaders: [{ name: 'content-type', value: 'application/json' }],
    responseHeaders: [{ name: 'content-type', value: contentType }, { name: 'x-request-id', value: 'req_1' }], requestBody: '{"stream":true}', contentType,
  }), { exportedAt: '2025-06-01T12:00:00.000Z' })
}

// ---------------------------------------------------------------------------
// A hand-written OpenAI chat client, correct unless told otherwise

export interface Bugs {
  /** Decode each read with TextDecoder without {stream: true}. */
  decodePerRead?: boolean
  /** Split each read on blank lines by itself, dropping the pieces that do not parse. */
  parsePerRead?: boolean
  /** Keep the buffer whole when it ends exactly at a blank line (`if (rest) buffer = rest`): its frames are read again. */
  keepBufferAtBoundary?: boolean
  /** Stop at the first frame whose JSON does not parse. */
  stopAtBrokenFrame?: boolean
  /** Never dispatch a final block that the blank line did not end. */
  needsBlankLine?: boolean
  /** content = delta.content (replace) instead of += */
  replaceContent?: boolean
  /** Reasoning deltas appended to the content buffer. */
  reasoningIntoContent?: boolean
  /** Content deltas appended to the reasoning buffer. */
  contentIntoReasoning?: boolean
  /** Tool calls keyed by function name. */
  toolsByName?: boolean
  /** Tool calls keyed by id: a fragment without id starts a new call. */
  toolsById?: boolean
  /** Arguments re-serialised with JSON.stringify(JSON.parse(…)). */
  reformatArguments?: boolean
  /** Every finish reason reported as "stop". */
  finishAlwaysStop?: boolean
  /** Usage fields summed over chunks. */
  sumUsage?: boolean
}

export interface ClientCompletion {
  choices: Array<{
    index: number
    finish_reason: string | null
    message: { role: string; content: string; reasoning_content: string; tool_calls?: Array<{ id: string | null; type: 'function'; function: { name: string; arguments: string } }> }
  }>
  usage: Record<string, number> | null
}

/** Reads the reads as a chat client with these bugs; the result has the shape of openai-node's finalChatCompletion(). */
export function buggyChatClient(reads: readonly Uint8Array[], bugs: Bugs = {}): ClientCompletion {
  const decoder = new TextDecoder()
  let content = ''
  let reasoning = ''
  let finish: string | null = null
  let usage: Record<string, number> | null = null
  const calls = new Map<string | number, { id: string | null; name: string; arguments: string }>()
  let lastKey: string | number | null = null
  let fresh = 0
  let stopped = false

  const apply = (block: string) => {
    const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n')
    if (data === '' || data === '[DONE]' || stopped) return
    let chunk: any
    try {
      chunk = JSON.parse(data)
    } catch {
      if (bugs.stopAtBrokenFrame) stopped = true
      return
    }
    if (chunk.usage) {
      if (bugs.sumUsage && usage) for (const [k, v] of Object.entries(chunk.usage)) usage[k] = (usage[k] ?? 0) + (v as number)
      else usage = { ...chunk.usage }
    }
    for (const choice of chunk.choices ?? []) {
      const d = choice.delta ?? {}
      if (typeof d.content === 'string') {
        if (bugs.contentIntoReasoning) reasoning += d.content
        else content = bugs.replaceContent ? d.content : content + d.content
      }
      if (typeof d.reasoning_content === 'string') {
        if (bugs.reasoningIntoContent) content += d.reasoning_content
        else reasoning += d.reasoning_content
      }
      for (const t of d.tool_calls ?? []) {
        let key: string | number = t.index
        if (bugs.toolsByName) key = t.function?.name ?? lastKey!
        if (bugs.toolsById) key = t.id ?? `fresh-${fresh++}`
        lastKey = key
        const call = calls.get(key) ?? { id: t.id ?? null, name: '', arguments: '' }
        if (t.function?.name && call.name === '') call.name = t.function.name
        call.arguments += t.function?.arguments ?? ''
        calls.set(key, call)
      }
      if (choice.finish_reason) finish = bugs.finishAlwaysStop ? 'stop' : choice.finish_reason
    }
  }

  let buffer = ''
  for (const read of reads) {
    const text = bugs.decodePerRead ? new TextDecoder().decode(read) : decoder.decode(read, { stream: true })
    if (bugs.parsePerRead) {
      text.replace(/\r\n?/g, '\n').split('\n\n').forEach(apply)
      continue
    }
    buffer += text.replace(/\r\n?/g, '\n')
    const parts = buffer.split('\n\n')
    const rest = parts.pop()!
    parts.forEach(apply)
    if (bugs.keepBufferAtBoundary) {
      if (rest) buffer = rest
    } else buffer = rest
  }
  if (!bugs.needsBlankLine && !bugs.parsePerRead) apply(buffer + decoder.decode())

  // a correct client orders calls by their wire index
  const ordered = [...calls.entries()].sort(([a], [b]) => (typeof a === 'number' && typeof b === 'number' ? a - b : 0)).map(([, c]) => c)
  const toolCalls = ordered.map((c) => ({
    id: c.id, type: 'function' as const,
    function: { name: c.name, arguments: bugs.reformatArguments ? JSON.stringify(JSON.parse(c.arguments)) : c.arguments },
  }))
  const message = { role: 'assistant', content, reasoning_content: reasoning, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }
  return { choices: [{ index: 0, finish_reason: finish, message }], usage }
}
