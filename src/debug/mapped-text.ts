// Text with, for each of its UTF-16 units, the index of the reference character it came from
// (-1 for what a renderer added: the line between two blocks, the tab between two table
// cells). The rendered comparison maps a difference back to the reference through it.

export interface MappedText {
  text: string
  /** map[i]: the source index of text[i], or -1. */
  map: number[]
}

/** Collects rendered text and its map, unit by unit. */
export class MappedBuilder {
  private readonly parts: string[] = []
  readonly map: number[] = []

  /** One unit (or a surrogate pair's two) from source index `src` (-1: added). */
  push(text: string, src: number): void {
    this.parts.push(text)
    for (let k = 0; k < text.length; k++) this.map.push(src < 0 ? -1 : src + k)
  }

  /** Text that came from no source character (whitespace between blocks, cells). */
  added(text: string): void {
    this.push(text, -1)
  }

  result(): MappedText {
    return { text: this.parts.join(''), map: this.map }
  }
}

/**
 * Whitespace as both sides of a rendered comparison read it: every run of white space (line
 * breaks, tabs, no-break spaces: what innerText gives between blocks, cells and lines) is one
 * space, and none at either end. A run keeps the source index of its first unit.
 */
export function normaliseWhitespace(input: MappedText | string): MappedText {
  const text = typeof input === 'string' ? input : input.text
  const srcMap = typeof input === 'string' ? null : input.map
  const out = new MappedBuilder()
  let i = 0
  const n = text.length
  while (i < n && isSpace(text.charCodeAt(i))) i++
  while (i < n) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) {
      const start = i
      while (i < n && isSpace(text.charCodeAt(i))) i++
      if (i < n) out.push(' ', srcMap === null ? start : firstSource(srcMap, start, i))
      continue
    }
    out.push(text[i]!, srcMap === null ? i : srcMap[i]!)
    i++
  }
  return out.result()
}

function firstSource(map: readonly number[], from: number, to: number): number {
  for (let k = from; k < to; k++) if (map[k]! >= 0) return map[k]!
  return -1
}

/** White space as HTML collapses it, and what innerText gives for it (no-break space and the line separators). */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0xa0 || c === 0x2028 || c === 0x2029
}
