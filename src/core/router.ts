// Frames → deltas → accumulator. Chooses the provider from the first frame an adapter
// recognises (holding earlier frames until then), so the accumulator never learns which
// provider it is serving.

import { adapterFor, providerFromContentType, providerFromUrl, recognize } from '../providers/index.js'
import { Accumulator } from './accumulator.js'
import type { FrameMapper, Inspection, MergeOptions, ParsedFrame, ProviderAdapter, ProviderId } from './types.js'

/** How many unrecognised frames are held before falling back to a hint. */
const MAX_PENDING = 256

export class Router {
  readonly accumulator: Accumulator
  private adapter: ProviderAdapter | null = null
  private mapper: FrameMapper | null = null
  private pending: ParsedFrame[] = []
  reason: Inspection['providerReason'] = 'default'

  /** `provenance: false` when only the Reply will be read (see Accumulator). */
  constructor(private readonly options: MergeOptions, accumulator: { provenance?: boolean } = {}) {
    this.accumulator = new Accumulator(accumulator)
    if (options.provider) this.decide(adapterFor(options.provider), 'forced')
  }

  get provider(): ProviderId {
    return this.adapter?.id ?? this.fallback().id
  }

  get decided(): boolean {
    return this.adapter !== null
  }

  done(seq: number): void {
    this.accumulator.apply({ type: 'done' }, seq)
  }

  frame(frame: ParsedFrame): void {
    if (this.mapper === null) {
      const adapter = recognize(frame)
      if (adapter === null) {
        this.pending.push(frame)
        if (this.pending.length > MAX_PENDING) this.decideFallback()
        return
      }
      this.decide(adapter, 'frames')
    }
    this.apply(frame)
  }

  /** The body ended: decide if still undecided, then let the mapper close what is open. */
  end(lastSeq: number): void {
    if (this.mapper === null) this.decideFallback()
    const closing = this.mapper!.flush?.() ?? []
    for (const d of closing) this.accumulator.apply(d, lastSeq)
  }

  private apply(frame: ParsedFrame): void {
    for (const d of this.mapper!.map(frame)) this.accumulator.apply(d, frame.seq)
  }

  private decide(adapter: ProviderAdapter, reason: Inspection['providerReason']): void {
    this.adapter = adapter
    this.mapper = adapter.createMapper()
    this.reason = reason
    const held = this.pending
    this.pending = []
    for (const f of held) this.apply(f)
  }

  private fallback(): { id: ProviderId; reason: Inspection['providerReason'] } {
    const fromUrl = providerFromUrl(this.options.url)
    if (fromUrl) return { id: fromUrl, reason: 'url' }
    const fromType = providerFromContentType(this.options.contentType)
    if (fromType) return { id: fromType, reason: 'content-type' }
    return { id: 'generic', reason: 'default' }
  }

  private decideFallback(): void {
    const { id, reason } = this.fallback()
    this.decide(adapterFor(id), reason)
  }
}
