// LangGraph's event protocol (langgraphjs libs/sdk, "protocol v2": frames
// `{"type": "event", "event_id", "seq", "method", "params": {namespace, timestamp, data}}`,
// the SSE event name repeating `method`). Read by the LangGraph adapter beside the stream
// modes (langgraph.ts); one choice (0), every AI message of the run in it.
//
// - `messages`: `message-start` opens a message (keyed by its `run_id`; a `role` other than
//   the assistant's, a tool's message, is not the reply); `content-block-start` opens block
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
import { extendsText, SnapshotChannels } from './snapshot.js'

const CHOICE = 0

/** True for a frame of the event protocol. */
export function isEventFrame(json: unknown): json is JsonObject & { params: JsonObject } {
  return isObject(json) && json['type'] === 'event' && typeof json['method'] === 'string' && isObject(json['params'])
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
  private readonly channels = new SnapshotChannels()
  private readonly lengths: Record<string, number> = { content: 0, reasoning: 0, refusal: 0 }
  /** Messages that are not the reply (a tool's), by run id. */
  private readonly excluded = new Set<string>()
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
    if (event === 'message-start') {
      const role = str(d['role'])
      if (role !== null && role !== 'ai' && role !== 'assistant') this.excluded.add(run)
      return []
    }
    if (this.excluded.has(run)) return []
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

  private text(out: Delta[], b: Block, channel: Channel, text: string, writer: string): void {
    if (b.channel === null) {
      b.channel = channel
      b.start = this.lengths[channel]!
    }
    if (text === '') return
    this.start(out)
    this.channels.append(out, CHOICE, channel, text, writer)
    this.lengths[channel]! += text.length
    b.built += text
  }

  private blockStart(run: string, d: JsonObject, out: Delta[]): void {
    const c = d['content']
    if (!isObject(c)) return
    const writer = `${run} ${index(d['index']) ?? 0}`
    if (c['type'] === 'text') this.text(out, this.block(run, d, 'content'), 'content', str(c['text']) ?? '', writer)
    else if (c['type'] === 'reasoning') this.text(out, this.block(run, d, 'reasoning'), 'reasoning', str(c['reasoning']) ?? '', writer)
    else if (c['type'] === 'tool_use' || c['type'] === 'tool_call') this.call(out, this.block(run, d, 'call'), c)
  }

  private call(out: Delta[], b: Block, c: JsonObject): void {
    if (b.key < 0) b.key = this.keys++
    this.start(out)
    out.push({ type: 'tool-call', choice: CHOICE, key: b.key, id: nonEmpty(c['id']), name: nonEmpty(c['name']) })
  }

  private blockDelta(run: string, d: JsonObject, out: Delta[]): void {
    const delta = d['delta']
    if (!isObject(delta)) return
    const writer = `${run} ${index(d['index']) ?? 0}`
    switch (delta['type']) {
      case 'text-delta': return this.text(out, this.block(run, d, 'content'), 'content', str(delta['text']) ?? '', writer)
      case 'reasoning-delta': return this.text(out, this.block(run, d, 'reasoning'), 'reasoning', str(delta['reasoning']) ?? '', writer)
      case 'block-delta': {
        const f = delta['fields']
        if (!isObject(f)) return
        const b = this.block(run, d, 'call')
        if (f['type'] === 'tool_call_chunk') {
          if (b.key < 0) this.call(out, b, f)
          b.snapshots = true
          const args = str(f['args'])
          if (args !== null) this.args(out, b, args)
        } else if (f['type'] === 'input_json_delta' && !b.snapshots) {
          if (b.key < 0) this.call(out, b, f)
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
      if (b.channel === null) return this.text(out, b, channel, whole, `${run} ${index(d['index']) ?? 0}`)
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
