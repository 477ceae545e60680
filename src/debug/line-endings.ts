// The line endings of a body, counted read by read as it arrives: the panel's store counts
// them as it keeps each read, so the debugger need not read a body again (a file's body is
// read back from the file, not held). Byte offsets are into the body as received.

import { utf8Length } from '../library.js'

export type Ending = 'LF' | 'CRLF' | 'CR'

export class LineEndings {
  readonly counts: Record<Ending, number> = { LF: 0, CRLF: 0, CR: 0 }
  /** Where each kind first occurs (a byte offset), -1: never. */
  readonly first: Record<Ending, number> = { LF: -1, CRLF: -1, CR: -1 }
  private base = 0
  /** A CR that ended the previous read: its kind depends on the next read's first unit. */
  private pendingCr = -1

  /** The next read of the body: bytes, or text (counted as its UTF-8). */
  add(data: string | Uint8Array): void {
    const text = typeof data === 'string'
    const length = text ? data.length : data.byteLength
    const base = this.base
    const byteOf = (i: number) => base + (text ? utf8Length(data.slice(0, i)) : i)
    const counts = this.counts
    let i = 0
    if (this.pendingCr >= 0 && length > 0) {
      const lf = text ? data.charCodeAt(0) === 0x0a : data[0] === 0x0a
      this.seen(lf ? 'CRLF' : 'CR', this.pendingCr)
      if (lf) i = 1
      this.pendingCr = -1
    }
    let cr = indexOf(data, 0x0d, i)
    let lf = indexOf(data, 0x0a, i)
    while (cr >= 0 || lf >= 0) {
      if (lf >= 0 && (cr < 0 || lf < cr)) {
        if (counts.LF === 0) this.seen('LF', byteOf(lf))
        else counts.LF++
        lf = indexOf(data, 0x0a, lf + 1)
        continue
      }
      if (cr === length - 1) { this.pendingCr = byteOf(cr); break }
      if (lf === cr + 1) {
        if (counts.CRLF === 0) this.seen('CRLF', byteOf(cr))
        else counts.CRLF++
        lf = indexOf(data, 0x0a, lf + 1)
      } else if (counts.CR === 0) this.seen('CR', byteOf(cr))
      else counts.CR++
      cr = indexOf(data, 0x0d, cr + 1)
    }
    this.base += text ? utf8Length(data) : data.byteLength
  }

  /** More than one kind so far (a CR last in the body counts as one): the kinds in order of first use, and where the second began. */
  mixed(): { kinds: Ending[]; counts: Record<Ending, number>; second: Ending; byte: number } | null {
    const counts = { ...this.counts }
    const first = { ...this.first }
    if (this.pendingCr >= 0 && counts.CR++ === 0) first.CR = this.pendingCr
    const kinds = (Object.keys(counts) as Ending[]).filter((k) => counts[k] > 0)
    if (kinds.length < 2) return null
    kinds.sort((a, b) => first[a] - first[b])
    const second = kinds[1]!
    return { kinds, counts, second, byte: first[second] }
  }

  private seen(kind: Ending, byte: number): void {
    if (this.counts[kind]++ === 0) this.first[kind] = byte
  }
}

function indexOf(data: string | Uint8Array, unit: number, from: number): number {
  return typeof data === 'string' ? data.indexOf(String.fromCharCode(unit), from) : data.indexOf(unit, from)
}
