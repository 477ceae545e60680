// Chat apps that stream over Socket.IO, as Open WebUI does (wire-formats.md#socketio-chat): the
// event `chat-events` with `{chat_id, message_id, data: {type, data}}`. One turn per message
// id, ended by a `chat:completion` whose data says `done: true`. What the app's own client
// does with each type (Open WebUI's chatCompletionEventHandler and its message events):
// `chat:completion` appends `choices[0].delta.content` and replaces the text with `content`
// (the whole text so far: a snapshot); `chat:message:delta` / `message` append `content`;
// `chat:message` / `replace` replace it; `error` is a stream error; the rest (status, title,
// tags, sources, files) change no text.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter, TurnMark } from '../core/adapters.js'
import { arr, errorDelta, excerpt, isObject, str, type JsonObject } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0
const EVENT = 'chat-events'

const APPEND: ReadonlySet<string> = new Set(['chat:message:delta', 'message'])
const REPLACE: ReadonlySet<string> = new Set(['chat:message', 'replace'])

export const socketioChat: ProviderAdapter = {
  id: 'socketio-chat',
  recognizes(frame) {
    return frame.event === EVENT && isObject(frame.json) && isObject(frame.json['data']) && typeof frame.json['data']['type'] === 'string'
  },
  turn: turnOf,
  createMapper(): FrameMapper {
    return new ChatEventsMapper()
  },
}

function turnOf(frame: ParsedFrame): TurnMark | null {
  const j = frame.json
  if (frame.event !== EVENT || !isObject(j)) return null
  const key = str(j['message_id'])
  const event = isObject(j['data']) ? j['data'] : {}
  const data = isObject(event['data']) ? event['data'] : {}
  return { key, end: event['type'] === 'chat:completion' && data['done'] === true }
}

class ChatEventsMapper implements FrameMapper {
  /** The message's text as the app's client holds it: snapshots are compared with it. */
  private text = ''

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j) || !isObject(j['data'])) return []
    const type = str(j['data']['type']) ?? ''
    const data = isObject(j['data']['data']) ? j['data']['data'] : {}
    const out: Delta[] = [{ type: 'choice', choice: CHOICE, role: 'assistant' }]
    if (type === 'chat:completion') this.completion(data, out)
    else if (APPEND.has(type)) this.append(str(data['content']), out)
    else if (REPLACE.has(type)) this.replace(str(data['content']), type, out)
    else if (type === 'chat:message:error') {
      const error = isObject(data['error']) ? data['error'] : data
      out.push({ type: 'stream-error', message: str(error['content']) ?? excerpt(JSON.stringify(error), 500), payload: data })
    } else out.push({ type: 'note', level: 'info', message: `${excerpt(type, 60)}${noteOf(data)}: changes no text` })
    return out
  }

  private completion(data: JsonObject, out: Delta[]): void {
    const choice = arr(data['choices'])[0]
    if (isObject(choice)) {
      const delta = isObject(choice['delta']) ? str(choice['delta']['content']) : null
      const message = isObject(choice['message']) ? str(choice['message']['content']) : null
      this.append(message || delta, out)
      const finish = str(choice['finish_reason'])
      if (finish !== null) out.push({ type: 'finish', choice: CHOICE, reason: finish })
    }
    // the client sets the text to a non-empty `content` (an empty one leaves it)
    const content = str(data['content'])
    if (content) this.replace(content, 'chat:completion content', out)
    const error = errorDelta(data)
    if (error) out.push(error)
    if (isObject(data['usage'])) out.push({ type: 'usage', usage: data['usage'] })
    if (data['done'] === true) out.push({ type: 'done' })
  }

  private append(text: string | null, out: Delta[]): void {
    if (!text) return
    this.text += text
    out.push({ type: 'text', choice: CHOICE, channel: 'content', text })
  }

  private replace(text: string | null, source: string, out: Delta[]): void {
    if (text === null) return
    out.push(...snapshotDeltas(this.text, text, { choice: CHOICE, channel: 'content', source }))
    this.text = text
  }
}

function noteOf(data: JsonObject): string {
  const description = str(data['description'])
  return description === null ? '' : ` ${JSON.stringify(excerpt(description, 120))}`
}
