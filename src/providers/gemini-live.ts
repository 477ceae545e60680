// Gemini's Live API over a WebSocket (BidiGenerateContent; wire-formats.md#gemini-live): each
// server message holds one of `setupComplete`, `serverContent`, `toolCall`,
// `toolCallCancellation`, `goAway`, `sessionResumptionUpdate`, and may carry `usageMetadata`.
// A turn runs until `serverContent.turnComplete`: its text is `modelTurn.parts[].text`
// (thoughts are reasoning), a voice reply's words `outputTranscription.text`, its calls
// `toolCall.functionCalls` (whole, with id, name and args). The wire names no turn: a turn is
// the messages up to turnComplete.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter, TurnMark } from '../core/adapters.js'
import { argumentsText, arr, isObject, str, type JsonObject } from './shared.js'

const CHOICE = 0
const CONNECTION_ONLY = ['setupComplete', 'sessionResumptionUpdate', 'goAway'] as const

export const geminiLive: ProviderAdapter = {
  id: 'gemini-live',
  urlPattern: /BidiGenerateContent/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    return isObject(j['serverContent']) || isObject(j['toolCall']) || isObject(j['setupComplete']) || isObject(j['toolCallCancellation'])
  },
  turn: turnOf,
  createMapper(): FrameMapper {
    return new LiveMapper()
  },
}

function turnOf(frame: ParsedFrame): TurnMark | null {
  const j = frame.json
  if (!isObject(j)) return null
  const content = isObject(j['serverContent']) ? j['serverContent'] : null
  if (content !== null) {
    if (content['turnComplete'] === true) return { key: null, end: true }
    // the user's own words, transcribed: not the model's turn
    if (Object.keys(content).every((k) => k === 'inputTranscription')) return null
    return { key: null }
  }
  if (isObject(j['toolCall'])) return { key: null }
  // usage or a cancellation after the turn's end belong to that turn
  if (isObject(j['usageMetadata']) || isObject(j['toolCallCancellation'])) return { key: null, open: 'never' }
  if (CONNECTION_ONLY.some((k) => k in j)) return null
  return { key: null, open: 'never' }
}

class LiveMapper implements FrameMapper {
  private transcriptNoted = false
  private audioNoted = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    if (!isObject(j)) return []
    const out: Delta[] = []
    if (isObject(j['serverContent'])) this.content(j['serverContent'], out)
    if (isObject(j['toolCall'])) toolCall(j['toolCall'], out)
    if (isObject(j['toolCallCancellation'])) {
      const ids = arr(j['toolCallCancellation']['ids']).filter((x) => typeof x === 'string')
      out.push({ type: 'note', level: 'warning', message: `toolCallCancellation: the server cancelled the call${ids.length === 1 ? '' : 's'} ${ids.slice(0, 10).map((x) => JSON.stringify(x)).join(', ')}; a client must not send their responses` })
    }
    if (isObject(j['goAway'])) out.push({ type: 'note', level: 'warning', message: `goAway: the server will close the connection (time left ${JSON.stringify(str(j['goAway']['timeLeft']))})` })
    if (isObject(j['usageMetadata'])) out.push({ type: 'usage', usage: j['usageMetadata'] })
    return out
  }

  private content(c: JsonObject, out: Delta[]): void {
    const turn = isObject(c['modelTurn']) ? c['modelTurn'] : null
    if (turn !== null) {
      out.push({ type: 'choice', choice: CHOICE, role: str(turn['role']) ?? 'model' })
      for (const part of arr(turn['parts'])) this.part(part, out)
    }
    const said = isObject(c['outputTranscription']) ? str(c['outputTranscription']['text']) : null
    if (said !== null) {
      out.push({ type: 'choice', choice: CHOICE, role: 'model' })
      out.push({ type: 'text', choice: CHOICE, channel: 'content', text: said })
      if (!this.transcriptNoted) {
        this.transcriptNoted = true
        out.push({ type: 'note', level: 'info', message: 'the content is the transcript of the reply\'s audio (serverContent.outputTranscription): what the voice said, as the server transcribed it; the audio itself is not rebuilt' })
      }
    }
    if (c['interrupted'] === true) out.push({ type: 'note', level: 'warning', message: 'serverContent.interrupted: the user spoke over the model, which stopped; a client must drop the audio it still queues' })
    if (c['turnComplete'] === true) {
      const reason = str(c['turnCompleteReason'])
      if (reason !== null) out.push({ type: 'finish', choice: CHOICE, reason })
      out.push({ type: 'done' })
    }
  }

  private part(part: unknown, out: Delta[]): void {
    if (!isObject(part)) return
    const text = str(part['text'])
    if (text !== null) out.push({ type: 'text', choice: CHOICE, channel: part['thought'] === true ? 'reasoning' : 'content', text })
    else if (isObject(part['inlineData']) && !this.audioNoted) {
      this.audioNoted = true
      out.push({ type: 'note', level: 'info', message: `modelTurn inlineData (${str(part['inlineData']['mimeType']) ?? 'no mimeType'}): the reply's audio is not rebuilt; its transcript is the content when the session asks for one (outputAudioTranscription)` })
    }
  }
}

function toolCall(call: JsonObject, out: Delta[]): void {
  out.push({ type: 'choice', choice: CHOICE, role: 'model' })
  for (const fc of arr(call['functionCalls'])) {
    if (!isObject(fc)) continue
    out.push({ type: 'tool-call', choice: CHOICE, key: null, whole: true, id: str(fc['id']), name: str(fc['name']), callType: 'function', arguments: argumentsText(fc['args']) ?? '{}' })
  }
}
