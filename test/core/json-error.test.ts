// findJsonSyntaxError: the same message and position in every engine, one rule per test.
// A message names what was found (a character, a control character, or the end of the
// input), where (a UTF-16 index into the frame's data) and what was expected there.

import { describe, expect, it } from 'vitest'
import { findJsonSyntaxError, parseJson } from '../../src/core/json-error.js'

const at = (text: string) => findJsonSyntaxError(text)
const error = (message: string, position: number) => ({ message, position })

describe('valid JSON', () => {
  it('has no error, whatever its nesting and white space', () => {
    expect(['{}', ' [1, -0.5e-3, "a\\u00e9\\n", true, false, null, {"k": [[]]}] ', '"x"', '0', '\t\r\n{}'].map(at)).toEqual([null, null, null, null, null])
  })
})

describe('the end of the input', () => {
  it('where a value should start: "expected a value"', () => {
    expect([at(''), at(' '), at('{"a":'), at('[1,')]).toEqual([
      error('Unexpected end of JSON input at position 0 (expected a value)', 0),
      error('Unexpected end of JSON input at position 1 (expected a value)', 1),
      error('Unexpected end of JSON input at position 5 (expected a value)', 5),
      error('Unexpected end of JSON input at position 3 (expected a value)', 3),
    ])
  })

  it("right after \"[\": \"expected a value or ']'\"; after \"{\": \"a property name or '}'\"", () => {
    expect([at('['), at('{')]).toEqual([
      error("Unexpected end of JSON input at position 1 (expected a value or ']')", 1),
      error("Unexpected end of JSON input at position 1 (expected a property name or '}')", 1),
    ])
  })

  it('after a property name: "expected \':\'"', () => {
    expect(at('{"a"')).toEqual(error("Unexpected end of JSON input at position 4 (expected ':')", 4))
  })

  it('after a value inside an object or array: "expected \',\' or a closing bracket"', () => {
    expect([at('{"a":1'), at('[1')]).toEqual([
      error("Unexpected end of JSON input at position 6 (expected ',' or a closing bracket)", 6),
      error("Unexpected end of JSON input at position 2 (expected ',' or a closing bracket)", 2),
    ])
  })

  it('inside a string, a number or a literal value: "expected the rest of the value", at the end', () => {
    expect(['"ab', '"a\\', '"\\u12', '-', '1.', '1e', '1e+', 'nul', 'tr', 'fals', '{"a":1.'].map((t) => at(t)?.message)).toEqual([
      'Unexpected end of JSON input at position 3 (expected the rest of the value)',
      'Unexpected end of JSON input at position 3 (expected the rest of the value)',
      'Unexpected end of JSON input at position 5 (expected the rest of the value)',
      'Unexpected end of JSON input at position 1 (expected the rest of the value)',
      'Unexpected end of JSON input at position 2 (expected the rest of the value)',
      'Unexpected end of JSON input at position 2 (expected the rest of the value)',
      'Unexpected end of JSON input at position 3 (expected the rest of the value)',
      'Unexpected end of JSON input at position 3 (expected the rest of the value)',
      'Unexpected end of JSON input at position 2 (expected the rest of the value)',
      'Unexpected end of JSON input at position 4 (expected the rest of the value)',
      'Unexpected end of JSON input at position 7 (expected the rest of the value)',
    ])
  })

  it('inside a property name: "expected \'"\' to close the string"', () => {
    expect(at('{"ab')).toEqual(error('Unexpected end of JSON input at position 4 (expected \'"\' to close the string)', 4))
  })
})

describe('an unexpected character', () => {
  it('where a value should start', () => {
    expect(['ping', '.5', '+1', "'a'", 'NaN', '[1,]'].map((t) => at(t))).toEqual([
      error("Unexpected character 'p' at position 0 (expected a value)", 0),
      error("Unexpected character '.' at position 0 (expected a value)", 0),
      error("Unexpected character '+' at position 0 (expected a value)", 0),
      error("Unexpected character ''' at position 0 (expected a value)", 0),
      error("Unexpected character 'N' at position 0 (expected a value)", 0),
      error("Unexpected character ']' at position 3 (expected a value)", 3),
    ])
  })

  it("where an object's property name should be: a trailing comma, a single quote, a bare word", () => {
    expect([at('{"a":1,}'), at("{'a':1}"), at('{a:1}')]).toEqual([
      error("Unexpected character '}' at position 7 (expected a property name)", 7),
      error("Unexpected character ''' at position 1 (expected a property name or '}')", 1),
      error("Unexpected character 'a' at position 1 (expected a property name or '}')", 1),
    ])
  })

  it("where the colon should be: \"expected ':' after the property name\"", () => {
    expect(at('{"a" 1}')).toEqual(error("Unexpected character '1' at position 5 (expected ':' after the property name)", 5))
  })

  it('a closing bracket of the wrong kind: the expected one is named', () => {
    expect([at('[1}'), at('{"a":1]')]).toEqual([
      error("Unexpected character '}' at position 2 (expected ',' or ']')", 2),
      error("Unexpected character ']' at position 6 (expected ',' or '}')", 6),
    ])
  })

  it('text after a complete value: "expected end of input"', () => {
    expect([at('{} {}'), at('1 2'), at('01')]).toEqual([
      error("Unexpected character '{' at position 3 (expected end of input)", 3),
      error("Unexpected character '2' at position 2 (expected end of input)", 2),
      error("Unexpected character '1' at position 1 (expected end of input)", 1),
    ])
  })

  it('inside a number, at the character that cannot follow, not where the number started', () => {
    expect(['1.x', '-x', '1e+x', '[1.]'].map((t) => at(t))).toEqual([
      error("Unexpected character 'x' at position 2 (expected a digit)", 2),
      error("Unexpected character 'x' at position 1 (expected a digit)", 1),
      error("Unexpected character 'x' at position 3 (expected a digit)", 3),
      error("Unexpected character ']' at position 3 (expected a digit)", 3),
    ])
  })

  it('inside true, false or null, at the first character that differs, the literal named', () => {
    expect(['nulx', 'tx', 'falsy'].map((t) => at(t))).toEqual([
      error("Unexpected character 'x' at position 3 (expected 'null')", 3),
      error("Unexpected character 'x' at position 1 (expected 'true')", 1),
      error("Unexpected character 'y' at position 4 (expected 'false')", 4),
    ])
  })

  it('in a string: a bad escape at its letter, a bad \\u escape at its first non-hex digit', () => {
    expect([at('"\\x"'), at('"\\u12G4"')]).toEqual([
      error("Unexpected character 'x' at position 2 (expected a valid string character or escape)", 2),
      error("Unexpected character 'G' at position 5 (expected a valid string character or escape)", 5),
    ])
  })

  it('a raw control character in a string or a property name is named by its code point', () => {
    expect([at('"a\nb"'), at('{"a\tb":1}')]).toEqual([
      error('Unexpected control character U+000A at position 2 (expected a valid string character or escape)', 2),
      error('Unexpected control character U+0009 at position 3 (expected a valid string character or escape)', 3),
    ])
  })

  it('only space, tab, CR and LF are white space: U+00A0 and U+FEFF are characters', () => {
    expect([at('\u00a0{}'), at('\uFEFF{}')]).toEqual([
      error("Unexpected character '\u00a0' at position 0 (expected a value)", 0),
      error("Unexpected character '\uFEFF' at position 0 (expected a value)", 0),
    ])
  })

  it('positions count UTF-16 units, and a character outside the BMP is quoted whole', () => {
    expect(at('["😀" 😀]')).toEqual(error("Unexpected character '😀' at position 6 (expected ',' or ']')", 6))
  })
})

describe('deep input', () => {
  it('100,000 unclosed arrays are read without recursion', () => {
    expect(at('['.repeat(100_000))).toEqual(error("Unexpected end of JSON input at position 100000 (expected a value or ']')", 100_000))
  })
})

describe('parseJson', () => {
  it('gives the value when JSON.parse succeeds and the engine-independent error when it fails', () => {
    expect([parseJson('{"a":[1]}'), parseJson('{"a":')]).toEqual([
      { ok: true, value: { a: [1] } },
      { ok: false, error: error('Unexpected end of JSON input at position 5 (expected a value)', 5) },
    ])
  })
})
