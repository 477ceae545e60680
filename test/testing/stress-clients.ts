// Hand-written OpenAI chat clients for the stress tests: correct, or with one bug each of the
// kind real clients have, so each chunking is shown catching the bug it exists for. They read
// the body through the fetch stressClient gives them, as an app's own SSE reader does.

import { toFixture, type Fixture } from '../../src/exchange/fixture.js'
import type { Recording } from '../../src/exchange/types.js'
import type { StressClient } from '../../src/testing.js'
import { recording } from '../support/requests.js'
import { DONE, openaiChunk } from '../support/streams.js'

export type Bug =
  /** Splits each read into events on its own: a frame cut by a read boundary is lost. */
  | 'parse-each-read'
  /** new TextDecoder().decode(read) per read, without {stream: true}. */
  | 'decode-each-read'
  /** Ends events only at "\n\n" and lines only at "\n". */
  | 'split-on-lf-lf'
  /** Takes every line's value after its first ":" as data, comments included. */
  | 'comment-as-data'
  /** Cuts "data: " with its space: line.slice(6). */
  | 'data-with-space'
  /** Finishes only when it sees the exact line "data: [DONE]"; the end of the body does not finish it. */
  | 'done-line-only'

const EVENT_END = /\r\n\r\n|\n\n|\r\r/
const LINE_END = /\r\n|\r|\n/

export interface ChatResult {
  choices: Array<{ index: number; finish_reason: string | null; message: { role: string; content: string } }>
}

/** A chat client reading SSE by the rules, or with the one bug named. */
export function chatClient(bug?: Bug): StressClient {
  return async (fetch) => {
    const response = await fetch('https://api.openai.com/v1/chat/completions', { method: 'POST' })
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let content = ''
    let finish: string | null = null
    let sawDone = false
    const dispatch = (block: string) => {
      const data: string[] = []
      for (const line of block.split(bug === 'split-on-lf-lf' ? '\n' : LINE_END)) {
        if (bug === 'comment-as-data') {
          if (line !== '') data.push(line.slice(line.indexOf(':') + 1).replace(/^ /, ''))
        } else if (line.startsWith('data:')) data.push(bug === 'data-with-space' ? line.slice(6) : line.slice(5).replace(/^ /, ''))
        if (line === 'data: [DONE]') sawDone = true
      }
      const text = data.join('\n')
      if (data.length === 0 || text === '[DONE]') return
      try {
        const chunk = JSON.parse(text) as { choices?: Array<{ delta?: { content?: string }; finish_reason?: string | null }> }
        for (const c of chunk.choices ?? []) {
          content += c.delta?.content ?? ''
          if (c.finish_reason) finish = c.finish_reason
        }
      } catch {
        // a frame it cannot parse is skipped, as many clients do
      }
    }
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const text = bug === 'decode-each-read' ? new TextDecoder().decode(value) : decoder.decode(value, { stream: true })
      if (bug === 'parse-each-read') {
        text.split(EVENT_END).forEach(dispatch)
        continue
      }
      buffer += text
      const events = buffer.split(bug === 'split-on-lf-lf' ? '\n\n' : EVENT_END)
      buffer = events.pop()!
      events.forEach(dispatch)
    }
    dispatch(buffer + decoder.decode())
    if (bug === 'done-line-only' && !sawDone) await new Promise<never>(() => { /* waits for a [DONE] line it will never see */ })
    return { choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content } }] } satisfies ChatResult
  }
}

/** A clean OpenAI chat stream with multi-byte characters (2, 3 and 4 bytes), one read per event, 100 ms apart. */
export function chatFixture(): Fixture {
  return toFixture(chatRecording(), { exportedAt: '2025-06-01T12:00:00.000Z' })
}

/** chatFixture()'s recording: the capture as the panel holds it. */
export function chatRecording(): Recording {
  const deltas = [{ role: 'assistant', content: '' }, { content: 'Café ' }, { content: '☀ sunny' }, { content: ' in 日本 🌸' }]
  const events = [...deltas.map((delta) => openaiChunk(delta, null, { id: 'c1' })), openaiChunk({}, 'stop', { id: 'c1' }), DONE]
  const contentType = 'text/event-stream; charset=utf-8'
  return recording(events.map((data, i) => [data, 100 * (i + 1)]), {
    requestHeaders: [{ name: 'content-type', value: 'application/json' }], responseHeaders: [{ name: 'content-type', value: contentType }],
    requestBody: '{"model":"gpt-4o-mini","stream":true,"messages":[]}', contentType, source: 'live',
  })
}
