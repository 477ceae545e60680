// check's outline of a big file shows a frame's raw text without holding it (src/cli/outline.ts):
// read and decoded window by window, its shown lines must be exactly rawLines' on the whole
// text, whatever the windows cut (a CRLF, a multi-byte character, a surrogate pair, a line
// longer than the 200 characters shown).

import { describe, expect, it } from 'vitest'
import { shownLines } from '../../src/cli/outline.js'
import { rawLineParts } from '../../src/cli/render.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
const PIECES = ['a', 'é', '天', '🙂', '\r', '\n', '\r\n', 'x'.repeat(150), 'y'.repeat(90)]

function random(seed: number): () => number {
  let s = seed
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
}

describe('shownLines', () => {
  it('gives rawLines\' lines and count for 3,000 random texts, in windows of 1 to 40 bytes', () => {
    const next = random(33)
    for (let k = 0; k < 3000; k++) {
      let text = ''
      const n = Math.floor(next() * 12)
      for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)]
      const bytes = encoder.encode(text)
      const window = 1 + Math.floor(next() * 40)
      const got = shownLines((from, to) => bytes.slice(from, to), 0, bytes.length, window)
      expect(got, JSON.stringify({ text, window })).toEqual(rawLineParts(decoder.decode(bytes), 5))
    }
  })

  it('reads only [from, to): the frame, not the body around it', () => {
    const bytes = encoder.encode('before\ndata: ' + 'z'.repeat(300) + '\n\nafter')
    const got = shownLines((from, to) => bytes.slice(from, to), 7, 7 + 6 + 300 + 2, 16)
    // "data: z…z\n\n" less its last terminator: the line and an empty one
    expect(got).toEqual({ shown: ['data: ' + 'z'.repeat(103) + ' … ' + 'z'.repeat(88), ''], count: 2 })
  })
})
