// Captured text is untrusted: a bidi override can make `invoice_\u202Efdp.exe` read as
// "invoice_exe.pdf", and zero-width or control characters hide in plain sight. These are the
// characters the panel marks, each with a short visible name and a legend. Pure: no DOM.

/** Bidi controls, zero-width and other invisible format characters, C0/C1 controls but tab and line breaks, U+2028/9. */
export const INVISIBLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g

const NAMES: Record<number, [short: string, name: string]> = {
  0x00ad: ['SHY', 'SOFT HYPHEN'],
  0x061c: ['ALM', 'ARABIC LETTER MARK'],
  0x180e: ['MVS', 'MONGOLIAN VOWEL SEPARATOR'],
  0x200b: ['ZWSP', 'ZERO WIDTH SPACE'],
  0x200c: ['ZWNJ', 'ZERO WIDTH NON-JOINER'],
  0x200d: ['ZWJ', 'ZERO WIDTH JOINER'],
  0x200e: ['LRM', 'LEFT-TO-RIGHT MARK'],
  0x200f: ['RLM', 'RIGHT-TO-LEFT MARK'],
  0x2028: ['LS', 'LINE SEPARATOR'],
  0x2029: ['PS', 'PARAGRAPH SEPARATOR'],
  0x202a: ['LRE', 'LEFT-TO-RIGHT EMBEDDING'],
  0x202b: ['RLE', 'RIGHT-TO-LEFT EMBEDDING'],
  0x202c: ['PDF', 'POP DIRECTIONAL FORMATTING'],
  0x202d: ['LRO', 'LEFT-TO-RIGHT OVERRIDE'],
  0x202e: ['RLO', 'RIGHT-TO-LEFT OVERRIDE'],
  0x2060: ['WJ', 'WORD JOINER'],
  0x2061: ['FA', 'FUNCTION APPLICATION'],
  0x2062: ['IT', 'INVISIBLE TIMES'],
  0x2063: ['IS', 'INVISIBLE SEPARATOR'],
  0x2064: ['IP', 'INVISIBLE PLUS'],
  0x2066: ['LRI', 'LEFT-TO-RIGHT ISOLATE'],
  0x2067: ['RLI', 'RIGHT-TO-LEFT ISOLATE'],
  0x2068: ['FSI', 'FIRST STRONG ISOLATE'],
  0x2069: ['PDI', 'POP DIRECTIONAL ISOLATE'],
  0xfeff: ['BOM', 'ZERO WIDTH NO-BREAK SPACE (BOM)'],
}

const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])

export interface InvisibleMark {
  /** What is shown in its place: ␇, RLO, ZWSP, U+0085. */
  short: string
  /** The legend on hover: code point, name, why it matters. */
  legend: string
}

function hex(code: number): string {
  return 'U+' + code.toString(16).toUpperCase().padStart(4, '0')
}

export function describeInvisible(ch: string): InvisibleMark {
  const code = ch.charCodeAt(0)
  const named = NAMES[code]
  if (named) {
    const why = BIDI.has(code) ? 'reorders how the text around it is displayed' : 'invisible in most views'
    return { short: named[0], legend: `${hex(code)} ${named[1]}: ${why}` }
  }
  if (code < 0x20) return { short: String.fromCharCode(0x2400 + code), legend: `${hex(code)} control character` }
  if (code === 0x7f) return { short: '␡', legend: `${hex(code)} DELETE control character` }
  return { short: hex(code), legend: `${hex(code)} ${code <= 0x9f ? 'C1 control character' : 'invisible format character'}` }
}

export type TextRun = { text: string; mark: null } | { text: string; mark: InvisibleMark }

/**
 * The text cut into plain runs and single marked characters. A zero width joiner between two
 * pictographs is part of an emoji (👩‍💻) and stays as it is.
 */
export function invisibleRuns(text: string): TextRun[] {
  INVISIBLE.lastIndex = 0
  if (!INVISIBLE.test(text)) return [{ text, mark: null }]
  INVISIBLE.lastIndex = 0
  const out: TextRun[] = []
  let at = 0
  for (let m = INVISIBLE.exec(text); m !== null; m = INVISIBLE.exec(text)) {
    const i = m.index
    if (m[0] === '\u200d' && isEmojiJoin(text, i)) continue
    if (i > at) out.push({ text: text.slice(at, i), mark: null })
    out.push({ text: m[0], mark: describeInvisible(m[0]) })
    at = i + 1
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: null })
  return out
}

const PICTOGRAPH = /\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?$/u
const PICTOGRAPH_START = /^\p{Extended_Pictographic}/u

function isEmojiJoin(text: string, i: number): boolean {
  return PICTOGRAPH.test(text.slice(Math.max(0, i - 4), i)) && PICTOGRAPH_START.test(text.slice(i + 1, i + 3))
}

/** For one-line summaries and attributes (no markup possible there): each invisible as its short name in ⟨⟩. */
export function showInvisible(text: string): string {
  INVISIBLE.lastIndex = 0
  return text.replace(INVISIBLE, (ch, i: number) => (ch === '\u200d' && isEmojiJoin(text, i) ? ch : `⟨${describeInvisible(ch).short}⟩`))
}
