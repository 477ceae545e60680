// LangGraph Server (LangGraph Platform / `langgraph dev`, `POST /threads/{id}/runs/stream`):
// SSE frames named by their stream mode, `event: <mode>` or `event: <mode>|<namespace>…` for
// a subgraph's (langchain-ai/langgraphjs libs/langgraph-api/src/stream.mts; langchain-ai/
// langgraph libs/sdk-py langgraph_sdk/schema.py StreamPart). One choice (0), the assistant's:
// every AI message of the run writes into it (an agent's run has one per model call).
//
// - `messages` (stream mode messages-tuple): `[chunk, metadata]`; an AIMessageChunk APPENDS
//   to ITS message, by message id (content string or blocks, reasoning, `tool_call_chunks`
//   keyed per message by `index`): two branches of a fan-out stream at once and their chunks
//   interleave on the wire, as the SDK's MessageTupleManager keeps them apart. Messages are in
//   the order of their first chunk; the choice's text is theirs joined in that order
//   (docs/wire-formats.md#messages). A whole `ai` message (a node's own, not streamed) appends
//   all of it; a `tool` message is a message of its own holding the tool's result (status
//   `error`: a failed tool); human messages are the run's input, not the reply.
// - Legacy `messages/partial` carries each AI message WHOLE so far: snapshot mode
//   (snapshot.ts), so each frame is credited with what it added and a snapshot that does not
//   extend the last is `snapshot-rewrote`. Argument text (`tool_use.partial_json`, merged
//   `tool_call_chunks`) is a snapshot too; a call with only parsed `args` gets them, as a final
//   call, when its message ends (a finish reason, `messages/complete`, the end of the body).
//   `messages/complete` is the finished messages, read as one more snapshot; before any model
//   streamed in the run, it is the run's input (the thread's history): not the reply.
// - The finish reason is the last AI message's, given at `end` (or the end of the body): each
//   model call has its own (tool_use, then end_turn), and only the last one ends the reply.
// - `error` ({error, message}) is a stream error; `end` ends. The JS server
//   (@langchain/langgraph-api) never sends `end`: a body that ends at a frame's end is a
//   whole run for it (terminalOptional; not the event protocol's, which ends with its
//   lifecycle), only said as info. `metadata`, `messages/metadata`,
//   `values`, `updates`, `debug`, `custom`, `checkpoints`, `tasks`, `events`, `feedback` are
//   not the reply.
// - The event protocol (`{type: "event", method, params}` frames) is read by langgraph-events.ts.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { isEventFrame, LangGraphEventMapper } from './langgraph-events.js'
import { chunkCalls, finishReason, isAiMessage, isToolMessage, messageId, messageTexts, snapshotCalls, usageOf, type MessageCall } from './langchain-message.js'
import { argumentsText, excerpt, isObject, jsonText, quote, str, type JsonObject } from './shared.js'
import { extendsText, SnapshotChannels, snapshotDeltas } from './snapshot.js'

const CHOICE = 0

/** Stream modes that carry no reply text: never noted. */
const QUIET: ReadonlySet<string> = new Set([
  'metadata', 'messages/metadata', 'values', 'updates', 'debug', 'custom', 'checkpoints', 'tasks', 'events', 'feedback',
])

/** Modes that name LangGraph when their data has this shape (its event names are its own). */
const SHAPES: ReadonlyMap<string, (json: unknown) => boolean> = new Map<string, (json: unknown) => boolean>([
  ['messages', (j) => Array.isArray(j) && j.length === 2 && isObject(j[0]) && typeof j[0]['type'] === 'string' && isObject(j[1])],
  ['messages/partial', (j) => Array.isArray(j) && j.every(isObject)],
  ['messages/complete', (j) => Array.isArray(j) && j.every(isObject)],
  ['messages/metadata', isObject],
  // LangServe's metadata has a run_id too, but no attempt
  ['metadata', (j) => isObject(j) && typeof j['run_id'] === 'string' && typeof j['attempt'] === 'number'],
  ['values', isObject],
  ['updates', isObject],
  ['debug', (j) => isObject(j) && typeof j['type'] === 'string' && 'step' in j],
  ['checkpoints', isObject],
  ['tasks', isObject],
])

/** The stream mode of an event name: the part before a subgraph's `|namespace`. */
function modeOf(event: string): string {
  const bar = event.indexOf('|')
  return bar < 0 ? event : event.slice(0, bar)
}

/** One tool call of a snapshotted message. */
interface CallState {
  key: number
  id: string | null
  name: string | null
  /** Argument text so far (null until the wire gave some). */
  text: string | null
  /** The latest parsed arguments, for a call that never had argument text. */
  parsed: unknown
  closed: boolean
}

/**
 * One AI message read in snapshot mode: its calls, and its texts so far when it has an id (a
 * message of Reply.messages, snapshotted in its own text); one without an id writes into the
 * choice's channels (SnapshotChannels).
 */
interface SnapshotState {
  calls: Map<string, CallState>
  texts: Record<'reasoning' | 'content', string>
  closed: boolean
}

class LangGraphMapper implements FrameMapper {
  private roleSaid = false
  /** A model began streaming in this run: a later messages/complete is the run's, not the history. */
  private started = false
  /** Every message's text in the one choice's channels, appended or snapshotted. */
  private readonly channels = new SnapshotChannels()
  private readonly messages = new Map<string, SnapshotState>()
  private readonly keys = new Map<string, number>()
  private finish: string | null = null
  private finished = false
  private readonly noted = new Set<string>()
  /** Message ids already named by a `message` delta. */
  private readonly opened = new Set<string>()

  map(frame: ParsedFrame): Delta[] {
    const mode = frame.event === null ? null : modeOf(frame.event)
    switch (mode) {
      case 'messages': return this.tuple(frame.json)
      case 'messages/partial':
        this.started = true
        return this.snapshots(frame.json, mode)
      case 'messages/complete': return this.snapshots(frame.json, mode)
      case 'messages/metadata':
        this.started = true
        return []
      case 'error': return [this.error(frame.json)]
      case 'end': return [...this.end(), { type: 'done' }]
    }
    if (mode !== null && QUIET.has(mode)) return []
    const name = mode ?? '(none)'
    if (this.noted.has(name)) return []
    this.noted.add(name)
    return [{ type: 'note', level: 'info', message: `event ${quote(name)} is not a LangGraph stream mode this reader knows: not read as the reply` }]
  }

  flush(): Delta[] {
    return this.end()
  }

  /** Closes every message still open and gives the last finish reason (once). */
  private end(): Delta[] {
    const out: Delta[] = []
    for (const m of this.messages.values()) this.close(m, 'the end of the stream', out)
    if (!this.finished && this.finish !== null) out.push({ type: 'finish', choice: CHOICE, reason: this.finish })
    this.finished = true
    return out
  }

  private start(out: Delta[]): void {
    if (this.roleSaid) return
    this.roleSaid = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  /** A call's key in the Reply: per message, in order of first appearance. */
  private key(message: string, call: string): number {
    const k = `${message}\u0000${call}`
    let key = this.keys.get(k)
    if (key === undefined) {
      key = this.keys.size
      this.keys.set(k, key)
    }
    return key
  }

  /** messages-tuple: `[chunk, metadata]`, appended to the chunk's message. */
  private tuple(json: unknown): Delta[] {
    if (!Array.isArray(json)) return []
    if (isToolMessage(json[0])) return this.toolResult(json[0])
    if (!isAiMessage(json[0])) return []
    const m = json[0]
    const wireId = messageId(m)
    const id = wireId ?? ''
    const out: Delta[] = []
    this.start(out)
    // a chunk without an id writes into the choice itself (no message to keep it apart in)
    const messageIdField = wireId === null ? {} : { messageId: wireId }
    if (wireId !== null) this.open(out, wireId, 'assistant', str(m['name']))
    const texts = messageTexts(m)
    if (texts.reasoning !== '') out.push({ type: 'text', choice: CHOICE, channel: 'reasoning', text: texts.reasoning, ...messageIdField })
    if (texts.content !== '') out.push({ type: 'text', choice: CHOICE, channel: 'content', text: texts.content, ...messageIdField })
    // a chunk: the Python server types it AIMessageChunk, the JS server `ai` (toDict's type), and
    // both keep its tool_call_chunks; a whole message has none
    if (m['type'] === 'AIMessageChunk' || Array.isArray(m['tool_call_chunks'])) {
      for (const c of chunkCalls(m)) {
        out.push({ type: 'tool-call', choice: CHOICE, key: this.key(id, `#${c.position}`), id: c.id, name: c.name, arguments: c.text, ...messageIdField })
      }
    } else {
      for (const c of snapshotCalls(m)) {
        const args = c.text ?? argumentsText(c.parsed)
        out.push({ type: 'tool-call', choice: CHOICE, key: this.key(id, `#${c.position}`), id: c.id, name: c.name, arguments: args, ...messageIdField })
      }
    }
    this.settle(m, out)
    return out
  }

  /** A message's first chunk names it (and its place in the run); later ones need not. */
  private open(out: Delta[], id: string, role: string, name: string | null): void {
    if (this.opened.has(id)) return
    this.opened.add(id)
    out.push({ type: 'message', choice: CHOICE, messageId: id, role, name })
  }

  /** A tool message: the result of the call it names, a message of its own (`status: "error"`: the tool failed). */
  private toolResult(m: JsonObject): Delta[] {
    const id = messageId(m) ?? `tool:${str(m['tool_call_id']) ?? ''}`
    const out: Delta[] = []
    this.open(out, id, 'tool', str(m['name']))
    out.push({ type: 'tool-result', choice: CHOICE, messageId: id, toolCallId: str(m['tool_call_id']), output: m['content'] ?? null, isError: m['status'] === 'error' })
    return out
  }

  /** The finish reason is kept for the end; the usage merges now. */
  private settle(m: JsonObject, out: Delta[]): void {
    const reason = finishReason(m)
    if (reason !== null) this.finish = reason
    const usage = usageOf(m)
    if (usage !== null) out.push({ type: 'usage', usage })
  }

  /** messages/partial and messages/complete: each AI message whole so far. */
  private snapshots(json: unknown, source: 'messages/partial' | 'messages/complete'): Delta[] {
    if (!Array.isArray(json)) return [{ type: 'note', level: 'warning', message: `${source} data is not a list of messages: ${quote(json)}` }]
    const complete = source === 'messages/complete'
    const out: Delta[] = []
    for (const m of json) {
      if (!isAiMessage(m)) continue
      if (complete && !this.started) continue
      const id = messageId(m) ?? ''
      let state = this.messages.get(id)
      if (state === undefined) {
        state = { calls: new Map(), texts: { reasoning: '', content: '' }, closed: false }
        this.messages.set(id, state)
      }
      this.start(out)
      const texts = messageTexts(m)
      if (id === '') {
        this.channels.snapshot(out, texts.reasoning, id, { choice: CHOICE, channel: 'reasoning', source })
        this.channels.snapshot(out, texts.content, id, { choice: CHOICE, channel: 'content', source })
      } else {
        this.open(out, id, 'assistant', str(m['name']))
        for (const channel of ['reasoning', 'content'] as const) {
          // the message's own text: a rewrite cuts it alone, whatever other messages wrote since
          for (const d of snapshotDeltas(state.texts[channel], texts[channel], { choice: CHOICE, channel, source })) {
            out.push(d.type === 'text' || d.type === 'text-truncate' ? { ...d, messageId: id } : d)
          }
          state.texts[channel] = texts[channel]
        }
      }
      for (const call of snapshotCalls(m)) this.snapshotCall(out, state, id, call, source)
      this.settle(m, out)
      if (complete || finishReason(m) !== null) this.close(state, source, out)
    }
    return out
  }

  private snapshotCall(out: Delta[], state: SnapshotState, id: string, call: MessageCall, source: string): void {
    const ident = call.id ?? `#${call.position}`
    let c = state.calls.get(ident)
    if (c === undefined) {
      c = { key: this.key(id, ident), id: null, name: null, text: null, parsed: undefined, closed: false }
      state.calls.set(ident, c)
    }
    const inMessage = id === '' ? {} : { messageId: id }
    if ((call.id !== null && c.id === null) || (call.name !== null && c.name === null)) {
      c.id ??= call.id
      c.name ??= call.name
      out.push({ type: 'tool-call', choice: CHOICE, key: c.key, id: c.id, name: c.name, ...inMessage })
    }
    if (call.text !== null) {
      const previous = c.text ?? ''
      if (extendsText(previous, call.text)) {
        if (call.text.length > previous.length) out.push({ type: 'tool-call', choice: CHOICE, key: c.key, id: c.id, arguments: call.text.slice(previous.length), ...inMessage })
      } else {
        out.push({
          type: 'note', level: 'warning', code: 'snapshot-rewrote',
          message: `${source}: the argument text of tool call ${quote(c.name ?? ident)} does not extend the previous one (${previous.length} characters, now ${excerpt(jsonText(call.text), 60)}): the arguments keep the earlier text`,
        })
      }
      c.text = call.text
    } else if (call.parsed !== undefined && call.parsed !== null) c.parsed = call.parsed
  }

  /** A message ended: a call that never had argument text takes its parsed arguments. */
  private close(state: SnapshotState, source: string, out: Delta[]): void {
    if (state.closed) return
    state.closed = true
    for (const c of state.calls.values()) {
      if (c.closed) continue
      c.closed = true
      if (c.text === null && c.parsed !== undefined) {
        out.push({ type: 'final-tool-call', choice: CHOICE, key: c.key, id: c.id, name: c.name, arguments: argumentsText(c.parsed), source })
      }
    }
  }

  private error(json: unknown): Delta {
    if (isObject(json)) {
      const message = str(json['message']) ?? str(json['error']) ?? excerpt(jsonText(json), 1000)
      return { type: 'stream-error', message, errorType: str(json['error']), payload: json }
    }
    return { type: 'stream-error', message: typeof json === 'string' ? json : excerpt(jsonText(json ?? null), 1000), payload: json }
  }
}

/** Stream-mode frames and event-protocol frames (langgraph-events.ts), each to its reader. */
class LangGraphReaders implements FrameMapper {
  private readonly modes = new LangGraphMapper()
  private events: LangGraphEventMapper | null = null

  map(frame: ParsedFrame): Delta[] {
    if (!isEventFrame(frame.json)) return this.modes.map(frame)
    this.events ??= new LangGraphEventMapper()
    return this.events.map(frame)
  }

  flush(): Delta[] {
    return [...this.modes.flush(), ...(this.events?.flush() ?? [])]
  }

  /** A stream-mode run may end without `event: end` (the JS server's never has one); the event protocol ends with its lifecycle. */
  terminalOptional(): string | null {
    if (this.events !== null) return null
    return 'LangGraph\'s JS server (@langchain/langgraph-api) never sends `event: end`, so the run is read as whole; a Python server\'s run ends with it'
  }
}

export const langgraph: ProviderAdapter = {
  id: 'langgraph',
  recognizes({ event, json }) {
    if (isEventFrame(json)) return true
    if (event === null) return false
    const mode = modeOf(event)
    const shape = SHAPES.get(mode)
    return shape !== undefined && shape(json)
  },
  createMapper: () => new LangGraphReaders(),
  urlPattern: /\/runs\/stream(?:[?#]|$)|\/threads\/[^/?#]+\/runs\/[^/?#]+\/stream(?:[?#]|$)/,
}
