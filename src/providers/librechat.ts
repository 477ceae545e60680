// LibreChat (`POST /api/agents/chat/…`, `/api/ask/…`): every frame is `event: message` whose
// JSON is told apart by its keys, checked in the client's order: final, created, event, sync,
// type, message (danny-avila/LibreChat client/src/hooks/SSE/transport/frames.ts; step events
// in useStepHandler.ts, content parts in useContentHandler.ts; the server writes them in
// api/server/utils/streamResponse.js). One choice (0), the response message.
//
// - Agents: `{event, data}` step events. `on_message_delta` appends its `text` parts (content)
//   and `on_reasoning_delta` its `think` parts (reasoning), in arrival order (the client
//   places them by their step's index: the same order unless parallel agents interleave). A
//   delta may arrive before its step: nothing here needs the step first.
// - `on_run_step` of type `tool_calls` names its calls (id, name; their `args` only if no
//   fragment ever comes); `on_run_step_delta` appends `args` fragments, keyed per step by the
//   fragment's `index` (its position without one); `on_run_step_completed` is the call's final
//   form, compared. Other step events (agent updates, summaries, usage, titles…) are not the reply.
// - `{final: true, responseMessage}` repeats the finished message: its text parts (or its
//   `text`) are compared with the merged content, and fill it when no delta came; it ends
//   the stream. `responseMessage.error` is a stream error.
// - Legacy endpoints: `{message: true, text}` carries the whole reply so far, and a content
//   part `{type, text | {value}, index, messageId}` the whole of part `index` so far: both
//   snapshot mode (snapshot.ts).
// - `event: error` (its data the error message, `{error: true, text…}`) is a stream error and
//   ends the stream. `created` (the user's message echoed) and `sync` are not the reply.
// LibreChat sends no finish reason: none is invented.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { arr, excerpt, index, isObject, jsonText, quote, str, type JsonObject } from './shared.js'
import { SnapshotChannels } from './snapshot.js'

const CHOICE = 0

/** A text part's text: a string, or `{value}` (Assistants-style parts). */
function partText(v: unknown): string | null {
  return str(v) ?? (isObject(v) ? str(v['value']) : null)
}

/** The parts of a delta: `content` as a list or as one part. */
function parts(delta: unknown): unknown[] {
  if (!isObject(delta)) return []
  const c = delta['content']
  return Array.isArray(c) ? c : c === undefined || c === null ? [] : [c]
}

function nonEmpty(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

class LibreChatMapper implements FrameMapper {
  private roleSaid = false
  private readonly channels = new SnapshotChannels()
  /** Tool-call keys by step id and position, in order of first appearance. */
  private readonly keys = new Map<string, number>()
  /** Per step, the ids of its calls by position (to find a completed call's key). */
  private readonly stepCalls = new Map<string, Array<string | null>>()
  /** Keys of calls that got an argument fragment. */
  private readonly fragmented = new Set<number>()

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (frame.event === 'error') return [this.error(j), { type: 'done' }]
    if (!isObject(j)) return [{ type: 'note', level: 'info', message: `a LibreChat frame that is not an object: ${quote(j)}` }]
    // the client's order: a frame with both `final` and `event` is final
    if (j['final'] != null) return this.final(j)
    if (j['created'] != null) return []
    if (j['event'] != null) return this.step(j)
    if (j['sync'] != null) return []
    if (j['type'] != null) return this.contentPart(j)
    if (j['message'] != null) return this.legacyText(j)
    return [{ type: 'note', level: 'info', message: `a LibreChat frame with none of final, created, event, sync, type, message: ${quote(j)}` }]
  }

  private start(out: Delta[]): void {
    if (this.roleSaid) return
    this.roleSaid = true
    out.push({ type: 'choice', choice: CHOICE, role: 'assistant' })
  }

  private key(step: string, position: number): number {
    const k = `${step}\u0000${position}`
    let key = this.keys.get(k)
    if (key === undefined) {
      key = this.keys.size
      this.keys.set(k, key)
    }
    return key
  }

  private step(j: JsonObject): Delta[] {
    const data = isObject(j['data']) ? j['data'] : {}
    const stepId = str(data['id']) ?? ''
    const out: Delta[] = []
    switch (j['event']) {
      case 'on_message_delta':
        this.start(out)
        for (const p of parts(data['delta'])) {
          if (!isObject(p)) continue
          if (p['type'] === 'text') this.channels.append(out, CHOICE, 'content', partText(p['text']) ?? '', `step ${stepId}`)
          else if (p['type'] === 'think') this.channels.append(out, CHOICE, 'reasoning', partText(p['think']) ?? '', `step ${stepId}`)
        }
        return out
      case 'on_reasoning_delta':
        this.start(out)
        for (const p of parts(data['delta'])) {
          if (isObject(p) && p['type'] === 'think') this.channels.append(out, CHOICE, 'reasoning', partText(p['think']) ?? '', `step ${stepId}`)
        }
        return out
      case 'on_run_step': {
        const details = data['stepDetails']
        if (!isObject(details) || details['type'] !== 'tool_calls') return out
        this.start(out)
        const ids: Array<string | null> = []
        arr(details['tool_calls']).forEach((c, i) => {
          if (!isObject(c)) return
          const id = nonEmpty(c['id'])
          ids[i] = id
          const args = str(c['args'])
          out.push({ type: 'tool-call', choice: CHOICE, key: this.key(stepId, i), id, name: nonEmpty(c['name']), ...(args ? { argumentsIfEmpty: args } : {}) })
        })
        this.stepCalls.set(stepId, ids)
        return out
      }
      case 'on_run_step_delta': {
        const delta = data['delta']
        if (!isObject(delta) || delta['type'] !== 'tool_calls') return out
        this.start(out)
        arr(delta['tool_calls']).forEach((c, i) => {
          if (!isObject(c)) return
          const key = this.key(stepId, index(c['index']) ?? i)
          const args = str(c['args'])
          if (args !== null && args !== '') this.fragmented.add(key)
          out.push({ type: 'tool-call', choice: CHOICE, key, id: nonEmpty(c['id']), name: nonEmpty(c['name']), arguments: args })
        })
        return out
      }
      case 'on_run_step_completed':
        return this.completed(data)
    }
    return out
  }

  /** A tool call's final form: compared with its fragments (an object's JSON only fills a call that had none). */
  private completed(data: JsonObject): Delta[] {
    const result = data['result']
    if (!isObject(result) || !isObject(result['tool_call'])) return []
    const call = result['tool_call']
    const stepId = str(result['id']) ?? ''
    const id = nonEmpty(call['id'])
    const at = id === null ? -1 : (this.stepCalls.get(stepId) ?? []).indexOf(id)
    const key = this.keys.get(`${stepId}\u0000${at < 0 ? 0 : at}`) ?? null
    const args = call['args']
    const text = typeof args === 'string' ? args : args === undefined || args === null || (key !== null && this.fragmented.has(key)) ? null : jsonText(args)
    return [{ type: 'final-tool-call', choice: CHOICE, key, id, name: nonEmpty(call['name']), arguments: text, source: 'on_run_step_completed' }]
  }

  private final(j: JsonObject): Delta[] {
    const out: Delta[] = []
    const m = j['responseMessage']
    if (isObject(m)) {
      if (m['error'] === true) out.push(this.error(m))
      let content = ''
      let reasoning = ''
      if (Array.isArray(m['content'])) {
        for (const p of m['content']) {
          if (!isObject(p)) continue
          if (p['type'] === 'text') content += partText(p['text']) ?? ''
          else if (p['type'] === 'think') reasoning += partText(p['think']) ?? ''
        }
      } else content = str(m['text']) ?? ''
      // an empty final text says nothing to compare (a message with only tool calls)
      if (m['error'] !== true && (content !== '' || reasoning !== '')) {
        this.start(out)
        if (content !== '') out.push({ type: 'final-text', choice: CHOICE, channel: 'content', text: content, source: 'final' })
        if (reasoning !== '') out.push({ type: 'final-text', choice: CHOICE, channel: 'reasoning', text: reasoning, source: 'final' })
      }
    }
    out.push({ type: 'done' })
    return out
  }

  /** A legacy content part: the whole of part `index` so far. */
  private contentPart(j: JsonObject): Delta[] {
    const type = str(j['type'])
    const text = type === 'text' ? partText(j['text']) : type === 'think' ? partText(j['think']) : null
    if (text === null) return []
    const out: Delta[] = []
    this.start(out)
    const writer = `part ${str(j['messageId']) ?? ''} ${index(j['index']) ?? 0}`
    this.channels.snapshot(out, text, writer, { choice: CHOICE, channel: type === 'think' ? 'reasoning' : 'content', source: `content part ${type}` })
    return out
  }

  /** A legacy `{message: true, text}` frame: the whole reply so far. */
  private legacyText(j: JsonObject): Delta[] {
    const text = str(j['text'])
    if (text === null) return []
    const out: Delta[] = []
    this.start(out)
    this.channels.snapshot(out, text, 'text', { choice: CHOICE, channel: 'content', source: 'text' })
    return out
  }

  private error(j: unknown): Delta {
    if (isObject(j)) {
      const message = str(j['text']) ?? str(j['message']) ?? excerpt(jsonText(j), 1000)
      return { type: 'stream-error', message, payload: j }
    }
    return { type: 'stream-error', message: typeof j === 'string' ? j : excerpt(jsonText(j ?? null), 1000), payload: j }
  }
}

/** True for a LibreChat `message` frame's JSON: one of its key shapes. */
function isLibreChatMessage(j: unknown): boolean {
  if (!isObject(j)) return false
  if (j['final'] === true) return isObject(j['responseMessage']) || isObject(j['conversation']) || isObject(j['requestMessage'])
  if (j['created'] === true) return isObject(j['message'])
  if (typeof j['event'] === 'string') return j['event'].startsWith('on_') && isObject(j['data'])
  if (j['sync'] === true) return true
  if (j['message'] === true) return typeof j['text'] === 'string'
  return typeof j['type'] === 'string' && typeof j['messageId'] === 'string' && index(j['index']) !== null
}

export const librechat: ProviderAdapter = {
  id: 'librechat',
  recognizes({ event, json }) {
    if (event === 'message') return isLibreChatMessage(json)
    // its error frame: the error message saved, `{error: true, final: true, text, messageId…}`
    return event === 'error' && isObject(json) && json['error'] === true && typeof json['text'] === 'string' && typeof json['messageId'] === 'string'
  },
  createMapper: () => new LibreChatMapper(),
  urlPattern: /\/api\/(?:agents\/chat|ask|edit)(?:\/|[?#]|$)/,
}
