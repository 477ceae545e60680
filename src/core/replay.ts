// The Reply as it stood right after any frame (the panel's slider): the frames up to it are
// read again, from the store, through a router of their own that keeps no provenance.

import { Router } from './router.js'
import type { Frame, FrameError, MergeOptions, ProviderId, Reply, Transport } from './types.js'
import type { ProviderRegistry } from './adapters.js'

export class Replay {
  private router: Router | null = null
  private provider: ProviderId = ''
  /** The next frame the router has not seen. */
  private next = 0

  constructor(private readonly registry: ProviderRegistry, private readonly options: MergeOptions) {}

  /**
   * The Reply after frame `last` (-1: before any), read with `provider` (the stream's, as
   * chosen so far) from `frame(seq)`; `errors` are the stream's parse errors.
   */
  at(last: number, provider: ProviderId, transport: Transport, frame: (seq: number) => Frame, errors: readonly FrameError[]): Reply {
    // a scrubber mostly moves forward: continue the last replay when it is not past `last`
    if (this.router === null || this.next > last + 1 || this.provider !== provider) {
      this.router = new Router(this.registry, { ...this.options, provider }, { provenance: false })
      this.provider = provider
      this.next = 0
    }
    const router = this.router
    for (; this.next <= last; this.next++) {
      const f = frame(this.next)
      if (f.kind === 'done') router.done(f.seq)
      else if (f.kind === 'data') router.frame({ seq: f.seq, event: f.event, json: f.json })
    }
    const state = router.accumulator.state()
    return {
      transport,
      provider: router.provider,
      done: state.done,
      frameCount: last + 1,
      choices: state.choices,
      messages: state.messages,
      usage: state.usage,
      errors: errors.filter((e) => e.frame <= last),
    }
  }
}
