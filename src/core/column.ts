// A growing column of numbers for the frame table and the provenance log. Doubling one typed
// array copies everything stored so far at every growth and briefly holds two copies; a
// column in pages copies nothing once its first page is full, so appending stays flat and
// a million-frame stream never needs a second copy of its table.

/** Rows per full page: 16,384 (128 KiB of float64). */
const PAGE_BITS = 14
const PAGE = 1 << PAGE_BITS
const MASK = PAGE - 1
/** The first page starts small (most streams have a few hundred frames) and doubles up to PAGE. */
const FIRST = 256

type Numbers = Float64Array | Int32Array | Uint8Array

abstract class Column<T extends Numbers> {
  private readonly pages: T[]
  private page: T
  /** Rows in the pages before the current one. */
  private before = 0

  constructor(private readonly fillValue = 0) {
    this.page = this.fresh(FIRST)
    this.pages = [this.page]
  }

  protected abstract make(size: number): T

  /** Stores `value` at row `i`: rows are written in order, each once (a gap keeps the fill value). */
  set(i: number, value: number): void {
    let at = i - this.before
    if (at >= this.page.length) at = this.room(i)
    this.page[at] = value
  }

  get(i: number): number {
    if (this.pages.length === 1) return this.page[i]!
    return this.pages[i >>> PAGE_BITS]![i & MASK]!
  }

  /** Makes room for row `i`: doubles the first page while it is small, then adds pages. */
  private room(i: number): number {
    while (i - this.before >= this.page.length) {
      if (this.pages.length === 1 && this.page.length < PAGE) {
        const bigger = this.fresh(Math.min(PAGE, this.page.length * 2))
        bigger.set(this.page)
        this.page = bigger
        this.pages[0] = bigger
      } else {
        this.before += this.page.length
        this.page = this.fresh(PAGE)
        this.pages.push(this.page)
      }
    }
    return i - this.before
  }

  private fresh(size: number): T {
    const page = this.make(size)
    if (this.fillValue !== 0) page.fill(this.fillValue)
    return page
  }
}

export class Float64Column extends Column<Float64Array> {
  protected make(size: number): Float64Array { return new Float64Array(size) }
}

export class Int32Column extends Column<Int32Array> {
  protected make(size: number): Int32Array { return new Int32Array(size) }
}

export class Uint8Column extends Column<Uint8Array> {
  protected make(size: number): Uint8Array { return new Uint8Array(size) }
}
