// LangGraph's event protocol (langgraphjs libs/sdk, "protocol v2": frames
// `{"type": "event", "event_id", "seq", "method", "params": {namespace, timestamp, data}}`,
// the SSE event name repeating `method`). Read by the LangGraph adapter beside the stream
// modes (langgraph.ts); one choice (0), every AI message of the run in it.
//
// - `messages`: `message-start` opens a message (its events name its `run_id`): an AI
//   message is a message of Reply.messages by its `id`; a tool's (`role: "tool"`) is not the
//   reply's text but a `tool` message holding the result of its `tool_call_id`, its text the
//   output, given at its `message-finish`; `content-block-start` opens block
//   `index` with its first text (`text`, `reasoning`) or names a call (`tool_use`: id, name);
//   `content-block-delta` appends `text-delta` text and `reasoning-delta` reasoning; a
//   `block-delta` of `tool_call_chunk` carries the call's argument text SO FAR (a snapshot),
//   one of `input_json_delta` a fragment (read only for a call that never has the other);
//   `content-block-finish` is the block whole, compared with what was built (a text block by
//   its span, a call by its `args`); `message-finish` holds the finish reason (`reason`, the
//   last message's given at the end) and the usage, as does `usage`.
// - `lifecycle` `completed` at the root namespace ends the run; `failed` is a stream error.
//   `values`, `checkpoints`, `tools`, `updates`, `custom` are not the reply.

import type { Channel, Delta, FrameMapper, ParsedFrame } from '../core/adapters.js'
import { excerpt, index, isObject, jsonText, str, type JsonObject } from './shared.js'
import { extendsText } from './snapshot.js'

const CHOICE = 0

/** True for a frame of the event protocol. */
export function isEventFrame(json: unknown): json is JsonObject & { params: JsonObject } {
  return isObject(json) && json['type'] === 'event' && typeof json['method'] === 'string' && isObject(json['params'])
}

/** A tool's message: its id, the call it answers, its text so far. */
interface ToolMessage {
  id: string
  toolCallId: string | null
  text: string
}

interface Block {
  channel: Channel | null
  /** Where its text starts in the channel, and the text built (for the finish's comparison). */
  start: number
  built: string
  /** A tool call's key, its argument text so far, and whether it had tool_call_chunk snapshots. */
  key: number
  args: string
  snapshots: boolean
}

export class LangGraphEventMapper implements FrameMapper {
  private roleSaid = false
  private readonly lengths: Record<string, number> = { content: 0, reasoning: 0, refusal: 0 }
  /** The id of each AI message, by the run id its events name. */
  private readonly ids = new Map<string, string>()
  /** Tools' messages (not the reply's text: their results), by run id. */
  private readonly tools = new Map<string, ToolMessage>()
  private readonly blocks = new Map<string, Block>()
  private keys = 0
  private finish: string | null = null
  private finished = false

  map(frame: ParsedFrame): Delta[] {
    if (!isEventFrame(frame.json)) return []
    const { method, params } = frame.json
    const data = isObject(params['data']) ? params['data'] : {}
    if (method === 'messages') return this.message(data)
    if (method === 'lifecycle' && Array.isArray(params['namespace']) && params['namespace'].length === 0) {
      if (data['event'] === 'completed') return [...this.end(), { type: 'done' }]
      if (data['event'] === 'failed') return [{ type: 'stream-error', message: str(data['error']) ?? excerpt(jsonText(data), 1000), payload: data }]
    }
    return []
  }

  flush(): Delta[] {
    return this.end()
  }

  private end(): Delta[] {
    const out: Delta[] = []
    if (!this.finished && this.finish !== null) out.push({ type: 'finish', choice: CHOICE, reason: this.finish })
    this.finished = true
    return out
  }

  private message(d: JsonObject): Delta[] {
    const run = str(d['run_id']) ?? ''
    const event = d['event']
    if (event === 'message-start') return this.messageStart(run, d)
    const tool = this.tools.get(run)
    if (tool !== undefined) return this.toolEvent(tool, d)
    const out: Delta[] = []
    switch (event) {
      case 'content-block-start': this.blockStart(run, d, out); break
      case 'content-block-delta': this.blockDelta(run, d, out); break
      case 'content-block-finish': this.blockFinish(run, d, out); break
      case 'message-finish': {
        const reason = str(d['reason'])
        if (reason !== null && reason !== '') this.finish = reason
        if (isObject(d['usage'])) out.push({ type: 'usage', usage: d['usage'] })
        break
      }
      case 'usage':
        if (isObject(d['usage'])) out.push({ type: 'usage', usage: d['usage'] })
        break
    }
    return out
  }

  private messageStart(run: string, d: JsonObject): Delta[] {
    const role = str(d['role'])
    const id = nonEmpty(d['id'])
    if (role === 'tool') {
      const tool = { id: id ?? `tool:${run}`, toolCallId: str(d['tool_call_id']), text: '' }
      this.tools.set(run, tool)
      return [{ type: 'message', choice: CHOICE, messageId: tool.id, role: 'tool' }]
    }
    // another role (a human message echoed) is not the reply: its events are read as nothing
    if (role !== null && role !== 'ai' && role !== 'assistant') {
      this.tools.set(run, { id: '', toolCallId: null, text: '' })
      return []
    }
    if (id === null) return []
    this.ids.set(run, id)
    const out: Delta[] = []
    this.start(out)
    out.push({ type: 'message', choice: CHOICE, messageId: id, role: 'assistant' })
    return out
  }

  /** An event of a tool's message: its text gathered, its result given when it finishes. */
  private toolEvent(tool: ToolMessage, d: JsonObject): Delta[] {
    if (tool.id === '') return []
    const event = d['event']
    const c = isObject(d['content']) ? d['content'] : null
    const delta = isObject(d['delta']) ? d['delta'] : null
    if (event === 'content-block-start' && c !== null && c['type'] === 'text') tool.text += str(c['text']) ?? ''
    else if (event === 'content-block-delta' && delta !== null && delta['type'] === 'text-delta') tool.text += str(delta['text']) ?? ''
    else if (event === 'content-block-finish' && c !== null && c['type'] === 'text' && tool.text === '') tool.text = str(c['text']) ?? ''
    else if (event === 'message-finish') {
      return [{ type: 'tool-result', choice: CHOICE, messageId: tool.id, toolCallId: tool.toolCallId, output: tool.text, isError: d['status'] === 'error' }]
    }
    return []
  }

  /** The message id of a run's events, for the deltas that write into it. */
  private inMessage(run: string): { messageId?: string } {
    const id = this.ids.get(run)
    return id === undefined ? {} : { messageId: id }
  }

  /** Block `index` of a message, per kind: a trimmed recording may reuse an index for a text after a reasoning block. */
  private block(run: string, d: JsonObject, kind: Channel | 'call'): Block {
    const k = `${run}\u0000${index(d['index']) ?? 0}\u0000${kind}`
    let b = this.blocks.get(k)
    if (b === undefined) {
      b = { channel: null, start: 0, built: '', key: -1, args: '', snapshots: false }
      this.blocks.set(k, b)
    }
    return b
  }

  private start(out: Delta[]): void {
    if (this.roleSaid) return
    this.roleSaid = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  private text(out: Delta[], b: Block, channel: Channel, text: string, run: string): void {
    if (b.channel === null) {
      b.channel = channel
      b.start = this.lengths[channel]!
    }
    if (text === '') return
    this.start(out)
    out.push({ type: 'text', choice: CHOICE, channel, text, ...this.inMessage(run) })
    this.lengths[channel]! += text.length
    b.built += text
  }

  private blockStart(run: string, d: JsonObject, out: Delta[]): void {
    const c = d['content']
    if (!isObject(c)) return
    if (c['type'] === 'text') this.text(out, this.block(run, d, 'content'), 'content', str(c['text']) ?? '', run)
    else if (c['type'] === 'reasoning') this.text(out, this.block(run, d, 'reasoning'), 'reasoning', str(c['reasoning']) ?? '', run)
    else if (c['type'] === 'tool_use' || c['type'] === 'tool_call') this.call(out, this.block(run, d, 'call'), c, run)
  }

  private call(out: Delta[], b: Block, c: JsonObject, run: string): void {
    if (b.key < 0) b.key = this.keys++
    this.start(out)
    out.push({ type: 'tool-call', choice: CHOICE, key: b.key, id: nonEmpty(c['id']), name: nonEmpty(c['name']), ...this.inMessage(run) })
  }

  private blockDelta(run: string, d: JsonObject, out: Delta[]): void {
    const delta = d['delta']
    if (!isObject(delta)) return
    switch (delta['type']) {
      case 'text-delta': return this.text(out, this.block(run, d, 'content'), 'content', str(delta['text']) ?? '', run)
      case 'reasoning-delta': return this.text(out, this.block(run, d, 'reasoning'), 'reasoning', str(delta['reasoning']) ?? '', run)
      case 'block-delta': {
        const f = delta['fields']
        if (!isObject(f)) return
        const b = this.block(run, d, 'call')
        if (f['type'] === 'tool_call_chunk') {
          if (b.key < 0) this.call(out, b, f, run)
          b.snapshots = true
          const args = str(f['args'])
          if (args !== null) this.args(out, b, args)
        } else if (f['type'] === 'input_json_delta' && !b.snapshots) {
          if (b.key < 0) this.call(out, b, f, run)
          const fragment = str(f['input'])
          if (fragment !== null && fragment !== '') this.args(out, b, b.args + fragment)
        }
      }
    }
  }

  /** A call's argument text so far: what extends the last is appended; anything else is said. */
  private args(out: Delta[], b: Block, text: string): void {
    if (extendsText(b.args, text)) {
      if (text.length > b.args.length) out.push({ type: 'tool-call', choice: CHOICE, key: b.key, arguments: text.slice(b.args.length) })
      b.args = text
      return
    }
    out.push({
      type: 'note', level: 'warning', code: 'snapshot-rewrote',
      message: `messages: the argument text of tool call ${b.key} does not extend the previous one (${b.args.length} characters): the arguments keep the earlier text`,
    })
  }

  private blockFinish(run: string, d: JsonObject, out: Delta[]): void {
    const c = d['content']
    if (!isObject(c)) return
    const channel: Channel | null = c['type'] === 'text' ? 'content' : c['type'] === 'reasoning' ? 'reasoning' : null
    if (channel !== null) {
      const whole = str(c[channel === 'content' ? 'text' : 'reasoning'])
      if (whole === null) return
      const b = this.block(run, d, channel)
      // a block that arrived only whole is its text; one that was built is compared, by its span
      if (b.channel === null) return this.text(out, b, channel, whole, run)
      out.push({ type: 'final-text', choice: CHOICE, channel, text: whole, source: 'content-block-finish', span: { start: b.start, have: b.built } })
      return
    }
    const b = this.block(run, d, 'call')
    const args = str(c['args'])
    if (b.key >= 0 && args !== null) {
      out.push({ type: 'final-tool-call', choice: CHOICE, key: b.key, id: nonEmpty(c['id']), name: nonEmpty(c['name']), arguments: args, source: 'content-block-finish' })
    }
  }
}

function nonEmpty(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}
