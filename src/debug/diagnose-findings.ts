// What the debugger's rules share: the list they add to (capped per code: the first LISTED,
// then one summary of the rest), and small readers of frames and wire text.

import { SYMPTOMS } from '../library.js'
import type { Diagnostic, DiagnosticCode, Merger } from '../library.js'

/** Diagnostics of one code listed before the rest are counted in one summary. */
const LISTED = 100

/** Diagnostics with a cap per code: the first LISTED, then one summary of the rest. */
export class Findings {
  private readonly list: Diagnostic[] = []
  private readonly counts = new Map<DiagnosticCode, { count: number; first: Diagnostic | null }>()

  add(code: DiagnosticCode, level: Diagnostic['level'], frame: number | null, message: string, at: { line?: number; offset?: number; byteOffset?: number } = {}, symptom = SYMPTOMS[code]): void {
    let c = this.counts.get(code)
    if (c === undefined) {
      c = { count: 0, first: null }
      this.counts.set(code, c)
    }
    c.count++
    const d: Diagnostic = { code, level, frame, ...at, message, symptom }
    if (c.count <= LISTED) this.list.push(d)
    else if (c.first === null) c.first = d
  }

  done(): Diagnostic[] {
    for (const [code, c] of this.counts) {
      if (c.first === null) continue
      const more = c.count - LISTED
      this.list.push({
        code, level: c.first.level, frame: c.first.frame,
        message: `${more} more ${code} not listed (${c.count} in all), the first of them at frame ${c.first.frame ?? '–'}`,
        symptom: c.first.symptom,
      })
    }
    return this.list
  }
}

/** The frame whose bytes hold byte `at`, or null. */
export function frameHolding(merger: Merger, at: number): number | null {
  const seq = frameBefore(merger, at)
  return seq !== null && at < merger.frameInfo(seq).byteEnd ? seq : null
}

/** The last frame that starts at or before byte `at`, or null. */
export function frameBefore(merger: Merger, at: number): number | null {
  let lo = 0
  let hi = merger.frameCount - 1
  let found: number | null = null
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (merger.frameInfo(mid).byteStart <= at) { found = mid; lo = mid + 1 } else hi = mid - 1
  }
  return found
}

/** Wire text around character `at`, quoted, at most 30 characters each side. */
export function excerpt(text: string, at: number): string {
  const from = Math.max(0, at - 30)
  const to = Math.min(text.length, at + 30)
  return (from > 0 ? '…' : '') + JSON.stringify(text.slice(from, to)) + (to < text.length ? '…' : '')
}

/** A duration for a message: `850 ms`, `1.5 s`, `12 s`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)} s` : `${Math.round(ms)} ms`
}

