// JSON text of values that came off the wire (a tool call's arguments, a provider's usage, a
// client's result): they can nest deeper than JSON.stringify's recursion reaches. The output is
// JSON.stringify's whenever it succeeds; past its reach, a loop writes the same value, indented
// to INDENT_DEPTH and compact below (indenting every level of a 100 000-deep array would take
// gigabytes).

const INDENT_DEPTH = 64

/** `JSON.stringify(value, null, indent)` for JSON data (plain objects, arrays, strings, numbers, booleans, null), at any depth. */
export function toJson(value: unknown, indent = 0): string {
  try {
    const text = JSON.stringify(value, null, indent)
    return text === undefined ? 'null' : text
  } catch (e) {
    if (!(e instanceof RangeError)) throw e
  }
  return stringifyDeep(value, indent)
}

interface Level {
  close: string
  items: Array<[string | null, unknown]>
  next: number
  depth: number
}

/** The loop behind toJson (exported for its tests). */
export function stringifyDeep(root: unknown, indent: number): string {
  const out: string[] = []
  const stack: Level[] = []
  const pad = (depth: number) => (indent > 0 && depth <= INDENT_DEPTH ? '\n' + ' '.repeat(indent * depth) : '')
  const colon = indent > 0 ? ': ' : ':'
  const write = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object') {
      out.push(scalar(value))
      return
    }
    const array = Array.isArray(value)
    const items: Array<[string | null, unknown]> = array
      ? (value as unknown[]).map((v) => [null, v])
      : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol')
    if (items.length === 0) {
      out.push(array ? '[]' : '{}')
      return
    }
    out.push(array ? '[' : '{')
    stack.push({ close: array ? ']' : '}', items, next: 0, depth: depth + 1 })
  }
  write(root, 0)
  while (stack.length > 0) {
    const level = stack[stack.length - 1]!
    if (level.next === level.items.length) {
      stack.pop()
      out.push((level.depth <= INDENT_DEPTH ? pad(level.depth - 1) : '') + level.close)
      continue
    }
    const [key, value] = level.items[level.next]!
    out.push((level.next > 0 ? ',' : '') + pad(level.depth) + (key === null ? '' : JSON.stringify(key) + colon))
    level.next++
    write(value, level.depth)
  }
  return out.join('')
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  return 'null'
}
