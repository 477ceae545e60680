// Undoing Chrome's windows-1252 decoding of a charset-less UTF-8 body (src/exchange/windows-1252.ts):
// the repair itself, and the panel's store applying it to a request the capture layer marked.

import { describe, expect, it } from 'vitest'
import { asWindows1252, decodeWindows1252 } from '../support/windows-1252.js'
import { encodeWindows1252, repairWindows1252 } from '../../src/exchange/windows-1252.js'
import { capturedRequest } from '../support/requests.js'
import { merge } from '../../src/library.js'
import { createPanelStore } from '../../panel/store/index.js'

const decodeUtf8 = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(b)

describe('repairWindows1252: the UTF-8 bytes behind windows-1252 mojibake', () => {
  it('knows the real mojibake strings', () => {
    expect(asWindows1252('€')).toBe('â‚¬')
    expect(asWindows1252('é')).toBe('Ã©')
    expect(asWindows1252('😀')).toBe('ðŸ˜€')
  })

  it('repairs the euro sign, accents, emoji and Chinese', () => {
    expect(decodeUtf8(repairWindows1252('â‚¬')!)).toBe('€')
    expect(decodeUtf8(repairWindows1252('cafÃ©')!)).toBe('café')
    expect(decodeUtf8(repairWindows1252('ðŸ˜€')!)).toBe('😀')
    for (const s of ['中文', '你好，世界', '“quotes” – dash … ™', 'Grüße, señor, Ærøskøbing', '🧪🚀 mixed ASCII and 中文 and €']) {
      expect(decodeUtf8(repairWindows1252(asWindows1252(s))!)).toBe(s)
    }
  })

  it('repairs bytes that windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)', () => {
    // "ǝ" is C7 9D, "ā" is C4 81, "ō" is C5 8D, "Ə" is C6 8F, "А" (Cyrillic) is D0 90.
    const s = 'ǝ ā ō Ə А'
    expect(decodeUtf8(repairWindows1252(asWindows1252(s))!)).toBe(s)
  })

  it('leaves pure ASCII alone', () => {
    expect(repairWindows1252('data: {"a":"b"}\n\n')).toBeNull()
  })

  it('does not "repair" genuine Latin-1 / windows-1252 text', () => {
    for (const s of ['café', 'naïve façade', 'Grüße', 'Ærøskøbing', '5 €', '“smart quotes”', '© 2024 ®', 'Ã', 'â‚', 'prix: 10 ¤']) {
      expect(repairWindows1252(s)).toBeNull()
    }
  })

  it('does not touch text with characters windows-1252 cannot hold (it was decoded as UTF-8)', () => {
    for (const s of ['中文', '😀', 'Привет', 'café 中文', 'Ã© 中']) expect(repairWindows1252(s)).toBeNull()
  })

  it('encodeWindows1252 maps the 0x80–0x9F block and refuses what is outside the code page', () => {
    expect(encodeWindows1252('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')).toEqual(
      new Uint8Array([0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e, 0x9f]),
    )
    expect(encodeWindows1252('ÿ\u00a0')).toEqual(new Uint8Array([0xff, 0xa0]))
    expect(encodeWindows1252('Ā')).toBeNull()
    // Every byte survives windows-1252 decoding and re-encoding.
    const all = new Uint8Array(256).map((_, i) => i)
    expect(encodeWindows1252(decodeWindows1252(all))).toEqual(all)
  })
})

describe('the store undoes it for a request the capture marked', () => {
  const URL_ = 'http://127.0.0.1/charsetless.sse'
  /** The reply the store rebuilt from one text chunk of a request marked bodyDecodedAs (or not). */
  function replyOf(text: string, marked = true) {
    const pending: Array<() => void> = []
    const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
    const request = capturedRequest({ id: 'r', method: 'GET', url: URL_, startedAt: 0, source: 'har', ...(marked ? { bodyDecodedAs: 'windows-1252' as const } : {}) })
    store.apply({ type: 'request', request })
    store.apply({ type: 'chunk', id: 'r', data: text, t: null })
    store.apply({ type: 'finished', id: 'r', t: null })
    while (pending.length) pending.shift()!()
    return store.recordings.get('r')!.expected
  }
  const wire = 'data: {"choices":[{"index":0,"delta":{"content":"Prix : 5 € — 中文 😀"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
  const want = merge(wire, { url: URL_, contentType: 'text/event-stream' })

  it('mojibake becomes the text that was sent, and the frames parse', () => {
    expect(replyOf(asWindows1252(wire))).toEqual(want)
    expect(replyOf(asWindows1252(wire)).choices[0]!.content).toBe('Prix : 5 € — 中文 😀')
  })

  it('text that is not mojibake is read as it is: ASCII, genuine Latin-1', () => {
    expect(replyOf(wire)).toEqual(want)
    const latin = 'data: {"choices":[{"index":0,"delta":{"content":"café"}}]}\n\n'
    expect(replyOf(latin).choices[0]!.content).toBe('café')
  })

  it('an unmarked request is never repaired', () => {
    expect(replyOf(asWindows1252(wire), false).choices[0]!.content).toBe(asWindows1252('Prix : 5 € — 中文 😀'))
  })
})
