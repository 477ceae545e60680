// The reference's Markdown rendered to the text innerText shows (micromark + its GFM
// extension, walked by markdown-micromark.ts): the exact text, and for each rendered unit the
// source index it came from (-1: added by the rendering, the line breaks between blocks, the
// tabs between cells, "Footnotes" and "↩").

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normaliseWhitespace, type MappedText } from '../../src/debug/mapped-text.js'
import { MARKDOWN_RENDERER, markdownText, mayRender } from '../../src/debug/markdown-text.js'
import { MARKDOWN } from './rendered-support.js'

const shown = (source: string) => normaliseWhitespace(markdownText(source)).text

/** Each rendered UTF-16 unit with the source unit it is mapped to ('' for added units). */
function pairs(source: string, r: MappedText): Array<[string, string]> {
  return Array.from({ length: r.text.length }, (_, i) => [r.text[i]!, r.map[i]! < 0 ? '' : source[r.map[i]!]!])
}

describe('Markdown text (micromark + GFM)', () => {
  it('names its renderer', () => {
    expect(MARKDOWN_RENDERER).toBe('micromark + micromark-extension-gfm (CommonMark + GFM)')
  })

  it('gives innerText\'s text for the reply of the rendered comparison: two line breaks around a <p>, one around other blocks, a tab between cells', () => {
    // "Done." right after the table is a row of it (GFM: a table runs to a blank line), with one cell of two: a tab after it
    expect(markdownText(MARKDOWN).text).toBe('Here is bold text.\n\nfirst item\nsecond item\nconst x = 1\n\nname\tvalue\ncaf€\t2\nDone.\t')
  })

  it('drops emphasis, strong and strikethrough delimiters that pair, and keeps those that do not', () => {
    expect(shown('Hello **bold** and *it* and _u_ and ~~gone~~ ~one~')).toBe('Hello bold and it and u and gone one')
    expect(shown('**unclosed and *em*')).toBe('**unclosed and em')
    expect(shown('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4')
    expect(shown('***both*** and **a *b* c**')).toBe('both and a b c')
    // GFM strikes through with one or two tildes, not three
    expect(shown('~~gone~~ ~one~ ~~~three~~~')).toBe('gone one ~~~three~~~')
  })

  it('keeps a code span\'s text as it is, less one space of padding each side; a line ending in it is a space', () => {
    expect(shown('run `a **b** c` and `` x ` y ``')).toBe('run a **b** c and x ` y')
    const r = markdownText('`` a\nb ``')
    expect([r.text, r.map]).toEqual(['a b', [3, 4, 5]])
  })

  it('shows a link\'s text (inline, full, collapsed and shortcut references), and no definition', () => {
    const source = 'See [the *docs*][d], [d][] and [d].\n\n[d]: https://x.y "Title"\n[unused]: /z'
    const r = markdownText(source)
    expect(r.text).toBe('See the docs, d and d.')
    expect(r.map).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 19, 20, 22, 26, 27, 28, 29, 30, 32, 34])
    expect(pairs(source, r).every(([c, s]) => c === s)).toBe(true)
    expect(shown('[link *t*](http://x.y "title") and [also](not closed')).toBe('link t and [also](not closed')
    // a reference with no definition is no link, and a footnote call with none is no call
    expect(shown('[missing][nope] and [^nofootnote]')).toBe('[missing][nope] and [^nofootnote]')
  })

  it('shows no image (innerText has no text for an <img>, its alt included), inside a link too', () => {
    expect(shown('![alt *text*](a.png) and [![img](b.png) label](c)')).toBe('and label')
  })

  it('shows autolinks and GFM autolink literals as their address', () => {
    const source = '<https://a.b/c> <me@x.io> www.example.com/p and a@b.co.'
    const r = markdownText(source)
    expect(r.text).toBe('https://a.b/c me@x.io www.example.com/p and a@b.co.')
    expect(r.map.slice(0, 3)).toEqual([1, 2, 3])
    expect(r.map.slice(14, 21)).toEqual([17, 18, 19, 20, 21, 22, 23])
  })

  it('resolves escapes to the escaped character and character references to theirs (all its units mapped to the "&")', () => {
    const refs = '&amp; &lt;x&gt; &copy; &#35; &#x1F600; &#0; &nope; &amp'
    const r = markdownText(refs)
    // an unknown name and a reference without ";" are text; code point 0 is U+FFFD
    expect(r.text).toBe('& <x> © # 😀 \ufffd &nope; &amp')
    expect(r.map).toEqual([0, 5, 6, 10, 11, 15, 16, 22, 23, 28, 29, 29, 38, 39, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54])
    const escapes = '\\*not em\\* \\\\ \\a \\[x]'
    const e = markdownText(escapes)
    // "\a" is no escape: a is not punctuation
    expect(e.text).toBe('*not em* \\ \\a [x]')
    expect(e.map).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 14, 15, 16, 18, 19, 20])
    expect(pairs(escapes, e).every(([c, s]) => c === s)).toBe(true)
  })

  it('renders headings, quotes and breaks as their text: a hard break is a line break mapped to its first character', () => {
    expect(shown('# Title #\n\nPara line\nnext line\n\nSetext\n===\n> quote **q**\n> more\n\n***\nend')).toBe('Title Para line next line Setext quote q more end')
    expect(markdownText('Multi\nline\n===\n\n## Heading ##\n\n---').text).toBe('Multi line\nHeading')
    const source = 'line one  \nline two\\\nline three\nsoft'
    const r = markdownText(source)
    expect(r.text).toBe('line one\nline two\nline three soft')
    expect([r.map[8], r.map[17], r.map[28]]).toEqual([8, 19, 31])
    // quotes nest, and a lazy line continues a quote's paragraph
    expect(markdownText('> quote\nlazy line\n> > nested\n\n> - item\n>   more').text).toBe('quote lazy line\n\nnested\n\nitem more')
  })

  it('renders lists without their markers: a tight list\'s items one line apart, a loose list\'s paragraphs two', () => {
    const source = '- a\n- b\n  - c\n    1. d\n- e'
    const r = markdownText(source)
    expect([r.text, r.map]).toEqual(['a\nb\nc\nd\ne', [2, -1, 6, -1, 12, -1, 21, -1, 25]])
    expect(markdownText('- a\n\n- b\n  1. c').text).toBe('a\n\nb\n\nc')
    // an item's content indented by a tab is its second paragraph, not code
    expect(markdownText('  - tab\tinside\n\n\tsecond paragraph').text).toBe('tab inside\n\nsecond paragraph')
    expect(shown('1. first\n2) second')).toBe('first second')
  })

  it('shows a task list item\'s text, not its checkbox', () => {
    const r = markdownText('- [ ] todo\n- [x] done *now*')
    expect([r.text, r.map]).toEqual(['todo\ndone now', [6, 7, 8, 9, -1, 17, 18, 19, 20, 21, 23, 24, 25]])
  })

  it('keeps code blocks verbatim (fenced and indented), ended with a line feed as the compiler writes them', () => {
    expect(shown('```ts\nconst a = **1**\n  b\n```\nafter')).toBe('const a = **1** b after')
    expect(shown('para\n\n    indented *code*\n\nback')).toBe('para indented *code* back')
    const source = '```\n  keep   spaces\n\n  and blank lines\n```'
    const r = markdownText(source)
    expect(r.text).toBe('  keep   spaces\n\n  and blank lines\n')
    expect(r.map).toEqual(Array.from({ length: 35 }, (_, k) => k + 4))
    // a tab a quote's marker used a column of: the rest of it is spaces, mapped to the tab
    expect(markdownText('>\t\tfoo')).toEqual({ text: '  foo\n', map: [2, 2, 3, 4, 5, -1] })
  })

  it('renders a GFM table as its cells: a tab between cells, a line between rows, as many cells as the header', () => {
    expect(markdownText('| a | b |\n|---|:-:|\n| 1 | **2** |\n| x \\| y | |').text).toBe('a\tb\n1\t2\nx | y\t')
    const source = '| `a\\|b` | c |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |'
    const r = markdownText(source)
    // "\|" in a code span is "|" in a table; the third cell is left out; the missing one is empty
    expect([r.text, r.map]).toEqual(['a|b\tc\n1\t2\n4\t', [3, 5, 6, -1, 11, -1, 27, -1, 31, -1, 41, -1]])
  })

  it('shows footnote calls as their numbers and the definitions called at the end, as GFM renders them', () => {
    const source = 'A claim[^1] and another[^note].\n\n[^note]: Second, *called second*.\n[^1]: First.\n[^never]: Not called.'
    const r = markdownText(source)
    expect(r.text).toBe('A claim1 and another2.\n\nFootnotes\n\nFirst. ↩\n\nSecond, called second. ↩')
    // each number maps to its call's "[", each definition's text to itself
    expect([r.map[7], r.map[20], r.map.slice(35, 41), r.map.slice(45, 52)]).toEqual([7, 23, [73, 74, 75, 76, 77, 78], [42, 43, 44, 45, 46, 47, 48]])
    // called twice: two "↩"; a definition not ending with a paragraph has them after its last block
    expect(markdownText('[^a]: x\n\n[^a] [^a] [^b]\n\n[^b]:\n    - l\n\n    ```\n    y\n    ```').text).toBe('1 1 2\n\nFootnotes\n\nx ↩ ↩2\n\nl\ny\n\n↩')
  })

  it('shows raw HTML as its source text (micromark\'s default: a page that escapes HTML shows it so)', () => {
    const source = '<div class="x">\n**not emphasis**\n</div>\n\npara <b>bold</b> end'
    const r = markdownText(source)
    expect(r.text).toBe('<div class="x"> **not emphasis** </div>\n\npara <b>bold</b> end')
    expect(pairs(source, r).filter(([c, s]) => c !== s)).toEqual([[' ', '\n'], [' ', '\n'], ['\n', ''], ['\n', '']])
  })

  it('maps line endings (CR LF, CR) and a NUL (U+FFFD) to the source, past a byte order mark', () => {
    expect(markdownText('a\u0000b\r\nc')).toEqual({ text: 'a\ufffdb c', map: [0, 1, 2, 3, 5] })
    expect(markdownText('\ufeffa *b*')).toEqual({ text: 'a b', map: [1, 2, 4] })
    expect(markdownText('a\rb\r\n\r\n```\r\nx\r\n```')).toEqual({ text: 'a b\n\nx\n', map: [0, 1, 2, -1, -1, 12, 13] })
  })

  it('maps each unit to the source character it came from (-1: added between blocks)', () => {
    const source = '**Hi** there\n\n- x'
    const r = normaliseWhitespace(markdownText(source))
    expect(r.text).toBe('Hi there x')
    expect(r.map).toEqual([2, 3, 6, 7, 8, 9, 10, 11, -1, 16])
    expect([...r.text].map((c, i) => (r.map[i]! < 0 ? c : source[r.map[i]!]))).toEqual([...'Hi there x'])
  })
})

describe('mayRender: whether a source could render to a text, without rendering it', () => {
  it('is false only when the text\'s characters other than white space are not the source\'s, in order', () => {
    expect([mayRender('**a** `b`\n\n- c', 'a b c'), mayRender('a b', 'b a'), mayRender('a b', 'a b x')]).toEqual([true, false, false])
    // a character reference or a footnote can render characters the source does not have where they are
    expect([mayRender('&copy; b', '© b'), mayRender('b[^1]\n\n[^1]: a', 'b1 Footnotes a ↩'), mayRender('a\u0000', 'a\ufffd')]).toEqual([true, true, true])
  })

  it('holds for every source rendered here', () => {
    const sources = [
      MARKDOWN, '| a | b |\n|---|:-:|\n| 1 | **2** |\n| x \\| y | |', '| `a\\|b` | c |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |',
      'See [the *docs*][d], [d][] and [d].\n\n[d]: https://x.y "Title"', '![alt *text*](a.png) and [![img](b.png) label](c)',
      '<https://a.b/c> <me@x.io> www.example.com/p and a@b.co.', '\\*not em\\* \\\\ \\a \\[x]', 'line one  \nline two\\\nline three\nsoft',
      '> quote\nlazy line\n> > nested\n\n> - item\n>   more', '- [ ] todo\n- [x] done *now*', '>\t\tfoo', '\ufeffa *b*', 'a\rb\r\n\r\n```\r\nx\r\n```',
      '<div class="x">\n**not emphasis**\n</div>\n\npara <b>bold</b> end', '~~gone~~ ~one~ ~~~three~~~', '`` a\nb ``',
    ]
    expect(sources.filter((s) => !mayRender(s, shown(s)))).toEqual([])
  })

  it('holds for Markdown made of any of its punctuation, and every unit maps to a source character it equals (white space and added units aside)', () => {
    const pieces = ['*', '_', '~', '`', '```', '#', '- ', '1. ', '> ', '|', '---', '[', ']', '(', ')', '!', '<', '>', '\\', 'a', 'b c', '<b>', '\n', '\n\n', '  ', '\t', '\r\n', 'www.x.io', 'é', '😀']
    fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const source = parts.join('')
      const r = markdownText(source)
      expect(mayRender(source, normaliseWhitespace(r).text)).toBe(true)
      expect(pairs(source, r).filter(([c, s]) => s !== '' && c !== s && !/\s/.test(c))).toEqual([])
    }), { numRuns: 400, seed: 28 })
  })
})

describe('normaliseWhitespace', () => {
  it('makes every run of white space one space, none at the ends, each run mapped to its first unit', () => {
    expect(normaliseWhitespace('  a\n\n\tb\u00a0 c \n')).toEqual({ text: 'a b c', map: [2, 3, 6, 7, 9] })
  })
})
