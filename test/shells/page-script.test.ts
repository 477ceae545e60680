// The script evaluated in the inspected page: a fixed string called with JSON-encoded
// arguments (nothing the page or the user typed becomes code), and what it answers read field
// by field (the page's code can answer anything). The script itself runs in both browsers in
// the end-to-end suites; here it runs in a bare context to show it is data in, data out.

import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { readElement } from '../../src/shells/extension/page-answer.js'
import { PAGE_SCRIPT, PAGE_TEXT_LIMIT, pageCall } from '../../src/shells/extension/page-script.js'

describe('pageCall', () => {
  it('is the fixed script applied to JSON-encoded arguments', () => {
    const hostile = "'); alert(1); ('\u2028</script>"
    expect(pageCall('probe', { selector: hostile, index: null, expected: '' })).toBe(`(${PAGE_SCRIPT})("probe", ${JSON.stringify({ selector: hostile, index: null, expected: '' })})`)
  })

  it('hands a selector to querySelectorAll as a string, whatever it holds', () => {
    const hostile = "'); globalThis.pwned = true; ('"
    const asked: string[] = []
    const sandbox: Record<string, unknown> = {
      location: { origin: 'http://chat.test' },
      document: { querySelectorAll: (s: string) => { asked.push(s); return [] } },
    }
    expect(runInNewContext(pageCall('origin'), sandbox)).toBe('http://chat.test')
    expect(runInNewContext(pageCall('probe', { selector: hostile, expected: '' }), sandbox)).toEqual({ found: false, selector: hostile, count: 0, index: -1, length: 0, digest: '', rect: null })
    expect([asked, sandbox['pwned']]).toEqual([[hostile], undefined])
    expect(runInNewContext(pageCall('pick-poll'), { window: {} })).toEqual({ state: 'none' })
    expect(runInNewContext(pageCall('nothing' as 'origin'), sandbox)).toEqual({ error: 'unknown operation' })
  })
})

describe('readElement', () => {
  it('keeps the fields it knows, of the types it expects, and cuts the text at 10 MB', () => {
    const long = 'x'.repeat(PAGE_TEXT_LIMIT + 5)
    expect(readElement({
      found: true, selector: 'div.md', count: 2, index: 1, length: long.length, digest: '9:1', rect: { x: 1, y: 2, width: 3, height: 'tall' },
      text: long, cut: false, parts: [{ kind: 'details', text: 'Thought' }, { kind: 'link', text: 'Copy' }, { text: 5 }, 'stray'], extra: '<b>ignored</b>',
    })).toEqual({
      found: true, selector: 'div.md', count: 2, index: 1, length: long.length, digest: '9:1', rect: { x: 1, y: 2, width: 3, height: 0 },
      text: long.slice(0, PAGE_TEXT_LIMIT), cut: true, parts: [{ kind: 'details', text: 'Thought' }, { kind: 'button', text: 'Copy' }],
    })
  })

  it('an answer of another shape is a sentence, and so is the script\'s own error', () => {
    expect(readElement(null)).toBe('The page answered nothing readable.')
    expect(readElement('text')).toBe('The page answered nothing readable.')
    expect(readElement({ error: 'The selector "[" is not valid CSS.' })).toBe('The selector "[" is not valid CSS.')
    expect(readElement({ found: 'yes', count: Infinity, selector: 7 })).toEqual({ found: false, selector: null, count: 0, index: -1, length: 0, digest: '', rect: null })
  })
})
