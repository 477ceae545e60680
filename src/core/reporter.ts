// The accumulator's diagnostics, bounded: the first LISTED of a code are listed, the rest are
// counted in one summary updated in place, so a stream with a million odd frames costs one
// entry more.

import type { Diagnostic, DiagnosticCode } from './types.js'

/** Diagnostics of one code listed before the rest are only counted, in one summary. */
const LISTED = 100

export class Reporter {
  readonly diagnostics: Diagnostic[] = []
  /** Per code: how many were reported, and the summary standing for those past LISTED. */
  private readonly reported = new Map<DiagnosticCode, { count: number; summary: Diagnostic | null }>()

  /** Records a diagnostic; a message given as a function is only built when it is listed. */
  report(frame: number, code: DiagnosticCode, level: Diagnostic['level'], message: string | (() => string), symptom: string): void {
    let seen = this.reported.get(code)
    if (seen === undefined) {
      seen = { count: 0, summary: null }
      this.reported.set(code, seen)
    }
    const count = ++seen.count
    if (count <= LISTED) {
      this.diagnostics.push({ frame, level, code, message: typeof message === 'string' ? message : message(), symptom })
      return
    }
    if (seen.summary === null) {
      seen.summary = { frame, level, code, message: '', symptom }
      this.diagnostics.push(seen.summary)
    }
    const more = count - LISTED
    seen.summary.message = `${more} more ${code} not listed (${count} in all), the first of them at frame ${seen.summary.frame}`
  }
}
