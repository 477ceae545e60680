// The line endings of a body: which kinds it holds and where each first occurs, kept read by
// read as it arrives (the panel's store keeps them with each read, so the debugger reads a
// body again only when it mixes kinds, to count them), and the full count over its reads.
// Byte offsets are into the body as received.

import { utf8Length } from '../library.js'

export type Ending = 'LF' | 'CRLF' | 'CR'

export class LineEndings {
  /** Where each kind first occurs (a byte offset), -1: never. */
  readonly first: Record<Ending, number> = { LF: -1, CRLF: -1, CR: -1 }
  private base = 0
  /** A CR that ended the previous read: its kind depends on the next read's first unit. */
  private pendingCr = -1

  /**
   * The next read of the body: bytes, or text (counted as its UTF-8). Only where each kind
   * first occurs is kept: a read without a CR (most reads of most bodies) costs one search
   * for a CR and, until a bare LF was seen, one for an LF.
   */
  add(data: string | Uint8Array): void {
    const text = typeof data === 'string'
    const length = text ? data.length : data.byteLength
    const base = this.base
    const byteOf = (i: number) => base + (text ? utf8Length(data.slice(0, i)) : i)
    this.base += text ? utf8Length(data) : data.byteLength
    let i = 0
    if (this.pendingCr >= 0 && length > 0) {
      const lf = text ? data.charCodeAt(0) === 0x0a : data[0] === 0x0a
      const at = this.pendingCr
      this.seen(lf ? 'CRLF' : 'CR', () => at)
      if (lf) i = 1
      this.pendingCr = -1
    }
    let cr = indexOf(data, 0x0d, i)
    if (cr < 0) {
      if (this.first.LF < 0) {
        const lf = indexOf(data, 0x0a, i)
        if (lf >= 0) this.seen('LF', () => byteOf(lf))
      }
      return
    }
    let lf = indexOf(data, 0x0a, i)
    while (cr >= 0 || lf >= 0) {
      if (this.first.LF >= 0 && this.first.CRLF >= 0 && this.first.CR >= 0) return
      if (lf >= 0 && (cr < 0 || lf < cr)) {
        const at = lf
        this.seen('LF', () => byteOf(at))
        // past the bare LFs before the next CR: they add nothing once one was seen
        lf = cr < 0 ? -1 : indexOf(data, 0x0a, cr)
        continue
      }
      if (cr === length - 1) { this.pendingCr = byteOf(cr); return }
      const at = cr
      if (lf === cr + 1) {
        this.seen('CRLF', () => byteOf(at))
        lf = indexOf(data, 0x0a, lf + 1)
      } else this.seen('CR', () => byteOf(at))
      cr = indexOf(data, 0x0d, cr + 1)
    }
  }

  /** The kinds seen so far in order of first use (a CR last in the body counts): more than one is a mixed body. */
  kinds(): Ending[] {
    const first = { ...this.first }
    if (this.pendingCr >= 0 && first.CR < 0) first.CR = this.pendingCr
    return (Object.keys(first) as Ending[]).filter((k) => first[k] >= 0).sort((a, b) => first[a] - first[b])
  }

  /** `byte` is asked for only at a kind's first occurrence: in text it costs the UTF-8 length of all before. */
  private seen(kind: Ending, byte: () => number): void {
    if (this.first[kind] < 0) this.first[kind] = byte()
  }
}

/** How many of each kind a body holds, read by read: the count a mixed body's diagnostic gives. */
export function countLineEndings(reads: Iterable<string | Uint8Array>): { counts: Record<Ending, number>; first: Record<Ending, number> } {
  const counts: Record<Ending, number> = { LF: 0, CRLF: 0, CR: 0 }
  const first: Record<Ending, number> = { LF: -1, CRLF: -1, CR: -1 }
  const seen = (kind: Ending, byte: () => number) => { if (counts[kind]++ === 0) first[kind] = byte() }
  let base = 0
  let pendingCr = -1
  for (const data of reads) {
    const text = typeof data === 'string'
    const length = text ? data.length : data.byteLength
    const at = base
    const byteOf = (i: number) => at + (text ? utf8Length(data.slice(0, i)) : i)
    let i = 0
    if (pendingCr >= 0 && length > 0) {
      const lf = text ? data.charCodeAt(0) === 0x0a : data[0] === 0x0a
      const at = pendingCr
      seen(lf ? 'CRLF' : 'CR', () => at)
      if (lf) i = 1
      pendingCr = -1
    }
    let cr = indexOf(data, 0x0d, i)
    let lf = indexOf(data, 0x0a, i)
    while (cr >= 0 || lf >= 0) {
      if (lf >= 0 && (cr < 0 || lf < cr)) {
        const at = lf
        seen('LF', () => byteOf(at))
        lf = indexOf(data, 0x0a, lf + 1)
        continue
      }
      if (cr === length - 1) { pendingCr = byteOf(cr); break }
      const at = cr
      if (lf === cr + 1) {
        seen('CRLF', () => byteOf(at))
        lf = indexOf(data, 0x0a, lf + 1)
      } else seen('CR', () => byteOf(at))
      cr = indexOf(data, 0x0d, cr + 1)
    }
    base += text ? utf8Length(data) : data.byteLength
  }
  if (pendingCr >= 0) seen('CR', () => pendingCr)
  return { counts, first }
}

function indexOf(data: string | Uint8Array, unit: number, from: number): number {
  return typeof data === 'string' ? data.indexOf(String.fromCharCode(unit), from) : data.indexOf(unit, from)
}
