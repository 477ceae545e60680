// A list sent again after a change, as what changed: most of the store's lists (the request
// rows, a stream's diagnostics and errors) only grow, or change an entry or two, between two
// updates, and cloning 100,000 diagnostics per update would cost more than the update.
// Entries are compared by identity: the store keeps an entry's object while it is unchanged.

export type ListPatch<T> =
  /** The list whole. */
  | { whole: T[] }
  /** The previous list up to `keep`, then `add`. */
  | { keep: number; add: T[] }
  /** The previous list with the entries at these indexes replaced (same length). */
  | { set: Array<[number, T]> }

/** What changed from `prev` (the list last sent; null: none) to `next`. */
export function diffList<T>(prev: readonly T[] | null, next: readonly T[]): ListPatch<T> | null {
  if (prev === next) return null
  if (prev === null || prev.length === 0) return { whole: next.slice() }
  if (next.length >= prev.length) {
    // grown at the end (its first and last old entries where they were: the usual case)
    if (next[0] === prev[0] && next[prev.length - 1] === prev[prev.length - 1]) {
      let same = true
      for (let i = 0; i < prev.length && same; i++) same = next[i] === prev[i]
      if (same) return next.length === prev.length ? null : { keep: prev.length, add: next.slice(prev.length) }
    }
  }
  if (next.length === prev.length) {
    const set: Array<[number, T]> = []
    for (let i = 0; i < next.length; i++) if (next[i] !== prev[i]) set.push([i, next[i]!])
    if (set.length === 0) return null
    // the changed entries only, unless every one changed: the receiver keeps the others' objects (a list's rows re-render only where they changed)
    if (set.length < next.length) return { set }
  }
  // entries inserted before the last ones (10,000 imported requests listed before a later one): what follows the common start
  let keep = 0
  const common = Math.min(prev.length, next.length)
  while (keep < common && prev[keep] === next[keep]) keep++
  if (keep > 0) return { keep, add: next.slice(keep) }
  return { whole: next.slice() }
}

/** The list after `patch`, from the one before it. */
export function applyList<T>(prev: readonly T[], patch: ListPatch<T>): T[] {
  if ('whole' in patch) return patch.whole
  if ('keep' in patch) return patch.add.length === 0 && patch.keep === prev.length ? (prev as T[]) : [...prev.slice(0, patch.keep), ...patch.add]
  const next = prev.slice()
  for (const [i, v] of patch.set) next[i] = v
  return next
}

/**
 * At most `max` entries of `next` sent at once: a list that grew or changed by thousands (a
 * 10,000-entry HAR) reaches the receiver in parts, each a bounded task on its thread. `now` is
 * the list the receiver holds after `patch` (the next diff starts from it); `more`, whether
 * entries are still to come.
 */
export function diffListCapped<T>(prev: readonly T[] | null, next: readonly T[], max: number): { patch: ListPatch<T> | null; now: readonly T[]; more: boolean } {
  const patch = diffList(prev, next)
  if (patch === null) return { patch, now: next, more: false }
  if ('whole' in patch && patch.whole.length > max) {
    const part = patch.whole.slice(0, max)
    return { patch: { whole: part }, now: part, more: true }
  }
  if ('keep' in patch && patch.add.length > max) {
    const capped = { keep: patch.keep, add: patch.add.slice(0, max) }
    return { patch: capped, now: applyList(prev ?? [], capped), more: true }
  }
  if ('set' in patch && patch.set.length > max) {
    const capped = { set: patch.set.slice(0, max) }
    return { patch: capped, now: applyList(prev ?? [], capped), more: true }
  }
  return { patch, now: next, more: false }
}
