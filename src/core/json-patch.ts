// A JSON document changed by patch operations (docs/architecture.md#patch-mode): RFC 6902
// (`add`, `remove`, `replace`, `move`, `copy`, `test`) and the variants chat backends stream
// (ChatGPT's `append` to a string, an array or an object, `truncate`, a nested `patch` list).
// Paths are JSON Pointers (RFC 6901: `~1` is `/`, `~0` is `~`, `-` is the end of an array).
//
// Operations come from the wire, so everything here is hostile input: a bad operation is an
// error value (never a throw) and leaves the document as it was. Objects inside the document
// have no prototype and `__proto__` is refused as a member name, so no pointer reaches
// Object.prototype. Values are copied in (the frame that carried them stays as parsed), no
// deeper than MAX_JSON_DEPTH. A string that is appended to is kept as a list of parts until it
// is read, so a reply made of 100,000 appends costs its length, not its length squared.

import { MAX_JSON_DEPTH } from './json-depth.js'
import { arrayIndex, child, copyIn, copyOut, isMembers, isText, nodeDepth, Rope, sameNode, type Members, type Node } from './json-patch-nodes.js'

export interface PatchOperation {
  op: string
  path: string
  value?: unknown
  /** For `move` and `copy`. */
  from?: string
}

export type PatchErrorCode =
  | 'bad-operation'
  | 'bad-pointer'
  | 'forbidden-member'
  | 'no-target'
  | 'index-out-of-range'
  | 'not-a-container'
  | 'type-mismatch'
  | 'test-failed'
  | 'too-deep'
  | 'too-large'

export interface PatchError {
  code: PatchErrorCode
  message: string
  /** The pointer the error concerns. */
  path: string
}

export type PatchResult = { ok: true } | { ok: false; error: PatchError }
export type ReadResult = { ok: true; value: unknown } | { ok: false; error: PatchError }

/** How many characters `copy` may duplicate in one document's life: copies are the only operations that grow it faster than the wire does. */
export const MAX_COPIED = 16 * 1024 * 1024

const OK: PatchResult = { ok: true }

function fail(code: PatchErrorCode, message: string, path: string): { ok: false; error: PatchError } {
  return { ok: false, error: { code, message, path } }
}

/** A pointer's reference tokens, unescaped; an error for text that is not a pointer. */
export function parsePointer(pointer: string): { ok: true; tokens: string[] } | { ok: false; error: PatchError } {
  if (typeof pointer !== 'string') return fail('bad-pointer', 'the path is not a string', String(pointer))
  if (pointer === '') return { ok: true, tokens: [] }
  if (pointer[0] !== '/') return fail('bad-pointer', 'a JSON Pointer starts with "/"', pointer)
  const raw = pointer.slice(1).split('/')
  if (raw.length > MAX_JSON_DEPTH) return fail('too-deep', `the path has more than ${MAX_JSON_DEPTH} levels`, pointer)
  const tokens: string[] = []
  for (const t of raw) {
    let token = t
    if (t.includes('~')) {
      if (/~(?![01])/.test(t)) return fail('bad-pointer', `"~" must be followed by 0 or 1 (in ${JSON.stringify(t)})`, pointer)
      token = t.replace(/~1/g, '/').replace(/~0/g, '~')
    }
    if (token === '__proto__') return fail('forbidden-member', 'the member name "__proto__" is refused', pointer)
    tokens.push(token)
  }
  return { ok: true, tokens }
}

interface Located {
  parent: Node[] | Members | null
  /** The last token (for the root, ''). */
  token: string
  tokens: string[]
}

/**
 * One JSON document. `apply` changes it by one operation (or a `patch` list), `read` gives a
 * value at a pointer as plain JSON, `textLength` a string's length without joining it.
 */
export class JsonPatchDocument {
  private root: Node = null
  private copied = 0
  private wrote = 0

  constructor(initial: unknown = null) {
    const r = copyIn(initial, MAX_JSON_DEPTH)
    this.root = r === null ? null : r.node
  }

  /** Characters (and members, items) the operations have put into the document so far: what reading it back may cost, for a caller's budget. */
  get written(): number {
    return this.wrote
  }

  /** The whole document as plain JSON. */
  value(): unknown {
    return copyOut(this.root)
  }

  /** The value at a pointer, as plain JSON. */
  read(pointer: string): ReadResult {
    const found = this.find(pointer)
    return found.ok ? { ok: true, value: copyOut(found.node) } : found
  }

  /** The length of the string at a pointer (UTF-16 units), without joining its parts; null when it is not a string. */
  textLength(pointer: string): number | null {
    const found = this.find(pointer)
    return found.ok && isText(found.node) ? found.node.length : null
  }

  /** What kind of value is at a pointer (null when nothing is), without joining or copying it. */
  typeAt(pointer: string): 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object' | null {
    const found = this.find(pointer)
    if (!found.ok) return null
    const n = found.node
    if (isText(n)) return 'string'
    if (n === null) return 'null'
    if (Array.isArray(n)) return 'array'
    if (typeof n === 'object') return 'object'
    return typeof n === 'number' ? 'number' : 'boolean'
  }

  /** The items of the array at a pointer, or the members of the object (0 otherwise). */
  sizeAt(pointer: string): number {
    const found = this.find(pointer)
    if (!found.ok) return 0
    const n = found.node
    return Array.isArray(n) ? n.length : isMembers(n) ? Object.keys(n).length : 0
  }

  /** True when the pointer names a value in the document. */
  has(pointer: string): boolean {
    return this.find(pointer).ok
  }

  /** Applies one operation; a `patch` applies its list in order (each failure reported, the rest still applied). */
  apply(operation: unknown): PatchResult {
    const errors: PatchError[] = []
    const stack: unknown[] = [operation]
    while (stack.length > 0) {
      const op = stack.pop()
      if (typeof op === 'object' && op !== null && (op as PatchOperation).op === 'patch') {
        const list = (op as PatchOperation).value
        if (!Array.isArray(list)) {
          errors.push({ code: 'bad-operation', message: 'a patch operation carries a list of operations', path: String((op as PatchOperation).path ?? '') })
          continue
        }
        for (let i = list.length - 1; i >= 0; i--) stack.push(list[i])
        continue
      }
      const r = this.applyOne(op)
      if (!r.ok) errors.push(r.error)
    }
    if (errors.length === 0) return OK
    const first = errors[0]!
    return errors.length === 1 ? { ok: false, error: first } : { ok: false, error: { ...first, message: `${first.message} (and ${errors.length - 1} more failed operations)` } }
  }

  private applyOne(operation: unknown): PatchResult {
    if (typeof operation !== 'object' || operation === null || Array.isArray(operation)) return fail('bad-operation', 'an operation is an object', '')
    const { op, path, value, from } = operation as PatchOperation
    if (typeof path !== 'string') return fail('bad-operation', 'an operation has a string "path"', '')
    const has = Object.hasOwn(operation, 'value')
    switch (op) {
      case 'add':
      case 'replace':
        if (!has) return fail('bad-operation', `${op} needs a value`, path)
        return this.put(path, value, op)
      case 'remove': {
        const r = this.take(path)
        return r.ok ? OK : r
      }
      case 'move':
      case 'copy':
        if (typeof from !== 'string') return fail('bad-operation', `${op} needs a "from" pointer`, path)
        return op === 'move' ? this.move(from, path) : this.copy(from, path)
      case 'test': {
        if (!has) return fail('bad-operation', 'test needs a value', path)
        const found = this.find(path)
        if (!found.ok) return found
        const expected = copyIn(value, MAX_JSON_DEPTH)
        if (expected === null) return fail('too-deep', `the value nests deeper than ${MAX_JSON_DEPTH} levels`, path)
        return sameNode(found.node, expected.node) ? OK : fail('test-failed', 'the value differs', path)
      }
      case 'append':
        if (!has) return fail('bad-operation', 'append needs a value', path)
        return this.append(path, value)
      case 'truncate':
        return this.truncate(path, value)
      default:
        return fail('bad-operation', `unknown operation ${JSON.stringify(String(op)).slice(0, 40)}`, path)
    }
  }

  private locate(pointer: string): { ok: true; at: Located } | { ok: false; error: PatchError } {
    const parsed = parsePointer(pointer)
    if (!parsed.ok) return parsed
    const tokens = parsed.tokens
    if (tokens.length === 0) return { ok: true, at: { parent: null, token: '', tokens } }
    let node: Node = this.root
    for (let i = 0; i < tokens.length - 1; i++) {
      const next = child(node, tokens[i]!)
      if (next === undefined) return fail(isText(node) || typeof node !== 'object' || node === null ? 'not-a-container' : 'no-target', `nothing at ${prefix(tokens, i + 1)}`, pointer)
      node = next
    }
    if (typeof node !== 'object' || node === null || node instanceof Rope) return fail('not-a-container', `${prefix(tokens, tokens.length - 1) || 'the root'} is not an object or an array`, pointer)
    return { ok: true, at: { parent: node, token: tokens[tokens.length - 1]!, tokens } }
  }

  private find(pointer: string): { ok: true; node: Node } | { ok: false; error: PatchError } {
    const loc = this.locate(pointer)
    if (!loc.ok) return loc
    const { parent, token } = loc.at
    if (parent === null) return { ok: true, node: this.root }
    const node = child(parent, token)
    if (node === undefined) return fail(Array.isArray(parent) ? 'index-out-of-range' : 'no-target', `nothing at ${pointer}`, pointer)
    return { ok: true, node }
  }

  /** add (insert into arrays, set members) or replace (the target must exist). */
  private put(pointer: string, value: unknown, op: 'add' | 'replace'): PatchResult {
    const loc = this.locate(pointer)
    if (!loc.ok) return loc
    const { parent, token, tokens } = loc.at
    const copied = copyIn(value, MAX_JSON_DEPTH - tokens.length)
    if (copied === null) return fail('too-deep', `the document would nest deeper than ${MAX_JSON_DEPTH} levels`, pointer)
    const placed = this.place(parent, token, copied.node, op, pointer)
    if (placed.ok) this.wrote += copied.size
    return placed
  }

  private place(parent: Node[] | Members | null, token: string, node: Node, op: 'add' | 'replace', pointer: string): PatchResult {
    if (parent === null) {
      this.root = node
      return OK
    }
    if (Array.isArray(parent)) {
      const last = op === 'add' && token === '-'
      const i = last ? parent.length : arrayIndex(token)
      if (i === null) return fail('bad-pointer', `${JSON.stringify(token)} is not an array index`, pointer)
      const limit = op === 'add' ? parent.length : parent.length - 1
      if (i > limit) return fail('index-out-of-range', `index ${i} is past the end of an array of ${parent.length}`, pointer)
      if (op === 'add') parent.splice(i, 0, node)
      else parent[i] = node
      return OK
    }
    if (op === 'replace' && !(token in parent)) return fail('no-target', `nothing at ${pointer} to replace`, pointer)
    parent[token] = node
    return OK
  }

  private take(pointer: string): { ok: true; node: Node } | { ok: false; error: PatchError } {
    const loc = this.locate(pointer)
    if (!loc.ok) return loc
    const { parent, token } = loc.at
    if (parent === null) {
      const node = this.root
      this.root = null
      return { ok: true, node }
    }
    if (Array.isArray(parent)) {
      const i = arrayIndex(token)
      if (i === null) return fail('bad-pointer', `${JSON.stringify(token)} is not an array index`, pointer)
      if (i >= parent.length) return fail('index-out-of-range', `index ${i} is past the end of an array of ${parent.length}`, pointer)
      return { ok: true, node: parent.splice(i, 1)[0]! }
    }
    if (!(token in parent)) return fail('no-target', `nothing at ${pointer} to remove`, pointer)
    const node = parent[token]!
    delete parent[token]
    return { ok: true, node }
  }

  private move(from: string, to: string): PatchResult {
    if (from === to) return this.find(from).ok ? OK : this.find(from)
    if (to.startsWith(from + '/') || from === '') return fail('bad-operation', 'a value cannot be moved into itself', to)
    const target = this.locate(to)
    if (!target.ok) return target
    const source = this.find(from)
    if (!source.ok) return source
    // depth after the move: the target's parent depth plus the moved value's own
    if (target.at.tokens.length + nodeDepth(source.node) > MAX_JSON_DEPTH) return fail('too-deep', `the document would nest deeper than ${MAX_JSON_DEPTH} levels`, to)
    const taken = this.take(from)
    if (!taken.ok) return taken
    const again = this.locate(to) // removing from an array can shift the target's indexes (RFC 6902 4.4)
    const placed = again.ok ? this.place(again.at.parent, again.at.token, taken.node, 'add', to) : again
    if (!placed.ok) {
      // put the value back where it was, so a failed move changes nothing
      const back = this.locate(from)
      if (back.ok) this.place(back.at.parent, back.at.token, taken.node, 'add', from)
    }
    return placed
  }

  private copy(from: string, to: string): PatchResult {
    const source = this.find(from)
    if (!source.ok) return source
    const target = this.locate(to)
    if (!target.ok) return target
    const copied = copyIn(source.node instanceof Rope ? source.node.toString() : copyOut(source.node), MAX_JSON_DEPTH - target.at.tokens.length)
    if (copied === null) return fail('too-deep', `the document would nest deeper than ${MAX_JSON_DEPTH} levels`, to)
    if (this.copied + copied.size > MAX_COPIED) return fail('too-large', `copies would duplicate more than ${MAX_COPIED} characters`, to)
    this.copied += copied.size
    this.wrote += copied.size
    return this.place(target.at.parent, target.at.token, copied.node, 'add', to)
  }

  /** ChatGPT's append: a string is concatenated, an array gets the value's items (or the value), an object the value's members; a missing member is added. */
  private append(pointer: string, value: unknown): PatchResult {
    const loc = this.locate(pointer)
    if (!loc.ok) return loc
    const { parent, token, tokens } = loc.at
    const current = parent === null ? this.root : child(parent, token)
    if (current === undefined) {
      if (parent !== null && !Array.isArray(parent)) return this.put(pointer, value, 'add')
      return fail(parent !== null ? 'index-out-of-range' : 'no-target', `nothing at ${pointer} to append to`, pointer)
    }
    if (isText(current)) {
      if (typeof value !== 'string') return fail('type-mismatch', 'only a string can be appended to a string', pointer)
      if (value === '') return OK
      this.wrote += value.length
      if (current instanceof Rope) current.append(value)
      else {
        const rope = new Rope(current)
        rope.append(value)
        this.set(parent, token, rope)
      }
      return OK
    }
    if (Array.isArray(current)) {
      const items = copyIn(Array.isArray(value) ? value : [value], MAX_JSON_DEPTH - tokens.length)
      if (items === null) return fail('too-deep', `the document would nest deeper than ${MAX_JSON_DEPTH} levels`, pointer)
      for (const item of items.node as Node[]) current.push(item)
      this.wrote += items.size
      return OK
    }
    if (isMembers(current)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('type-mismatch', 'only an object can be appended to an object', pointer)
      if (Object.hasOwn(value, '__proto__')) return fail('forbidden-member', 'the member name "__proto__" is refused', pointer)
      const members = copyIn(value, MAX_JSON_DEPTH - tokens.length)
      if (members === null) return fail('too-deep', `the document would nest deeper than ${MAX_JSON_DEPTH} levels`, pointer)
      for (const k of Object.keys(members.node as Members)) current[k] = (members.node as Members)[k]!
      this.wrote += members.size
      return OK
    }
    return fail('type-mismatch', `cannot append to ${current === null ? 'null' : typeof current}`, pointer)
  }

  /** Keeps the first `length` characters of a string (or items of an array). */
  private truncate(pointer: string, length: unknown): PatchResult {
    if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) return fail('bad-operation', 'truncate needs a non-negative integer length', pointer)
    const loc = this.locate(pointer)
    if (!loc.ok) return loc
    const { parent, token } = loc.at
    const current = parent === null ? this.root : child(parent, token)
    if (current === undefined) return fail('no-target', `nothing at ${pointer} to truncate`, pointer)
    if (isText(current)) {
      if (length < current.length) this.set(parent, token, current.toString().slice(0, length))
      return OK
    }
    if (Array.isArray(current)) {
      if (length < current.length) current.length = length
      return OK
    }
    return fail('type-mismatch', 'only a string or an array can be truncated', pointer)
  }

  private set(parent: Node[] | Members | null, token: string, node: Node): void {
    if (parent === null) this.root = node
    else if (Array.isArray(parent)) parent[arrayIndex(token)!] = node
    else parent[token] = node
  }
}

function prefix(tokens: string[], n: number): string {
  return tokens
    .slice(0, n)
    .map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('')
}
