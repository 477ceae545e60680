// The stopgap Markdown renderer (until a Markdown library is installed): the text innerText
// shows of each construct, white space normalised as compareRenderedText reads it, and the
// source index each unit came from.

import { describe, expect, it } from 'vitest'
import { normaliseWhitespace } from '../../src/debug/mapped-text.js'
import { markdownText } from '../../src/debug/markdown-text.js'

const shown = (source: string) => normaliseWhitespace(markdownText(source)).text

describe('stopgap Markdown text', () => {
  it('drops emphasis, strong and strikethrough delimiters that pair, and keeps those that do not', () => {
    expect(shown('Hello **bold** and *it* and _u_ and ~~gone~~ ~one~')).toBe('Hello bold and it and u and gone one')
    expect(shown('**unclosed and *em*')).toBe('**unclosed and em')
    expect(shown('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4')
    expect(shown('***both*** and **a *b* c**')).toBe('both and a b c')
  })

  it('keeps a code span\'s text as it is, its delimiters inside it included', () => {
    expect(shown('run `a **b** c` and `` x ` y ``')).toBe('run a **b** c and x ` y')
  })

  it('shows a link\'s text, no image, an autolink\'s address; resolves escapes and entities', () => {
    expect(shown('[link *t*](http://x.y "title") ![img](a.png) <https://a.b> &amp; &#x41; &copy; \\*not\\*')).toBe('link t https://a.b & A © *not*')
    expect(shown('[not a link] (x) and [also](not closed')).toBe('[not a link] (x) and [also](not closed')
  })

  it('renders headings, lists, quotes and breaks as their text', () => {
    expect(shown('# Title #\n\nPara line\nnext line\n\n- one\n- two **b**\n  - nested\n\n1. first\n2) second')).toBe('Title Para line next line one two b nested first second')
    expect(shown('Setext\n===\n> quote **q**\n> more\n\n***\nend')).toBe('Setext quote q more end')
  })

  it('keeps code blocks verbatim (fenced and indented)', () => {
    expect(shown('```ts\nconst a = **1**\n  b\n```\nafter')).toBe('const a = **1** b after')
    expect(shown('para\n\n    indented *code*\n\nback')).toBe('para indented *code* back')
  })

  it('renders a GFM table as its cells (an escaped pipe is a pipe)', () => {
    expect(markdownText('| a | b |\n|---|:-:|\n| 1 | **2** |\n| x \\| y | |').text).toBe('\na\tb\n1\t2\nx | y\t\n')
    expect(shown('| a | b |\n|---|:-:|\n| 1 | **2** |')).toBe('a b 1 2')
  })

  it('maps each unit to the source character it came from (-1: added between blocks)', () => {
    const source = '**Hi** there\n\n- x'
    const r = normaliseWhitespace(markdownText(source))
    expect(r.text).toBe('Hi there x')
    expect(r.map).toEqual([2, 3, 6, 7, 8, 9, 10, 11, -1, 16])
    expect([...r.text].map((c, i) => (r.map[i]! < 0 ? c : source[r.map[i]!]))).toEqual([...'Hi there x'])
  })
})

describe('normaliseWhitespace', () => {
  it('makes every run of white space one space, none at the ends, each run mapped to its first unit', () => {
    expect(normaliseWhitespace('  a\n\n\tb\u00a0 c \n')).toEqual({ text: 'a b c', map: [2, 3, 6, 7, 9] })
  })
})
