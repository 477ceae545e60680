// Time in the store: the clock and timers (injectable, so tests drive them), and the one rule
// for work whose cost grows with the stream (a reply snapshot, the provenance index). Such
// work is measured each time it runs; while the stream grows it runs again at most every
// `ratio` times what it cost, so it takes at most 1/ratio of the time whatever the stream's
// size, and the result before stays on screen meanwhile. Work cheap enough just runs.

/** The clock (ms) and a timer the store's parts share. */
export interface Clock {
  now(): number
  /** Runs `work` after `ms`; returns a canceller. */
  defer(work: () => void, ms: number): () => void
}

/** One batch per animation frame in a browser; every 16 ms elsewhere. */
export function defaultSchedule(runBatch: () => void): void {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number }
  if (typeof g.requestAnimationFrame === 'function') g.requestAnimationFrame(runBatch)
  else setTimeout(runBatch, 16)
}

export function defaultDefer(work: () => void, ms: number): () => void {
  const timer = setTimeout(work, ms)
  return () => clearTimeout(timer)
}

/**
 * Resolves in a task of its own, at once: `setImmediate` where there is one (Node: the tests),
 * else a message to itself. `setTimeout(0)` is held back at least 4 ms once timers nest five
 * deep (HTML's timer clamping), and a body read in 16 ms turns nests them all the way: a
 * quarter of the time went idle. (Node delivers up to a thousand port messages in one turn of
 * its loop, so a message to itself would not let other work in there.)
 */
export function nextTask(): Promise<void> {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown; MessageChannel?: typeof MessageChannel }
  if (typeof g.setImmediate === 'function') return new Promise((resolve) => { g.setImmediate!(resolve) })
  if (typeof g.MessageChannel !== 'function') return new Promise((resolve) => { setTimeout(resolve, 0) })
  yielder ??= makeYielder(g.MessageChannel)
  return new Promise((resolve) => yielder!(resolve))
}

let yielder: ((resolve: () => void) => void) | null = null

function makeYielder(Channel: typeof MessageChannel): (resolve: () => void) => void {
  const channel = new Channel()
  const waiting: Array<() => void> = []
  channel.port1.onmessage = () => waiting.shift()?.()
  return (resolve) => {
    waiting.push(resolve)
    channel.port2.postMessage(null)
  }
}

export const defaultNow = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now())

/** Runs `work`, and says what it cost (ms) and when it ended, by `now`. */
export function timed<T>(now: () => number, work: () => T): { value: T; spent: number; at: number } {
  const started = now()
  const value = work()
  const at = now()
  return { value, spent: at - started, at }
}

/**
 * How long (ms) work that costs `cost` and last ended at `lastAt` must wait before it runs
 * again: it runs at most every max(floor, ratio × cost) ms. Zero or less: it may run now.
 */
export function waitToRerun(now: number, lastAt: number, cost: number, ratio: number, floor = 0): number {
  return Math.max(floor, cost * ratio) - (now - lastAt)
}
