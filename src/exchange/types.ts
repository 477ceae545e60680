// The shapes every export and import shares. The capture contract (CapturedRequest, Header,
// CaptureEvent) is the panel shell's: it is re-exported from here only, so the exchange
// module depends on panel/shell.ts in exactly one line.

import type { CapturedRequest } from '../../panel/shell.js'
import type { ProviderId, Reply, Transport } from '../core/types.js'

export type { CapturedRequest, CaptureEvent, Header } from '../../panel/shell.js'

/** One network chunk of a response body, as the capture layer saw it. */
export interface CapturedChunk {
  data: string | Uint8Array
  /** Arrival time, ms since epoch (as in CaptureEvent); null when unknown. */
  t: number | null
}

/** One captured request with its body, the input of every export. */
export interface ExportInput {
  request: CapturedRequest
  /** The body in arrival order; a body known only whole is one chunk with t = null. */
  chunks: readonly CapturedChunk[]
  /** The Reply to store as expected (what the panel showed); computed by replaying the chunks when absent. */
  expected?: Reply
  /** Provider / transport the user forced in the panel, if any: stored so replays use them too. */
  forced?: ForcedOptions
}

export interface ForcedOptions {
  provider?: ProviderId
  transport?: Transport
}

export interface ExportOptions {
  /** Keep Authorization, cookies, API keys and tokens as they are. Off by default. */
  includeCredentials?: boolean
  /** The export time to record (ISO 8601); now by default. */
  exportedAt?: string
}
