// A growing column of numbers for the frame table and the provenance log. Doubling one typed
// array copies everything stored so far at every growth and briefly holds two copies; a
// column in pages copies nothing once its first page is full, so appending stays flat and
// a million-frame stream never needs a second copy of its table.

/** Rows per full page: 16,384 (128 KiB of float64). */
const PAGE_BITS = 14
const PAGE = 1 << PAGE_BITS
const MASK = PAGE - 1
/**
 * The first page starts at 8 rows and doubles up to PAGE: up to 64 bytes V8 keeps a typed
 * array on its heap, and an off-heap one costs about a microsecond to make, which is most of
 * the cost of merging a short fixture.
 */
const FIRST = 8

type Numbers = Float64Array | Int32Array | Uint32Array | Uint8Array

abstract class Column<T extends Numbers> {
  private readonly pages: T[]
  private page: T
  /** Rows in the pages before the current one. */
  private before = 0

  /**
   * `empty`: a shared page of length 0, so that a column allocates nothing until its first row
   * (merge() keeps no rows, and a CI job makes one merger per fixture).
   */
  constructor(empty: T, private readonly fillValue = 0) {
    this.page = empty
    this.pages = [empty]
  }

  protected abstract make(size: number): T

  /** Stores `value` at row `i`: rows are written in order, each once (a gap keeps the fill value). */
  set(i: number, value: number): void {
    let at = i - this.before
    if (at >= this.page.length) at = this.room(i)
    this.page[at] = value
  }

  /** Rewrites row `i`, already written (the provenance log shortens a run cut by a truncate). */
  put(i: number, value: number): void {
    if (this.pages.length === 1) this.page[i] = value
    else this.pages[i >>> PAGE_BITS]![i & MASK] = value
  }

  /** The value at row `i`; the fill value for a row never written. */
  get(i: number): number {
    const page = this.pages.length === 1 ? this.page : this.pages[i >>> PAGE_BITS]
    const at = this.pages.length === 1 ? i : i & MASK
    return page !== undefined && at < page.length ? page[at]! : this.fillValue
  }

  /** Makes room for row `i`: doubles the first page while it is small, then adds pages. */
  private room(i: number): number {
    while (i - this.before >= this.page.length) {
      if (this.pages.length === 1 && this.page.length < PAGE) {
        const bigger = this.fresh(Math.min(PAGE, Math.max(FIRST, this.page.length * 2)))
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

const NO_F64 = new Float64Array(0)
const NO_I32 = new Int32Array(0)
const NO_U8 = new Uint8Array(0)

export class Float64Column extends Column<Float64Array> {
  constructor(fillValue = 0) { super(NO_F64, fillValue) }
  protected make(size: number): Float64Array { return new Float64Array(size) }
}

export class Int32Column extends Column<Int32Array> {
  constructor() { super(NO_I32) }
  protected make(size: number): Int32Array { return new Int32Array(size) }
}

export class Uint8Column extends Column<Uint8Array> {
  constructor() { super(NO_U8) }
  protected make(size: number): Uint8Array { return new Uint8Array(size) }
}

const NO_U32 = new Uint32Array(0)

class Uint32Column extends Column<Uint32Array> {
  constructor() { super(NO_U32) }
  protected make(size: number): Uint32Array { return new Uint32Array(size) }
}

/**
 * Offsets into a body (characters, bytes): four bytes a row while every one fits in 32 bits,
 * which is every body a browser can hold; the first that does not (a CLI stream past 4 GiB)
 * moves the column to eight bytes a row, once. A 64 MB stream's frame table is 4 MB smaller.
 */
export class OffsetColumn {
  private narrow: Uint32Column | null = new Uint32Column()
  private wide: Float64Column | null = null

  /** Stores `value` at row `i`: rows are written in order, each once. */
  set(i: number, value: number): void {
    if (this.narrow !== null) {
      if (value >>> 0 === value) { this.narrow.set(i, value); return }
      this.widen(i)
    }
    this.wide!.set(i, value)
  }

  get(i: number): number {
    return this.narrow !== null ? this.narrow.get(i) : this.wide!.get(i)
  }

  /** Rows [0, rows) copied to eight bytes a row. */
  private widen(rows: number): void {
    const wide = new Float64Column()
    for (let k = 0; k < rows; k++) wide.set(k, this.narrow!.get(k))
    this.wide = wide
    this.narrow = null
  }
}
