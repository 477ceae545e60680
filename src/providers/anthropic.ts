// Anthropic Messages streaming: message_start → (content_block_start → content_block_delta* →
// content_block_stop)* → message_delta+ → message_stop, with pings and a mid-stream `error`.
// Dispatch is on the JSON `type`, not the SSE event name: proxies drop the `event:` lines.
// There is one choice (0); tool calls are keyed by the content block index.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { errorDelta, excerpt, index, isObject, jsonText, quote, str, typeField, usageObject, type JsonObject } from './shared.js'

/** Event types no other wire format uses: one of them is enough to name the stream. */
const OWN_TYPES: ReadonlySet<string> = new Set([
  'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop',
  'message_delta', 'message_stop',
])

/** Blocks whose input streams as `input_json_delta` and that become tool calls in the reply. */
const TOOL_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use'])

export const anthropic: ProviderAdapter = {
  id: 'anthropic',
  urlPattern: /\/v1\/messages\b/,
  isKeepalive: (frame) => frame.event === 'ping' || typeField(frame.json) === 'ping',
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    const type = str(j['type'])
    if (type === null) return false
    if (OWN_TYPES.has(type)) return true
    // `ping` and `error` are generic words (Responses has an `error` event too): only claim
    // them when the SSE event name agrees and, for errors, Anthropic's nested shape is there
    // without Responses' `sequence_number`.
    if (type === 'ping') return frame.event === 'ping'
    if (type === 'error') {
      return frame.event === 'error' && !('sequence_number' in j) && isObject(j['error']) && str(j['error']['type']) !== null
    }
    return false
  },
  createMapper(): FrameMapper {
    const keptOut: KeptOut = new Set()
    return { map: (frame) => mapEvent(frame, keptOut) }
  },
}

/**
 * Indexes of the blocks kept out of the reply: claude.ai streams a tool_result's content as
 * input_json_delta at the result block's index, which is not a call's arguments.
 */
type KeptOut = Set<number>

function mapEvent(frame: ParsedFrame, keptOut: KeptOut): Delta[] {
  const j = frame.json
  if (!isObject(j)) return []
  const type = str(j['type'])
  switch (type) {
    case 'message_start': return mapMessageStart(j, keptOut)
    case 'content_block_start': return mapBlockStart(j, keptOut)
    case 'content_block_delta': return mapBlockDelta(j, keptOut)
    case 'message_delta': return mapMessageDelta(j)
    case 'message_stop': return [{ type: 'done' }]
    case 'content_block_stop':
    case 'ping':
    // claude.ai: the account's usage windows, not the reply
    case 'message_limit':
      return []
    case 'error': return mapError(j)
    default:
      // The API reserves the right to add event types; they must be ignored, visibly.
      return [{ type: 'note', level: 'info', message: `ignored Anthropic event type ${quote(type)}` }]
  }
}

function mapMessageStart(j: JsonObject, keptOut: KeptOut): Delta[] {
  const message = isObject(j['message']) ? j['message'] : {}
  const out: Delta[] = [{ type: 'choice', choice: 0, role: str(message['role']) }]
  // A resumed response (claude.ai) starts with the blocks it already has, and maybe its
  // stop_reason: they are part of the reply, each block at its position's index.
  const content = message['content']
  if (Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      for (const d of mapBlockStart({ index: i, content_block: content[i] }, keptOut)) out.push(d)
    }
  }
  const reason = str(message['stop_reason'])
  if (reason) out.push({ type: 'finish', choice: 0, reason })
  const usage = usageObject(message['usage'])
  if (usage) out.push({ type: 'usage', usage })
  return out
}

function mapBlockStart(j: JsonObject, keptOut: KeptOut): Delta[] {
  const block = j['content_block']
  if (!isObject(block)) return []
  const blockType = str(block['type'])
  const at = index(j['index'])
  if (at !== null) keptOut.delete(at)
  if (blockType === 'text') return initialText(block['text'], 'content')
  if (blockType === 'thinking') return initialText(block['thinking'], 'reasoning')
  if (blockType !== null && TOOL_BLOCKS.has(blockType)) return [toolStart(j, block, blockType)]
  // redacted_thinking (opaque), *_tool_result, container_upload…: whole blocks that are
  // neither text nor a call the client must run.
  if (at !== null) keptOut.add(at)
  return [{ type: 'note', level: 'info', message: `content block ${String(index(j['index']))}: ${blockType === null ? 'untyped' : excerpt(blockType, 60)} block kept out of the reply` }]
}

/** A start block may already carry text; usually it is "" (which appends nothing). */
function initialText(text: unknown, channel: 'content' | 'reasoning'): Delta[] {
  return typeof text === 'string' && text !== '' ? [{ type: 'text', choice: 0, channel, text }] : []
}

function toolStart(j: JsonObject, block: JsonObject, blockType: string): Delta {
  return {
    type: 'tool-call',
    choice: 0,
    key: index(j['index']),
    id: str(block['id']),
    name: str(block['name']),
    callType: blockType,
    // A tool with no parameters gets no input_json_delta at all; its input is this object.
    argumentsIfEmpty: jsonText(block['input'] ?? {}),
  }
}

function mapBlockDelta(j: JsonObject, keptOut: KeptOut): Delta[] {
  const delta = j['delta']
  if (!isObject(delta)) return []
  switch (delta['type']) {
    case 'text_delta': return textDelta(delta['text'], 'content')
    case 'thinking_delta': return textDelta(delta['thinking'], 'reasoning')
    case 'input_json_delta': {
      const fragment = str(delta['partial_json'])
      if (fragment === null) return []
      const at = index(j['index'])
      if (at !== null && keptOut.has(at)) return []
      return [{ type: 'tool-call', choice: 0, key: index(j['index']), arguments: fragment }]
    }
    // Signatures and citations are metadata of a block, not reply text. claude.ai adds
    // thinking_summary_delta (a headline of the thinking block, replaced by the next one, not
    // reasoning text) and tool_use_block_update_delta (a status line for the tool's card).
    case 'signature_delta':
    case 'citations_delta':
    case 'thinking_summary_delta':
    case 'tool_use_block_update_delta':
      return []
    default:
      return [{ type: 'note', level: 'info', message: `ignored content block delta type ${quote(delta['type'] ?? null)}` }]
  }
}

function textDelta(text: unknown, channel: 'content' | 'reasoning'): Delta[] {
  return typeof text === 'string' ? [{ type: 'text', choice: 0, channel, text }] : []
}

/** stop_reason and cumulative usage; the usage overwrites message_start's field by field. */
function mapMessageDelta(j: JsonObject): Delta[] {
  const out: Delta[] = []
  const delta = isObject(j['delta']) ? j['delta'] : {}
  const reason = str(delta['stop_reason'])
  if (reason) out.push({ type: 'finish', choice: 0, reason })
  const usage = usageObject(j['usage'])
  if (usage) out.push({ type: 'usage', usage })
  return out
}

function mapError(j: JsonObject): Delta[] {
  const error = errorDelta(j)
  return [error ?? { type: 'stream-error', message: 'error event without an error object', payload: j }]
}
