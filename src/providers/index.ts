// The wire formats Deltascope reads: the one list of providers, and the registry the library
// hands to the core. Adding a format: its adapter module, its fixtures, and one line below.

import { createProviderRegistry } from '../core/registry.js'
import type { ProviderAdapter, ProviderRegistry } from '../core/adapters.js'
import { agUi } from './ag-ui.js'
import { aiSdk } from './ai-sdk.js'
import { aiSdkV4 } from './ai-sdk-v4.js'
import { anthropic } from './anthropic.js'
import { chatglm } from './chatglm.js'
import { chatgptWeb } from './chatgpt-web.js'
import { deepseek } from './deepseek.js'
import { doubao } from './doubao.js'
import { bedrock } from './bedrock.js'
import { cohere } from './cohere.js'
import { gemini } from './gemini.js'
import { geminiLive } from './gemini-live.js'
import { generic } from './generic.js'
import { kimi } from './kimi.js'
import { langgraph } from './langgraph.js'
import { librechat } from './librechat.js'
import { lobechat } from './lobechat.js'
import { ollama } from './ollama.js'
import { openaiChat } from './openai-chat.js'
import { openaiRealtime } from './openai-realtime.js'
import { openaiResponses } from './openai-responses.js'
import { qwen } from './qwen.js'
import { yuanbao } from './yuanbao.js'
import { socketioChat } from './socketio-chat.js'

/**
 * Every adapter by its id, most specific first: the first adapter that recognises a frame
 * wins. `generic`, last, recognises nothing: it is the fallback.
 */
const ADAPTERS = {
  'ai-sdk-v4': aiSdkV4, // its frames' event is a data-stream code (0, g, 9…): no other format's
  bedrock, // its frames' event is a ConverseStream event name (messageStart…) or exception:*
  lobechat, // before the provider formats: its `event: data` frames carry their raw objects
  langgraph, // its own event names (`messages`, `messages/partial`…); its messages may carry Anthropic content blocks
  librechat, // `event: message` frames told apart by their keys (final, created, event: on_*, sync, message, type+messageId)
  deepseek, // before chatgpt-web: its path operations ({p: "response/…", o: "APPEND"}) would read as ChatGPT's
  'chatgpt-web': chatgptWeb, // event names (delta_encoding, delta) and frame types no other format sends
  chatglm, // {conversation_id, status, parts: [...]}: the whole reply each frame
  doubao, // its own SSE event names (STREAM_CHUNK, CHUNK_DELTA, SSE_REPLY_END…)
  kimi, // Connect operations ({op, mask, block|message|chat}) and the older {"event": "cmpl"…} frames
  yuanbao, // {"type": "text", "msg"}, searchGuid, think with its title: type names with fields no other format pairs
  'socketio-chat': socketioChat, // WebSocket: the Socket.IO event `chat-events` (Open WebUI), no other format's
  anthropic,
  'openai-realtime': openaiRealtime, // WebSocket: Realtime events carry an event_id, which Responses' SSE events never do
  'openai-responses': openaiResponses,
  'gemini-live': geminiLive, // WebSocket: serverContent / toolCall / setupComplete, never in a generateContent chunk
  gemini,
  ollama,
  'ai-sdk': aiSdk,
  cohere,
  'ag-ui': agUi,
  qwen, // before openai-chat: its chunks are OpenAI-like, told apart by the delta's phase
  'openai-chat': openaiChat,
  generic,
} as const satisfies Record<string, ProviderAdapter>

/** A provider the default registry knows. */
export type KnownProviderId = keyof typeof ADAPTERS

/** The one list of known providers: menus, validators and the CLI derive from it. */
export const PROVIDER_IDS = Object.keys(ADAPTERS) as readonly KnownProviderId[]

export function isKnownProviderId(v: unknown): v is KnownProviderId {
  return typeof v === 'string' && Object.hasOwn(ADAPTERS, v)
}

/** The registry the library, the CLI, the panel and the page hand to the core. */
export const defaultRegistry: ProviderRegistry = createProviderRegistry(
  Object.values(ADAPTERS).filter((a) => a !== generic),
  generic,
)
