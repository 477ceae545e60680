// Frames that no adapter recognised: nothing is rebuilt, but provider error payloads are
// still shown as stream errors.

import type { ProviderAdapter } from '../core/types.js'
import { errorDelta, typeField } from './shared.js'

const KEEPALIVE: ReadonlySet<string> = new Set(['ping', 'keepalive', 'keep-alive', 'heartbeat'])

export const generic: ProviderAdapter = {
  id: 'generic',
  // keep-alive names servers and proxies use whatever the provider
  isKeepalive: (frame) => KEEPALIVE.has(frame.event ?? '') || KEEPALIVE.has(typeField(frame.json) ?? ''),
  recognizes: () => false,
  createMapper: () => ({
    map(frame) {
      const error = errorDelta(frame.json)
      return error ? [error] : []
    },
  }),
}
