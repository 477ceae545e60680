// Deep JSON without recursion (docs/architecture.md#limits). JSON.parse reads any depth, but
// JSON.stringify, structured clone, deep equality and tree views recurse, and a frame of a few
// kilobytes can nest thousands of levels. So nothing deeper than MAX_JSON_DEPTH is put into a
// Reply or beside it (parsed tool arguments, usage fields, error payloads), and every walk
// here uses an explicit stack.

/**
 * How deep a value the Reply may hold: arrays and objects nested more than 256 levels
 * (`[[[…]]]`, `{"a":{"a":…}}`) are not parsed into it. Real payloads nest a few levels;
 * 256 levels stringify safely on any engine's stack, in a worker too.
 */
export const MAX_JSON_DEPTH = 256

/**
 * Where a JSON text opens its (limit + 1)th nested array or object, or -1 when it never nests
 * that deep. Strings are skipped; the text need not be valid. O(n), nothing parsed.
 */
export function nestingBeyond(text: string, limit = MAX_JSON_DEPTH): number {
  if (text.length <= limit) return -1 // each level takes a character
  let depth = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // a string: to its closing quote, escapes skipped
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++
        else if (d === 0x22) break
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--
    }
  }
  return -1
}

/** The message for a value left out for its depth. */
export function tooDeepMessage(position: number | null = null): string {
  return `nested deeper than ${MAX_JSON_DEPTH} levels${position === null ? '' : ` (at position ${position})`}: not parsed, the text is kept`
}

/** True when arrays and objects nest more than `limit` levels in `value`. Iterative; stops at the first too-deep node. */
export function valueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  const nodes: object[] = [value]
  const depths: number[] = [1]
  while (nodes.length > 0) {
    const node = nodes.pop()!
    const depth = depths.pop()!
    if (depth > limit) return true
    const values = Array.isArray(node) ? node : Object.values(node)
    for (const v of values) {
      if (typeof v === 'object' && v !== null) {
        nodes.push(v)
        depths.push(depth + 1)
      }
    }
  }
  return false
}

/**
 * JSON.stringify(value) for JSON data (what JSON.parse returns, or plain objects and arrays of
 * strings, numbers, booleans and null), the same text at any depth: values within
 * MAX_JSON_DEPTH go to the engine's own, deeper ones are written with an explicit stack.
 * Undefined (or a function) is left out of an object and written null in an array, as
 * JSON.stringify does; `toJSON` is not called.
 */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null'
  if (!valueTooDeep(value)) return JSON.stringify(value)
  return stringifyDeep(value)
}

interface Open {
  node: object
  /** The object's keys; null for an array. */
  keys: string[] | null
  next: number
  wrote: boolean
}

function stringifyDeep(root: object): string {
  const out: string[] = []
  const stack: Open[] = []
  const open = (node: object): void => {
    const isArray = Array.isArray(node)
    out.push(isArray ? '[' : '{')
    stack.push({ node, keys: isArray ? null : Object.keys(node), next: 0, wrote: false })
  }
  open(root)
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const length = top.keys === null ? (top.node as unknown[]).length : top.keys.length
    if (top.next >= length) {
      out.push(top.keys === null ? ']' : '}')
      stack.pop()
      continue
    }
    const i = top.next++
    const key = top.keys === null ? null : top.keys[i]!
    const v = key === null ? (top.node as unknown[])[i] : (top.node as Record<string, unknown>)[key]
    const scalar = typeof v === 'object' && v !== null ? null : JSON.stringify(v)
    if (key !== null && scalar === undefined) continue // undefined, a function: no member
    if (top.wrote) out.push(',')
    top.wrote = true
    if (key !== null) out.push(JSON.stringify(key), ':')
    if (scalar === null) open(v as object)
    else out.push(scalar ?? 'null')
  }
  return out.join('')
}
