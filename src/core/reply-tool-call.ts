// A tool call as the accumulator keeps it while the stream runs (its identity, its argument
// fragments), and as a Reply shows it: the fragments joined and parsed then, never during the
// stream (docs/architecture.md#merge-rules).

import type { TextBuffer } from './text-buffer.js'
import { parseArguments } from './tool-arguments.js'
import type { CallIdentity } from './tool-calls.js'
import type { ReplyToolCall } from './types.js'

export interface ToolState extends CallIdentity {
  arrival: number
  args: TextBuffer
  argumentsIfEmpty: string | null
  /** Provenance target of the arguments buffer. */
  target: number
  /**
   * The call as the last Reply held it: a snapshot of a stream with thousands of calls parses
   * only the ones that changed since (arguments are parsed in full each time they are read).
   */
  shown: ReplyToolCall | null
  /** The frame of the last arguments fragment (the frame that opened the call until one comes). */
  lastFrame: number
  /** The adapter said the arguments are free text, not JSON (ToolCallDelta.freeText). */
  freeText: boolean
}

/** A choice's calls in Reply order: by index, then by arrival (a second call at a reused index after the first). */
export function sortedCalls(calls: Iterable<ToolState>): ToolState[] {
  return [...calls].sort((a, b) => a.index - b.index || a.arrival - b.arrival)
}

/** The call as the Reply holds it: the one shown last when nothing about it changed since (a Reply is read, never changed: README). */
export function replyToolCall(t: ToolState): ReplyToolCall {
  const fragments = t.args.toString()
  const args = fragments === '' && t.argumentsIfEmpty !== null ? t.argumentsIfEmpty : fragments
  const type = t.type ?? 'function'
  const s = t.shown
  if (s !== null && s.arguments === args && s.id === t.id && s.name === t.name && s.type === type && s.index === t.index) return s
  const parsed = parseArguments(args)
  return t.shown = {
    index: t.index,
    id: t.id,
    type,
    name: t.name,
    arguments: args,
    parsedArguments: parsed.ok ? parsed.value : null,
    argumentsError: parsed.ok ? null : parsed.error,
  }
}
