// LangChain's serialised messages, as LangGraph Server streams them (langchain-core
// `messages/ai.py` AIMessage / AIMessageChunk `.dict()`; langchainjs the same fields): what is
// text, what is reasoning, what is a tool call, the finish reason and the usage. Shared by the
// LangGraph adapter's append mode (`messages` tuples) and snapshot mode (`messages/partial`).
//
// - `content` is a string, or a list of blocks: `text` ({text}), `thinking` ({thinking},
//   Anthropic), `reasoning` ({reasoning}, LangChain's standard blocks), `tool_use` (an
//   Anthropic call: id, name, input, and in a merged chunk `partial_json`, its argument text
//   so far), `input_json_delta` ({partial_json}: an argument fragment in a chunk).
// - `additional_kwargs.reasoning_content` (DeepSeek, OpenAI-compatible servers) is reasoning.
// - `tool_call_chunks` ({index, id, name, args: text}) are the call fragments of a chunk;
//   `tool_calls` ({id, name, args: object}) the parsed calls of a whole message.
// - The finish reason is `response_metadata.finish_reason` (OpenAI, Gemini) or `stop_reason`
//   (Anthropic); the usage is `usage_metadata`.

import { index, isObject, str, type JsonObject } from './shared.js'

/** Message types that are the assistant's: a chunk, a whole message, a merged snapshot. */
const AI_TYPES: ReadonlySet<string> = new Set(['AIMessageChunk', 'ai', 'AIMessage'])

export function isAiMessage(m: unknown): m is JsonObject {
  return isObject(m) && typeof m['type'] === 'string' && AI_TYPES.has(m['type'])
}

/** A tool's result message (`type: "tool"`, langchain-core ToolMessage): content, tool_call_id, status. */
export function isToolMessage(m: unknown): m is JsonObject {
  return isObject(m) && (m['type'] === 'tool' || m['type'] === 'ToolMessageChunk' || m['type'] === 'ToolMessage')
}

/** A message's id when it is a non-empty string. */
export function messageId(m: JsonObject): string | null {
  const id = str(m['id'])
  return id !== null && id !== '' ? id : null
}

export interface MessageTexts {
  content: string
  reasoning: string
}

/** The content and reasoning text of a message or chunk: its string content, or its blocks' text in order. */
export function messageTexts(m: JsonObject): MessageTexts {
  let content = ''
  let reasoning = ''
  const c = m['content']
  if (typeof c === 'string') content = c
  else if (Array.isArray(c)) {
    for (const block of c) {
      if (typeof block === 'string') { content += block; continue }
      if (!isObject(block)) continue
      switch (block['type']) {
        case 'text': case 'text_delta': content += str(block['text']) ?? ''; break
        case 'thinking': case 'thinking_delta': reasoning += str(block['thinking']) ?? ''; break
        case 'reasoning': reasoning += str(block['reasoning']) ?? ''; break
      }
    }
  }
  const kwargs = m['additional_kwargs']
  if (isObject(kwargs)) reasoning += str(kwargs['reasoning_content']) ?? ''
  return { content, reasoning }
}

/** One tool call of a message: `position` is its place among the message's calls (the wire `index` when it has one). */
export interface MessageCall {
  position: number
  id: string | null
  name: string | null
  /** The argument text: a fragment in a chunk, the text so far in a snapshot; null when the wire has none. */
  text: string | null
  /** The parsed arguments of a whole call (`tool_calls[].args`, `tool_use.input`), as given. */
  parsed: unknown
}

/**
 * A chunk's call fragments: `tool_call_chunks`, keyed by their `index` (their position when
 * it is missing). Content blocks of type `tool_use` / `input_json_delta` carry the same
 * fragments again, so they are not read here.
 */
export function chunkCalls(m: JsonObject): MessageCall[] {
  const chunks = m['tool_call_chunks']
  if (!Array.isArray(chunks)) return []
  const out: MessageCall[] = []
  chunks.forEach((c, i) => {
    if (!isObject(c)) return
    out.push({ position: index(c['index']) ?? i, id: nonEmpty(c['id']), name: nonEmpty(c['name']), text: str(c['args']), parsed: undefined })
  })
  return out
}

/**
 * A whole message's or snapshot's calls, in order: Anthropic `tool_use` blocks (with their
 * `partial_json` text so far), then `tool_calls` not already named by a block's id (their
 * parsed `args`); a merged chunk's `tool_call_chunks` give the text of a call with none.
 */
export function snapshotCalls(m: JsonObject): MessageCall[] {
  const out: MessageCall[] = []
  const byId = new Map<string, MessageCall>()
  const add = (call: MessageCall) => {
    out.push(call)
    if (call.id !== null) byId.set(call.id, call)
  }
  const content = m['content']
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block) || block['type'] !== 'tool_use') continue
      add({ position: out.length, id: nonEmpty(block['id']), name: nonEmpty(block['name']), text: str(block['partial_json']), parsed: block['input'] })
    }
  }
  const calls = m['tool_calls']
  if (Array.isArray(calls)) {
    for (const c of calls) {
      if (!isObject(c)) continue
      const id = nonEmpty(c['id'])
      const known = id === null ? undefined : byId.get(id)
      if (known !== undefined) {
        if (isObject(c['args'])) known.parsed = c['args']
        known.name ??= nonEmpty(c['name'])
        continue
      }
      add({ position: out.length, id, name: nonEmpty(c['name']), text: null, parsed: c['args'] })
    }
  }
  // a merged chunk (the JS server's snapshots) keeps the concatenated fragments
  for (const chunk of chunkCalls(m)) {
    const call = (chunk.id !== null ? byId.get(chunk.id) : undefined) ?? out[chunk.position]
    if (call !== undefined && call.text === null && chunk.text !== null) call.text = chunk.text
  }
  return out
}

/** The finish reason a message carries: `finish_reason`, else `stop_reason`, of its response_metadata. */
export function finishReason(m: JsonObject): string | null {
  const meta = m['response_metadata']
  if (!isObject(meta)) return null
  return nonEmpty(meta['finish_reason']) ?? nonEmpty(meta['stop_reason'])
}

export function usageOf(m: JsonObject): JsonObject | null {
  const u = m['usage_metadata']
  return isObject(u) ? u : null
}

function nonEmpty(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}
