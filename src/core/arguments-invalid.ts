// arguments-invalid: a call whose arguments still do not parse when the stream has ended
// (docs/architecture.md#diagnostics). Judged once, at the end: while a call streams its
// arguments are partial JSON in every frame but the last. How grave it is depends on what the
// finish reason says: a reason that says the calls are complete (a client runs them) makes it
// an error; a token limit, another reason or none leaves it a warning (the reply says it may
// be cut, truncated-by-limit beside it when the limit cut it).

import { clip } from './quote.js'
import { replyToolCall, sortedCalls, type ToolState } from './reply-tool-call.js'
import { argumentsSyntaxError } from './tool-arguments.js'
import type { Diagnostic } from './types.js'

/**
 * Finish reasons that say the model finished its calls, as each wire writes them (OpenAI chat,
 * Ollama, the AI SDK; Anthropic, Bedrock; Gemini; Cohere; Responses' status).
 */
const COMPLETE_REASONS: ReadonlySet<string> = new Set([
  'tool_calls', 'function_call', 'stop', 'tool-calls', 'tool_use', 'end_turn', 'STOP', 'TOOL_CALL', 'COMPLETE', 'completed',
])

/** Finish reasons that say the token limit cut the reply (OpenAI, Ollama; Anthropic; Gemini; Responses). */
export const LIMIT_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'MAX_TOKENS', 'max_output_tokens'])

export type ReportInvalid = (frame: number, level: Diagnostic['level'], message: string) => void

/** Each call of the choice (in Reply order) whose arguments are meant to be JSON and are not. */
export function checkArguments(choice: number, finishReason: string | null, calls: Iterable<ToolState>, report: ReportInvalid): void {
  sortedCalls(calls).forEach((t) => {
    if (t.freeText) return
    const call = replyToolCall(t) // kept on the call: the Reply that follows parses nothing again
    if (call.argumentsError === null) return
    const args = call.arguments
    const error = argumentsSyntaxError(args)
    if (error === null) return // valid JSON nested deeper than the Reply keeps: not invalid
    const who = [t.name === null ? 'no name' : clip(t.name), t.id === null ? null : `id ${clip(t.id)}`].filter((s) => s !== null).join(', ')
    const where = t.args.length > 0 ? `the last fragment in frame ${t.lastFrame}` : `no fragment came; the call opened in frame ${t.lastFrame}`
    const complete = finishReason !== null && COMPLETE_REASONS.has(finishReason)
    const why = finishReason === null ? 'the choice has no finish reason'
      : complete ? `yet finish reason ${clip(finishReason)} says the calls are complete`
        : LIMIT_REASONS.has(finishReason) ? `cut at the token limit (finish reason ${clip(finishReason)})`
          : `finish reason ${clip(finishReason)}`
    report(t.lastFrame, complete ? 'error' : 'warning',
      `tool call ${t.index} (${who}) of choice ${choice}: its arguments (${args.length} characters, ${where}) do not parse: ${error.message}; ${why}`)
  })
}
