// The panel's memory budget (issue 15, "bounded panel memory"): one figure per tab (default
// 512 MB, set in the panel) for everything the requests hold: their bodies (kept once, by the
// merger) and what is derived from them (the frame table, errors and diagnostics, the reply).
//   - past the budget, the oldest finished requests that are not pinned (nor selected) are
//     released, oldest first, until the rest fits, and a note says which;
//   - a request that alone would go over it stops growing: the rest of its body is not kept
//     (it is shown cut, with a note), and what it kept stays merged and exportable.
// What derived structures cost is estimated from counts the store has at hand (frames,
// broken frames, stream errors), by constants measured in Chromium (bench:ui d): the rules
// here are plain arithmetic, so they are tested with exact numbers.

export const MB = 1024 * 1024
export const DEFAULT_MEMORY_BUDGET = 512 * MB
/** The budgets the panel offers (its menu); any positive figure is accepted by the store. */
export const MEMORY_BUDGETS = [128 * MB, 256 * MB, 512 * MB, 1024 * MB, 2048 * MB] as const

/** What one frame costs beyond its bytes: its row in the frame table, its offsets and times. */
export const FRAME_COST = 64
/** What a broken frame or a stream error costs: its error value, its diagnostic and message. */
export const PROBLEM_COST = 1024

/** What the budget counts for one request. */
export interface Holding {
  id: string
  /** Body bytes kept. */
  bytes: number
  frames: number
  /** Broken frames and stream errors. */
  problems: number
  /** Finished or cancelled, nothing left to merge: it may be released. */
  ended: boolean
  /** Pinned by the user, or selected: never released. */
  pinned: boolean
}

/** The bytes the budget counts for one request: its body and an estimate of what is derived from it. */
export function costOf(h: Pick<Holding, 'bytes' | 'frames' | 'problems'>): number {
  return h.bytes + h.frames * FRAME_COST + h.problems * PROBLEM_COST
}

/**
 * Which requests to release so that the rest fits `budget`: the oldest ended, unpinned ones
 * (in arrival order, `holdings` oldest first), as few as needed. When releasing every one
 * that may go is not enough, those are released all the same (the rest is live or pinned).
 */
export function toRelease(holdings: readonly Holding[], budget: number): string[] {
  let total = holdings.reduce((n, h) => n + costOf(h), 0)
  const out: string[] = []
  for (const h of holdings) {
    if (total <= budget) break
    if (!h.ended || h.pinned) continue
    out.push(h.id)
    total -= costOf(h)
  }
  return out
}

/**
 * Whether a request may keep `size` more bytes: its cost with them stays within the budget.
 * A request alone over the budget stops growing (the other requests are released first,
 * by toRelease, when they are what fills it).
 */
export function mayGrow(h: Pick<Holding, 'bytes' | 'frames' | 'problems'>, size: number, budget: number): boolean {
  return costOf(h) + size <= budget
}

/** The note that says what was released. */
export function releasedNote(paths: readonly string[], budget: number): string {
  const names = paths.length <= 3 ? paths.join(', ') : `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`
  return `Memory budget (${formatBudget(budget)}): released ${paths.length} older finished request${paths.length === 1 ? '' : 's'} (${names}) to make room; pin a request to keep it, or raise the budget`
}

export function formatBudget(budget: number): string {
  return budget >= 1024 * MB && budget % (1024 * MB) === 0 ? `${budget / (1024 * MB)} GB` : `${Math.round(budget / MB)} MB`
}
