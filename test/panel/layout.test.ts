// The layout rules without a browser (panel/layout.ts): pane sizes within bounds, remembered
// through the shell's storage (or in memory when it refuses), strings cut in the middle; and
// the map between tool-call arguments and their pretty-printed form (panel/json-align.ts).

import { describe, expect, it } from 'vitest'
import { alignJson } from '../../panel/json-align.js'
import { createSizes, framesShareFor, listHeightFor, listWidthFor, middleSplit } from '../../panel/layout.js'

describe('pane sizes', () => {
  it('the request list: a fifth of the panel until dragged, never leaving the selection less than two panes', () => {
    expect([listWidthFor(1280, Number.NaN), listWidthFor(1600, Number.NaN), listWidthFor(760, Number.NaN)]).toEqual([282, 300, 167])
    expect([listWidthFor(1280, 900), listWidthFor(1280, 40), listWidthFor(800, 500)]).toEqual([640, 160, 360])
    expect([listHeightFor(800, 150), listHeightFor(800, 900), listHeightFor(800, 10)]).toEqual([150, 320, 72])
  })

  it('frames and reply: each keeps at least 220 px', () => {
    expect([framesShareFor(1000, 0.58), framesShareFor(1000, 0.95), framesShareFor(1000, 0.05), framesShareFor(300, 0.9)]).toEqual([0.58, 0.78, 0.22, 0.5])
  })

  it('sizes are read from and written to the storage; a storage that throws leaves them in memory', () => {
    const kept = new Map<string, string>([['deltascope.layout.framesShare', '0.7'], ['deltascope.layout.listWidth', 'junk']])
    const sizes = createSizes({ get: (k) => kept.get(k) ?? null, set: (k, v) => { kept.set(k, v) } })
    expect([sizes.framesShare.value, Number.isNaN(sizes.listWidth.value), sizes.listHeight.value]).toEqual([0.7, true, 150])
    sizes.listWidth.value = 333
    sizes.framesShare.value = 0.41234
    expect([kept.get('deltascope.layout.listWidth'), kept.get('deltascope.layout.framesShare')]).toEqual(['333', '0.412'])
    const refusing = createSizes({ get: () => { throw new Error('denied') }, set: () => { throw new Error('full') } })
    refusing.framesShare.value = 0.3
    expect(refusing.framesShare.value).toBe(0.3)
    expect(createSizes().listHeight.value).toBe(150)
  })
})

describe('middleSplit', () => {
  it('keeps the end of a long string, and a short query whole', () => {
    expect(middleSplit('/v1/chat/completions')).toEqual(['/v1/chat/completions', ''])
    // the tail starts at a separator a few characters on, when there is one
    expect(middleSplit('https://api.openai.com/v1/chat/completions?x=r1', 20)).toEqual(['https://api.openai.com/v1/chat', '/completions?x=r1'])
    expect(middleSplit('https://h.test/v1/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=abc', 24))
      .toEqual(['https://h.test/v1/models/gemini-2.5-pro:streamGenerateContent', '?alt=sse&key=abc'])
    expect(middleSplit('/openai/deployments/gpt-4o-2024-08-06-eastus2/chat/completions?api-version=2024-10-21&trace=req-7f3a', 20))
      .toEqual(['/openai/deployments/gpt-4o-2024-08-06-eastus2/chat/completions?api-version=2024-10-21', '&trace=req-7f3a'])
    // a query longer than the tail (up to half as long again) is kept whole
    expect(middleSplit('https://a.test/path/to/thing?alpha=1&beta=2&gamma=33', 20)).toEqual(['https://a.test/path/to/thing', '?alpha=1&beta=2&gamma=33'])
  })

  it('never cuts a surrogate pair in two', () => {
    const text = 'a'.repeat(40) + '😀' + 'b'.repeat(23)
    const [head, tail] = middleSplit(text, 24)
    expect([head.length, tail]).toEqual([40, '😀' + 'b'.repeat(23)])
  })
})

describe('alignJson', () => {
  it('maps each character of a string, escapes included, and punctuation, both ways', () => {
    const raw = '{"city":"Par\\u00eds","n":1.0,"tags":["a","b"]}'
    const pretty = JSON.stringify(JSON.parse(raw), null, 2)
    const a = alignJson(raw, pretty)!
    const at = (needle: string) => pretty.indexOf(needle)
    // "í" is \u00ed (6 characters) in the raw text, 1 in the pretty one
    expect(raw.slice(a.toRaw(at('í')), a.toRaw(at('í')) + 6)).toBe('\\u00ed')
    expect(raw[a.toRaw(at('s"'))]).toBe('s')
    // 1.0 prints as 1: its start
    expect(raw.slice(a.toRaw(at('1')), a.toRaw(at('1')) + 3)).toBe('1.0')
    expect(pretty[a.toPretty(raw.indexOf('"b"') + 1)]).toBe('b')
    // white space in the pretty text maps to the next token
    expect(raw[a.toRaw(at('\n  "n"'))]).toBe('"')
    // a range of the raw text, in the pretty one
    const from = raw.indexOf('"tags"')
    expect(pretty.slice(a.toPretty(from), a.toPretty(raw.length))).toBe('"tags": [\n    "a",\n    "b"\n  ]\n}')
  })

  it('no map when the tokens differ (a key given twice) or the text is not JSON', () => {
    expect(alignJson('{"a":1,"a":2}', JSON.stringify({ a: 2 }, null, 2))).toBe(null)
    expect(alignJson('{"a":"unterminated', '{}')).toBe(null)
  })
})
