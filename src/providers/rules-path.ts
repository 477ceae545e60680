// The path syntax of user rules (docs/rules.md): the way a value is
// written in JavaScript, which is also how DevTools and every JSON viewer show it:
//
//   choices[*].delta.content     member names joined by dots, [n] an array element,
//   [*]                          every element of an array (matches in order),
//   ["a.b"]                      a member whose name has dots, brackets or spaces,
//   ""                           the value itself.
//
// Chosen over JSON Pointer (/choices/0/delta/content) because a rule has to say "every
// element" (a choice, a tool call, a content part), which a pointer cannot, and because the
// user copies paths from what they see. Reading never recurses and never takes an inherited
// member: `__proto__`, `constructor` or `toString` are found only when the wire has them.

import { isObject } from './shared.js'

export type PathStep = { kind: 'member'; name: string } | { kind: 'index'; index: number } | { kind: 'every' }

export interface ParsedPath {
  text: string
  steps: PathStep[]
}

export type PathResult = { ok: true; path: ParsedPath } | { ok: false; message: string }

/** Paths longer than this are not a rule anyone writes: refused, so reading stays cheap. */
export const MAX_PATH_LENGTH = 1000

/** Parses a path; the message says what is wrong and at which character. */
export function parsePath(text: string): PathResult {
  if (text.length > MAX_PATH_LENGTH) return { ok: false, message: `longer than ${MAX_PATH_LENGTH} characters` }
  const steps: PathStep[] = []
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]!
    if (c === '[') {
      const close = text.indexOf(']', i)
      if (text[i + 1] === '"') {
        const end = closingQuote(text, i + 2)
        if (end < 0 || text[end + 1] !== ']') return fail(`a quoted name opened at character ${i + 1} is not closed with "]`)
        let name: unknown
        try { name = JSON.parse(text.slice(i + 1, end + 1)) } catch { return fail(`the quoted name at character ${i + 1} is not a JSON string`) }
        steps.push({ kind: 'member', name: name as string })
        i = end + 2
      } else {
        if (close < 0) return fail(`"[" at character ${i + 1} has no "]"`)
        const inside = text.slice(i + 1, close)
        if (inside === '*') steps.push({ kind: 'every' })
        else if (/^\d{1,9}$/.test(inside)) steps.push({ kind: 'index', index: Number(inside) })
        else return fail(`[${inside}] at character ${i + 1}: write [*], a whole number such as [0], or a quoted name such as ["a.b"]`)
        i = close + 1
      }
      if (i < n && text[i] !== '.' && text[i] !== '[') return fail(`character ${i + 1} (${JSON.stringify(text[i])}) must be "." or "[" after "]"`)
      if (text[i] === '.') { i++; if (i >= n) return fail('the path ends with "."') }
      continue
    }
    if (c === '.' || c === ']') return fail(`unexpected ${JSON.stringify(c)} at character ${i + 1}`)
    let j = i
    while (j < n && text[j] !== '.' && text[j] !== '[' && text[j] !== ']') j++
    const name = text.slice(i, j)
    if (name.trim() !== name) return fail(`the name ${JSON.stringify(name)} has spaces around it (quote it: ["${name}"])`)
    steps.push({ kind: 'member', name })
    i = j
    if (text[i] === '.') { i++; if (i >= n) return fail('the path ends with "."') }
    else if (text[i] === ']') return fail(`unexpected "]" at character ${i + 1}`)
  }
  return { ok: true, path: { text, steps } }

  function fail(message: string): PathResult {
    return { ok: false, message }
  }
}

/** Index of the quote that closes a JSON string whose content starts at `from`; -1 when none. */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
  }
  return -1
}

/** One value a path found, with the element numbers its [*] steps took, in order. */
export interface PathMatch {
  value: unknown
  positions: number[]
}

/** Every value the path finds in `root`, in document order (none when a step finds nothing). */
export function readPath(root: unknown, path: ParsedPath): PathMatch[] {
  let current: PathMatch[] = [{ value: root, positions: [] }]
  for (const step of path.steps) {
    const next: PathMatch[] = []
    for (const m of current) {
      const v = m.value
      if (step.kind === 'member') {
        if (isObject(v) && Object.hasOwn(v, step.name)) next.push({ value: v[step.name], positions: m.positions })
      } else if (step.kind === 'index') {
        if (Array.isArray(v) && step.index < v.length) next.push({ value: v[step.index], positions: m.positions })
      } else if (Array.isArray(v)) {
        for (let k = 0; k < v.length; k++) next.push({ value: v[k], positions: [...m.positions, k] })
      }
    }
    current = next
    if (current.length === 0) break
  }
  return current
}

/** The first value the path finds, or undefined. */
export function readFirst(root: unknown, path: ParsedPath | null): unknown {
  if (path === null) return undefined
  return readPath(root, path)[0]?.value
}

/** Writes a path from steps (the inverse of parsePath): names that need it are quoted. */
export function formatPath(steps: readonly PathStep[]): string {
  let out = ''
  for (const s of steps) {
    if (s.kind === 'every') out += '[*]'
    else if (s.kind === 'index') out += `[${s.index}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(s.name)) out += (out === '' ? '' : '.') + s.name
    else out += `[${JSON.stringify(s.name)}]`
  }
  return out
}
