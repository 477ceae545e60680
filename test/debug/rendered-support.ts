// Inputs for the compareRenderedText tests: an OpenAI chat stream whose reply is Markdown
// (bold, a list, a code block, a table, a character of three UTF-8 bytes), as a Deltascope
// fixture arriving in chosen network reads.

import { toFixture, type Fixture } from '../../src/exchange/fixture.js'
import { recording } from '../support/requests.js'


/** The content deltas, one a frame (frames 1–6; frame 0 sets the role, frame 7 the finish reason). */
export const DELTAS = [
  'Here is **bold** text.\n\n',
  '- first item\n- second ',
  'item\n\n```js\nconst x = 1\n```\n\n',
  '| name | value |\n|---|---|\n',
  '| caf€ | 2 |\n',
  'Done.',
]

export const MARKDOWN = DELTAS.join('')

/** What a browser's innerText gives for the reply rendered correctly (a <p>, a <ul>, a <pre>, a <table>, a <p>). */
export const PAGE_TEXT = 'Here is bold text.\n\nfirst item\nsecond item\nconst x = 1\n\nname\tvalue\ncaf€\t2\nDone.'

export function body(deltas: readonly string[] = DELTAS): string {
  const frames = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    ...deltas.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
    { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ]
  return frames.map((f) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gpt-4o', ...f })}\n\n`).join('') + 'data: [DONE]\n\n'
}

/** The body's bytes cut into reads at these byte offsets. */
export function reads(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [0, ...[...cuts].sort((a, b) => a - b), bytes.length]
  return points.slice(1).map((end, i) => bytes.slice(points[i]!, end))
}

export function fixture(parts: readonly Uint8Array[]): Fixture {
  const contentType = 'text/event-stream; charset=utf-8'
  return toFixture(recording(parts.map((data, i) => [data, 10 + 5 * i]), {
    requestHeaders: [{ name: 'content-type', value: 'application/json' }], responseHeaders: [{ name: 'content-type', value: contentType }],
    requestBody: '{"stream":true}', contentType,
  }), { exportedAt: '2025-06-01T12:00:00.000Z' })
}

/** The byte offset of `text` in the bytes (its first occurrence), plus `plus`. */
export function offsetOf(bytes: Uint8Array, text: string, plus = 0): number {
  const needle = new TextEncoder().encode(text)
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer
    return i + plus
  }
  throw new Error(`${JSON.stringify(text)} not found`)
}
