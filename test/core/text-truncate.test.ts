// The text-truncate delta (types.ts): keep the first `length` characters of one channel. The
// text buffer cuts without joining, the provenance log removes or shortens the runs past the
// cut, and the accumulator, the merger's provenance and its reply at frame N agree on it.

import { describe, expect, it } from 'vitest'
import { Accumulator } from '../../src/core/accumulator.js'
import { createMerger } from '../../src/core/merger.js'
import { ProvenanceLog } from '../../src/core/provenance-log.js'
import { createProviderRegistry } from '../../src/core/registry.js'
import { TextBuffer } from '../../src/core/text-buffer.js'
import { SYMPTOMS, type Delta, type ProviderAdapter } from '../../src/index.js'
import { createMerger as mergerOf } from '../../src/library.js'

function buffer(...parts: string[]): TextBuffer {
  const b = new TextBuffer()
  for (const p of parts) b.append(p)
  return b
}

const records = (log: ProvenanceLog) =>
  Array.from({ length: log.count }, (_, i) => i).filter((i) => log.holdsText(i)).map((i) => ({ frame: log.frameAt(i), target: log.targetAt(i), start: log.startAt(i), end: log.endAt(i) }))

describe('TextBuffer.truncate', () => {
  it('keeps the first n characters, cutting inside a part', () => {
    const b = buffer('Hel', 'lo ', 'world')
    b.truncate(4)
    expect([b.toString(), b.length]).toEqual(['Hell', 4])
  })

  it('is a no-op when n is the length or more', () => {
    const b = buffer('Hel', 'lo')
    b.truncate(5)
    b.truncate(99)
    expect([b.toString(), b.length]).toEqual(['Hello', 5])
  })

  it('empties the text at 0 (and at a negative n)', () => {
    const b = buffer('Hel', 'lo')
    b.truncate(0)
    expect([b.toString(), b.length]).toEqual(['', 0])
    const c = buffer('x')
    c.truncate(-3)
    expect([c.toString(), c.length]).toEqual(['', 0])
  })

  it('cuts at a part boundary without leaving an empty part', () => {
    const b = buffer('ab', 'cd', 'ef')
    b.truncate(4)
    b.append('X')
    expect([b.toString(), b.length]).toEqual(['abcdX', 5])
  })

  it('cuts a text of 2,500 appends and the comparisons still hold', () => {
    const b = buffer(...Array.from({ length: 2500 }, (_, i) => String(i % 10)))
    b.truncate(1500)
    b.append('!')
    const want = Array.from({ length: 1500 }, (_, i) => String(i % 10)).join('') + '!'
    expect(b.toString()).toBe(want)
    expect([b.length, b.equals(want), b.startsWith(want.slice(0, 1200)), b.isPrefixOf(want + '?')]).toEqual([1501, true, true, true])
  })

  it('appends after a cut continue from the cut', () => {
    const b = buffer('Hello world')
    b.truncate(6)
    b.append('there')
    expect(b.toString()).toBe('Hello there')
  })
})

describe('TextBuffer read while it grows', () => {
  it('appends after a read continue the text, and it reads the same again', () => {
    const b = buffer('Hel', 'lo')
    expect(b.toString()).toBe('Hello')
    b.append(' wor')
    b.append('ld')
    expect([b.toString(), b.length, b.toString()]).toEqual(['Hello world', 11, 'Hello world'])
  })

  it('a surrogate pair split by a read is whole afterwards, and a lone one stays lone', () => {
    const b = buffer('a', '\ud83d')
    expect(b.toString()).toBe('a\ud83d')
    b.append('\ude00')
    expect(b.toString()).toBe('a\ud83d\ude00')
    b.append('\ud83d')
    expect([b.toString(), b.length]).toEqual(['a\ud83d\ude00\ud83d', 4])
  })

  it('compares and cuts the same after a read as before it', () => {
    const b = buffer('ab', 'cd')
    b.toString()
    expect([b.equals('abcd'), b.startsWith('abc'), b.isPrefixOf('abcde'), b.head(3)]).toEqual([true, true, true, 'abc'])
    b.truncate(3)
    b.append('Z')
    expect([b.toString(), b.equals('abcZ'), b.head(2)]).toEqual(['abcZ', true, 'ab'])
  })
})

describe('ProvenanceLog.truncate', () => {
  it('removes the runs past the cut and shortens the run across it', () => {
    const log = new ProvenanceLog()
    log.add(0, 0, 0, 3)
    log.add(1, 0, 3, 6)
    log.add(2, 0, 6, 9)
    log.truncate(0, 4)
    expect(records(log)).toEqual([{ frame: 0, target: 0, start: 0, end: 3 }, { frame: 1, target: 0, start: 3, end: 4 }])
  })

  it('leaves other targets\' runs as they are, interleaved or not', () => {
    const log = new ProvenanceLog()
    log.add(0, 0, 0, 5)
    log.add(0, 1, 0, 5)
    log.add(1, 0, 5, 10)
    log.add(1, 1, 5, 10)
    log.truncate(0, 2)
    expect(records(log)).toEqual([
      { frame: 0, target: 0, start: 0, end: 2 },
      { frame: 0, target: 1, start: 0, end: 5 },
      { frame: 1, target: 1, start: 5, end: 10 },
    ])
  })

  it('runs added after a cut follow it, and a later cut reaches back past them', () => {
    const log = new ProvenanceLog()
    log.add(0, 0, 0, 4)
    log.add(1, 0, 4, 8)
    log.truncate(0, 2)
    log.add(2, 0, 2, 7)
    log.truncate(0, 1)
    log.add(3, 0, 1, 3)
    expect(records(log)).toEqual([{ frame: 0, target: 0, start: 0, end: 1 }, { frame: 3, target: 0, start: 1, end: 3 }])
  })

  it('runs of several targets before the first cut, and runs after it, are each cut within their own target', () => {
    const log = new ProvenanceLog()
    log.add(0, 0, 0, 2)
    log.add(0, 1, 0, 3)
    log.add(1, 0, 2, 4)
    log.add(1, 2, 0, 1)
    log.add(2, 1, 3, 6)
    log.truncate(0, 3)
    log.add(3, 1, 6, 8)
    log.add(3, 0, 3, 5)
    log.truncate(1, 4)
    expect(records(log)).toEqual([
      { frame: 0, target: 0, start: 0, end: 2 },
      { frame: 0, target: 1, start: 0, end: 3 },
      { frame: 1, target: 0, start: 2, end: 3 },
      { frame: 1, target: 2, start: 0, end: 1 },
      { frame: 2, target: 1, start: 3, end: 4 },
      { frame: 3, target: 0, start: 3, end: 5 },
    ])
  })

  it('a cut at 0 removes every run of the target; a cut of a target with no runs changes nothing', () => {
    const log = new ProvenanceLog()
    log.add(0, 3, 0, 4)
    log.add(1, 3, 4, 8)
    log.truncate(0, 0)
    log.truncate(3, 0)
    log.truncate(7, 0)
    expect([records(log), log.count]).toEqual([[], 2])
  })

  it('cuts across column pages (more than 16,384 runs)', () => {
    const log = new ProvenanceLog()
    for (let i = 0; i < 20_000; i++) log.add(i, i % 2, (i >> 1) * 2, (i >> 1) * 2 + 2)
    log.truncate(1, 3)
    const kept = records(log)
    expect(kept.filter((r) => r.target === 1)).toEqual([{ frame: 1, target: 1, start: 0, end: 2 }, { frame: 3, target: 1, start: 2, end: 3 }])
    expect(kept.filter((r) => r.target === 0).length).toBe(10_000)
  })
})

/** Applies the deltas of each frame in turn. */
function accumulate(frames: Delta[][]): Accumulator {
  const acc = new Accumulator()
  frames.forEach((deltas, frame) => deltas.forEach((d) => acc.apply(d, frame)))
  return acc
}

const text = (t: string, channel: 'content' | 'reasoning' = 'content'): Delta => ({ type: 'text', choice: 0, channel, text: t })
const cut = (length: number, channel: 'content' | 'reasoning' = 'content'): Delta => ({ type: 'text-truncate', choice: 0, channel, length })

describe('the accumulator applies text-truncate', () => {
  it('keeps the first length characters of that channel only', () => {
    const acc = accumulate([[text('Hello world'), text('why', 'reasoning')], [cut(5)]])
    expect(acc.state().choices[0]).toMatchObject({ content: 'Hello', reasoning: 'why' })
  })

  it('provenance credits each frame with what it added and what is left of it', () => {
    const acc = accumulate([[text('Hello')], [text(' world')], [cut(7), text('ay')]])
    expect(acc.state().choices[0]!.content).toBe('Hello way')
    expect(acc.provenanceRecords()).toEqual([
      { frame: 0, choice: 0, channel: 'content', toolCall: null, start: 0, end: 5 },
      { frame: 1, choice: 0, channel: 'content', toolCall: null, start: 5, end: 7 },
      { frame: 2, choice: 0, channel: 'content', toolCall: null, start: 7, end: 9 },
    ])
  })

  it('a truncate at or past the length changes nothing and is no data after the terminal marker', () => {
    const acc = accumulate([[text('Hi')], [{ type: 'done' }], [cut(2), cut(50)]])
    expect(acc.state().choices[0]!.content).toBe('Hi')
    expect(acc.provenanceRecords()).toEqual([{ frame: 0, choice: 0, channel: 'content', toolCall: null, start: 0, end: 2 }])
    expect(acc.diagnostics).toEqual([])
  })

  it('a truncate that cuts after the terminal marker is data after done', () => {
    const acc = accumulate([[text('Hi')], [{ type: 'done' }], [cut(1)]])
    expect(acc.diagnostics.map((d) => [d.frame, d.code])).toEqual([[2, 'data-after-done']])
  })

  it('a truncate of a choice that does not exist creates none', () => {
    const acc = accumulate([[{ type: 'text-truncate', choice: 3, channel: 'content', length: 0 }]])
    expect(acc.state().choices).toEqual([])
  })

  it('a length that is not a whole number of characters is that frame\'s frame-failed, and nothing is cut', () => {
    const acc = accumulate([[text('Hello')], [cut(-1), cut(2.5), cut(Number.NaN)]])
    expect(acc.state().choices[0]!.content).toBe('Hello')
    expect(acc.diagnostics.map((d) => [d.frame, d.code, d.level])).toEqual([[1, 'frame-failed', 'error'], [1, 'frame-failed', 'error'], [1, 'frame-failed', 'error']])
    expect(acc.diagnostics[0]!.message).toBe('frame 1: applying its "text-truncate" delta failed (RangeError: length "-1" is not a whole number of characters); that delta was skipped and merging went on')
  })

  it('a note with a code of its own is reported under that code, with that code\'s symptom', () => {
    const acc = accumulate([[{ type: 'note', level: 'warning', code: 'snapshot-rewrote', message: 'rewrote' }]])
    expect(acc.diagnostics).toEqual([{ frame: 0, level: 'warning', code: 'snapshot-rewrote', message: 'rewrote', symptom: SYMPTOMS['snapshot-rewrote'] }])
  })
})

/** Frames like `{"t":"Hello"}` append; `{"cut":n}` truncates: a wire of this test's own. */
const cutting: ProviderAdapter = {
  id: 'cutting',
  recognizes: () => true,
  createMapper: () => ({
    map: ({ json }) => {
      const o = json as { t?: string; cut?: number }
      return typeof o.cut === 'number' ? [cut(o.cut)] : [text(o.t ?? '')]
    },
  }),
}
const generic: ProviderAdapter = { id: 'generic', recognizes: () => false, createMapper: () => ({ map: () => [] }) }
const registry = createProviderRegistry([cutting], generic)

describe('the merger with truncates', () => {
  const body = ['{"t":"Hello"}', '{"t":" world"}', '{"cut":5}', '{"t":"!"}'].map((d) => `data: ${d}\n\n`).join('')

  it('the reply at frame N is the text as it stood after frame N', () => {
    const m = createMerger(registry)
    m.push(body)
    m.end()
    expect([0, 1, 2, 3, 1, 2].map((n) => m.replyAt(n).choices[0]!.content)).toEqual(['Hello', 'Hello world', 'Hello', 'Hello!', 'Hello world', 'Hello'])
  })

  it('provenance holds no run of the text that was cut', () => {
    const m = createMerger(registry)
    m.push(body)
    expect(m.end().choices[0]!.content).toBe('Hello!')
    expect(m.provenance()).toEqual([
      { frame: 0, choice: 0, channel: 'content', toolCall: null, start: 0, end: 5 },
      { frame: 3, choice: 0, channel: 'content', toolCall: null, start: 5, end: 6 },
    ])
  })
})

describe('TextBuffer', () => {
  it('keeps every code unit exactly, a lone surrogate and a pair split across appends included', () => {
    const b = new TextBuffer()
    b.append('The weather in Paris ')
    b.append('is \ud83d') // the high half of 😀 …
    b.append('\ude00 and \udc00 alone, then \ud800') // … its low half, a lone low, a lone high at the end
    const want = 'The weather in Paris is 😀 and \udc00 alone, then \ud800'
    expect([b.toString() === want, b.length, b.equals(want), b.startsWith('The weather in Paris is 😀'), b.head(11)]).toEqual([true, want.length, true, true, 'The weather'])
    b.truncate(26)
    expect([b.toString(), b.isPrefixOf('The weather in Paris is 😀!'), b.equals('The weather in Paris is \ud83d')]).toEqual(['The weather in Paris is 😀', true, false])
    b.truncate(25) // inside the pair: its high half stays, alone
    expect([b.toString() === 'The weather in Paris is \ud83d', b.length]).toEqual([true, 25])
  })

  it('reads a text without surrogates as the same string, long or short, after every kind of change', () => {
    const b = new TextBuffer()
    let want = ''
    for (let i = 0; i < 30_000; i++) {
      const piece = i % 7 === 0 ? 'météo 天气 ' : `word${i} `
      b.append(piece)
      want += piece
      // read often at first (each read lets the code units go; the next append writes them back)
      if (i % 9_999 === 0 || (i < 3_000 && i % 3 === 0)) expect(b.toString()).toBe(want)
    }
    expect([b.toString() === want, b.length === want.length]).toEqual([true, true])
    b.set('18°C')
    expect([b.toString(), b.length, b.touched]).toEqual(['18°C', 4, true])
    b.set('')
    expect([b.toString(), b.length]).toEqual(['', 0])
  })

  it('compares against a string the same way before and after it was read', () => {
    const b = new TextBuffer()
    b.append('Hello')
    b.append(' world')
    const unread = [b.equals('Hello world'), b.equals('Hello worle'), b.startsWith('Hello w'), b.startsWith('Help'), b.isPrefixOf('Hello world!'), b.isPrefixOf('Hello'), b.equals('')]
    b.toString()
    const read = [b.equals('Hello world'), b.equals('Hello worle'), b.startsWith('Hello w'), b.startsWith('Help'), b.isPrefixOf('Hello world!'), b.isPrefixOf('Hello'), b.equals('')]
    expect(unread).toEqual([true, false, true, false, true, false, false])
    expect(read).toEqual(unread)
  })

  it('keeps a leading U+FEFF (a decoder would take it for a byte order mark)', () => {
    const b = new TextBuffer()
    b.append('\ufeff')
    b.append('Hi')
    expect([b.toString() === '\ufeffHi', b.length, b.head(1) === '\ufeff']).toEqual([true, 3, true])
  })

  it('holds a text appended in one piece as that string, and copies it once a second piece comes', () => {
    const b = new TextBuffer()
    const big = 'x'.repeat(100_000)
    b.append(big)
    expect(b.toString()).toBe(big)
    b.append('!')
    expect([b.toString() === big + '!', b.length, b.startsWith('xxx'), b.equals(big + '!')]).toEqual([true, 100_001, true, true])
    b.truncate(3)
    b.append('y')
    expect(b.toString()).toBe('xxxy')
  })

  it('says an empty-string append touched the field', () => {
    const b = new TextBuffer()
    expect(b.touched).toBe(false)
    b.append('')
    expect([b.touched, b.length, b.toString()]).toEqual([true, 0, ''])
  })

  it('gives a merger the same reply however the body is cut', () => {
    const body = ['data: {"choices":[{"index":0,"delta":{"content":"Hello there, how are you"}}]}\n\n',
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{\\"city\\": \\"Paris, France\\""}}]}}]}\n\n',
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}\n\n', 'data: [DONE]\n\n'].join('')
    const whole = mergerOf()
    whole.push(body)
    const cut = mergerOf()
    for (let i = 0; i < body.length; i += 7) cut.push(new TextEncoder().encode(body.slice(i, i + 7)))
    expect(cut.end()).toEqual(whole.end())
    expect(whole.snapshot().choices[0]!.toolCalls[0]!.parsedArguments).toEqual({ city: 'Paris, France' })
  })
})
