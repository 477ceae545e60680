// Frames → deltas → accumulator. Chooses the provider from the first frame an adapter
// recognises (holding earlier frames until then), so the accumulator never learns which
// provider it is serving. Adapters read hostile JSON: whatever one throws on a frame (or the
// accumulator on one of its deltas) becomes that frame's `frame-failed` diagnostic, and the
// next frame is read as if it had not happened (docs/architecture.md#limits).

import { Accumulator } from './accumulator.js'
import type { Delta, FrameMapper, MergeOptions, ParsedFrame, ProviderAdapter, ProviderChoice, ProviderId, ProviderReason, ProviderRegistry } from './types.js'

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

  /** What this stream may lack at its end without being cut (FrameMapper.terminalOptional); null when it may be a cut. */
  terminalOptional(): string | null {
    try {
      return this.mapper?.terminalOptional?.() ?? null
    } catch {
      return null // an adapter that fails here leaves the stream a possible cut, as it was
    }
  }

  get decided(): boolean {
    return this.adapter !== null
  }

  done(seq: number): void {
    this.accumulator.apply({ type: 'done' }, seq)
  }

  frame(frame: ParsedFrame): void {
    if (this.mapper === null) {
      const adapter = this.recognize(frame)
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
    let closing: Delta[] = []
    try {
      closing = this.mapper!.flush?.() ?? []
    } catch (e) {
      this.accumulator.frameFailed(lastSeq, `closing the ${this.adapter!.id} stream`, e, 'what was open stays as it was')
    }
    this.applyAll(closing, lastSeq)
    this.accumulator.endCalls()
  }

  private apply(frame: ParsedFrame): void {
    let deltas: Delta[]
    try {
      deltas = this.mapper!.map(frame)
    } catch (e) {
      this.accumulator.frameFailed(frame.seq, `reading it as ${this.adapter!.id}`, e)
      return
    }
    this.applyAll(deltas, frame.seq)
  }

  /** Each delta on its own: one that fails costs only itself. */
  private applyAll(deltas: readonly Delta[], seq: number): void {
    for (let i = 0; i < deltas.length; i++) {
      try {
        this.accumulator.apply(deltas[i]!, seq)
      } catch (e) {
        this.accumulator.frameFailed(seq, `applying its ${describeDelta(deltas[i])} delta`, e, 'that delta was skipped')
      }
    }
  }

  /** The adapter that claims this frame; one whose test throws does not claim it. */
  private recognize(frame: ParsedFrame): ProviderAdapter | null {
    try {
      return this.registry.recognize(frame)
    } catch (e) {
      this.accumulator.frameFailed(frame.seq, 'recognising its provider', e, 'the frame was read as unrecognised')
      return null
    }
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

function describeDelta(d: unknown): string {
  const type = typeof d === 'object' && d !== null ? (d as { type?: unknown }).type : undefined
  return typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : 'malformed'
}
