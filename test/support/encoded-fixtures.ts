// Fixtures whose bytes the protocols' own server-side writers produce, run here: AG-UI's
// EventEncoder (@ag-ui/encoder 1.0) and the AI SDK's UI message stream writer (ai 6:
// createUIMessageStream piped through JsonToSseTransformStream, what
// createUIMessageStreamResponse sends). The stored .sse files are these functions' output,
// byte for byte; test/differential/messages-encoded.test.ts checks that they still are, so a
// fixture's provenance is a test, not a claim.

import { EventEncoder } from '@ag-ui/encoder'
import { EventType, type BaseEvent } from '@ag-ui/core'
import { createUIMessageStream, JsonToSseTransformStream } from 'ai'

/** AG-UI events of a run: two parent messages and a subagent's stream at once, a call and its result in the subagent's lane. */
export function agUiSubagentEvents(): BaseEvent[] {
  const sub = { subagentRunId: 'sub_w' }
  const events: Array<Record<string, unknown>> = [
    { type: EventType.RUN_STARTED, threadId: 'thread_7', runId: 'run_7' },
    { type: EventType.TEXT_MESSAGE_START, messageId: 'msg_plan', role: 'assistant' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_plan', delta: 'Plan: ' },
    { type: EventType.TEXT_MESSAGE_START, messageId: 'msg_pack', role: 'assistant' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_pack', delta: 'Pack: ' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_plan', delta: 'train to Bergen, ' },
    { type: EventType.SUBAGENT_STARTED, subagentRunId: 'sub_w', name: 'weather', description: 'Checks the forecast' },
    { type: EventType.TEXT_MESSAGE_START, messageId: 'msg_w', role: 'assistant', ...sub },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_w', delta: 'Checking ', ...sub },
    { type: EventType.TOOL_CALL_START, toolCallId: 'call_w', toolCallName: 'forecast', parentMessageId: 'msg_w', ...sub },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_pack', delta: 'rain jacket, ' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call_w', delta: '{"city":', ...sub },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_plan', delta: 'then the ferry.' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call_w', delta: '"Bergen"}', ...sub },
    { type: EventType.TOOL_CALL_END, toolCallId: 'call_w', ...sub },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_pack', delta: 'wool socks.' },
    { type: EventType.TOOL_CALL_RESULT, messageId: 'tool_w', toolCallId: 'call_w', content: 'rain, 9 °C', role: 'tool', ...sub },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_w', delta: 'the forecast: rain 🌧, 9 °C.', ...sub },
    { type: EventType.TEXT_MESSAGE_END, messageId: 'msg_w', ...sub },
    { type: EventType.SUBAGENT_FINISHED, subagentRunId: 'sub_w' },
    { type: EventType.TEXT_MESSAGE_END, messageId: 'msg_plan' },
    { type: EventType.TEXT_MESSAGE_END, messageId: 'msg_pack' },
    { type: EventType.RUN_FINISHED, threadId: 'thread_7', runId: 'run_7' },
  ]
  return events as unknown as BaseEvent[]
}

/** The AG-UI run as EventEncoder writes it for an SSE client (`accept: text/event-stream`). */
export function agUiSubagentSse(): string {
  const encoder = new EventEncoder({ accept: 'text/event-stream' })
  return agUiSubagentEvents().map((e) => encoder.encode(e)).join('')
}

/**
 * An AI SDK UI message stream with interleaved parts: two text parts and a reasoning part open
 * at once, their deltas alternating; a tool call whose input streams between them, its output;
 * a second step with a failed tool; written by the SDK's own writer.
 */
export async function aiSdkInterleavedSse(): Promise<string> {
  const stream = createUIMessageStream({
    generateId: () => 'never-used',
    execute: ({ writer }) => {
      writer.write({ type: 'start', messageId: 'msg_ix' })
      writer.write({ type: 'start-step' })
      writer.write({ type: 'reasoning-start', id: 'r1' })
      writer.write({ type: 'text-start', id: 't1' })
      writer.write({ type: 'reasoning-delta', id: 'r1', delta: 'Two lookups; ' })
      writer.write({ type: 'text-start', id: 't2' })
      writer.write({ type: 'text-delta', id: 't1', delta: 'Tides: ' })
      writer.write({ type: 'text-delta', id: 't2', delta: 'Weather: ' })
      writer.write({ type: 'tool-input-start', toolCallId: 'call_tide', toolName: 'tides' })
      writer.write({ type: 'reasoning-delta', id: 'r1', delta: 'answer both.' })
      writer.write({ type: 'tool-input-delta', toolCallId: 'call_tide', inputTextDelta: '{"port":' })
      writer.write({ type: 'text-delta', id: 't1', delta: 'high at 12:58.' })
      writer.write({ type: 'tool-input-delta', toolCallId: 'call_tide', inputTextDelta: '"Bergen"}' })
      writer.write({ type: 'text-delta', id: 't2', delta: 'rain, 9 °C 🌧.' })
      writer.write({ type: 'reasoning-end', id: 'r1' })
      writer.write({ type: 'tool-input-available', toolCallId: 'call_tide', toolName: 'tides', input: { port: 'Bergen' } })
      writer.write({ type: 'text-end', id: 't2' })
      writer.write({ type: 'tool-output-available', toolCallId: 'call_tide', output: { high: '12:58' } })
      writer.write({ type: 'text-end', id: 't1' })
      writer.write({ type: 'finish-step' })
      writer.write({ type: 'start-step' })
      writer.write({ type: 'tool-input-available', toolCallId: 'call_fc', toolName: 'forecast', input: { city: 'Bergen', days: 2 } })
      writer.write({ type: 'tool-output-error', toolCallId: 'call_fc', errorText: 'forecast service timed out' })
      writer.write({ type: 'text-start', id: 't3' })
      writer.write({ type: 'text-delta', id: 't3', delta: 'No two-day forecast.' })
      writer.write({ type: 'text-end', id: 't3' })
      writer.write({ type: 'finish-step' })
      writer.write({ type: 'finish', finishReason: 'stop' })
    },
  })
  let out = ''
  const reader = stream.pipeThrough(new JsonToSseTransformStream()).getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out += value
  }
}
