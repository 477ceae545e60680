// Ollama's native NDJSON streams: /api/chat (`message.{role, content, thinking, tool_calls}`)
// and /api/generate (top-level `response` / `thinking`). One choice, index 0. The last
// object has `done: true`, `done_reason` and the timing counters; a failure mid-stream is a
// line `{"error": "..."}`.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { argumentsText, arr, errorDelta, isObject, str, type JsonObject } from './shared.js'

const CHOICE = 0

/** The counters of the final object (token counts, durations in ns): Ollama's usage. */
const COUNTERS = [
  'prompt_eval_count', 'eval_count', 'total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration',
] as const

export const ollama: ProviderAdapter = {
  id: 'ollama',
  urlPattern: /\/api\/(chat|generate)\b/,
  // only Ollama sends NDJSON natively
  contentTypePattern: /ndjson/i,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    const shaped = typeof j['done'] === 'boolean' && (isObject(j['message']) || typeof j['response'] === 'string')
    return shaped || (typeof j['model'] === 'string' && typeof j['created_at'] === 'string')
  },
  createMapper(): FrameMapper {
    return { map: mapLine }
  },
}

function mapLine(frame: ParsedFrame): Delta[] {
  const line = frame.json
  if (!isObject(line)) return []
  const out: Delta[] = []
  const error = errorDelta(line)
  if (error) out.push(error)
  if (isObject(line['message'])) mapMessage(line['message'], out)
  else mapGenerate(line, out)
  if (line['done'] === true) mapDone(line, out)
  return out
}

/** /api/chat: a message fragment. */
function mapMessage(message: JsonObject, out: Delta[]): void {
  out.push({ type: 'choice', choice: CHOICE, role: str(message['role']) })
  pushText(out, 'content', message['content'])
  pushText(out, 'reasoning', message['thinking'])
  for (const call of arr(message['tool_calls'])) mapToolCall(call, out)
}

/** /api/generate: `response` and `thinking` at the top level; there is no role. */
function mapGenerate(line: JsonObject, out: Delta[]): void {
  if (typeof line['response'] !== 'string' && typeof line['thinking'] !== 'string') return
  out.push({ type: 'choice', choice: CHOICE, role: null })
  pushText(out, 'content', line['response'])
  pushText(out, 'reasoning', line['thinking'])
}

function pushText(out: Delta[], channel: 'content' | 'reasoning', text: unknown): void {
  if (typeof text === 'string') out.push({ type: 'text', choice: CHOICE, channel, text })
}

/** Every element arrives whole and is a new call, even with the same name and arguments. */
function mapToolCall(call: unknown, out: Delta[]): void {
  if (!isObject(call)) return
  const fn = isObject(call['function']) ? call['function'] : {}
  out.push({
    type: 'tool-call', choice: CHOICE, key: null, whole: true,
    id: str(call['id']),
    callType: str(call['type']),
    name: str(fn['name']),
    // the arguments are an object on the wire; kept as its JSON text
    arguments: argumentsText(fn['arguments']),
  })
}

function mapDone(line: JsonObject, out: Delta[]): void {
  out.push({ type: 'finish', choice: CHOICE, reason: str(line['done_reason']) })
  const usage: JsonObject = {}
  for (const name of COUNTERS) {
    if (typeof line[name] === 'number') usage[name] = line[name]
  }
  if (Object.keys(usage).length > 0) out.push({ type: 'usage', usage })
  out.push({ type: 'done' })
}
