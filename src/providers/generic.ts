// Frames that no adapter recognised: nothing is rebuilt, but provider error payloads are
// still shown as stream errors.

import type { ProviderAdapter } from '../core/types.js'
import { errorDelta } from './shared.js'

export const generic: ProviderAdapter = {
  id: 'generic',
  recognizes: () => false,
  createMapper: () => ({
    map(frame) {
      const error = errorDelta(frame.json)
      return error ? [error] : []
    },
  }),
}
