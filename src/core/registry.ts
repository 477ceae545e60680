// The providers the core may choose from are handed to it as a registry (the core imports no
// provider). Recognition order is the adapters' order: most specific first.

import type { ProviderId } from './types.js'
import type { ParsedFrame, ProviderAdapter, ProviderChoice, ProviderRegistry } from './adapters.js'

export function createProviderRegistry(adapters: readonly ProviderAdapter[], fallback: ProviderAdapter): ProviderRegistry {
  const byId = new Map<ProviderId, ProviderAdapter>()
  for (const a of [...adapters, fallback]) {
    if (byId.has(a.id)) throw new Error(`two adapters share the id ${JSON.stringify(a.id)}`)
    byId.set(a.id, a)
  }
  const recognizers = adapters.filter((a) => a !== fallback)
  const all = [...recognizers, fallback]
  return {
    ids: [...byId.keys()],
    fallback,
    adapter: (id) => byId.get(id) ?? fallback,
    recognize: (frame: ParsedFrame) => recognizers.find((a) => a.recognizes(frame)) ?? null,
    hint({ url, contentType }): ProviderChoice | null {
      const fromUrl = url ? adapters.find((a) => a.urlPattern?.test(url)) : undefined
      if (fromUrl) return { id: fromUrl.id, reason: 'url' }
      const fromType = contentType ? adapters.find((a) => a.contentTypePattern?.test(contentType)) : undefined
      if (fromType) return { id: fromType.id, reason: 'content-type' }
      return null
    },
    isJsonArrayStream: (url) => adapters.some((a) => a.jsonArrayStreamUrl?.test(url) === true),
    isKeepalive: (frame) => all.some((a) => a.isKeepalive?.(frame) === true),
  }
}
