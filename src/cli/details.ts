// What the CLI shows beside the Reply: provider stream errors and diagnostics, read through
// the merger's cheap accessors (inspect() would also build every frame and provenance record).

import type { Merger } from '../library.js'
import type { Diagnostic, StreamError } from '../library.js'

export interface StreamDetails {
  streamErrors: StreamError[]
  diagnostics: Diagnostic[]
}

export function streamDetails(merger: Merger): StreamDetails {
  return { streamErrors: merger.streamErrors(), diagnostics: merger.diagnostics() }
}
