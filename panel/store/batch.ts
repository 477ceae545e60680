// Batches. Applying an event only marks the store changed; the scheduler (an animation frame
// in a browser) runs the batch, and `version` is bumped once then: a burst of a thousand
// chunks costs the components one render. A batch first merges a slice of any large body
// still queued (backlog.ts), and schedules the next batch while some is left, so the list and
// the reply repaint between slices.

import { signal } from '@preact/signals'

export class Batches {
  /** Bumped once per batch that changed something. */
  readonly version = signal(0)
  /**
   * Bumped by user actions whose effect must show at once, before the batch runs (force,
   * clear): the computeds that read the store's plain data read it too.
   */
  readonly actions = signal(0)
  disposed = false
  private dirty = false
  private scheduled = false

  /**
   * @param schedule runs a batch later (once per animation frame)
   * @param mergeSlices merges one batch's share of queued large bodies; true while some is left
   */
  constructor(
    private readonly schedule: (runBatch: () => void) => void,
    private readonly mergeSlices: () => boolean,
  ) {}

  /** Something changed: `version` is bumped when the batch runs (scheduled now if it was not). */
  changed(): void {
    this.dirty = true
    if (this.scheduled || this.disposed) return
    this.scheduled = true
    this.schedule(this.run)
  }

  /** Runs the pending batch (the scheduler calls it). */
  readonly run = (): void => {
    if (this.disposed) {
      this.scheduled = false
      return
    }
    // still marked scheduled while merging: what the merge changes belongs to this batch
    const more = this.mergeSlices()
    this.scheduled = more
    if (more) this.schedule(this.run)
    if (!this.dirty) return
    this.dirty = false
    this.version.value++
  }
}
