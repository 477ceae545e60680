// Work a request's cache defers (a throttled snapshot, a provenance rebuild, frames classified
// or searched in slices, the debugger's reading of a long body): at most one run waiting per
// cache, since asking again while one waits changes nothing but would stack timers; cancelled
// by the cache's forget() (the model dropped or restarted); and skipped when the model is no
// longer the store's, since a timer may fire after a clear that did not reach it.

import type { ModelState, StoreEnv } from './types.js'

export class DeferredRun {
  private cancel: (() => void) | null = null

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {}

  /** A run is waiting. */
  get waiting(): boolean {
    return this.cancel !== null
  }

  /** Runs `work` after `ms` (by the store's clock), unless a run is waiting already. */
  schedule(work: () => void, ms: number): void {
    if (this.cancel) return
    this.cancel = this.env.defer(() => {
      this.cancel = null
      if (this.env.holds(this.model)) work()
    }, ms)
  }

  /** Cancels the run waiting, if any. */
  forget(): void {
    this.cancel?.()
    this.cancel = null
  }
}
