// Tool-call identity (src/core/tool-calls.ts): which call each fragment belongs to, how id,
// type and name are kept, and the diagnostics of odd identities, through the table itself and
// through the accumulator (which adds the frame and the symptom, and caps repeats).

import { describe, expect, it } from 'vitest'
import { Accumulator } from '../../src/core/accumulator.js'
import { ToolCallTable, isRealId, type CallIdentity, type IdentityProblemCode } from '../../src/core/tool-calls.js'
import { parseArguments } from '../../src/core/tool-arguments.js'
import { SYMPTOMS, type Delta, type ToolCallDelta } from '../../src/index.js'

function table() {
  const problems: Array<[IdentityProblemCode, string]> = []
  const t = new ToolCallTable<CallIdentity>(
    0,
    (index) => ({ index, id: null, type: null, name: null, hasArguments: false, keyless: false }),
    (code, message) => problems.push([code, message]),
  )
  return { t, problems }
}

const frag = (d: Partial<ToolCallDelta>): ToolCallDelta => ({ type: 'tool-call', choice: 0, key: null, ...d })

/** Applies deltas, one frame each, and returns the accumulator. */
function accumulate(deltas: Delta[]): Accumulator {
  const acc = new Accumulator()
  deltas.forEach((d, frame) => acc.apply(d, frame))
  return acc
}

describe('tool-call identity', () => {
  it('placeholder ids ("", "null") are not ids', () => {
    expect([isRealId('call_1'), isRealId(''), isRealId('null'), isRealId(null), isRealId(undefined)]).toEqual([true, false, false, false, false])
  })

  it('continuation fragments at one index are one call; the first real id, type and name stay', () => {
    const { t, problems } = table()
    const a = t.apply(frag({ key: 0, id: 'call_1', callType: 'function', name: 'get_weather', arguments: '' }))
    const b = t.apply(frag({ key: 0, id: '', arguments: '{"city"' }))
    const c = t.apply(frag({ key: 0, id: 'null', name: 'get_weather', arguments: ':"Paris"}' }))
    expect(b).toBe(a)
    expect(c).toBe(a)
    expect(t.calls).toEqual([{ index: 0, id: 'call_1', type: 'function', name: 'get_weather', hasArguments: true, keyless: false }])
    expect(problems).toEqual([])
  })

  it('a name repeated in every fragment is not doubled; a cumulative name replaces; a prefix is ignored', () => {
    const { t, problems } = table()
    t.apply(frag({ key: 0, name: 'read' }))
    t.apply(frag({ key: 0, name: 'read_file' }))
    t.apply(frag({ key: 0, name: 'read', arguments: '{}' }))
    t.apply(frag({ key: 0, name: 'read_file' }))
    expect(t.calls.map((c) => c.name)).toEqual(['read_file'])
    expect(problems).toEqual([])
  })

  it('a name fragment before any argument is appended, with tool-name-changed', () => {
    const { t, problems } = table()
    t.apply(frag({ key: 0, name: 'edit_ex' }))
    t.apply(frag({ key: 0, name: 'isting_file', arguments: '{}' }))
    expect(t.calls.map((c) => c.name)).toEqual(['edit_existing_file'])
    expect(problems).toEqual([['tool-name-changed', 'tool call 0: name fragment "isting_file" appended to "edit_ex"']])
  })

  it('a new real id at an index in use is a second call, with reused-tool-index', () => {
    const { t, problems } = table()
    t.apply(frag({ key: 0, id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }))
    t.apply(frag({ key: 0, id: 'call_b', name: 'read_file', arguments: '{"path":"b"}' }))
    t.apply(frag({ key: 0, arguments: '' }))
    expect(t.calls.map((c) => [c.index, c.id])).toEqual([[0, 'call_a'], [0, 'call_b']])
    expect(problems).toEqual([[
      'reused-tool-index',
      'choice 0, tool call index 0: call (id "call_b", name "read_file") arrived at index 0, which already holds call id "call_a", name "read_file"; kept as a second call',
    ]])
  })

  it('another name at an index whose arguments began is reported as a reused index (the rules still merge it)', () => {
    const { t, problems } = table()
    t.apply(frag({ key: 0, name: 'read_file', arguments: '{"path":"a"}' }))
    t.apply(frag({ key: 0, name: 'write_file', arguments: '{"path":"b"}' }))
    expect(t.calls.map((c) => c.name)).toEqual(['read_filewrite_file'])
    expect(problems).toEqual([[
      'reused-tool-index',
      'choice 0, tool call index 0: a fragment names "write_file" after the arguments of "read_file" began; read as one call named "read_filewrite_file"',
    ]])
  })

  it('fragments without an index: each new call once with missing-tool-index; a fragment naming no other call continues', () => {
    const { t, problems } = table()
    t.apply(frag({ id: 't1', name: 'f', arguments: '{"a":' }))
    t.apply(frag({ arguments: '1}' }))
    t.apply(frag({ id: 't2', name: 'g', arguments: '{}' }))
    t.apply(frag({ name: 'h', arguments: '{}' }))
    expect(t.calls.map((c) => [c.index, c.id, c.name])).toEqual([[0, 't1', 'f'], [1, 't2', 'g'], [2, null, 'h']])
    expect(problems).toEqual([
      ['missing-tool-index', 'choice 0: tool call fragment without an index; read as a new call at position 0'],
      ['missing-tool-index', 'choice 0: tool call fragment without an index; read as a new call at position 1'],
      ['missing-tool-index', 'choice 0: tool call fragment without an index; read as a new call at position 2'],
    ])
  })

  it('a keyed call continued by a fragment without its index: one missing-tool-index for that call', () => {
    const { t, problems } = table()
    const a = t.apply(frag({ key: 3, id: 'call_1', name: 'f', arguments: '{' }))
    expect(t.apply(frag({ arguments: '"a":1' }))).toBe(a)
    expect(t.apply(frag({ arguments: '}' }))).toBe(a)
    expect(problems).toEqual([['missing-tool-index', 'choice 0: tool call fragment without an index; continued call id "call_1", name "f"']])
  })

  it('whole calls are always new calls (in order of arrival where the wire has no index); one at an index in use is reported', () => {
    const { t, problems } = table()
    t.apply(frag({ whole: true, name: 'get_weather', arguments: '{"city":"Paris"}' }))
    t.apply(frag({ whole: true, name: 'get_weather', arguments: '{"city":"Paris"}' }))
    expect(t.calls.map((c) => [c.index, c.name])).toEqual([[0, 'get_weather'], [1, 'get_weather']])
    expect(problems).toEqual([])
    t.apply(frag({ whole: true, key: 1, name: 'other' }))
    expect(problems).toEqual([[
      'reused-tool-index',
      'choice 0, tool call index 1: a whole call (name "other") arrived at index 1, which already holds call name "get_weather"; kept as a second call',
    ]])
  })

  it('a final names its call by wire key, creates it when it never streamed, and fills only what is unset', () => {
    const { t } = table()
    t.apply(frag({ key: 2, id: 'call_1', name: 'f' }))
    const same = t.final({ type: 'final-tool-call', choice: 0, key: 2, id: 'call_other', name: 'g', arguments: '{}', source: 'x' })
    expect(same).toMatchObject({ index: 2, id: 'call_1', name: 'f' })
    const created = t.final({ type: 'final-tool-call', choice: 0, key: 5, id: 'call_5', name: 'h', arguments: '{}', source: 'x' })
    expect(t.calls).toEqual([same, created])
    expect(created).toMatchObject({ index: 5, id: 'call_5', name: 'h' })
  })

  it('long wire names are quoted at most 40 characters long', () => {
    const { t, problems } = table()
    t.apply(frag({ key: 0, name: 'a' }))
    t.apply(frag({ key: 0, name: 'b'.repeat(100) }))
    expect(problems[0]![1]).toBe(`tool call 0: name fragment "${'b'.repeat(40)}…" appended to "a"`)
  })
})

describe('tool-call identity in the accumulator', () => {
  it('reports at the frame of the fragment, with the symptom, and rebuilds two calls', () => {
    const acc = accumulate([
      { type: 'tool-call', choice: 0, key: 0, id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'text', choice: 0, channel: 'content', text: '' },
      { type: 'tool-call', choice: 0, key: 0, id: 'call_b', name: 'read_file', arguments: '{"path":"b"}' },
    ])
    expect(acc.state().choices[0]!.toolCalls.map((c) => [c.index, c.id, c.arguments])).toEqual([[0, 'call_a', '{"path":"a"}'], [0, 'call_b', '{"path":"b"}']])
    expect(acc.diagnostics).toEqual([{
      frame: 2, level: 'warning', code: 'reused-tool-index', symptom: SYMPTOMS['reused-tool-index'],
      message: 'choice 0, tool call index 0: call (id "call_b", name "read_file") arrived at index 0, which already holds call id "call_a", name "read_file"; kept as a second call',
    }])
  })

  it('lists 100 of one kind, then counts the rest in one summary', () => {
    const deltas: Delta[] = []
    for (let i = 0; i < 250; i++) deltas.push({ type: 'tool-call', choice: 0, key: 0, id: `call_${i}`, name: 'f', arguments: '{}' })
    const acc = accumulate(deltas)
    expect(acc.state().choices[0]!.toolCalls).toHaveLength(250)
    expect(acc.diagnostics).toHaveLength(101)
    expect(acc.diagnostics.slice(0, 100).map((d) => d.frame)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(acc.diagnostics[100]).toEqual({
      frame: 101, level: 'warning', code: 'reused-tool-index', symptom: SYMPTOMS['reused-tool-index'],
      message: '149 more reused-tool-index not listed (249 in all), the first of them at frame 101',
    })
  })
})

describe('tool-call arguments, parsed', () => {
  it('keep the parse error\'s message, and leave Error.stackTraceLimit as it was (set to 0 while they parse: no stack is captured for a partial call)', () => {
    const before = Error.stackTraceLimit
    expect(parseArguments('{"city": "Par')).toEqual({ ok: false, error: 'Unexpected end of JSON input at position 13 (expected the rest of the value)' })
    expect(parseArguments('{"city": "Paris"}')).toEqual({ ok: true, value: { city: 'Paris' } })
    expect(Error.stackTraceLimit).toBe(before)
  })
})
