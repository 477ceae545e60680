// Wire text quoted in diagnostics: bounded excerpts, copied so that a message never keeps the
// text it quotes alive.

/** Where `have` (a text starting at character `at` of its field) and `want` first differ, with an excerpt of each. */
export function describeDifference(have: string, want: string, at: number): string {
  let i = 0
  while (i < have.length && i < want.length && have.charCodeAt(i) === want.charCodeAt(i)) i++
  return `first difference at character ${at + i}: deltas ${clip(have.slice(i))}, final ${clip(want.slice(i))}`
}

/** A wire string quoted, at most `max` characters of it (a fresh string: what it quotes is not retained). */
export function clip(s: string, max = 40): string {
  return JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s)
}

/**
 * A message of at most `max` characters (adapters' notes quote wire text), copied: a slice
 * alone would keep the whole text it was cut from alive.
 */
export function clipMessage(s: string, max = 500): string {
  return s.length > max ? (' ' + s.slice(0, max)).slice(1) + '…' : s
}
