// STOPGAP (see markdown-stopgap.ts): the inline part of the small CommonMark + GFM subset
// renderer, until a Markdown library is installed. What a browser's innerText shows of a
// paragraph's inlines: emphasis, strong and strikethrough delimiters removed when they pair
// (CommonMark's flanking rules and delimiter matching, rule of three included), code spans'
// text, links' text, images nothing (innerText leaves out alt text), autolinks' address,
// backslash escapes and common entities resolved, hard breaks as line breaks.
// Not done: reference links ([text][ref]), raw inline HTML (kept as text, as a page that
// escapes HTML shows it), link labels holding brackets in code spans.

import { MappedBuilder } from './mapped-text.js'

/** A run of a paragraph's text, each unit with its source index. */
export interface SourceChars {
  text: string
  src: number[]
}

interface Literal {
  kind: 'text'
  text: string
  src: number[]
}

interface Delimiter {
  kind: 'delim'
  ch: '*' | '_' | '~'
  src: number
  length: number
  /** Units used as openers (from the right end) and closers (from the left end). */
  usedRight: number
  usedLeft: number
  canOpen: boolean
  canClose: boolean
  active: boolean
}

type Token = Literal | Delimiter

const PUNCTUATION = /[\p{P}\p{S}]/u
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', hellip: '…', mdash: '—', ndash: '–',
}

/** Renders one paragraph's (or heading's, or cell's) inlines into `out`. */
export function renderInline(input: SourceChars, out: MappedBuilder): void {
  const tokens = tokenize(input)
  matchDelimiters(tokens)
  for (const t of tokens) {
    if (t.kind === 'text') {
      for (let k = 0; k < t.text.length; k++) out.push(t.text[k]!, t.src[k]!)
    } else {
      const from = t.usedLeft
      const to = t.length - t.usedRight
      for (let k = from; k < to; k++) out.push(t.ch, t.src + k)
    }
  }
}

function tokenize({ text, src }: SourceChars): Token[] {
  const tokens: Token[] = []
  let lit: Literal | null = null
  const emit = (s: string, at: number) => {
    if (lit === null) {
      lit = { kind: 'text', text: '', src: [] }
      tokens.push(lit)
    }
    lit.text += s
    for (let k = 0; k < s.length; k++) lit.src.push(at < 0 ? -1 : at + k)
  }
  const emitRange = (from: number, to: number) => {
    for (let k = from; k < to; k++) emit(text[k]!, src[k]!)
  }
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!
      if (next === '\n') { emit('\n', -1); i += 2; continue }
      if (ASCII_PUNCTUATION.test(next)) { emit(next, src[i + 1]!); i += 2; continue }
    }
    if (c === '`') {
      const span = codeSpan(text, i)
      if (span) {
        let { from, to } = span
        const inner = text.slice(from, to).replace(/\n/g, ' ')
        if (inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '') { from++; to-- }
        for (let k = from; k < to; k++) emit(text[k] === '\n' ? ' ' : text[k]!, src[k]!)
        i = span.end
        continue
      }
      let j = i
      while (text[j] === '`') j++
      emitRange(i, j)
      i = j
      continue
    }
    if (c === '!' && text[i + 1] === '[') {
      const link = linkAt(text, i + 1)
      if (link) { i = link.end; continue } // an image: innerText shows none of it
    }
    if (c === '[') {
      const link = linkAt(text, i)
      if (link) {
        const inner = new MappedBuilder()
        renderInline({ text: text.slice(i + 1, link.labelEnd), src: src.slice(i + 1, link.labelEnd) }, inner)
        const r = inner.result()
        lit = null
        tokens.push({ kind: 'text', text: r.text, src: r.map })
        i = link.end
        continue
      }
    }
    if (c === '<') {
      const auto = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/.exec(text.slice(i, i + 2048))
      if (auto) {
        emitRange(i + 1, i + 1 + auto[1]!.length)
        i += auto[0].length
        continue
      }
    }
    if (c === '&') {
      const entity = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/.exec(text.slice(i, i + 40))
      const value = entity ? entityValue(entity) : null
      if (entity && value !== null) {
        emit(value, src[i]!)
        i += entity[0].length
        continue
      }
    }
    if (c === '*' || c === '_' || c === '~') {
      let j = i
      while (text[j] === c) j++
      const length = j - i
      if (c === '~' && length > 2) { emitRange(i, j); i = j; continue }
      const before = i === 0 ? ' ' : text[i - 1]!
      const after = j >= text.length ? ' ' : text[j]!
      const left = !/\s/.test(after) && (!PUNCTUATION.test(after) || /\s/.test(before) || PUNCTUATION.test(before))
      const right = !/\s/.test(before) && (!PUNCTUATION.test(before) || /\s/.test(after) || PUNCTUATION.test(after))
      const canOpen = c === '_' ? left && (!right || PUNCTUATION.test(before)) : left
      const canClose = c === '_' ? right && (!left || PUNCTUATION.test(after)) : right
      lit = null
      tokens.push({ kind: 'delim', ch: c, src: src[i]!, length, usedLeft: 0, usedRight: 0, canOpen, canClose, active: true })
      i = j
      continue
    }
    if (c === '\n') {
      // two spaces before a line end: a hard break (<br>); otherwise a soft break, white space
      emit('\n', src[i]!)
      i++
      continue
    }
    emit(c, src[i]!)
    i++
  }
  return tokens
}

function entityValue(m: RegExpExecArray): string | null {
  if (m[3] !== undefined) return ENTITIES[m[3]] ?? null
  const code = m[1] !== undefined ? Number(m[1]) : parseInt(m[2]!, 16)
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd'
  return String.fromCodePoint(code)
}

/** A code span opening at `at`: its content [from, to) and where it ends; null when no run of as many backticks closes it. */
function codeSpan(text: string, at: number): { from: number; to: number; end: number } | null {
  let j = at
  while (text[j] === '`') j++
  const size = j - at
  let k = j
  while (k < text.length) {
    const open = text.indexOf('`', k)
    if (open < 0) return null
    let close = open
    while (text[close] === '`') close++
    if (close - open === size) return { from: j, to: open, end: close }
    k = close
  }
  return null
}

/** An inline link `[label](destination "title")` at `at`; null when the text there is not one. */
function linkAt(text: string, at: number): { labelEnd: number; end: number } | null {
  let depth = 0
  let k = at
  for (; k < text.length; k++) {
    const c = text[k]!
    if (c === '\\') { k++; continue }
    if (c === '[') depth++
    else if (c === ']' && --depth === 0) break
  }
  if (k >= text.length || text[k + 1] !== '(') return null
  const rest = /^\(\s*(?:<[^<>\n]*>|[^\s()<]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?\s*\)/.exec(text.slice(k + 1, k + 1 + 4096))
  if (!rest) return null
  return { labelEnd: k, end: k + 1 + rest[0].length }
}

/** CommonMark's "process emphasis", with GFM's strikethrough (~ and ~~, matched by length). */
function matchDelimiters(tokens: Token[]): void {
  for (let c = 0; c < tokens.length; c++) {
    const closer = tokens[c]!
    if (closer.kind !== 'delim' || !closer.canClose) continue
    while (remaining(closer) > 0) {
      let o = c - 1
      let opener: Delimiter | null = null
      for (; o >= 0; o--) {
        const t = tokens[o]!
        if (t.kind !== 'delim' || !t.active || t.ch !== closer.ch || !t.canOpen || remaining(t) === 0) continue
        if (t.ch === '~') {
          if (remaining(t) !== remaining(closer)) continue
        } else if ((t.canClose || closer.canOpen) && (t.length + closer.length) % 3 === 0 && !(t.length % 3 === 0 && closer.length % 3 === 0)) continue
        opener = t
        break
      }
      if (opener === null) break
      const use = closer.ch === '~' ? remaining(closer) : remaining(opener) >= 2 && remaining(closer) >= 2 ? 2 : 1
      opener.usedRight += use
      closer.usedLeft += use
      // delimiters between a matched pair can no longer match (they stay literal)
      for (let k = o + 1; k < c; k++) {
        const t = tokens[k]!
        if (t.kind === 'delim') t.active = false
      }
    }
  }
}

function remaining(d: Delimiter): number {
  return d.length - d.usedLeft - d.usedRight
}
