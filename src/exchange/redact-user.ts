// The user's own redaction list (docs/architecture.md#redaction), beside the defaults: names
// (headers, URL parameters, body fields: redact-names.ts reads them), literal values and
// wildcard patterns, both replaced wherever they appear in an export. Checked here: an entry
// that cannot be used is dropped and said why, never half-applied.
//
// A pattern is not a regular expression: captured text is hostile, and a user's regex could
// backtrack for minutes on it. `*` stands for the rest of a token (ASCII letters, digits and
// `._~+/=-`, at least one) and takes all of it, never less; `?` for one token character; `\*`,
// `\?` and `\\` for themselves; everything else for itself. A leading `*` starts at the start
// of a token. Matched by a small matcher of its own: a `*` never backtracks, and the end of the
// run it takes is remembered, so a search reads each character a bounded number of times
// (linear in the text, whatever the pattern and the text).

import { indexOfBytes, utf8Encode } from './bytes.js'
import type { RedactNames } from './redact-names.js'

/** A listed value shorter than this would be found everywhere ("id", "the"). */
export const MIN_LISTED_VALUE = 4
/** Characters a pattern must have besides `*` and `?`. */
export const MIN_PATTERN_LITERAL = 3
/** Most entries per list, and most characters per entry. */
export const MAX_LISTED = 200
export const MAX_ENTRY_LENGTH = 1000

const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/
/** Token characters by code (ASCII only). */
const TOKEN = new Uint8Array(128)
for (let c = 0; c < 128; c++) if (TOKEN_CHAR.test(String.fromCharCode(c))) TOKEN[c] = 1
const isToken = (c: number): boolean => c < 128 && TOKEN[c] === 1

/** The user's list, as the panel keeps it: one entry per line of each box. */
export interface RedactionRules {
  names: string[]
  values: string[]
  patterns: string[]
}

/** An entry that was left out, and why. */
export interface RuleProblem {
  list: 'names' | 'values' | 'patterns'
  entry: string
  message: string
}

/** A pattern ready to search text and bytes, with the name its matches are listed under. */
export interface ListedPattern {
  label: string
  /** Every match in a string, leftmost first, not overlapping: [start, end) in UTF-16 units. */
  inText(text: string): Array<[number, number]>
  /** Every match in bytes (the literal characters as UTF-8): [start, end) in bytes. */
  inBytes(bytes: Uint8Array): Array<[number, number]>
}

type Piece = { kind: 'literal'; text: string; bytes: Uint8Array } | { kind: 'one' } | { kind: 'star' }

export const NO_RULES: RedactionRules = { names: [], values: [], patterns: [] }

/**
 * The usable rules (trimmed, blanks and repeats dropped) and a problem for each entry left out:
 * a value under 4 characters, a pattern without 3 characters of its own, or whose `*` can never
 * match, more than 200 entries in a list, an entry over 1,000 characters.
 */
export function checkRedactionRules(input: Partial<Record<keyof RedactionRules, readonly unknown[]>>): { rules: RedactionRules; problems: RuleProblem[] } {
  const problems: RuleProblem[] = []
  const clean = (list: keyof RedactionRules, check: (entry: string) => string | null): string[] => {
    const out: string[] = []
    const seen = new Set<string>()
    for (const raw of input[list] ?? []) {
      if (typeof raw !== 'string') continue
      // names and patterns lose their surrounding spaces; a value is exact, spaces and all, unless all blank
      const entry = list === 'values' ? raw : raw.trim()
      if (entry.trim() === '') continue
      const key = list === 'names' ? entry.toLowerCase() : entry
      if (seen.has(key)) continue
      const problem = entry.length > MAX_ENTRY_LENGTH ? `longer than ${MAX_ENTRY_LENGTH} characters`
        : out.length >= MAX_LISTED ? `more than ${MAX_LISTED} entries`
        : check(entry)
      if (problem !== null) { problems.push({ list, entry, message: problem }); continue }
      seen.add(key)
      out.push(entry)
    }
    return out
  }
  const rules: RedactionRules = {
    names: clean('names', () => null),
    values: clean('values', (v) => (v.length < MIN_LISTED_VALUE ? `shorter than ${MIN_LISTED_VALUE} characters: it would be found everywhere` : null)),
    patterns: clean('patterns', (p) => { const c = compilePattern(p); return typeof c === 'string' ? c : null }),
  }
  return { rules, problems }
}

/** The values to look for, each with its label (`listed value 1`…), in the order listed. */
export function listedValues(options: RedactNames): Array<{ text: string; label: string }> {
  return checkRedactionRules({ values: options.values ?? [] }).rules.values.map((text, i) => ({ text, label: `listed value ${i + 1}` }))
}

/** The patterns, compiled, each with its label (`listed pattern 1`…); unusable ones are left out. */
export function listedPatterns(options: RedactNames): ListedPattern[] {
  return checkRedactionRules({ patterns: options.patterns ?? [] }).rules.patterns.map((p, i) => {
    const pieces = compilePattern(p) as Piece[]
    return {
      label: `listed pattern ${i + 1}`,
      inText: (text) => search(pieces, {
        length: text.length,
        at: (k) => text.charCodeAt(k),
        find: (piece, from) => text.indexOf(piece.text, from),
        size: (piece) => piece.text.length,
        same: (piece, k) => text.startsWith(piece.text, k),
      }),
      inBytes: (bytes) => search(pieces, {
        length: bytes.length,
        at: (k) => bytes[k]!,
        find: (piece, from) => indexOfBytes(bytes, piece.bytes, from),
        size: (piece) => piece.bytes.length,
        same: (piece, k) => piece.bytes.every((b, j) => bytes[k + j] === b),
      }),
    }
  })
}

/** The pieces of a pattern, or why it cannot be used. */
export function compilePattern(pattern: string): Piece[] | string {
  const pieces: Piece[] = []
  let literal = 0
  const chars = Array.from(pattern)
  for (let i = 0; i < chars.length; i++) {
    let c = chars[i]!
    let escaped = false
    if (c === '\\' && (chars[i + 1] === '*' || chars[i + 1] === '?' || chars[i + 1] === '\\')) { c = chars[++i]!; escaped = true }
    if (!escaped && c === '*') {
      const next = chars[i + 1]
      if (next === '*' || next === '?') return 'a * followed by another wildcard: use one *'
      if (next !== undefined && next !== '\\' && TOKEN_CHAR.test(next)) {
        return `the * before "${next}" takes the whole rest of the token, so "${next}" never follows it: end the pattern at the *, or follow it with a character that is not a letter, digit or ._~+/=-`
      }
      pieces.push({ kind: 'star' })
    } else if (!escaped && c === '?') {
      pieces.push({ kind: 'one' })
    } else {
      literal++
      const last = pieces[pieces.length - 1]
      if (last?.kind === 'literal') pieces[pieces.length - 1] = { kind: 'literal', text: last.text + c, bytes: utf8Encode(last.text + c) }
      else pieces.push({ kind: 'literal', text: c, bytes: utf8Encode(c) })
    }
  }
  if (literal < MIN_PATTERN_LITERAL) return `needs at least ${MIN_PATTERN_LITERAL} characters besides * and ?: it would match almost anything`
  return pieces
}

/** What the matcher reads: a string's UTF-16 units or a body's bytes. */
interface Units {
  length: number
  at(k: number): number
  find(piece: Extract<Piece, { kind: 'literal' }>, from: number): number
  size(piece: Extract<Piece, { kind: 'literal' }>): number
  same(piece: Extract<Piece, { kind: 'literal' }>, k: number): boolean
}

/**
 * Leftmost, non-overlapping matches. Candidates: where the first literal is found (indexOf),
 * the start of each token (a leading `*`), or every position (a leading `?`). A `*` takes the
 * whole run of token characters; the run's end is remembered per `*`, so the runs are read
 * once however many candidates fall inside one.
 */
function search(pieces: readonly Piece[], src: Units): Array<[number, number]> {
  const out: Array<[number, number]> = []
  const runs = pieces.map(() => ({ from: -1, end: -1 }))
  const runEnd = (k: number, at: number): number => {
    const run = runs[k]!
    if (run.from <= at && at < run.end) return run.end
    let end = at
    while (end < src.length && isToken(src.at(end))) end++
    run.from = at
    run.end = end
    return end
  }
  const matchAt = (p: number): number => {
    let at = p
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k]!
      if (piece.kind === 'literal') {
        if (!src.same(piece, at)) return -1
        at += src.size(piece)
      } else {
        if (at >= src.length || !isToken(src.at(at))) return -1
        at = piece.kind === 'one' ? at + 1 : runEnd(k, at)
      }
    }
    return at
  }
  const first = pieces[0]!
  let from = 0
  while (from < src.length) {
    let p = from
    if (first.kind === 'literal') {
      p = src.find(first, from)
      if (p < 0) break
    } else if (first.kind === 'star') {
      // a token's start: a token character with none before it
      while (p < src.length && !(isToken(src.at(p)) && (p === 0 || !isToken(src.at(p - 1))))) p++
      if (p >= src.length) break
    }
    const end = matchAt(p)
    if (end > p) { out.push([p, end]); from = end } else from = p + 1
  }
  return out
}

/** The rules from the panel's three boxes: one entry per line (CR LF or LF). */
export function rulesFromLines(lines: { names: string; values: string; patterns: string }): { rules: RedactionRules; problems: RuleProblem[] } {
  const split = (t: string) => t.split(/\r?\n/)
  return checkRedactionRules({ names: split(lines.names), values: split(lines.values), patterns: split(lines.patterns) })
}
