// Reference Markdown rendered to the text a browser's innerText shows of it, with micromark
// (CommonMark) and micromark-extension-gfm (GFM: tables, strikethrough, task lists, autolink
// literals, footnotes). micromark's event stream gives every token with its exact source
// offsets; this walks it as micromark's own HTML compiler does (micromark/lib/compile.js and
// the GFM extensions' html.js), and instead of HTML writes innerText operations
// (inner-text.ts), each unit mapped to the source character it came from:
//   - paragraphs, headings, block quotes, lists and their items, code blocks, thematic breaks
//     and tables are blocks; a tight list's paragraphs are no <p> (one line break, not two);
//   - the Markdown's punctuation is not text: emphasis, strong and strikethrough sequences,
//     code span backticks (and the one space of padding each side), list markers, quote
//     markers, heading sequences, fences and their info string, table pipes and delimiter rows;
//   - code blocks keep their text as it is (and the line feed the compiler ends them with);
//     a line ending in a code span is a space; `\|` in a table's code span is `|` (GFM);
//   - a link shows its text; an image shows nothing (innerText leaves out alt text);
//     autolinks and GFM autolink literals show their address; link reference definitions
//     show nothing;
//   - escapes show the escaped character; character references their character, mapped
//     (all its units) to the `&`;
//   - hard breaks (two spaces or a backslash before a line ending) are <br>, mapped to their
//     first character; a soft line ending is white space;
//   - a task list item's checkbox shows nothing (innerText has no text for an <input>);
//   - a table row shows as many cells as the header has: missing ones empty, extra ones left
//     out, as GFM renders them;
//   - a footnote call shows its number (in order of first call), mapped to its `[`; the
//     definitions called show at the end, as GFM renders them: a "Footnotes" heading, an
//     ordered list of the definitions in call order, each ending with "↩" per call
//     (the second and later "↩2", "↩3"…); definitions never called show nothing;
//   - raw HTML (blocks and inline) shows as its source text: micromark's default (it encodes
//     HTML unless allowDangerousHtml is set), and what chat pages that escape HTML show.
//     A page that renders the HTML shows the text of its elements instead (and one that drops
//     it, nothing): that shows as a difference of cause `other`.

import { parse, postprocess, preprocess } from 'micromark'
import { gfm } from 'micromark-extension-gfm'
import { innerText, type InnerTextOp } from './inner-text.js'
import type { MappedText } from './mapped-text.js'
import { characterReferenceValue, looseLists, normalizeIdentifier, tokenUnits, type MicromarkEvent, type MicromarkToken } from './markdown-micromark-source.js'

const OPTIONS = { extensions: [gfm()] }

/** Tokens whose text is the rendered text (outside a skipped subtree). */
const TEXT = new Set([
  'data', 'characterEscapeValue', 'codeTextData', 'codeFlowValue', 'htmlFlowData', 'htmlTextData',
  'autolinkProtocol', 'autolinkEmail', 'literalAutolinkHttp', 'literalAutolinkWww', 'literalAutolinkEmail',
])

/** Tokens none of whose text is shown (their `data` is a destination, a label, an info string…). */
const HIDDEN = new Set([
  'image', 'definition', 'resource', 'reference', 'codeFencedFence', 'setextHeadingLine', 'tableDelimiterRow',
  'taskListCheck', 'listItemPrefix', 'gfmFootnoteDefinitionLabel', 'thematicBreak',
])

/** Blocks asking for one line break on each side (a paragraph asks for two, unless in a tight list). */
const BLOCKS = new Set(['atxHeading', 'setextHeading', 'blockQuote', 'listOrdered', 'listUnordered', 'codeFenced', 'codeIndented', 'thematicBreak', 'table', 'tableRow'])

interface Footnote {
  ops: InnerTextOp[]
  /** Where its last paragraph closes, when the definition ends with one: the "↩" go inside it. */
  closesParagraphAt: number | null
}

/** `source` rendered as Markdown, as innerText shows it, each unit mapped to its source index (-1: added). */
export function micromarkText(source: string): MappedText {
  const shift = source.charCodeAt(0) === 0xfeff ? 1 : 0
  const events = postprocess(parse(OPTIONS).document().write(preprocess()(source, undefined, true)))
  return innerText(new Walk(events, source, shift).run())
}

class Walk {
  private ops: InnerTextOp[] = []
  /** Whether each open list, quote or footnote's paragraphs are without <p> (tight lists). */
  private readonly tight: boolean[] = []
  private readonly loose: Set<MicromarkToken>
  private hidden: MicromarkToken | null = null
  private pre = false
  private codeSeen = false
  /** The code block's text so far ends with a line feed. */
  private codeEndsLine = false
  private fences = 0
  private skipLineEnding = false
  private columns: number | null = null
  private column = 0
  /** The last block closed in the current output: 'p' for a <p>. */
  private lastClosed: 'p' | 'other' | null = null
  private paragraphClosedAt: number | null = null
  private readonly calls: string[] = []
  private readonly callCounts = new Map<string, number>()
  private readonly footnotes = new Map<string, Footnote>()
  private readonly defining: Array<{ id: string; outer: InnerTextOp[] }> = []

  constructor(private readonly events: readonly MicromarkEvent[], private readonly source: string, private readonly shift: number) {
    this.loose = looseLists(events)
  }

  run(): InnerTextOp[] {
    for (const event of this.events) {
      const [kind, token] = event
      if (this.hidden !== null) {
        // inside a hidden token nothing counts; its own exit does (a thematic break's edge)
        if (kind !== 'exit' || token !== this.hidden) continue
        this.hidden = null
      }
      if (kind === 'enter') this.enter(event)
      else this.exit(token)
    }
    this.footnoteSection()
    return this.ops
  }

  private block(lines: 1 | 2): void {
    this.ops.push({ op: 'block', lines })
  }

  private text(text: string, map: readonly number[]): void {
    if (this.pre && text !== '') this.codeEndsLine = text.endsWith('\n')
    this.ops.push({ op: 'text', text, map, pre: this.pre })
  }

  /** Text made from one source character (a reference's value, a footnote's number): all its units map there. */
  private textAt(text: string, src: number): void {
    this.text(text, Array.from({ length: text.length }, () => src))
  }

  private at(token: MicromarkToken): number {
    return token.start.offset + this.shift
  }

  private enter(event: MicromarkEvent): void {
    const token = event[1]
    const type = token.type as string
    if (BLOCKS.has(type)) this.block(1)
    switch (type) {
      case 'paragraph':
        if (!this.tight.at(-1)) this.block(2)
        break
      case 'blockQuote':
        this.tight.push(false)
        break
      case 'listOrdered':
      case 'listUnordered':
        this.tight.push(!this.loose.has(token))
        break
      case 'listItemPrefix': // a new item
        this.block(1)
        break
      case 'codeFenced':
      case 'codeIndented':
        this.pre = true
        this.codeSeen = false
        this.codeEndsLine = false
        this.fences = 0
        break
      case 'codeFencedFence':
        // the line ending after the opening fence is not the code's
        if (this.fences++ === 0) this.skipLineEnding = true
        break
      case 'table':
        // micromark-extension-gfm-table puts the columns' alignments on the table token
        this.columns = (token as { _align?: readonly unknown[] })._align?.length ?? 0
        break
      case 'tableRow':
        this.column = 0
        break
      case 'tableHeader':
      case 'tableData':
        if (this.column >= (this.columns ?? 0)) { this.hidden = token; return }
        this.ops.push({ op: 'cell', first: this.column === 0 })
        this.column++
        break
      case 'htmlFlow':
        // raw HTML shown as text, between blocks: no block of its own
        this.textAt(' ', -1)
        break
      case 'lineEnding':
        if (this.skipLineEnding) this.skipLineEnding = false
        else this.text(this.pre ? '\n' : ' ', [this.at(token)])
        break
      case 'hardBreakEscape':
      case 'hardBreakTrailing':
        this.ops.push({ op: 'br', src: this.at(token) })
        break
      case 'characterReference': {
        const raw = this.source.slice(this.at(token) + 1, token.end.offset + this.shift - 1)
        this.textAt(characterReferenceValue(raw), this.at(token))
        this.hidden = token
        return
      }
      case 'gfmFootnoteCall': {
        this.textAt(String(this.call(this.label(token))), this.at(token))
        this.hidden = token
        return
      }
      case 'gfmFootnoteDefinition':
        this.tight.push(false)
        this.defining.push({ id: '', outer: this.ops })
        this.ops = []
        this.lastClosed = null
        break
      case 'gfmFootnoteDefinitionLabel':
        this.defining.at(-1)!.id = this.label(token)
        break
    }
    if (HIDDEN.has(type)) { this.hidden = token; return }
    if (TEXT.has(type)) {
      const units = tokenUnits(event, this.shift)
      if (type === 'codeFlowValue') this.codeSeen = true
      if (type === 'codeTextData' && this.columns !== null) this.text(...unescapePipes(units.text, units.map))
      else this.text(units.text, units.map)
    }
  }

  private exit(token: MicromarkToken): void {
    const type = token.type as string
    switch (type) {
      case 'paragraph':
        if (this.tight.at(-1)) return
        this.paragraphClosedAt = this.ops.length
        this.block(2)
        this.lastClosed = 'p'
        return
      case 'blockQuote':
      case 'listOrdered':
      case 'listUnordered':
        this.tight.pop()
        break
      case 'codeFenced':
      case 'codeIndented':
        // the compiler ends a code block's text with a line feed (a closed fence's comes with the line before it)
        if (this.codeSeen && !this.codeEndsLine) this.textAt('\n', -1)
        this.pre = false
        this.skipLineEnding = false
        break
      case 'table':
        this.columns = null
        break
      case 'tableRow':
        for (; this.column < (this.columns ?? 0); this.column++) this.ops.push({ op: 'cell', first: this.column === 0 })
        break
      case 'htmlFlow':
        this.textAt(' ', -1)
        this.lastClosed = 'other'
        return
      case 'gfmFootnoteDefinition':
        this.endDefinition()
        return
    }
    if (BLOCKS.has(type)) {
      this.block(1)
      this.lastClosed = 'other'
    }
  }

  /** A footnote label's identifier: the text between `[^` and `]`. */
  private label(token: MicromarkToken): string {
    return normalizeIdentifier(this.source.slice(this.at(token) + 2, token.end.offset + this.shift - 1))
  }

  /** A footnote call's number: the order of its identifier's first call. */
  private call(id: string): number {
    if (!this.calls.includes(id)) this.calls.push(id)
    this.callCounts.set(id, (this.callCounts.get(id) ?? 0) + 1)
    return this.calls.indexOf(id) + 1
  }

  private endDefinition(): void {
    const { id, outer } = this.defining.pop()!
    this.tight.pop()
    const closesParagraphAt = this.lastClosed === 'p' ? this.paragraphClosedAt : null
    // the first definition of an identifier is the one shown
    if (!this.footnotes.has(id)) this.footnotes.set(id, { ops: this.ops, closesParagraphAt })
    this.ops = outer
    this.lastClosed = 'other'
  }

  /** The definitions called, at the end, as GFM renders them (a <section> with an <h2> and an <ol>). */
  private footnoteSection(): void {
    if (this.calls.length === 0) return
    this.block(1)
    this.textAt('Footnotes', -1)
    this.block(1)
    this.calls.forEach((id) => {
      const note = this.footnotes.get(id) ?? { ops: [], closesParagraphAt: null }
      const count = this.callCounts.get(id) ?? 1
      const back = Array.from({ length: count }, (_, k) => (k === 0 ? '↩' : `↩${k + 1}`)).join(' ')
      const end = note.closesParagraphAt ?? note.ops.length
      this.block(1)
      this.ops.push(...note.ops.slice(0, end))
      // inside the last paragraph after a space, or after the last block
      this.textAt(note.closesParagraphAt === null ? back : ` ${back}`, -1)
      this.ops.push(...note.ops.slice(end))
      this.block(1)
    })
  }
}

/** A table's code span: `\|` is `|` (GFM escapes the pipe there too). */
function unescapePipes(text: string, map: readonly number[]): [string, number[]] {
  let out = ''
  const outMap: number[] = []
  for (let k = 0; k < text.length; k++) {
    if (text[k] === '\\' && text[k + 1] === '|') continue
    out += text[k]
    outMap.push(map[k]!)
  }
  return [out, outMap]
}
