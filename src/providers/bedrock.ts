// Amazon Bedrock ConverseStream (`POST /model/{id}/converse-stream`): an AWS event stream,
// binary (the core reads it: src/core/eventstream.ts); each message's `:event-type` header is
// the frame's event and its payload the frame's JSON. One choice (0), the assistant's.
//
// messageStart{role} → (contentBlockStart{start:{toolUse}}? → contentBlockDelta* →
// contentBlockStop)* → messageStop{stopReason} → metadata{usage, metrics}.
//
// - contentBlockDelta `delta.text` is content, `delta.reasoningContent.text` reasoning;
//   `reasoningContent.signature` and `redactedContent` (opaque, base64) are not reasoning text.
//   A text block has no start event: its first delta opens it.
// - Tool calls are keyed by `contentBlockIndex`: contentBlockStart's `toolUse` brings the id
//   (`toolUseId`) and name, `delta.toolUse.input` the argument fragments.
// - `messageStop.stopReason` (end_turn, tool_use, max_tokens, stop_sequence,
//   guardrail_intervened, content_filtered) is the finish reason, as the wire says it.
// - `metadata` is the last event: its `usage` (inputTokens, outputTokens, totalTokens, cache
//   fields) is the usage, and it is the terminal marker (a stream without it was cut).
// - An `exception` message (frame event `exception:<type>`: throttlingException,
//   modelStreamErrorException, validationException…) carries `{message}`: a stream error.
//   An `error` message (`error:<code>`) likewise.
// - Every payload carries a random padding field `p` (against traffic analysis): ignored.
// - The same events re-sent by a proxy as SSE (`event: contentBlockDelta`) or as JSON lines in
//   the SDK's union shape (`{"contentBlockDelta": {...}}`) are read the same way.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { index, isObject, quote, str, usageObject, type JsonObject } from './shared.js'

const CHOICE = 0

const EVENTS: ReadonlySet<string> = new Set(['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata'])

/** The event and its body: from the frame's event name, or from the SDK's union shape. */
function eventOf(frame: Pick<ParsedFrame, 'event' | 'json'>): { name: string; body: JsonObject } | null {
  const j = frame.json
  if (!isObject(j)) return null
  const e = frame.event
  if (e !== null) {
    if (EVENTS.has(e) || e.startsWith('exception:') || e.startsWith('error:')) return { name: e, body: j }
    return null
  }
  const keys = Object.keys(j)
  if (keys.length === 1 && EVENTS.has(keys[0]!) && isObject(j[keys[0]!])) return { name: keys[0]!, body: j[keys[0]!] as JsonObject }
  return null
}

/** Each event's own field, checked so that another provider's frame never reads as Bedrock's. */
function ownShape(name: string, b: JsonObject): boolean {
  switch (name) {
    case 'messageStart': return typeof b['role'] === 'string'
    case 'contentBlockStart': return isObject(b['start']) && index(b['contentBlockIndex']) !== null
    case 'contentBlockDelta': return isObject(b['delta']) && index(b['contentBlockIndex']) !== null
    case 'contentBlockStop': return index(b['contentBlockIndex']) !== null
    case 'messageStop': return typeof b['stopReason'] === 'string'
    case 'metadata': return isObject(b['usage']) || isObject(b['metrics'])
    default: return typeof b['message'] === 'string' || name.startsWith('error:') // exception:* / error:*
  }
}

export const bedrock: ProviderAdapter = {
  id: 'bedrock',
  urlPattern: /bedrock-runtime\.[a-z0-9-]+\.amazonaws\.com\/model\/[^/]+\/converse-stream/,
  recognizes(frame) {
    const ev = eventOf(frame)
    return ev !== null && ownShape(ev.name, ev.body)
  },
  createMapper: createBedrockMapper,
}

function createBedrockMapper(): FrameMapper {
  let redactedNoted = false
  let started = false
  return {
    map(frame) {
      const ev = eventOf(frame)
      if (ev === null) return [{ type: 'note', level: 'warning', message: `not a ConverseStream event: ${quote(frame.event ?? frame.json)}` }]
      const { name, body: b } = ev
      const out: Delta[] = []
      // a stream that a proxy cut before its messageStart still has its one choice
      if (!started && (name === 'contentBlockStart' || name === 'contentBlockDelta')) out.push({ type: 'choice', choice: CHOICE })
      if (name === 'messageStart' || name === 'contentBlockStart' || name === 'contentBlockDelta') started = true
      switch (name) {
        case 'messageStart':
          out.push({ type: 'choice', choice: CHOICE, role: str(b['role']) })
          break
        case 'contentBlockStart': {
          const start = isObject(b['start']) ? b['start'] : {}
          const key = index(b['contentBlockIndex'])
          if (isObject(start['toolUse'])) {
            const t = start['toolUse']
            out.push({ type: 'tool-call', choice: CHOICE, key, id: str(t['toolUseId']), name: str(t['name']) })
          }
          break
        }
        case 'contentBlockDelta': {
          const d = isObject(b['delta']) ? b['delta'] : {}
          const key = index(b['contentBlockIndex'])
          if (typeof d['text'] === 'string') out.push({ type: 'text', choice: CHOICE, channel: 'content', text: d['text'] })
          if (isObject(d['toolUse'])) {
            const input = d['toolUse']['input']
            out.push({ type: 'tool-call', choice: CHOICE, key, arguments: typeof input === 'string' ? input : null })
          }
          if (isObject(d['reasoningContent'])) {
            const r = d['reasoningContent']
            if (typeof r['text'] === 'string') out.push({ type: 'text', choice: CHOICE, channel: 'reasoning', text: r['text'] })
            if (typeof r['redactedContent'] === 'string' && !redactedNoted) {
              redactedNoted = true
              out.push({ type: 'note', level: 'info', message: 'redacted reasoning (reasoningContent.redactedContent, opaque) is not reasoning text: kept out of the reply' })
            }
          }
          const other = Object.keys(d).filter((k) => k !== 'text' && k !== 'toolUse' && k !== 'reasoningContent')
          if (other.length > 0) out.push({ type: 'note', level: 'info', message: `contentBlockDelta ${quote(other.join(', '))} is not reply text: kept out` })
          break
        }
        case 'contentBlockStop':
          break
        case 'messageStop':
          out.push({ type: 'finish', choice: CHOICE, reason: str(b['stopReason']) })
          break
        case 'metadata': {
          const usage = usageObject(b['usage'])
          if (usage !== null) out.push({ type: 'usage', usage })
          out.push({ type: 'done' })
          break
        }
        default: {
          // exception:<type> / error:<code>
          const colon = name.indexOf(':')
          const kind = name.slice(colon + 1)
          const message = str(b['message']) ?? str(b['errorMessage']) ?? `${name.slice(0, colon)} ${kind}`
          const exception = name.startsWith('exception:')
          out.push({ type: 'stream-error', message, code: exception || kind === '' ? null : kind, errorType: exception ? kind || null : 'error', payload: b })
        }
      }
      return out
    },
  }
}
