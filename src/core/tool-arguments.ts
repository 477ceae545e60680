// A tool call's arguments as the Reply holds them: the concatenated text, parsed once at the
// end (docs/architecture.md#merge-rules), unless it nests deeper than the Reply may hold.

import { nestingBeyond, tooDeepMessage } from './json-depth.js'
import { findJsonSyntaxError, parseJson } from './json-error.js'
import type { JsonSyntaxError } from './types.js'

/** Arguments parsed, unless they nest deeper than the Reply may hold (then the text alone is kept, with why). */
export function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const deep = nestingBeyond(text)
  if (deep >= 0) return { ok: false, error: tooDeepMessage(deep) }
  // partial arguments fail to parse in every snapshot of a call still streaming: V8 captures a
  // stack trace for each SyntaxError thrown, 40% of a failed parse's time and most of its
  // garbage (12,000 calls at a 64 MB stream's end), and the message is all that is kept
  const errors = Error as { stackTraceLimit?: number }
  const limit = errors.stackTraceLimit
  errors.stackTraceLimit = 0
  let parsed: ReturnType<typeof parseJson>
  try {
    parsed = parseJson(text)
  } finally {
    errors.stackTraceLimit = limit
  }
  return parsed.ok ? parsed : { ok: false, error: parsed.error.message }
}

/**
 * Why arguments that failed to parse fail, with the position: null when they are JSON nested
 * deeper than the Reply may hold (valid, only not kept). Read once per failing call at the end.
 */
export function argumentsSyntaxError(text: string): JsonSyntaxError | null {
  if (nestingBeyond(text) >= 0) return null
  return findJsonSyntaxError(text)
}
