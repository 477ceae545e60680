import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stringifyDeep, toJson } from '../../src/cli/json.js'

const deep = (n: number, leaf: string) => '['.repeat(n) + leaf + ']'.repeat(n)

describe('toJson: JSON.stringify at any depth', () => {
  it('is JSON.stringify whenever that succeeds', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
      expect(toJson(value, indent)).toBe(JSON.stringify(value, null, indent))
    }))
  })

  it('its loop writes what JSON.stringify writes, indented to 64 levels', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(0, 2, 4), (value, indent) => {
      expect(stringifyDeep(value, indent)).toBe(JSON.stringify(value, null, indent))
    }))
    expect(stringifyDeep({ a: undefined, b: [undefined, () => 1], c: -0, d: NaN }, 0)).toBe(JSON.stringify({ a: undefined, b: [undefined, () => 1], c: -0, d: NaN }))
    const nested = JSON.parse(deep(70, '1'))
    expect(stringifyDeep(nested, 2)).toBe(JSON.stringify(JSON.parse(deep(64, '0')), null, 2).replace('0', deep(6, '1')))
  })

  it('writes values nested past the stack, the same value back', () => {
    const text = deep(200_000, '{"a":[1,"x",null,true],"b":{}}')
    const value: unknown = JSON.parse(text)
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    expect(toJson(value)).toBe(text)
    const pretty = toJson({ k: value }, 2)
    expect(pretty.startsWith('{\n  "k": [\n    [\n      [')).toBe(true)
    expect(pretty.length).toBeLessThan(text.length + 10_000)
    expect(toJson(JSON.parse(pretty))).toBe(`{"k":${text}}`)
  })
})
