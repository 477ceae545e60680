// A secret found by value (docs/architecture.md#redaction): every value an export redacted somewhere
// (a header, a URL parameter, a body field) is replaced wherever else it appears in the same
// export, as written and JSON-escaped. In the response body the replacement is made in the
// bytes of the network chunks, so the chunks still add up to the body: an occurrence that
// spans chunks is replaced in the chunk where it starts, and every other byte stays in its
// chunk. The user's patterns (redact-user.ts) are matched there too, over the bytes.

import type { CapturedChunk } from './types.js'
import { indexOfBytes, utf8DecodeStrict, utf8Encode } from './bytes.js'
import { REDACTED } from './redact-names.js'
import type { ListedPattern } from './redact-user.js'

/** What to look for: each value (and its JSON-escaped form), longest first, with what it was. */
export function echoNeedles(values: ReadonlyMap<string, string>): Array<{ text: string; from: string }> {
  const out = new Map<string, string>()
  for (const [value, from] of values) {
    if (!out.has(value)) out.set(value, from)
    const escaped = JSON.stringify(value).slice(1, -1)
    if (!out.has(escaped)) out.set(escaped, from)
  }
  return [...out].map(([text, from]) => ({ text, from })).sort((a, b) => b.text.length - a.text.length)
}

/**
 * `text` with every needle and every pattern's match replaced by `[REDACTED]`; calls `found`
 * once per needle or pattern found. Overlapping occurrences are joined into one placeholder,
 * so no character of any of them is kept.
 */
export function replaceEchoes(
  text: string, needles: ReadonlyArray<{ text: string; from: string }>, found: (from: string) => void, patterns: readonly ListedPattern[] = [],
): string {
  const occurrences: Array<[number, number]> = []
  for (const n of needles) {
    if (n.text === '') continue
    let any = false
    for (let at = text.indexOf(n.text); at >= 0; at = text.indexOf(n.text, at + n.text.length)) {
      occurrences.push([at, at + n.text.length])
      any = true
    }
    if (any) found(n.from)
  }
  for (const p of patterns) {
    const matches = p.inText(text)
    if (matches.length === 0) continue
    for (const m of matches) occurrences.push(m)
    found(p.label)
  }
  if (occurrences.length === 0) return text
  const parts: string[] = []
  let at = 0
  for (const [start, end] of union(occurrences)) { parts.push(text.slice(at, start), REDACTED); at = end }
  parts.push(text.slice(at))
  return parts.join('')
}

/**
 * The chunks with every needle's UTF-8 bytes replaced by `[REDACTED]` (string chunks stay
 * strings); the same chunks when nothing was found. Overlapping occurrences are joined into
 * one range, replaced by one placeholder in the chunk where it starts.
 */
export function replaceEchoesInChunks(
  chunks: readonly CapturedChunk[], needles: ReadonlyArray<{ text: string; from: string }>, found: (from: string) => void,
  patterns: readonly ListedPattern[] = [],
): readonly CapturedChunk[] {
  if ((needles.length === 0 && patterns.length === 0) || chunks.length === 0) return chunks
  const parts = chunks.map((c) => (typeof c.data === 'string' ? utf8Encode(c.data) : c.data))
  const total = parts.reduce((n, p) => n + p.length, 0)
  const body = new Uint8Array(total)
  let at = 0
  for (const p of parts) { body.set(p, at); at += p.length }
  const occurrences: Array<[number, number]> = []
  for (const n of needles) {
    const needle = utf8Encode(n.text)
    let any = false
    for (let from = 0; (from = indexOfBytes(body, needle, from)) >= 0; from += needle.length) {
      occurrences.push([from, from + needle.length])
      any = true
    }
    if (any) found(n.from)
  }
  for (const p of patterns) {
    let any = false
    for (const [from, to] of p.inBytes(body)) {
      occurrences.push([from, to])
      any = true
    }
    if (any) found(p.label)
  }
  if (occurrences.length === 0) return chunks
  const matches = union(occurrences)
  const placeholder = utf8Encode(REDACTED)
  const out: CapturedChunk[] = []
  let m = 0
  let start = 0
  for (let c = 0; c < chunks.length; c++) {
    const end = start + parts[c]!.length
    while (m < matches.length && matches[m]![1] <= start) m++
    if (m >= matches.length || matches[m]![0] >= end) {
      out.push(chunks[c]!) // untouched: kept as it was
      start = end
      continue
    }
    const pieces: Uint8Array[] = []
    let pos = start
    while (pos < end) {
      while (m < matches.length && matches[m]![1] <= pos) m++
      const match = matches[m]
      if (match === undefined || match[0] >= end) { pieces.push(body.subarray(pos, end)); break }
      if (match[0] > pos) pieces.push(body.subarray(pos, match[0]))
      if (match[0] >= start) pieces.push(placeholder) // in the chunk where it starts
      pos = Math.min(end, match[1])
    }
    const bytes = concat(pieces)
    const original = chunks[c]!
    const text = typeof original.data === 'string' ? utf8DecodeStrict(bytes) : null
    out.push({ data: text ?? bytes, t: original.t })
    start = end
  }
  return out
}

/**
 * Overlapping occurrences (of different needles, or a needle and a pattern) joined into one
 * range, sorted: every byte any of them covers is replaced, by one placeholder per range.
 */
function union(ranges: Array<[number, number]>): Array<[number, number]> {
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const out: Array<[number, number]> = []
  for (const r of ranges) {
    const last = out[out.length - 1]
    if (last !== undefined && r[0] < last[1]) last[1] = Math.max(last[1], r[1])
    else out.push([r[0], r[1]])
  }
  return out
}

function concat(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!.slice()
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) { out.set(p, at); at += p.length }
  return out
}
