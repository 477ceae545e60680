// What compareReply returns: every difference between a client's result and the reference,
// with the frame behind it and a documented cause.

import type { CompareCause } from './compare-causes.js'

export interface Difference {
  /** The field's path in the Reply: `choices[0].content`, `choices[0].toolCalls[1].arguments`, `usage.output_tokens`. */
  field: string
  expected: unknown
  got: unknown
  /** The first differing character (UTF-16 index into the expected text); null for non-text fields. */
  offset: number | null
  /** The seq of the frame behind the difference; null when unknown (a bare Reply has no frames). */
  frame: number | null
  cause: CompareCause
  /** One plain sentence saying what the client did. */
  message: string
}

export interface Comparison {
  /** True when nothing compared differs. */
  equal: boolean
  /** In field order (content, reasoning, refusal, tool calls, finish reason per choice, then usage), first difference first. */
  differences: Difference[]
  /** Paths of fields the client's result does not carry: not compared. */
  notCompared: string[]
}
