// Patch mode for user rules: frames carry JSON-patch operations on one document, and the
// rules' paths read that document after each frame.

import type { Delta } from '../core/types.js'

export class PatchedDocument {
  value: unknown = {}

  /** Applies one operation or an array of them; what cannot be applied is a warning note. */
  apply(operations: unknown): Delta[] {
    return [{ type: 'note', level: 'warning', message: `patch mode is not available yet ${typeof operations}` }]
  }
}
