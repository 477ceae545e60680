// The registry of wire formats, and how a stream's provider is chosen.
// Adding a provider: one module exporting a ProviderAdapter, one line in ADAPTERS, fixtures.

import type { ParsedFrame, ProviderAdapter, ProviderId } from '../core/types.js'
import { aiSdk } from './ai-sdk.js'
import { anthropic } from './anthropic.js'
import { gemini } from './gemini.js'
import { generic } from './generic.js'
import { ollama } from './ollama.js'
import { openaiChat } from './openai-chat.js'
import { openaiResponses } from './openai-responses.js'

/** Most specific first: the first adapter that recognizes a frame wins. */
export const ADAPTERS: readonly ProviderAdapter[] = [
  anthropic,
  openaiResponses,
  gemini,
  ollama,
  aiSdk,
  openaiChat,
]

export function adapterFor(id: ProviderId): ProviderAdapter {
  return ADAPTERS.find((a) => a.id === id) ?? generic
}

export function recognize(frame: ParsedFrame): ProviderAdapter | null {
  return ADAPTERS.find((a) => a.recognizes(frame)) ?? null
}

/** A hint from the request URL, used only while no frame has told. */
export function providerFromUrl(url: string | undefined): ProviderId | null {
  if (!url) return null
  if (/\/v1\/messages\b/.test(url)) return 'anthropic'
  if (/\/responses\b/.test(url)) return 'openai-responses'
  if (/\/chat\/completions\b/.test(url)) return 'openai-chat'
  if (/:streamGenerateContent\b|generativelanguage\.googleapis|aiplatform\.googleapis/.test(url)) return 'gemini'
  if (/\/api\/(chat|generate)\b/.test(url)) return 'ollama'
  return null
}

/** A hint from the response's Content-Type: only Ollama sends NDJSON natively. */
export function providerFromContentType(contentType: string | undefined): ProviderId | null {
  return contentType && /ndjson/i.test(contentType) ? 'ollama' : null
}
