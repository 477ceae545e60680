// The provider of a stream (an HTTP body's, a WebSocket connection's): forced, else the first
// frame an adapter recognises, earlier frames held until then; past MAX_PENDING unrecognised
// frames, or at the end, a URL or Content-Type hint, else the registry's fallback. One rule for
// the Router and the Connection: what each does with the frames held and with an adapter
// that throws is theirs (the callbacks).

import type { ProviderAdapter, ProviderChoice, ProviderReason, ProviderRegistry } from './adapters.js'

/** How many unrecognised frames are held before falling back to a hint. */
export const MAX_PENDING = 256

export interface ChooserHooks<F> {
  /** The adapter that claims `frame`, or null; the caller says what a throwing test means. */
  recognize(frame: F): ProviderAdapter | null
  /** The provider is chosen: `held` are the frames held until now, in order, to be routed. */
  decided(adapter: ProviderAdapter, reason: ProviderReason, held: F[]): void
}

export class ProviderChooser<F> {
  adapter: ProviderAdapter | null = null
  reason: ProviderReason = 'default'
  private pending: F[] = []

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly hints: Parameters<ProviderRegistry['hint']>[0],
    private readonly hooks: ChooserHooks<F>,
  ) {}

  get decided(): boolean {
    return this.adapter !== null
  }

  get held(): number {
    return this.pending.length
  }

  /**
   * A frame while undecided: true when it decided the provider (the caller routes the frame
   * itself, after the held ones); false when it is held (and routed by `decided` if holding
   * it went past MAX_PENDING).
   */
  offer(frame: F): boolean {
    const adapter = this.hooks.recognize(frame)
    if (adapter === null) {
      this.pending.push(frame)
      if (this.pending.length > MAX_PENDING) this.decideFallback()
      return false
    }
    this.decide(adapter, 'frames')
    return true
  }

  decide(adapter: ProviderAdapter, reason: ProviderReason): void {
    this.adapter = adapter
    this.reason = reason
    const held = this.pending
    this.pending = []
    this.hooks.decided(adapter, reason, held)
  }

  /** The provider and how it was chosen; while undecided, what the end of the stream would choose. */
  choice(): ProviderChoice {
    return this.adapter !== null ? { id: this.adapter.id, reason: this.reason } : this.fallback()
  }

  /** The hint, else the registry's fallback. */
  fallback(): ProviderChoice {
    return this.registry.hint(this.hints) ?? { id: this.registry.fallback.id, reason: 'default' }
  }

  decideFallback(): void {
    const { id, reason } = this.fallback()
    this.decide(this.registry.adapter(id), reason)
  }
}
