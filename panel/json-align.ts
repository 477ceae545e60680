// Positions in a JSON text and in the same value pretty-printed (JSON.stringify(…, null, 2)),
// matched token by token, so tool-call arguments shown pretty are traced like the raw string:
// a click on the pretty text finds the frame that sent that character, and a frame's
// contribution is marked where it sits in the pretty text. Inside a string the characters
// are matched one by one (an escape like \u00e9 is one character either way); a number that
// prints differently (1.0 → 1) maps to its start. When the two do not have the same tokens
// (a key given twice, which the parse keeps once) there is no map: null.

/** Arguments longer than this are not mapped (two offset tables of this size). */
export const MAX_ALIGNED = 256 * 1024

interface Token { start: number; end: number; string: boolean }

function tokens(text: string): Token[] | null {
  const out: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) { i++; continue }
    const start = i
    if (c === 0x22) {
      i++
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1
      if (i >= text.length) return null
      out.push({ start, end: ++i, string: true })
    } else if ('{}[]:,'.includes(text[i]!)) {
      out.push({ start, end: ++i, string: false })
    } else {
      while (i < text.length && !' \n\r\t{}[]:,"'.includes(text[i]!)) i++
      out.push({ start, end: i, string: false })
    }
  }
  return out
}

/** Start offsets of each decoded character of a string token, and its end. */
function characters(text: string, t: Token): number[] {
  const at: number[] = []
  let i = t.start + 1
  while (i < t.end - 1) {
    at.push(i)
    i += text.charCodeAt(i) !== 0x5c ? 1 : text[i + 1] === 'u' ? 6 : 2
  }
  at.push(t.end - 1)
  return at
}

export interface Alignment {
  /** Offset in the raw text for an offset in the pretty one. */
  toRaw(offset: number): number
  /** Offset in the pretty text for an offset in the raw one. */
  toPretty(offset: number): number
}

/** The map between `raw` and `pretty`; null when they are not the same tokens, or too long to map. */
export function alignJson(raw: string, pretty: string): Alignment | null {
  if (raw.length > MAX_ALIGNED || pretty.length > MAX_ALIGNED) return null
  const a = tokens(raw)
  const b = tokens(pretty)
  if (!a || !b || a.length !== b.length) return null
  const r2p = new Int32Array(raw.length + 1).fill(-1)
  const p2r = new Int32Array(pretty.length + 1).fill(-1)
  for (let k = 0; k < a.length; k++) {
    const ta = a[k]!
    const tb = b[k]!
    if (ta.string !== tb.string) return null
    if (ta.string) {
      // the quotes, and each character, to its counterpart
      const ca = characters(raw, ta)
      const cb = characters(pretty, tb)
      if (ca.length !== cb.length) return null
      r2p[ta.start] = tb.start
      p2r[tb.start] = ta.start
      for (let j = 0; j < ca.length; j++) {
        for (let x = ca[j]!; x < (ca[j + 1] ?? ta.end); x++) r2p[x] = cb[j]!
        for (let x = cb[j]!; x < (cb[j + 1] ?? tb.end); x++) p2r[x] = ca[j]!
      }
    } else {
      for (let x = ta.start; x < ta.end; x++) r2p[x] = tb.start + Math.min(x - ta.start, tb.end - tb.start - 1)
      for (let x = tb.start; x < tb.end; x++) p2r[x] = ta.start + Math.min(x - tb.start, ta.end - ta.start - 1)
    }
  }
  // white space (and the end) maps to where the next token starts
  const fill = (map: Int32Array, other: number) => {
    let next = other
    for (let x = map.length - 1; x >= 0; x--) {
      if (map[x]! < 0) map[x] = next
      else next = map[x]!
    }
  }
  fill(r2p, pretty.length)
  fill(p2r, raw.length)
  const clamp = (map: Int32Array, o: number) => map[Math.max(0, Math.min(map.length - 1, o))]!
  return { toRaw: (o) => clamp(p2r, o), toPretty: (o) => clamp(r2p, o) }
}
