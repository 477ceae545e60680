// OpenAI's Realtime API over a WebSocket (wire-formats.md#openai-realtime): JSON events with an
// `event_id`. One turn per response: `response.created` … `response.done`, every event between
// naming its `response_id`. Text arrives as `response.output_text.delta` (beta:
// `response.text.delta`), a voice reply's words as `response.output_audio_transcript.delta`
// (beta: `response.audio_transcript.delta`), function calls as `response.output_item.added`
// (name, call_id) then `response.function_call_arguments.delta`, keyed by output_index.
// `response.done` carries the status (the finish reason) and the usage; `error` is a stream
// error. Session, conversation and input-buffer events are the connection's, in no turn.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter, TurnMark } from '../core/adapters.js'
import { errorDelta, index, isObject, str, type JsonObject } from './shared.js'

const CHOICE = 0

const FAMILIES = /^(session|response|conversation|input_audio_buffer|output_audio_buffer|rate_limits|transcription_session)\.|^error$/

const TEXT_DELTAS: ReadonlySet<string> = new Set(['response.output_text.delta', 'response.text.delta'])
const TRANSCRIPT_DELTAS: ReadonlySet<string> = new Set(['response.output_audio_transcript.delta', 'response.audio_transcript.delta'])
/** The `.done` of a part repeats its whole text: compared with what its deltas built. */
const PART_DONE: Readonly<Record<string, 'text' | 'transcript'>> = {
  'response.output_text.done': 'text', 'response.text.done': 'text',
  'response.output_audio_transcript.done': 'transcript', 'response.audio_transcript.done': 'transcript',
}
const AUDIO_DELTAS: ReadonlySet<string> = new Set(['response.output_audio.delta', 'response.audio.delta'])

export const openaiRealtime: ProviderAdapter = {
  id: 'openai-realtime',
  urlPattern: /\/v1\/realtime\b/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j) || typeof j['event_id'] !== 'string') return false
    const type = str(j['type'])
    return type !== null && FAMILIES.test(type)
  },
  turn: turnOf,
  createMapper(): FrameMapper {
    return new RealtimeMapper()
  },
}

function turnOf(frame: ParsedFrame): TurnMark | null {
  const j = frame.json
  if (!isObject(j)) return null
  const type = str(j['type'])
  if (type === 'error') return { key: null, open: 'never' }
  if (type === null || !type.startsWith('response.')) return null
  const response = isObject(j['response']) ? j['response'] : null
  const key = str(j['response_id']) ?? str(response?.['id'])
  if (type === 'response.created') return { key, open: 'new' }
  if (type === 'response.done') return { key, end: true }
  return { key }
}

/** Where a message part's text starts in the content channel, and what its deltas built. */
interface Part { start: number; have: string[] }

class RealtimeMapper implements FrameMapper {
  /** Characters in the content channel so far: where the next part starts. */
  private length = 0
  private readonly parts = new Map<string, Part>()
  private transcriptNoted = false
  private audioNoted = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j)) return []
    const type = str(j['type']) ?? ''
    if (TEXT_DELTAS.has(type) || TRANSCRIPT_DELTAS.has(type)) return this.text(j, TRANSCRIPT_DELTAS.has(type))
    if (type in PART_DONE) return this.partDone(j, PART_DONE[type]!)
    if (AUDIO_DELTAS.has(type)) return this.audio(type)
    switch (type) {
      case 'response.created': return [{ type: 'choice', choice: CHOICE, role: 'assistant' }]
      case 'response.output_item.added': return outputItem(j)
      case 'response.function_call_arguments.delta':
        return [{ type: 'tool-call', choice: CHOICE, key: index(j['output_index']), id: str(j['call_id']), arguments: str(j['delta']) }]
      case 'response.function_call_arguments.done':
        return [{ type: 'final-tool-call', choice: CHOICE, key: index(j['output_index']), id: str(j['call_id']), name: str(j['name']), arguments: str(j['arguments']), source: type }]
      case 'response.done': return responseDone(j)
      case 'error': return errorEvent(j)
      default: return []
    }
  }

  private text(j: JsonObject, transcript: boolean): Delta[] {
    const delta = str(j['delta'])
    if (delta === null) return []
    const part = this.part(j)
    part.have.push(delta)
    this.length += delta.length
    const out: Delta[] = [{ type: 'text', choice: CHOICE, channel: 'content', text: delta }]
    if (transcript && !this.transcriptNoted) {
      this.transcriptNoted = true
      out.push({ type: 'note', level: 'info', message: `the content is the transcript of the reply's audio (${str(j['type'])}): what the voice said, as the server transcribed it; the audio itself is not rebuilt` })
    }
    return out
  }

  private part(j: JsonObject): Part {
    const key = `${str(j['item_id']) ?? index(j['output_index']) ?? ''}/${index(j['content_index']) ?? 0}`
    let part = this.parts.get(key)
    if (part === undefined) {
      part = { start: this.length, have: [] }
      this.parts.set(key, part)
    }
    return part
  }

  private partDone(j: JsonObject, field: 'text' | 'transcript'): Delta[] {
    const text = str(j[field])
    if (text === null) return []
    const part = this.part(j)
    return [{ type: 'final-text', choice: CHOICE, channel: 'content', text, source: str(j['type'])!, span: { start: part.start, have: part.have.join('') } }]
  }

  private audio(type: string): Delta[] {
    if (this.audioNoted) return []
    this.audioNoted = true
    return [{ type: 'note', level: 'info', message: `${type}: the reply's audio (base64 PCM) is not rebuilt; its transcript is the content when the session asks for one` }]
  }
}

function outputItem(j: JsonObject): Delta[] {
  const item = isObject(j['item']) ? j['item'] : null
  if (item === null) return []
  if (item['type'] === 'function_call') {
    return [{ type: 'tool-call', choice: CHOICE, key: index(j['output_index']), id: str(item['call_id']), name: str(item['name']), callType: 'function', arguments: str(item['arguments']) || null }]
  }
  return [{ type: 'choice', choice: CHOICE, role: str(item['role']) }]
}

function responseDone(j: JsonObject): Delta[] {
  const response = isObject(j['response']) ? j['response'] : {}
  const out: Delta[] = [{ type: 'finish', choice: CHOICE, reason: str(response['status']) }]
  const details = isObject(response['status_details']) ? response['status_details'] : null
  const failed = details !== null ? errorDelta(details) : null
  if (failed) out.push(failed)
  else if (details !== null && str(details['reason']) !== null && response['status'] !== 'completed') {
    out.push({ type: 'note', level: 'warning', message: `the response ended ${str(response['status'])}: ${str(details['reason'])}` })
  }
  if (isObject(response['usage'])) out.push({ type: 'usage', usage: response['usage'] })
  out.push({ type: 'done' })
  return out
}

function errorEvent(j: JsonObject): Delta[] {
  const error = errorDelta(j)
  return error === null ? [] : [error]
}
