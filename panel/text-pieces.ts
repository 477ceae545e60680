// The pieces a reply's text arrived in, kept beside the reply the UI shows, so a window of a
// long text is cut from the pieces it lies in. In a worker's mirror each update appends the
// text since the last one (panel/remote/reply-patch.ts): V8 keeps `before + appended` as a
// rope, and the first read of a rope copies all of it (7–11 ms for 1.2 million characters in
// Chromium), on every update, while the panel shows 2,000 or 20,000 characters of it.

import type { Channel, ReplyChoice } from '../src/library.js'

/** The last piece of a text; the text is every piece back to the first, in order. */
export interface TextPiece {
  readonly text: string
  readonly before: TextPiece | null
  /** The length of the text up to the end of this piece. */
  readonly end: number
}

const piecesOf = new WeakMap<ReplyChoice, Partial<Record<Channel, TextPiece>>>()

/** The text of `field` is `previous` (the pieces of the text before it, or null) followed by `appended`. */
export function appendPiece(previous: TextPiece | null, before: string, appended: string): TextPiece {
  const start = previous !== null && previous.end === before.length ? previous : before === '' ? null : { text: before, before: null, end: before.length }
  if (appended === '' && start !== null) return start
  return { text: appended, before: start, end: before.length + appended.length }
}

/** Notes the pieces of a choice's texts (the mirror, as it builds the choice). */
export function notePieces(choice: ReplyChoice, pieces: Partial<Record<Channel, TextPiece>>): void {
  piecesOf.set(choice, pieces)
}

/** The pieces noted for a choice's field, or null. */
export function piecesFor(choice: ReplyChoice, field: Channel): TextPiece | null {
  return piecesOf.get(choice)?.[field] ?? null
}

/**
 * `text.slice(from, to)`, cut from the pieces `text` was built from when they are known (and
 * add up to it), so the rest of a long text is never copied; otherwise from the text.
 */
export function textWindow(text: string, from: number, to: number, last: TextPiece | null): string {
  if (last === null || last.end !== text.length) return text.slice(from, to)
  const parts: string[] = []
  for (let p: TextPiece | null = last; p !== null; p = p.before) {
    const start = p.end - p.text.length
    if (start >= to) continue
    parts.push(p.text.slice(Math.max(0, from - start), Math.min(p.text.length, to - start)))
    if (start <= from) break
  }
  return parts.length === 1 ? parts[0]! : parts.reverse().join('')
}
