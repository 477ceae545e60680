// The one rule for cutting a large body into pieces, shared by everything that feeds or
// merges a body piece by piece: the standalone page's feed (chunk events between repaints),
// the panel store's backlog (a large chunk merged across animation frames) and
// importToEvents (chunk events for a store that works in slices).
//
// A piece is at most `max` long, in the unit the body came in: UTF-16 code units for a
// string, bytes for bytes. A string is never cut between the two halves of a surrogate pair:
// the pieces fed as chunk events are kept and exported as they are, and each must be a
// well-formed string on its own. Bytes are cut anywhere (the core's UTF-8 decoder carries a
// split character over to the next push).

/** Characters (or bytes) per piece when a body is fed or merged in slices: a few ms of the core's work each. */
export const SLICE_SIZE = 256 * 1024

/** The length pieces are measured in: code units of a string, bytes of bytes. */
export function sizeOf(data: string | Uint8Array): number {
  return typeof data === 'string' ? data.length : data.byteLength
}

/**
 * Where the piece of `data` starting at `at` ends: `max` further on, or at the end of
 * `data`. A string piece that would end between the halves of a surrogate pair ends one
 * code unit earlier, or one later when it would then be empty (a `max` of 1).
 */
export function pieceEnd(data: string | Uint8Array, at: number, max: number): number {
  const length = sizeOf(data)
  let end = Math.min(at + max, length)
  if (typeof data === 'string' && end < length) {
    const c = data.charCodeAt(end - 1)
    if (c >= 0xd800 && c <= 0xdbff) end += end - 1 > at ? -1 : 1
  }
  return end
}

/** The piece [at, end) of `data`: `data` itself when that is all of it; bytes as a view, not a copy. */
export function piece(data: string | Uint8Array, at: number, end: number): string | Uint8Array {
  if (at === 0 && end === sizeOf(data)) return data
  return typeof data === 'string' ? data.slice(at, end) : data.subarray(at, end)
}

/** `data` in pieces of at most `max` (SLICE_SIZE by default); `data` alone when it fits, even when empty. */
export function slices(data: string | Uint8Array, max: number = SLICE_SIZE): Array<string | Uint8Array> {
  const length = sizeOf(data)
  if (length <= max) return [data]
  const out: Array<string | Uint8Array> = []
  for (let at = 0; at < length;) {
    const end = pieceEnd(data, at, max)
    out.push(piece(data, at, end))
    at = end
  }
  return out
}
