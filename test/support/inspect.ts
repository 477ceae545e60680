// Everything a merger can tell beside its Reply, in one object, read through its public
// accessors only (the merger itself has no inspect(): each face reads what it needs).

import type { Diagnostic, Frame, FrameEntry, Merger, Provenance, ProviderId, ProviderReason, Reply, StreamError, Transport } from '../../src/index.js'

export interface Inspection {
  reply: Reply
  transport: Transport
  provider: ProviderId
  /** How the provider was chosen. */
  providerReason: ProviderReason
  frames: Frame[]
  entries: FrameEntry[]
  streamErrors: StreamError[]
  diagnostics: Diagnostic[]
  provenance: Provenance[]
}

export function inspectMerger(m: Merger): Inspection {
  const reply = m.snapshot()
  return {
    reply,
    transport: reply.transport,
    provider: reply.provider,
    providerReason: m.providerChoice().reason,
    frames: m.frames(),
    entries: m.entries(),
    streamErrors: m.streamErrors(),
    diagnostics: m.diagnostics(),
    provenance: m.provenance(),
  }
}
