// STOPGAP Markdown renderer: a small subset of CommonMark + GFM, written here only until a
// well-kept Markdown library is installed (wanted: mdast-util-from-markdown with
// mdast-util-gfm and micromark-extension-gfm, whose nodes carry source positions; see
// markdown-text.ts, the one module that chooses the renderer). It gives the text a browser's
// innerText shows of the HTML a chat page renders, each unit mapped to the source character
// it came from, for compareRenderedText.
//
// Blocks: paragraphs (soft breaks), ATX and setext headings, thematic breaks, fenced and
// indented code blocks, block quotes, bullet and ordered lists (nested by indentation; the
// markers are not in innerText), GFM tables (cells, tab-separated rows). Not done: HTML
// blocks (kept as paragraph text), link reference definitions, lazy continuation inside
// block quotes and lists past a paragraph's own lines, tabs as indentation (read as 4 spaces
// only at a line's start), footnotes, task list checkboxes (innerText shows none either).
// Its limits only matter for the whitespace between blocks and the delimiters it keeps:
// text it keeps where a library would not shows as a difference of cause `other`.

import { MappedBuilder, type MappedText } from './mapped-text.js'
import { renderInline, type SourceChars } from './markdown-stopgap-inline.js'

/** A line of a container's content: its text and the source index of its first unit. */
interface Line {
  text: string
  start: number
}

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/
const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)/
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const QUOTE = /^ {0,3}> ?/
const ITEM = /^( {0,3})([-+*]|\d{1,9}[.)])(?=[ \t]|$)/
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/

/** The innerText-like text of `source` rendered as Markdown, mapped to `source`'s indexes. */
export function stopgapMarkdownText(source: string): MappedText {
  const lines: Line[] = []
  let at = 0
  for (const raw of source.split('\n')) {
    lines.push({ text: raw.replace(/\r$/, '').replace(/^\t/, '    '), start: at })
    at += raw.length + 1
  }
  const out = new MappedBuilder()
  renderBlocks(lines, out)
  return out.result()
}

function isBlank(line: Line): boolean {
  return /^[ \t]*$/.test(line.text)
}

/** A line with its first `n` units cut (a container's prefix). */
function cut(line: Line, n: number): Line {
  return { text: line.text.slice(n), start: line.start + n }
}

/** A new block starts on this line (it interrupts a paragraph). */
function startsBlock(line: Line): boolean {
  const t = line.text
  return FENCE.test(t) || ATX.test(t) || THEMATIC.test(t) || QUOTE.test(t) || (ITEM.test(t) && !/^ {0,3}(?:[-+*]|\d+[.)])[ \t]*$/.test(t))
}

function renderBlocks(lines: Line[], out: MappedBuilder): void {
  let i = 0
  const block = () => out.added('\n')
  while (i < lines.length) {
    const line = lines[i]!
    const t = line.text
    if (isBlank(line)) { i++; continue }
    const fence = FENCE.exec(t)
    if (fence) {
      const indent = fence[1]!.length
      const mark = fence[2]!
      const close = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}[ \\t]*$`)
      i++
      block()
      let first = true
      while (i < lines.length && !close.test(lines[i]!.text)) {
        const l = lines[i]!
        const strip = Math.min(indent, /^ */.exec(l.text)![0].length)
        if (!first) out.added('\n')
        out.push(l.text.slice(strip), l.start + strip)
        first = false
        i++
      }
      i++ // the closing fence (or the end)
      block()
      continue
    }
    if (/^ {4}/.test(t)) {
      // indented code: its lines (and the blank ones between) less four spaces
      block()
      const code: Line[] = []
      while (i < lines.length && (/^ {4}/.test(lines[i]!.text) || isBlank(lines[i]!))) code.push(cut(lines[i]!, Math.min(4, lines[i]!.text.length))), i++
      while (code.length > 0 && isBlank(code[code.length - 1]!)) code.pop()
      code.forEach((l, k) => { if (k > 0) out.added('\n'); out.push(l.text, l.start) })
      block()
      continue
    }
    const atx = ATX.exec(t)
    if (atx) {
      const m = /^( {0,3}#{1,6}[ \t]*)(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(t)!
      const content = m[2]!.replace(/^#+$/, '')
      block()
      inline([{ text: content, start: line.start + m[1]!.length }], out)
      block()
      i++
      continue
    }
    if (THEMATIC.test(t)) { block(); i++; continue }
    if (QUOTE.test(t)) {
      const inner: Line[] = []
      while (i < lines.length && QUOTE.test(lines[i]!.text)) {
        const l = lines[i]!
        inner.push(cut(l, QUOTE.exec(l.text)![0].length))
        i++
      }
      block()
      renderBlocks(inner, out)
      block()
      continue
    }
    const item = ITEM.exec(t)
    if (item) {
      i = renderItem(lines, i, item, out)
      continue
    }
    if (i + 1 < lines.length && t.includes('|') && DELIMITER_ROW.test(lines[i + 1]!.text) && cells(line).length === cells(lines[i + 1]!).length) {
      i = renderTable(lines, i, out)
      continue
    }
    // a paragraph: until a blank line or a block that interrupts it; a setext underline makes it a heading
    const para: Line[] = [line]
    i++
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!) && !SETEXT.test(lines[i]!.text)) para.push(lines[i]!), i++
    if (i < lines.length && SETEXT.test(lines[i]!.text)) i++
    block()
    inline(para, out)
    block()
  }
}

/** One list item from line `i`: its content lines (indented past the marker, or lazy continuations) rendered as blocks. */
function renderItem(lines: Line[], i: number, item: RegExpExecArray, out: MappedBuilder): number {
  const line = lines[i]!
  const afterMarker = item[0].length
  const spaces = /^[ \t]*/.exec(line.text.slice(afterMarker))![0].length
  const width = spaces === 0 || spaces > 4 || afterMarker + spaces >= line.text.length ? afterMarker + 1 : afterMarker + spaces
  const inner: Line[] = [cut(line, Math.min(width, line.text.length))]
  i++
  let lastBlank = false
  while (i < lines.length) {
    const l = lines[i]!
    if (isBlank(l)) { inner.push(cut(l, Math.min(width, l.text.length))); lastBlank = true; i++; continue }
    const indent = /^ */.exec(l.text)![0].length
    if (indent >= width) { inner.push(cut(l, width)); lastBlank = false; i++; continue }
    // a paragraph continuation line (lazy): not after a blank line, not a new block
    if (!lastBlank && !startsBlock(l) && !SETEXT.test(l.text)) { inner.push(cut(l, indent)); i++; continue }
    break
  }
  out.added('\n')
  renderBlocks(inner, out)
  out.added('\n')
  return i
}

/** A row's cells: split on unescaped pipes, the outer pipes dropped, each trimmed. */
function cells(line: Line): Line[] {
  const t = line.text
  const out: Line[] = []
  let from = 0
  for (let k = 0; k <= t.length; k++) {
    if (k < t.length && t[k] === '\\') { k++; continue }
    if (k === t.length || t[k] === '|') {
      out.push({ text: t.slice(from, k), start: line.start + from })
      from = k + 1
    }
  }
  if (out.length > 1 && out[0]!.text.trim() === '') out.shift()
  if (out.length > 1 && out[out.length - 1]!.text.trim() === '') out.pop()
  return out.map((c) => {
    const lead = /^[ \t]*/.exec(c.text)![0].length
    return { text: c.text.slice(lead).replace(/[ \t]+$/, ''), start: c.start + lead }
  })
}

/** A GFM table: the header row, the delimiter row (no text), body rows until a blank line or a block; innerText puts a tab between cells and a line between rows. */
function renderTable(lines: Line[], i: number, out: MappedBuilder): number {
  const columns = cells(lines[i]!).length
  const row = (line: Line) => {
    const cs = cells(line)
    for (let k = 0; k < columns; k++) {
      if (k > 0) out.added('\t')
      const c = cs[k]
      if (c) inline([c], out)
    }
    out.added('\n')
  }
  out.added('\n')
  row(lines[i]!)
  i += 2
  while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!)) row(lines[i]!), i++
  return i
}

/** A paragraph's lines as one inline run (leading white space of each line dropped, as CommonMark does). */
function inline(para: Line[], out: MappedBuilder): void {
  const chars: SourceChars = { text: '', src: [] }
  para.forEach((line, k) => {
    const lead = /^[ \t]*/.exec(line.text)![0].length
    const text = line.text.slice(lead)
    if (k > 0) {
      chars.text += '\n'
      chars.src.push(line.start - 1)
    }
    chars.text += text
    for (let u = 0; u < text.length; u++) chars.src.push(line.start + lead + u)
  })
  chars.text = chars.text.replace(/[ \t]+$/, '')
  chars.src.length = chars.text.length
  renderInline(chars, out)
}
