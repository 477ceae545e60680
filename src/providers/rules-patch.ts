// Patch mode for user rules: frames carry JSON-patch operations (RFC 6902 and the append /
// truncate / patch variants, src/core/json-patch.ts) on one document, and the rules' paths read
// that document after each frame. A bad operation changes nothing and is a warning on its frame.
//
// Cost: a frame must not cost the length of the text written so far (100,000 appends would be
// quadratic). So a text path without [*] (a fixed place, a JSON Pointer) is watched: an `append`
// of a string there is the text delta itself; only an operation that touches the place some
// other way makes it read whole (and diffed). Every other path reads just its leaf when fixed,
// else a copy of the top-level member it starts with.

import { JsonPatchDocument } from '../core/json-patch.js'
import type { Delta } from '../core/adapters.js'
import type { ParsedPath } from './rules-path.js'
import { excerpt, isObject } from './shared.js'

/** What one frame's operations did to the watched places. */
export interface Applied {
  notes: Delta[]
  /** Watched pointer → the strings appended to it, in order (only where nothing else touched it). */
  appended: Map<string, string[]>
  /** Watched pointers an operation changed some other way: read them whole. */
  dirty: Set<string>
}

/** The JSON Pointer of a path without [*]; null when it has one. */
export function pointerOf(path: ParsedPath): string | null {
  let out = ''
  for (const s of path.steps) {
    if (s.kind === 'every') return null
    out += '/' + (s.kind === 'index' ? String(s.index) : s.name.replace(/~/g, '~0').replace(/\//g, '~1'))
  }
  return out
}

export class PatchedDocument {
  private readonly doc = new JsonPatchDocument({})

  /** Applies the operations (each an operation or a list of them); each failure is a warning note. */
  apply(operations: readonly unknown[], watched: ReadonlySet<string>): Applied {
    const applied: Applied = { notes: [], appended: new Map(), dirty: new Set() }
    for (const value of operations) {
      for (const op of Array.isArray(value) ? value : [value]) this.applyOne(op, watched, applied)
    }
    for (const w of applied.dirty) applied.appended.delete(w)
    return applied
  }

  private applyOne(op: unknown, watched: ReadonlySet<string>, applied: Applied): void {
    const o = isObject(op) ? op : null
    const path = typeof o?.['path'] === 'string' ? o['path'] : null
    const fast = o !== null && o['op'] === 'append' && path !== null && watched.has(path) && typeof o['value'] === 'string'
    if (!fast && watched.size > 0) {
      const from = typeof o?.['from'] === 'string' ? o['from'] : null
      for (const w of watched) {
        // a nested patch list may touch anything
        if (o?.['op'] === 'patch' || (path !== null && touches(path, w)) || (from !== null && touches(from, w))) applied.dirty.add(w)
      }
    }
    const r = this.doc.apply(op)
    if (!r.ok) {
      applied.notes.push({ type: 'note', level: 'warning', message: `a patch operation was not applied (${r.error.code} at ${JSON.stringify(excerpt(r.error.path, 100))}): ${r.error.message}` })
      return
    }
    if (fast) {
      const list = applied.appended.get(path!)
      if (list) list.push(o!['value'] as string)
      else applied.appended.set(path!, [o!['value'] as string])
    }
  }

  /** The value at a pointer, or undefined. */
  readPointer(pointer: string): unknown {
    const r = this.doc.read(pointer)
    return r.ok ? r.value : undefined
  }

  /**
   * The parts of the document these paths read, as plain JSON: a fixed path's leaf alone, put at
   * its place; a path with [*] gets a copy of the top-level member it starts with (all of it
   * when it starts at an element or the root).
   */
  view(paths: ReadonlyArray<ParsedPath | null>): unknown {
    const out: Record<string, unknown> = {}
    for (const p of paths) {
      if (p === null) continue
      const pointer = pointerOf(p)
      if (pointer !== null) {
        const v = this.readPointer(pointer)
        if (v !== undefined) place(out, p, v)
        continue
      }
      const first = p.steps[0]
      if (first === undefined || first.kind !== 'member') return this.doc.value()
      const v = this.readPointer('/' + first.name.replace(/~/g, '~0').replace(/\//g, '~1'))
      if (v !== undefined) define(out, first.name, v)
    }
    return out
  }
}

function touches(pointer: string, watched: string): boolean {
  return pointer === watched || pointer === '' || watched.startsWith(pointer + '/') || pointer.startsWith(watched + '/')
}

/** Puts `value` at the place a fixed path names inside `root`, making the containers on the way. */
function place(root: Record<string, unknown>, path: ParsedPath, value: unknown): void {
  let at: unknown = root
  const steps = path.steps
  if (steps.length === 0) return
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!
    const last = i === steps.length - 1
    const next = steps[i + 1]
    const make = (): unknown => (last ? value : next!.kind === 'index' ? [] : {})
    if (s.kind === 'member' && isObject(at)) {
      if (last || !Object.hasOwn(at, s.name)) define(at, s.name, make())
      at = at[s.name]
    } else if (s.kind === 'index' && Array.isArray(at)) {
      if (last || at[s.index] === undefined) at[s.index] = make()
      at = at[s.index]
    } else return // another fixed path already put a value of another kind here
  }
}

/** An own member, whatever its name (`__proto__` included). */
function define(o: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true })
}
