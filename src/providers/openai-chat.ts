// OpenAI Chat Completions `chat.completion.chunk` and the compatible servers (DeepSeek, vLLM,
// OpenRouter, Groq, Mistral, Azure, Ollama / LM Studio OpenAI endpoints).

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { argumentsText, arr, errorDelta, index, isObject, str, usageObject, type JsonObject } from './shared.js'

export const openaiChat: ProviderAdapter = {
  id: 'openai-chat',
  urlPattern: /\/chat\/completions\b/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    return j['object'] === 'chat.completion.chunk' || (Array.isArray(j['choices']) && !('candidates' in j))
  },
  createMapper(): FrameMapper {
    return { map: mapChunk }
  },
}

function mapChunk(frame: ParsedFrame): Delta[] {
  const chunk = frame.json
  if (!isObject(chunk)) return []
  const out: Delta[] = []
  const error = errorDelta(chunk)
  if (error) out.push(error)
  const choices = arr(chunk['choices'])
  for (let position = 0; position < choices.length; position++) {
    const choice = choices[position]
    if (isObject(choice)) mapChoice(choice, index(choice['index']) ?? position, out)
  }
  const usage = usageObject(chunk['usage']) ?? usageObject(isObject(chunk['x_groq']) ? chunk['x_groq']['usage'] : null)
  if (usage) out.push({ type: 'usage', usage })
  return out
}

function mapChoice(choice: JsonObject, at: number, out: Delta[]): void {
  const delta = isObject(choice['delta']) ? choice['delta'] : null
  out.push({ type: 'choice', choice: at, role: delta ? str(delta['role']) : null })
  if (delta) {
    mapContent(delta['content'], at, out)
    const refusal = str(delta['refusal'])
    if (refusal !== null) out.push({ type: 'text', choice: at, channel: 'refusal', text: refusal })
    mapReasoning(delta, at, out)
    for (const call of arr(delta['tool_calls'])) mapToolCall(call, at, out)
    // a single object instead of an array (Cohere-style servers)
    if (isObject(delta['tool_calls'])) mapToolCall(delta['tool_calls'], at, out)
    if (isObject(delta['function_call'])) mapLegacyFunctionCall(delta['function_call'], at, out)
  }
  const finish = str(choice['finish_reason'])
  if (finish) out.push({ type: 'finish', choice: at, reason: finish })
}

/** A string, or Mistral's array of `text` / `thinking` parts. */
function mapContent(content: unknown, at: number, out: Delta[]): void {
  if (typeof content === 'string') {
    out.push({ type: 'text', choice: at, channel: 'content', text: content })
    return
  }
  for (const part of arr(content)) {
    if (!isObject(part)) continue
    if (part['type'] === 'text' && typeof part['text'] === 'string') {
      out.push({ type: 'text', choice: at, channel: 'content', text: part['text'] })
    } else if (part['type'] === 'thinking') {
      for (const t of arr(part['thinking'])) {
        if (isObject(t) && typeof t['text'] === 'string') out.push({ type: 'text', choice: at, channel: 'reasoning', text: t['text'] })
      }
      if (typeof part['thinking'] === 'string') out.push({ type: 'text', choice: at, channel: 'reasoning', text: part['thinking'] })
    }
  }
}

/**
 * One reasoning source per delta: `reasoning_content ?? reasoning`; OpenRouter's
 * `reasoning_details` repeats the same text, so it is read only when neither is present.
 */
function mapReasoning(delta: JsonObject, at: number, out: Delta[]): void {
  const text = str(delta['reasoning_content']) ?? str(delta['reasoning'])
  if (text !== null) {
    out.push({ type: 'text', choice: at, channel: 'reasoning', text })
    return
  }
  for (const d of arr(delta['reasoning_details'])) {
    if (!isObject(d)) continue
    const piece = str(d['text']) ?? str(d['summary'])
    if (piece !== null) out.push({ type: 'text', choice: at, channel: 'reasoning', text: piece })
  }
}

function mapToolCall(call: unknown, at: number, out: Delta[]): void {
  if (!isObject(call)) return
  const fn = isObject(call['function']) ? call['function'] : {}
  out.push({
    type: 'tool-call',
    choice: at,
    key: index(call['index']),
    id: str(call['id']),
    callType: str(call['type']),
    name: str(fn['name']),
    arguments: argumentsText(fn['arguments']),
  })
}

/** The deprecated functions API: one call, shown as tool call 0 of type `function`. */
function mapLegacyFunctionCall(fn: JsonObject, at: number, out: Delta[]): void {
  out.push({
    type: 'tool-call', choice: at, key: 0, callType: 'function',
    name: str(fn['name']), arguments: str(fn['arguments']),
  })
}
