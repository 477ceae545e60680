// A JSON syntax checker used only after JSON.parse has failed, to give a message and a
// position that are the same in every JavaScript engine (V8, SpiderMonkey and JSC word
// their errors differently, and a fixture exported from a browser must match Node's).
// Iterative, with an explicit stack, so hostile nesting cannot overflow the call stack.

import type { JsonSyntaxError } from './types.js'

const enum Expect { Value, ValueOrClose, Key, KeyOrClose, Colon, CommaOrClose, End }

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const stack: number[] = [] // 0x7b '{' or 0x5b '['
  let expect: Expect = Expect.Value
  let i = 0
  const n = text.length
  const fail = (what: string): JsonSyntaxError =>
    i >= n
      ? { message: `Unexpected end of JSON input at position ${i} (expected ${what})`, position: i }
      : { message: `Unexpected ${describe(text, i)} at position ${i} (expected ${what})`, position: i }

  for (;;) {
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++
      else break
    }
    if (expect === Expect.End) return i < n ? fail('end of input') : null
    if (i >= n) return fail(expectation(expect))
    const c = text.charCodeAt(i)
    switch (expect) {
      case Expect.Value:
      case Expect.ValueOrClose: {
        if (expect === Expect.ValueOrClose && c === 0x5d) { i++; expect = afterValue(stack.pop(), stack); break }
        if (c === 0x7b) { stack.push(c); i++; expect = Expect.KeyOrClose; break }
        if (c === 0x5b) { stack.push(c); i++; expect = Expect.ValueOrClose; break }
        const end = scanScalar(text, i)
        if (end < -1) { i = -2 - end; return fail(scalarExpectation(c)) }
        if (end < 0) return fail(expect === Expect.ValueOrClose ? "a value or ']'" : 'a value')
        if (end > n) { i = n; return fail('the rest of the value') }
        i = end
        expect = afterValue(undefined, stack)
        break
      }
      case Expect.Key:
      case Expect.KeyOrClose: {
        if (expect === Expect.KeyOrClose && c === 0x7d) { i++; expect = afterValue(stack.pop(), stack); break }
        if (c !== 0x22) return fail(expect === Expect.KeyOrClose ? "a property name or '}'" : 'a property name')
        const end = scanString(text, i)
        if (end < 0) { i = -2 - end; return fail('a valid string character or escape') }
        if (end > n) { i = n; return fail("'\"' to close the string") }
        i = end
        expect = Expect.Colon
        break
      }
      case Expect.Colon:
        if (c !== 0x3a) return fail("':' after the property name")
        i++
        expect = Expect.Value
        break
      case Expect.CommaOrClose: {
        const top = stack[stack.length - 1]
        const close = top === 0x7b ? 0x7d : 0x5d
        if (c === close) { i++; stack.pop(); expect = afterValue(undefined, stack); break }
        if (c !== 0x2c) return fail(top === 0x7b ? "',' or '}'" : "',' or ']'")
        i++
        expect = top === 0x7b ? Expect.Key : Expect.Value
        break
      }
    }
  }
}

function afterValue(_closed: number | undefined, stack: number[]): Expect {
  return stack.length === 0 ? Expect.End : Expect.CommaOrClose
}

function expectation(e: Expect): string {
  switch (e) {
    case Expect.Value: return 'a value'
    case Expect.ValueOrClose: return "a value or ']'"
    case Expect.Key: return 'a property name'
    case Expect.KeyOrClose: return "a property name or '}'"
    case Expect.Colon: return "':'"
    case Expect.CommaOrClose: return "',' or a closing bracket"
    case Expect.End: return 'end of input'
  }
}

function describe(text: string, i: number): string {
  const ch = text.codePointAt(i) ?? 0
  if (ch < 0x20 || ch === 0x7f) return `control character U+${ch.toString(16).toUpperCase().padStart(4, '0')}`
  return `character '${String.fromCodePoint(ch)}'`
}

/** What the scalar starting with `c` needed where it went wrong. */
function scalarExpectation(c: number): string {
  if (c === 0x22) return 'a valid string character or escape'
  if (c === 0x74) return "'true'"
  if (c === 0x66) return "'false'"
  if (c === 0x6e) return "'null'"
  return 'a digit'
}

/**
 * End index of the scalar at i; -1 when no scalar starts there; -2 - k when the scalar
 * cannot go on at k; > text.length when cut short.
 */
function scanScalar(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c === 0x22) return scanString(text, i)
  if (c === 0x74) return literal(text, i, 'true')
  if (c === 0x66) return literal(text, i, 'false')
  if (c === 0x6e) return literal(text, i, 'null')
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return scanNumber(text, i)
  return -1
}

/** The first character is the word's (the caller looked): a mismatch is where the word goes wrong. */
function literal(text: string, i: number, word: string): number {
  for (let k = 1; k < word.length; k++) {
    if (i + k >= text.length) return text.length + 1
    if (text.charCodeAt(i + k) !== word.charCodeAt(k)) return -2 - (i + k)
  }
  return i + word.length
}

/**
 * JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. A number cut at the
 * end of input ("1." or "1e") is incomplete, not wrong; one that goes on wrongly ("1.x",
 * "-a") is wrong at the character that cannot follow, not where the number started.
 */
function scanNumber(text: string, i: number): number {
  const n = text.length
  let k = i
  if (text.charCodeAt(k) === 0x2d) k++
  if (k >= n) return n + 1
  if (text.charCodeAt(k) === 0x30) k++
  else if (isDigit(text.charCodeAt(k))) k = digits(text, k)
  else return -2 - k
  if (k < n && text.charCodeAt(k) === 0x2e) {
    if (++k >= n) return n + 1
    if (!isDigit(text.charCodeAt(k))) return -2 - k
    k = digits(text, k)
  }
  if (k < n && (text.charCodeAt(k) | 0x20) === 0x65) {
    k++
    if (k < n && (text.charCodeAt(k) === 0x2b || text.charCodeAt(k) === 0x2d)) k++
    if (k >= n) return n + 1
    if (!isDigit(text.charCodeAt(k))) return -2 - k
    k = digits(text, k)
  }
  return k
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

/** The index after the run of digits starting at k. */
function digits(text: string, k: number): number {
  while (k < text.length && isDigit(text.charCodeAt(k))) k++
  return k
}

/** End index after the closing quote; -2 - k for a bad escape or control character at k; > length when unterminated. */
function scanString(text: string, i: number): number {
  const n = text.length
  let k = i + 1
  while (k < n) {
    const c = text.charCodeAt(k)
    if (c === 0x22) return k + 1
    if (c < 0x20) return -2 - k
    if (c === 0x5c) {
      if (k + 1 >= n) return n + 1
      const e = text.charCodeAt(k + 1)
      if (e === 0x75) {
        for (let h = 2; h < 6; h++) {
          if (k + h >= n) return n + 1
          if (!/[0-9a-fA-F]/.test(text[k + h]!)) return -2 - (k + h)
        }
        k += 6
        continue
      }
      if ('"\\/bfnrt'.indexOf(String.fromCharCode(e)) < 0) return -2 - (k + 1)
      k += 2
      continue
    }
    k++
  }
  return n + 1
}

/** JSON.parse with an engine-independent error. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (e) {
    const found = findJsonSyntaxError(text)
    return { ok: false, error: found ?? { message: String((e as Error).message), position: 0 } }
  }
}
