// What counts as carrying something after the terminal marker (data-after-done): a delta that
// would change the reply. Markers, notes, openings and empty pieces do not.

import type { Delta, TextTruncateDelta } from './adapters.js'
import { nonEmpty } from './tool-calls.js'

/** Whether `delta` would change the reply; `cuts` says whether a truncation removes any text. */
export function carriesSomething(delta: Delta, cuts: (d: TextTruncateDelta) => boolean): boolean {
  switch (delta.type) {
    case 'done':
    case 'note':
    case 'choice':
    case 'message':
      return false
    case 'text':
      return delta.text.length > 0
    case 'finish':
      return nonEmpty(delta.reason)
    case 'text-truncate':
      return cuts(delta)
    default:
      return true
  }
}
