// What the panel shows is what the text is: invisible and bidi characters get visible marks.

import { describe, expect, it } from 'vitest'
import { oneLine } from '../../panel/format.js'
import { describeInvisible, invisibleRuns, showInvisible } from '../../panel/invisible.js'

describe('invisible characters', () => {
  it('a bidi override is its own marked run, named RLO, with what it does in the legend', () => {
    expect(invisibleRuns('invoice_\u202Efdp.exe')).toEqual([
      { text: 'invoice_', mark: null },
      { text: '\u202E', mark: { short: 'RLO', legend: 'U+202E RIGHT-TO-LEFT OVERRIDE: reorders how the text around it is displayed' } },
      { text: 'fdp.exe', mark: null },
    ])
  })

  it('isolates, zero-width characters, C0 and C1 controls and line separators are marked', () => {
    const marks = invisibleRuns('a\u2066b\u200Bc\u0007d\u0085e\u2028f\uFEFFg\u00ADh').filter((r) => r.mark !== null).map((r) => r.mark!.short)
    expect(marks).toEqual(['LRI', 'ZWSP', '␇', 'U+0085', 'LS', 'BOM', 'SHY'])
  })

  it('tabs and line breaks are layout, not marked', () => {
    expect(invisibleRuns('a\tb\nc\r\nd')).toEqual([{ text: 'a\tb\nc\r\nd', mark: null }])
  })

  it('the runs join back to exactly the text', () => {
    const text = '\u202Ex\u200D\u202C\u0000y\u2069'
    expect(invisibleRuns(text).map((r) => r.text).join('')).toBe(text)
  })

  it('a zero width joiner inside an emoji stays; one between letters is marked', () => {
    expect(invisibleRuns('👩\u200D💻')).toEqual([{ text: '👩\u200D💻', mark: null }])
    expect(invisibleRuns('a\u200Db').map((r) => r.mark?.short ?? null)).toEqual([null, 'ZWJ', null])
  })

  it('one-line summaries spell the marks out in angle brackets', () => {
    expect(showInvisible('invoice_\u202Efdp.exe')).toBe('invoice_⟨RLO⟩fdp.exe')
    expect(oneLine('a\nb\tc\u0007\u2067d')).toBe('a⏎b⇥c⟨␇⟩⟨RLI⟩d')
  })

  it('an unnamed C1 control is named by its code point', () => {
    expect(describeInvisible('\u0090')).toEqual({ short: 'U+0090', legend: 'U+0090 C1 control character' })
  })
})
