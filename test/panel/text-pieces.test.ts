// A window of a reply text cut from the pieces it arrived in (panel/text-pieces.ts), as the
// worker's mirror builds them (panel/remote/reply-patch.ts): always the same characters as
// slicing the whole text, without reading the rest of it.

import { describe, expect, it } from 'vitest'
import type { Reply } from '../../src/library.js'
import { applyPatch, diffReply } from '../../panel/remote/reply-patch.js'
import { appendPiece, piecesFor, textWindow, type TextPiece } from '../../panel/text-pieces.js'

/** A reply of one choice with these texts. */
const replyWith = (content: string, reasoning = ''): Reply => ({
  transport: 'sse', provider: 'openai', done: false, frameCount: 1, usage: null, errors: [], messages: [],
  choices: [{ index: 0, role: 'assistant', content, reasoning, refusal: '', toolCalls: [], finishReason: null }],
})

/** Every window [from, to) of `text` in steps of `step`, cut from `last`, against slicing. */
function everyWindow(text: string, last: TextPiece | null, step = 3) {
  const wrong: string[] = []
  for (let from = 0; from <= text.length; from += step) {
    for (let to = from; to <= text.length; to += step) {
      if (textWindow(text, from, to, last) !== text.slice(from, to)) wrong.push(`${from}-${to}`)
    }
  }
  return wrong
}

describe('text pieces', () => {
  it('a window of appended pieces is the same as slicing the whole text, wherever it falls', () => {
    let text = ''
    let last: TextPiece | null = null
    for (const piece of ['Hello', ', ', '', 'wor', 'ld! ', 'And the rest of it.']) {
      last = appendPiece(last, text, piece)
      text += piece
    }
    expect(last!.end).toBe(text.length)
    expect(everyWindow(text, last, 1)).toEqual([])
  })

  it('slices the text itself when no pieces are known, or they do not add up to it', () => {
    const last = appendPiece(null, '', 'abc')
    expect(textWindow('abcdef', 1, 5, last)).toBe('bcde')
    expect(textWindow('abcdef', 1, 5, null)).toBe('bcde')
  })

  it('the mirror notes the pieces of every update: appended text goes on the pieces before it', () => {
    let sent: Reply | null = null
    let shown: Reply | null = null
    const steps = ['The ', 'The answer', 'The answer is ', 'The answer is 42', 'The answer is 42.']
    for (const [i, content] of steps.entries()) {
      const next = replyWith(content, 'think'.repeat(i + 1))
      shown = applyPatch(shown, diffReply(sent, next))
      sent = next
      const choice = shown.choices[0]!
      expect([choice.content, choice.reasoning]).toEqual([content, 'think'.repeat(i + 1)])
      expect(everyWindow(choice.content, piecesFor(choice, 'content'), 1)).toEqual([])
      expect(everyWindow(choice.reasoning, piecesFor(choice, 'reasoning'), 2)).toEqual([])
    }
    // one piece per update that appended something (the first is the text as first sent)
    let count = 0
    for (let p = piecesFor(shown!.choices[0]!, 'content'); p !== null; p = p.before) count++
    expect(count).toBe(steps.length)
  })

  it('a text that changed other than by growing starts its pieces again', () => {
    const first = applyPatch(null, diffReply(null, replyWith('abcdef')))
    const next = applyPatch(first, diffReply(replyWith('abcdef'), replyWith('abXY')))
    const last = piecesFor(next.choices[0]!, 'content')!
    expect([next.choices[0]!.content, last.before, last.text]).toEqual(['abXY', null, 'abXY'])
  })

  it('a text of thousands of pieces gives the same window at its end and at its start', () => {
    let text = ''
    let last: TextPiece | null = null
    for (let i = 0; i < 5000; i++) {
      const piece = `<${i}>`
      last = appendPiece(last, text, piece)
      text += piece
    }
    expect(textWindow(text, text.length - 2000, text.length, last)).toBe(text.slice(-2000))
    expect(textWindow(text, 0, 20_000, last)).toBe(text.slice(0, 20_000))
  })
})
