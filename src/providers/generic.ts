// Frames that no adapter recognised: nothing is rebuilt, but provider error payloads are
// still shown as stream errors, and a Connect stream's end-of-stream envelope still ends it
// (the framing, not the service, says so: src/core/connect.ts).

import type { Delta, ProviderAdapter } from '../core/adapters.js'
import { CONNECT_END_STREAM, errorDelta, typeField } from './shared.js'

const KEEPALIVE: ReadonlySet<string> = new Set(['ping', 'keepalive', 'keep-alive', 'heartbeat'])

export const generic: ProviderAdapter = {
  id: 'generic',
  // keep-alive names servers and proxies use whatever the provider
  isKeepalive: (frame) => KEEPALIVE.has(frame.event ?? '') || KEEPALIVE.has(typeField(frame.json) ?? ''),
  recognizes: () => false,
  createMapper: () => ({
    map(frame) {
      const error = errorDelta(frame.json)
      const out: Delta[] = error ? [error] : []
      if (frame.event === CONNECT_END_STREAM) out.push({ type: 'done' })
      return out
    },
  }),
}
