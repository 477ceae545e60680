// The nodes of a JsonPatchDocument (src/core/json-patch.ts): JSON values whose objects have no
// prototype and whose appended strings are ropes (parts joined when read), with the iterative
// walks over them (copy in from the wire, copy out as plain JSON, depth, equality). Pure: no
// DOM, no Node API; nothing here recurses, whatever the depth.

/** A string being appended to: parts joined when read (then kept joined). */
export class Rope {
  parts: string[]
  length: number
  constructor(first: string) {
    this.parts = [first]
    this.length = first.length
  }
  append(s: string): void {
    this.parts.push(s)
    this.length += s.length
  }
  toString(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')]
    return this.parts[0]!
  }
}

export type Node = null | boolean | number | string | Rope | Node[] | Members
export interface Members {
  [key: string]: Node
}

export function isMembers(n: Node | undefined): n is Members {
  return typeof n === 'object' && n !== null && !Array.isArray(n) && !(n instanceof Rope)
}

export function isText(n: Node | undefined): n is string | Rope {
  return typeof n === 'string' || n instanceof Rope
}

/** An array index token: "0", or digits without a leading zero; null otherwise. */
export function arrayIndex(token: string): number | null {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(token)) return null
  const n = Number(token)
  return Number.isSafeInteger(n) ? n : null
}

/** Copies a wire value into document nodes (no prototypes, strings and ropes copied), iteratively; null when deeper than `room` levels. */
export function copyIn(value: unknown, room: number): { node: Node; size: number } | null {
  if (typeof value !== 'object' || value === null) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return { node: null, size: 1 }
    if (typeof value === 'number' && !Number.isFinite(value)) return { node: null, size: 1 }
    return { node: value as Node, size: typeof value === 'string' ? value.length : 1 }
  }
  if (value instanceof Rope) return { node: new Rope(value.toString()), size: value.length }
  if (room < 1) return null
  let size = 0
  const root: Node = Array.isArray(value) ? [] : (Object.create(null) as Members)
  const stack: Array<{ from: unknown; to: Node[] | Members; depth: number }> = [{ from: value, to: root, depth: 1 }]
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop()!
    const entries: Array<[string | number, unknown]> = Array.isArray(from)
      ? (from as unknown[]).map((v, i) => [i, v])
      : Object.keys(from as object).map((k) => [k, (from as Record<string, unknown>)[k]])
    for (const [key, v] of entries) {
      size += typeof key === 'string' ? key.length + 1 : 1
      let child: Node
      if (typeof v === 'object' && v !== null && !(v instanceof Rope)) {
        if (depth + 1 > room) return null
        child = Array.isArray(v) ? [] : (Object.create(null) as Members)
        stack.push({ from: v, to: child, depth: depth + 1 })
      } else {
        const leaf = copyIn(v, 0)!
        child = leaf.node
        size += leaf.size
      }
      if (Array.isArray(to)) to[key as number] = child
      else to[key as string] = child
    }
  }
  return { node: root, size }
}

/** Levels of containers in a node (1 for an empty array or object, 0 for a scalar), iteratively. */
export function nodeDepth(node: Node): number {
  if (typeof node !== 'object' || node === null || node instanceof Rope) return 0
  let max = 0
  const stack: Array<[Node, number]> = [[node, 1]]
  while (stack.length > 0) {
    const [n, d] = stack.pop()!
    if (d > max) max = d
    const children = Array.isArray(n) ? n : Object.values(n as Members)
    for (const c of children) if (typeof c === 'object' && c !== null && !(c instanceof Rope)) stack.push([c, d + 1])
  }
  return max
}

/** A node as plain JSON data (ropes joined, objects with Object.prototype), iteratively. */
export function copyOut(node: Node): unknown {
  if (node instanceof Rope) return node.toString()
  if (typeof node !== 'object' || node === null) return node
  const root: unknown = Array.isArray(node) ? [] : {}
  const stack: Array<[Node, unknown]> = [[node, root]]
  while (stack.length > 0) {
    const [from, to] = stack.pop()!
    const keys = Array.isArray(from) ? from.map((_, i) => i) : Object.keys(from as Members)
    for (const key of keys) {
      const v = (from as Record<string | number, Node>)[key]!
      let out: unknown
      if (v instanceof Rope) out = v.toString()
      else if (typeof v === 'object' && v !== null) {
        out = Array.isArray(v) ? [] : {}
        stack.push([v, out])
      } else out = v
      if (Array.isArray(to)) to[key as number] = out
      // defineProperty: a member named "__proto__" stays a member, never a prototype
      else Object.defineProperty(to, key, { value: out, writable: true, enumerable: true, configurable: true })
    }
  }
  return root
}

/** Deep equality of two nodes (ropes compared as text), iteratively. */
export function sameNode(a: Node, b: Node): boolean {
  const stack: Array<[Node, Node]> = [[a, b]]
  while (stack.length > 0) {
    const [x, y] = stack.pop()!
    if (isText(x) || isText(y)) {
      if (!isText(x) || !isText(y) || x.length !== y.length || x.toString() !== y.toString()) return false
      continue
    }
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (x !== y) return false
      continue
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false
    if (Array.isArray(x)) {
      const ya = y as Node[]
      if (x.length !== ya.length) return false
      for (let i = 0; i < x.length; i++) stack.push([x[i]!, ya[i]!])
    } else {
      const xk = Object.keys(x)
      const ym = y as Members
      if (xk.length !== Object.keys(ym).length) return false
      for (const k of xk) {
        if (!(k in ym)) return false
        stack.push([(x as Members)[k]!, ym[k]!])
      }
    }
  }
  return true
}

/** The child of a node at a token; undefined when there is none (or the node is no container). */
export function child(node: Node, token: string): Node | undefined {
  if (Array.isArray(node)) {
    const i = arrayIndex(token)
    return i === null || i >= node.length ? undefined : node[i]
  }
  if (isMembers(node)) return token in node ? node[token] : undefined
  return undefined
}
