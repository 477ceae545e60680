// Frames → deltas → accumulator. Chooses the provider from the first frame an adapter
// recognises (holding earlier frames until then), so the accumulator never learns which
// provider it is serving. Adapters read hostile JSON: whatever one throws on a frame (or the
// accumulator on one of its deltas) becomes that frame's `frame-failed` diagnostic, and the
// next frame is read as if it had not happened (docs/architecture.md#limits).

import { Accumulator } from './accumulator.js'
import { ProviderChooser } from './provider-chooser.js'
import type { MergeOptions, ProviderId } from './types.js'
import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter, ProviderChoice, ProviderReason, ProviderRegistry } from './adapters.js'

export class Router {
  readonly accumulator: Accumulator
  private mapper: FrameMapper | null = null
  private readonly chooser: ProviderChooser<ParsedFrame>

  /** `provenance: false` when only the Reply will be read (see Accumulator). */
  constructor(
    private readonly registry: ProviderRegistry,
    options: MergeOptions,
    accumulator: { provenance?: boolean } = {},
  ) {
    this.accumulator = new Accumulator(accumulator)
    this.chooser = new ProviderChooser(registry, { url: options.url, contentType: options.contentType }, {
      recognize: (frame) => this.recognize(frame),
      decided: (adapter, _reason, held) => {
        this.mapper = adapter.createMapper()
        for (const f of held) this.apply(f)
      },
    })
    if (options.provider) this.chooser.decide(registry.adapter(options.provider), 'forced')
  }

  private get adapter(): ProviderAdapter | null {
    return this.chooser.adapter
  }

  get reason(): ProviderReason {
    return this.chooser.reason
  }

  get provider(): ProviderId {
    return this.adapter?.id ?? this.chooser.fallback().id
  }

  /** The provider and how it was chosen; while undecided, what the end of the body would choose. */
  get choice(): ProviderChoice {
    return this.chooser.choice()
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
    if (this.mapper === null && !this.chooser.offer(frame)) return
    this.apply(frame)
  }

  /** The body ended: decide if still undecided, then let the mapper close what is open. */
  end(lastSeq: number): void {
    if (this.mapper === null) this.chooser.decideFallback()
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

}

function describeDelta(d: unknown): string {
  const type = typeof d === 'object' && d !== null ? (d as { type?: unknown }).type : undefined
  return typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : 'malformed'
}
