// compareRenderedText: what a page shows for a reply (its innerText) against the reference as
// rendered. The page texts are what Chromium's innerText gives for each client's rendering;
// the clients are compare-support's chat client with one bug at a time, on a fixture whose
// reads split frame 2 ("- first item\n- second ") and the "€" of frame 5.

import { describe, expect, it } from 'vitest'
import { compareRenderedText } from '../../src/debug/compare-rendered.js'
import { buggyChatClient } from './compare-support.js'
import { body, DELTAS, fixture, MARKDOWN, offsetOf, PAGE_TEXT, reads } from './rendered-support.js'

const bytes = new TextEncoder().encode(body())
const parts = reads(bytes, [offsetOf(bytes, 'second', 3), offsetOf(bytes, '€', 1)])
const reference = fixture(parts)

const MARKDOWN_WAY = "The page's text is nearer the reference's Markdown rendered than its raw text: compared rendered."
const RENDERED = 'Here is bold text. first item second item const x = 1 name value caf€ 2 Done.'

describe('compareRenderedText', () => {
  it('a page that renders the Markdown correctly is equal, compared rendered', () => {
    expect(compareRenderedText(reference, PAGE_TEXT)).toEqual({
      equal: true, differences: [], method: 'markdown', renderer: 'micromark + micromark-extension-gfm (CommonMark + GFM)',
      expected: RENDERED, got: RENDERED, referenceOffset: null, notes: [MARKDOWN_WAY],
      notCompared: ['choices[0].reasoning', 'choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'usage'],
    })
  })

  it('a page that shows the raw text is equal, compared raw; asked for Markdown, it differs', () => {
    const raw = compareRenderedText(reference, MARKDOWN)
    expect([raw.equal, raw.method, raw.renderer, raw.notes]).toEqual([true, 'raw', null, ["The page's text is nearer the reference's raw text than its Markdown rendered: compared raw."]])
    const forced = compareRenderedText(reference, MARKDOWN, { markdown: true })
    expect([forced.equal, forced.method, forced.notes, forced.differences[0]!.offset, forced.differences[0]!.cause]).toEqual([false, 'markdown', [], 8, 'other'])
    expect(compareRenderedText(reference, PAGE_TEXT, { markdown: false }).method).toBe('raw')
  })

  it('U+FFFD where the reference has "€": utf8-split at frame 5, mapped back to the character in the content', () => {
    const client = buggyChatClient(parts, { decodePerRead: true }).choices[0]!.message.content
    expect(client).toContain('caf\ufffd\ufffd\ufffd')
    const page = PAGE_TEXT.replace('€', '\ufffd\ufffd\ufffd')
    const result = compareRenderedText(reference, page)
    expect(result.differences).toEqual([{
      field: 'choices[0].content', expected: RENDERED, got: RENDERED.replace('€', '\ufffd\ufffd\ufffd'), offset: 68, frame: 5, cause: 'utf8-split',
      message: 'The client decoded each network read on its own (without {stream: true}): "€" in frame 5 was split across reads 1 and 2 and came out as U+FFFD U+FFFD U+FFFD.',
    }])
    expect(result.referenceOffset).toBe(MARKDOWN.indexOf('€'))
  })

  it('a body captured whole once it ended (one chunk, no time): the reads are unknown, and the damage is utf8-split without read numbers', () => {
    const whole = fixture([bytes])
    whole.chunks[0]!.t = null
    const result = compareRenderedText(whole, PAGE_TEXT.replace('€', '\ufffd\ufffd'))
    expect(result.differences.map((d) => [d.cause, d.frame, d.message])).toEqual([[
      'utf8-split', 5, 'The client turned "€" in frame 5 into U+FFFD U+FFFD: it decoded network reads on their own (without {stream: true}), splitting the character; the capture holds the body whole, as DevTools hands it over once it ended (captured without Live), so where the reads were cut is not known.',
    ]])
  })

  it('a page lacking the frames split across reads: dropped-frames at the first of them, frame 2', () => {
    const client = buggyChatClient(parts, { parsePerRead: true }).choices[0]!.message.content
    expect(client).toBe(DELTAS[0]! + DELTAS[2]! + DELTAS[3]! + DELTAS[5]!)
    // what the browser shows of that Markdown: the list is gone, "item" is a paragraph, the table has no body row
    const page = 'Here is bold text.\n\nitem\n\nconst x = 1\n\nname\tvalue\nDone.'
    const result = compareRenderedText(reference, page)
    expect(result.differences.map((d) => [d.cause, d.frame, d.offset, d.message])).toEqual([[
      'dropped-frames', 2, 19,
      'The client dropped frames 2 and 5: their text (" first item second", …) is missing from the content; frame 2 arrived split across reads 0 and 1, frame 5 across reads 1 and 2: a client that parses each read on its own drops them.',
    ]])
    expect(result.referenceOffset).toBe(MARKDOWN.indexOf('first'))
  })

  it('a page that stopped early: truncated at the first frame it lacks', () => {
    const page = 'Here is bold text.\n\nfirst item\nsecond item\nconst x = 1'
    const result = compareRenderedText(fixture([bytes]), page)
    expect(result.differences.map((d) => [d.cause, d.frame, d.offset])).toEqual([['truncated', 4, 53]])
    expect(result.referenceOffset).toBe(MARKDOWN.indexOf('name'))
  })

  it('a frame shown twice: duplicated-frames', () => {
    const page = PAGE_TEXT.replace('Done.', 'Done.Done.')
    const result = compareRenderedText(fixture([bytes]), page)
    expect(result.differences.map((d) => [d.cause, d.frame])).toEqual([['duplicated-frames', 6]])
  })

  it('only the last frame shown: overwritten (the frame, as compareReply gives it, is the one at the first differing character)', () => {
    const result = compareRenderedText(fixture([bytes]), 'Done.')
    expect(result.differences.map((d) => [d.cause, d.frame, d.message])).toEqual([[
      'overwritten', 1, 'The client kept only the text of frame 6 (the last of 6 frames writing the content): it replaced the content with each delta instead of appending.',
    ]])
  })

  it('text the reference never had: other, at the first differing character', () => {
    const result = compareRenderedText(fixture([bytes]), PAGE_TEXT.replace('bold', 'bald'))
    expect(result.differences.map((d) => [d.cause, d.frame, d.offset])).toEqual([['other', 1, 9]])
    expect(result.referenceOffset).toBe(MARKDOWN.indexOf('bold') + 1)
  })

  it('reasoning shown apart before the content is equal; written into the content it is reasoning-in-content', () => {
    const frames = [
      { choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Think **hard**.' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'The *answer*.' }, finish_reason: 'stop' }] },
    ]
    const sse = frames.map((f) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', ...f })}\n\n`).join('') + 'data: [DONE]\n\n'
    const ref = fixture([new TextEncoder().encode(sse)])
    const apart = compareRenderedText(ref, 'Think hard.\n\nThe answer.')
    expect([apart.equal, apart.notes.at(-1)]).toEqual([true, "The page's text holds the reasoning, shown before the content: compared as the two rendered apart."])
    const mixed = compareRenderedText(ref, 'Think hard.The answer.')
    expect(mixed.differences.map((d) => [d.cause, d.frame, d.offset])).toEqual([['reasoning-in-content', 0, 2]])
  })

  it('leaves out what the page marks as not the reply (a closed <details> block\'s summary, a button), in page order', () => {
    const page = 'Thought for 3 s\n' + PAGE_TEXT.replace('const x = 1', 'const x = 1\nCopy') + '\nCopy\nRetry'
    expect(compareRenderedText(reference, page).equal).toBe(false)
    const result = compareRenderedText(reference, page, { leaveOut: ['Thought for 3 s', 'Copy', 'Copy', 'Retry', 'Share'] })
    expect([result.equal, result.got, result.notes]).toEqual([true, RENDERED, [
      'Left out of the page\'s text: "Thought for 3 s", "Copy", "Copy", "Retry".',
      'Not found in the page\'s text, so left in: "Share".',
      MARKDOWN_WAY,
    ]])
    // each part is searched from where the one before it was cut: out of order, a part is not found
    const backwards = compareRenderedText(reference, page, { leaveOut: ['Retry', 'Thought for 3 s'] })
    expect(backwards.notes.slice(0, 2)).toEqual(['Left out of the page\'s text: "Retry".', 'Not found in the page\'s text, so left in: "Thought for 3 s".'])
  })

  it('a lost or doubled frame that changes the Markdown (half of a "**" pair): found by rendering what that client had', () => {
    const split = fixture([new TextEncoder().encode(body(['Intro: ', 'here is **bo', 'ld** text.\n\n', '- item']))])
    const dropped = compareRenderedText(split, 'Intro: ld** text.\nitem')
    expect(dropped.differences.map((d) => [d.cause, d.frame, d.message])).toEqual([[
      'dropped-frames', 2, 'The client dropped frame 2: its text ("here is **bo") is missing from the content.',
    ]])
    const doubled = compareRenderedText(split, 'Intro: here is bold text.\n\nld** text.\nitem')
    expect(doubled.differences.map((d) => [d.cause, d.frame, d.message])).toEqual([[
      'duplicated-frames', 3, 'The client applied frame 3 twice: its text "ld** text.\\n\\n" appears twice in the content.',
    ]])
  })

  it('never throws on the page\'s text', () => {
    expect(compareRenderedText(reference, 42 as unknown as string).equal).toBe(false)
    expect(compareRenderedText(reference, '').differences[0]!.cause).toBe('truncated')
  })
})
