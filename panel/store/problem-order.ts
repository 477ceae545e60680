// The Problems list's order (issue 33): a Live capture splits nearly every frame across
// network reads, and each such frame is an info note. Those are facts about the capture, not
// problems: the warnings and errors come first, and the notes are counted by code, one line
// each in Problems (the store's list crosses to the UI cut to its first entries, so the counts
// are made here, over the whole list).

import type { Diagnostic, DiagnosticCode } from '../../src/library.js'

/** How many info notes of one code, in the order the codes first appear. */
export interface NoteCount {
  code: DiagnosticCode
  count: number
}

/**
 * A code's diagnostics past the first 100 are summed up in one entry that says "N more … not
 * listed (M in all)" (the core's accumulator, decoder and framer, and the debugger's findings
 * word it alike): it stands for N notes.
 */
const SUMMARY = /^(\d+) more .* not listed \(\d+ in all\)/

/** The notes one entry stands for: N for a summary, else 1. */
export function notesIn(d: Diagnostic): number {
  const m = SUMMARY.exec(d.message)
  return m === null ? 1 : Number(m[1])
}

/** The warnings and errors first, then the info notes, each in the order they came (by frame). */
export function problemsFirst(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const problems: Diagnostic[] = []
  const notes: Diagnostic[] = []
  for (const d of diagnostics) (d.level === 'info' ? notes : problems).push(d)
  return problems.length === 0 || notes.length === 0 ? diagnostics.slice() : problems.concat(notes)
}

/** The info notes counted by code. */
export function noteCounts(diagnostics: readonly Diagnostic[]): NoteCount[] {
  const counts = new Map<DiagnosticCode, number>()
  for (const d of diagnostics) if (d.level === 'info') counts.set(d.code, (counts.get(d.code) ?? 0) + notesIn(d))
  return [...counts].map(([code, count]) => ({ code, count }))
}
