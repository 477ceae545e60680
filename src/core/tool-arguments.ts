// A tool call's arguments as the Reply holds them: the concatenated text, parsed once at the
// end (docs/architecture.md#merge-rules), unless it nests deeper than the Reply may hold.

import { nestingBeyond, tooDeepMessage } from './json-depth.js'
import { parseJson } from './json-error.js'

/** Arguments parsed, unless they nest deeper than the Reply may hold (then the text alone is kept, with why). */
export function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const deep = nestingBeyond(text)
  if (deep >= 0) return { ok: false, error: tooDeepMessage(deep) }
  const parsed = parseJson(text)
  return parsed.ok ? parsed : { ok: false, error: parsed.error.message }
}
