// Frames → deltas → accumulator. Chooses the provider from the first frame an adapter
// recognises (holding earlier frames until then), so the accumulator never learns which
// provider it is serving.

import { Accumulator } from './accumulator.js'
import type { FrameMapper, MergeOptions, ParsedFrame, ProviderAdapter, ProviderChoice, ProviderId, ProviderReason, ProviderRegistry } from './types.js'

/** How many unrecognised frames are held before falling back to a hint. */
const MAX_PENDING = 256

export class Router {
  readonly accumulator: Accumulator
  private adapter: ProviderAdapter | null = null
  private mapper: FrameMapper | null = null
  private pending: ParsedFrame[] = []
  reason: ProviderReason = 'default'

  /** `provenance: false` when only the Reply will be read (see Accumulator). */
  constructor(
    private readonly registry: ProviderRegistry,
    private readonly options: MergeOptions,
    accumulator: { provenance?: boolean } = {},
  ) {
    this.accumulator = new Accumulator(accumulator)
    if (options.provider) this.decide(registry.adapter(options.provider), 'forced')
  }

  get provider(): ProviderId {
    return this.adapter?.id ?? this.fallback().id
  }

  /** The provider and how it was chosen; while undecided, what the end of the body would choose. */
  get choice(): ProviderChoice {
    return this.adapter !== null ? { id: this.adapter.id, reason: this.reason } : this.fallback()
  }

  get decided(): boolean {
    return this.adapter !== null
  }

  done(seq: number): void {
    this.accumulator.apply({ type: 'done' }, seq)
  }

  frame(frame: ParsedFrame): void {
    if (this.mapper === null) {
      const adapter = this.registry.recognize(frame)
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

  private decide(adapter: ProviderAdapter, reason: ProviderReason): void {
    this.adapter = adapter
    this.mapper = adapter.createMapper()
    this.reason = reason
    const held = this.pending
    this.pending = []
    for (const f of held) this.apply(f)
  }

  private fallback(): ProviderChoice {
    const hint = this.registry.hint({ url: this.options.url, contentType: this.options.contentType })
    return hint ?? { id: this.registry.fallback.id, reason: 'default' }
  }

  private decideFallback(): void {
    const { id, reason } = this.fallback()
    this.decide(this.registry.adapter(id), reason)
  }
}
