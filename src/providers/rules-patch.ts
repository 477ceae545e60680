// Patch mode for user rules: frames carry JSON-patch operations (RFC 6902 and the append /
// truncate / patch variants, src/core/json-patch.ts) on one document, and the rules' paths read
// that document after each frame. A bad operation changes nothing and is a warning on its frame.

import { JsonPatchDocument } from '../core/json-patch.js'
import type { Delta } from '../core/types.js'
import type { ParsedPath } from './rules-path.js'
import { excerpt, isObject } from './shared.js'

export class PatchedDocument {
  private readonly doc = new JsonPatchDocument({})

  /** Applies one operation or an array of them; each failure is a warning note. */
  apply(operations: unknown): Delta[] {
    const list = Array.isArray(operations) ? operations : [operations]
    const out: Delta[] = []
    for (const op of list) {
      const r = this.doc.apply(op)
      if (!r.ok) out.push({ type: 'note', level: 'warning', message: `a patch operation was not applied (${r.error.code} at ${JSON.stringify(excerpt(r.error.path, 100))}): ${r.error.message}` })
    }
    return out
  }

  /**
   * The parts of the document the rules read, as plain JSON: only the top-level members their
   * paths start with are copied (a path starting at an element or the root copies it all).
   */
  view(paths: ReadonlyArray<ParsedPath | null>): unknown {
    const names = new Set<string>()
    for (const p of paths) {
      if (p === null) continue
      const first = p.steps[0]
      if (first === undefined || first.kind !== 'member') return this.doc.value()
      names.add(first.name)
    }
    const out: Record<string, unknown> = {}
    for (const name of names) {
      const r = this.doc.read('/' + name.replace(/~/g, '~0').replace(/\//g, '~1'))
      if (r.ok) Object.defineProperty(out, name, { value: r.value, enumerable: true, writable: true, configurable: true })
    }
    return isObject(out) ? out : {}
  }
}
