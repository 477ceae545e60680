import { describe, expect, it } from 'vitest'
import { formatPath, parsePath, readPath, type ParsedPath } from '../../src/providers/rules-path.js'
import { checkRules, rulesErrorMessage } from '../../src/providers/rules-schema.js'

function path(text: string): ParsedPath {
  const p = parsePath(text)
  if (!p.ok) throw new Error(p.message)
  return p.path
}
const values = (root: unknown, text: string) => readPath(root, path(text)).map((m) => m.value)
const error = (text: string) => { const p = parsePath(text); return p.ok ? null : p.message }

describe('rule paths', () => {
  it('names are joined by dots, [n] is an element, [*] every element, ["…"] a quoted name', () => {
    expect(path('choices[*].delta.content').steps).toEqual([
      { kind: 'member', name: 'choices' }, { kind: 'every' }, { kind: 'member', name: 'delta' }, { kind: 'member', name: 'content' },
    ])
    expect(path('a[2]["x.y"][*]').steps).toEqual([{ kind: 'member', name: 'a' }, { kind: 'index', index: 2 }, { kind: 'member', name: 'x.y' }, { kind: 'every' }])
    expect(path('').steps).toEqual([])
  })

  it('[*] finds every element in order, with the element numbers it took', () => {
    const json = { choices: [{ delta: { content: 'a' } }, { delta: {} }, { delta: { content: 'c' } }] }
    expect(readPath(json, path('choices[*].delta.content'))).toEqual([{ value: 'a', positions: [0] }, { value: 'c', positions: [2] }])
  })

  it('an index past the end, a member of a non-object and a missing member find nothing', () => {
    expect(values({ a: [1, 2] }, 'a[2]')).toEqual([])
    expect(values({ a: 'text' }, 'a.length')).toEqual([])
    expect(values({ a: [1] }, 'a.b')).toEqual([])
    expect(values(null, 'a')).toEqual([])
  })

  it('inherited members are never found: __proto__, constructor and toString only when the wire has them', () => {
    expect(values({}, 'constructor')).toEqual([])
    expect(values({ a: {} }, 'a.toString')).toEqual([])
    expect(values({}, '__proto__')).toEqual([])
    expect(values(JSON.parse('{"__proto__": {"x": "own"}}'), '__proto__.x')).toEqual(['own'])
    expect(values([1, 2], 'length')).toEqual([])
  })

  it('a path that is not well formed is refused with the character at fault', () => {
    expect(error('a[')).toBe('"[" at character 2 has no "]"')
    expect(error('a..b')).toBe('unexpected "." at character 3')
    expect(error('a[x]')).toBe('[x] at character 2: write [*], a whole number such as [0], or a quoted name such as ["a.b"]')
    expect(error('a.')).toBe('the path ends with "."')
    expect(error('a[0]b')).toBe('character 5 ("b") must be "." or "[" after "]"')
    expect(error('a["b]')).toBe('a quoted name opened at character 2 is not closed with "]')
    expect(error('x'.repeat(1001))).toBe('longer than 1000 characters')
  })

  it('formatPath writes steps back as a path that parses to the same steps', () => {
    for (const text of ['choices[*].delta.content', 'a[3]["x.y"].b-c', '["with space"][*]']) {
      expect(formatPath(path(text).steps)).toBe(text)
    }
  })
})

describe('rules validation', () => {
  it('accepts the smallest rules: a version, a mode and one thing to read', () => {
    const check = checkRules({ version: 1, mode: 'append', text: 'text' })
    expect(check.ok).toBe(true)
  })

  it('names every problem by its field', () => {
    const check = checkRules({ mode: 'stream', text: 'a[', colour: 'red', toolCalls: { each: 'calls[*]' }, done: 7 })
    expect(check).toEqual({
      ok: false,
      errors: [
        'colour: not a rules field (known: version, mode, name, events, operations, choices, text, reasoning, toolCalls, finishReason, usage, error, done, skip)',
        'version: missing (write "version": 1)',
        'mode: one of "append", "snapshot", "patch", got "stream"',
        'toolCalls: give at least one of "name", "arguments" or "id"',
        'done: a path, or {"path": path, "equals": value}, got number 7',
        'text: "a[" is not a path: "[" at character 2 has no "]"',
      ],
    })
  })

  it('refuses rules that read nothing, text that is not JSON, and operations outside patch mode', () => {
    expect(checkRules({ version: 1, mode: 'append', usage: 'usage' })).toEqual({ ok: false, errors: ['rules read nothing: give at least one of "text", "reasoning" or "toolCalls"'] })
    expect(checkRules('{"version": 1,')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not JSON: /)] })
    expect(checkRules({ version: 1, mode: 'snapshot', text: 'a', operations: 'ops' })).toEqual({ ok: false, errors: ['operations: only patch mode reads operations'] })
    expect(checkRules({ version: 2, mode: 'append', text: 'a' })).toEqual({ ok: false, errors: ['version: this Deltascope reads version 1, got 2'] })
    expect(checkRules([])).toEqual({ ok: false, errors: ['rules must be a JSON object, got an array'] })
  })

  it('checks events, choices and conditions', () => {
    expect(checkRules({ version: 1, mode: 'append', text: 'a', events: [] })).toEqual({ ok: false, errors: ['events: a non-empty array of event names, got []'] })
    expect(checkRules({ version: 1, mode: 'append', text: 'a', choices: { index: 'i' } })).toEqual({ ok: false, errors: ['choices.each: missing (a path such as "choices[*]")'] })
    expect(checkRules({ version: 1, mode: 'append', text: 'a', skip: { path: 'p', equals: [1] } })).toEqual({ ok: false, errors: ['skip.equals: a string, number, boolean or null, got an array'] })
  })

  it('keeps a copy of what it checked: changing the caller\'s object later changes nothing', () => {
    const given = { version: 1, mode: 'append', text: 'a' }
    const check = checkRules(given)
    given.text = 'b'
    expect(check.ok && check.rules.text).toBe('a')
  })

  it('puts the problems in one message', () => {
    expect(rulesErrorMessage(['a: x'])).toBe('bad rules: a: x')
    expect(rulesErrorMessage(['a: x', 'b: y'])).toBe('bad rules (2 problems): a: x; b: y')
  })
})
