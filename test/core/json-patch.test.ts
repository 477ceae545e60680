import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH } from '../../src/core/json-depth.js'
import { JsonPatchDocument, MAX_COPIED, parsePointer } from '../../src/core/json-patch.js'

function doc(v: unknown): JsonPatchDocument {
  return new JsonPatchDocument(v)
}

function nested(levels: number): unknown {
  let v: unknown = 1
  for (let i = 0; i < levels; i++) v = { a: v }
  return v
}

describe('JSON Pointer', () => {
  it('reads "" as the whole document and "/a/b" as two members', () => {
    expect(parsePointer('')).toEqual({ ok: true, tokens: [] })
    expect(parsePointer('/a/b')).toEqual({ ok: true, tokens: ['a', 'b'] })
  })

  it('unescapes ~1 to "/" and ~0 to "~", ~01 being "~1"', () => {
    expect(parsePointer('/a~1b/m~0n/~01')).toEqual({ ok: true, tokens: ['a/b', 'm~n', '~1'] })
    expect(doc({ 'a/b': { 'm~n': 7 } }).read('/a~1b/m~0n')).toEqual({ ok: true, value: 7 })
  })

  it('refuses a pointer without a leading "/" and a "~" not followed by 0 or 1', () => {
    expect(parsePointer('a')).toMatchObject({ ok: false, error: { code: 'bad-pointer' } })
    expect(parsePointer('/a~2')).toMatchObject({ ok: false, error: { code: 'bad-pointer' } })
  })

  it('refuses the member name __proto__ anywhere in a path', () => {
    expect(parsePointer('/__proto__/x')).toMatchObject({ ok: false, error: { code: 'forbidden-member', path: '/__proto__/x' } })
  })

  it('refuses a path of more than MAX_JSON_DEPTH levels', () => {
    expect(parsePointer('/a'.repeat(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false, error: { code: 'too-deep' } })
  })
})

describe('RFC 6902 operations', () => {
  it('add sets a member, inserts into an array at an index and appends at "-"', () => {
    const d = doc({ a: [1, 3] })
    expect(d.apply({ op: 'add', path: '/b', value: 'x' })).toEqual({ ok: true })
    expect(d.apply({ op: 'add', path: '/a/1', value: 2 })).toEqual({ ok: true })
    expect(d.apply({ op: 'add', path: '/a/-', value: 4 })).toEqual({ ok: true })
    expect(d.value()).toEqual({ a: [1, 2, 3, 4], b: 'x' })
  })

  it('add at "" replaces the whole document', () => {
    const d = doc({ a: 1 })
    d.apply({ op: 'add', path: '', value: { message: { id: 'm2' } } })
    expect(d.value()).toEqual({ message: { id: 'm2' } })
  })

  it('replace changes an existing value and fails on a missing one', () => {
    const d = doc({ status: 'in_progress' })
    expect(d.apply({ op: 'replace', path: '/status', value: 'finished_successfully' })).toEqual({ ok: true })
    expect(d.apply({ op: 'replace', path: '/missing', value: 1 })).toMatchObject({ ok: false, error: { code: 'no-target', path: '/missing' } })
    expect(d.value()).toEqual({ status: 'finished_successfully' })
  })

  it('remove deletes a member or an array item and fails on a missing one', () => {
    const d = doc({ a: [1, 2, 3], b: 1 })
    d.apply({ op: 'remove', path: '/a/0' })
    d.apply({ op: 'remove', path: '/b' })
    expect(d.apply({ op: 'remove', path: '/b' })).toMatchObject({ ok: false, error: { code: 'no-target' } })
    expect(d.value()).toEqual({ a: [2, 3] })
  })

  it('move takes a value from one place to another', () => {
    const d = doc({ a: { x: 1 }, b: {} })
    expect(d.apply({ op: 'move', from: '/a/x', path: '/b/y' })).toEqual({ ok: true })
    expect(d.value()).toEqual({ a: {}, b: { y: 1 } })
  })

  it('move within an array takes the item out before it inserts it (RFC 6902 4.4)', () => {
    const d = doc({ a: [1, 2, 3] })
    expect(d.apply({ op: 'move', from: '/a/0', path: '/a/2' })).toEqual({ ok: true })
    expect(d.value()).toEqual({ a: [2, 3, 1] })
  })

  it('"-" names the end of an array only for add: replace or remove at "-" is an error', () => {
    const d = doc({ a: [1] })
    expect(d.apply({ op: 'replace', path: '/a/-', value: 2 })).toMatchObject({ ok: false, error: { code: 'bad-pointer' } })
    expect(d.apply({ op: 'remove', path: '/a/-' })).toMatchObject({ ok: false, error: { code: 'bad-pointer' } })
    expect(d.value()).toEqual({ a: [1] })
  })

  it('move into its own child is an error and changes nothing', () => {
    const d = doc({ a: { b: {} } })
    expect(d.apply({ op: 'move', from: '/a', path: '/a/b/c' })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
    expect(d.value()).toEqual({ a: { b: {} } })
  })

  it('copy duplicates a value, and the copy is independent of the original', () => {
    const d = doc({ a: { x: [1] } })
    d.apply({ op: 'copy', from: '/a', path: '/b' })
    d.apply({ op: 'add', path: '/b/x/-', value: 2 })
    expect(d.value()).toEqual({ a: { x: [1] }, b: { x: [1, 2] } })
  })

  it('test succeeds on an equal value and fails with test-failed on a different one', () => {
    const d = doc({ a: { x: [1, 'y'] } })
    expect(d.apply({ op: 'test', path: '/a', value: { x: [1, 'y'] } })).toEqual({ ok: true })
    expect(d.apply({ op: 'test', path: '/a/x/1', value: 'z' })).toMatchObject({ ok: false, error: { code: 'test-failed' } })
  })

  it('an unknown operation or one without its value is a bad-operation error', () => {
    const d = doc({})
    expect(d.apply({ op: 'frobnicate', path: '/a' })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
    expect(d.apply({ op: 'add', path: '/a' })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
    expect(d.apply('add')).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
    expect(d.value()).toEqual({})
  })
})

describe('ChatGPT variants', () => {
  it('append concatenates to a string', () => {
    const d = doc({ message: { content: { parts: [''] } } })
    d.apply({ op: 'append', path: '/message/content/parts/0', value: 'Hel' })
    d.apply({ op: 'append', path: '/message/content/parts/0', value: 'lo' })
    expect(d.read('/message/content/parts/0')).toEqual({ ok: true, value: 'Hello' })
    expect(d.textLength('/message/content/parts/0')).toBe(5)
  })

  it('append pushes the items of an array value, or a single value, onto an array', () => {
    const d = doc({ refs: [1] })
    d.apply({ op: 'append', path: '/refs', value: [2, 3] })
    d.apply({ op: 'append', path: '/refs', value: 4 })
    expect(d.read('/refs')).toEqual({ ok: true, value: [1, 2, 3, 4] })
  })

  it('append merges the members of an object value into an object', () => {
    const d = doc({ metadata: { a: 1, b: 1 } })
    d.apply({ op: 'append', path: '/metadata', value: { b: 2, finish_details: { type: 'stop' } } })
    expect(d.read('/metadata')).toEqual({ ok: true, value: { a: 1, b: 2, finish_details: { type: 'stop' } } })
  })

  it('append to a missing member of an object adds it', () => {
    const d = doc({ message: {} })
    expect(d.apply({ op: 'append', path: '/message/text', value: 'a' })).toEqual({ ok: true })
    expect(d.value()).toEqual({ message: { text: 'a' } })
  })

  it('append of a non-string to a string, or to a number, is a type-mismatch error', () => {
    const d = doc({ s: 'a', n: 1 })
    expect(d.apply({ op: 'append', path: '/s', value: 1 })).toMatchObject({ ok: false, error: { code: 'type-mismatch' } })
    expect(d.apply({ op: 'append', path: '/n', value: 1 })).toMatchObject({ ok: false, error: { code: 'type-mismatch' } })
    expect(d.value()).toEqual({ s: 'a', n: 1 })
  })

  it('truncate keeps the first v characters of a string', () => {
    const d = doc({ s: 'Hello world' })
    d.apply({ op: 'append', path: '/s', value: '!' })
    expect(d.apply({ op: 'truncate', path: '/s', value: 5 })).toEqual({ ok: true })
    expect(d.read('/s')).toEqual({ ok: true, value: 'Hello' })
    expect(d.apply({ op: 'truncate', path: '/s', value: 99 })).toEqual({ ok: true })
    expect(d.read('/s')).toEqual({ ok: true, value: 'Hello' })
  })

  it('truncate with a length that is not a non-negative integer is a bad-operation error', () => {
    const d = doc({ s: 'abc' })
    expect(d.apply({ op: 'truncate', path: '/s', value: -1 })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
    expect(d.apply({ op: 'truncate', path: '/s', value: '2' })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
  })

  it('patch applies its list in order, nested patches included', () => {
    const d = doc({ message: { content: { parts: ['a'] }, status: 'in_progress' } })
    const r = d.apply({
      op: 'patch',
      path: '',
      value: [
        { op: 'append', path: '/message/content/parts/0', value: 'b' },
        { op: 'patch', path: '', value: [{ op: 'append', path: '/message/content/parts/0', value: 'c' }] },
        { op: 'replace', path: '/message/status', value: 'finished_successfully' },
      ],
    })
    expect(r).toEqual({ ok: true })
    expect(d.value()).toEqual({ message: { content: { parts: ['abc'] }, status: 'finished_successfully' } })
  })

  it('a failing operation inside a patch is reported and the others are still applied', () => {
    const d = doc({ a: 'x' })
    const r = d.apply({ op: 'patch', path: '', value: [{ op: 'replace', path: '/missing', value: 1 }, { op: 'append', path: '/a', value: 'y' }] })
    expect(r).toMatchObject({ ok: false, error: { code: 'no-target', path: '/missing' } })
    expect(d.value()).toEqual({ a: 'xy' })
  })

  it('a patch whose value is not a list is a bad-operation error', () => {
    expect(doc({}).apply({ op: 'patch', path: '', value: { op: 'add' } })).toMatchObject({ ok: false, error: { code: 'bad-operation' } })
  })
})

describe('reading without copying', () => {
  it('typeAt names the kind of value at a pointer, sizeAt counts items or members, textLength measures a string', () => {
    const d = doc({ s: 'abc', n: 1, b: false, z: null, a: [1, 2], o: { x: 1 } })
    expect(['/s', '/n', '/b', '/z', '/a', '/o', '/missing'].map((p) => d.typeAt(p))).toEqual(['string', 'number', 'boolean', 'null', 'array', 'object', null])
    expect([d.sizeAt('/a'), d.sizeAt('/o'), d.sizeAt('/s')]).toEqual([2, 1, 0])
    expect([d.textLength('/s'), d.textLength('/n')]).toEqual([3, null])
  })

  it('written counts what the operations put in: characters of strings, members and items', () => {
    const d = doc({ s: '' })
    d.apply({ op: 'append', path: '/s', value: 'hello' })
    d.apply({ op: 'add', path: '/t', value: 'ab' })
    expect(d.written).toBe(7)
  })
})

describe('hostile operations', () => {
  it('/__proto__/x is refused and Object.prototype stays clean', () => {
    const d = doc({})
    expect(d.apply({ op: 'add', path: '/__proto__/polluted', value: 1 })).toMatchObject({ ok: false, error: { code: 'forbidden-member' } })
    expect(d.apply({ op: 'append', path: '', value: JSON.parse('{"__proto__": {"polluted": 1}}') })).toMatchObject({ ok: false, error: { code: 'forbidden-member' } })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('/constructor/prototype finds nothing: the document has no prototypes to reach', () => {
    const d = doc({})
    expect(d.apply({ op: 'add', path: '/constructor/prototype/polluted', value: 1 })).toMatchObject({ ok: false, error: { code: 'no-target' } })
    expect(d.read('/constructor')).toMatchObject({ ok: false, error: { code: 'no-target' } })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('a __proto__ member inside a value stays a plain member', () => {
    const d = doc({})
    d.apply({ op: 'add', path: '/a', value: JSON.parse('{"__proto__": {"x": 1}}') })
    const out = d.read('/a') as { ok: true; value: Record<string, unknown> }
    expect(Object.getPrototypeOf(out.value)).toBe(Object.prototype)
    expect(Object.keys(out.value)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['x']).toBeUndefined()
  })

  it('an index past the end of an array is index-out-of-range, never a sparse array', () => {
    const d = doc({ a: [1] })
    expect(d.apply({ op: 'add', path: '/a/99999999', value: 2 })).toMatchObject({ ok: false, error: { code: 'index-out-of-range' } })
    expect(d.apply({ op: 'replace', path: '/a/1', value: 2 })).toMatchObject({ ok: false, error: { code: 'index-out-of-range' } })
    expect(d.read('/a/5')).toMatchObject({ ok: false, error: { code: 'index-out-of-range' } })
    expect(d.value()).toEqual({ a: [1] })
  })

  it('an array index with a leading zero, a sign or letters is a bad-pointer error', () => {
    const d = doc({ a: [1, 2] })
    for (const t of ['01', '-1', '1e0', 'x']) expect(d.apply({ op: 'replace', path: `/a/${t}`, value: 0 })).toMatchObject({ ok: false })
    expect(d.value()).toEqual({ a: [1, 2] })
  })

  it('a path through a string or a number is a not-a-container error', () => {
    const d = doc({ s: 'text', n: 3 })
    expect(d.apply({ op: 'add', path: '/s/0', value: 'x' })).toMatchObject({ ok: false, error: { code: 'not-a-container' } })
    expect(d.apply({ op: 'add', path: '/n/x/y', value: 1 })).toMatchObject({ ok: false, error: { code: 'not-a-container' } })
    expect(d.value()).toEqual({ s: 'text', n: 3 })
  })

  it('a value that would nest deeper than MAX_JSON_DEPTH is refused with too-deep', () => {
    const d = doc({ a: {} })
    expect(d.apply({ op: 'add', path: '/a/b', value: nested(MAX_JSON_DEPTH - 2) })).toEqual({ ok: true })
    expect(d.apply({ op: 'add', path: '/a/c', value: nested(MAX_JSON_DEPTH - 1) })).toMatchObject({ ok: false, error: { code: 'too-deep' } })
    expect(d.has('/a/c')).toBe(false)
  })

  it('moving a deep value under a deep path is refused with too-deep', () => {
    const d = doc({ deep: nested(200), long: nested(100) })
    const path = '/long' + '/a'.repeat(99)
    expect(d.apply({ op: 'move', from: '/deep', path: `${path}/x` })).toMatchObject({ ok: false, error: { code: 'too-deep' } })
    expect(d.has('/deep')).toBe(true)
  })

  it('copies that double the document stop at MAX_COPIED characters with too-large', () => {
    const d = doc({ a: 'x'.repeat(1024 * 1024) })
    let failed = -1
    for (let i = 0; i < 40; i++) {
      const r = d.apply({ op: 'copy', from: '', path: `/c${i}` })
      if (!r.ok) {
        expect(r.error.code).toBe('too-large')
        failed = i
        break
      }
    }
    expect(failed).toBe(4) // 1 + 2 + 4 + 8 MB copied, the 16 MB copy would pass MAX_COPIED
    expect(MAX_COPIED).toBe(16 * 1024 * 1024)
  })

  it('the value an operation carries is copied: changing the document leaves the frame as parsed', () => {
    const value = { parts: ['a'] }
    const d = doc({})
    d.apply({ op: 'add', path: '/m', value })
    d.apply({ op: 'append', path: '/m/parts/0', value: 'b' })
    expect(value).toEqual({ parts: ['a'] })
  })

  it('100,000 appends to one string make a 10 MB string without copying it each time', () => {
    const d = doc({ s: '' })
    const piece = 'x'.repeat(100)
    for (let i = 0; i < 100_000; i++) d.apply({ op: 'append', path: '/s', value: piece })
    expect(d.textLength('/s')).toBe(10_000_000)
    const r = d.read('/s') as { ok: true; value: string }
    expect(r.value.length).toBe(10_000_000)
    expect(r.value.slice(0, 3)).toBe('xxx')
  })
})
