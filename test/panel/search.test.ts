// The frame search (panel/store/search.ts) without a DOM: how a query is read, what matches,
// "N of M", stepping through matches, the reply text the matches produced, slices on long
// streams (with the clock and the timers driven by the test), a growing stream, and the
// `search` / `search-step` events a host's search bar sends.

import { describe, expect, it } from 'vitest'
import type { CaptureEvent } from '../../panel/shell.js'
import { createPanelStore, type LocalPanelStore, type StoreOptions } from '../../panel/store/index.js'
import { parseQuery, stepIndex } from '../../panel/store/search.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat } from '../support/streams.js'

const T0 = 1_754_000_000_000

const request = (id: string): CaptureEvent => requestEvent({ id, startedAt: T0, source: 'live' })

/** 8 frames: 0 role+"The cat", 1 " sat", 2 " on the", 3 " Mat.", 4 a ping event, 5 tool call, 6 finish, 7 [DONE]. */
const BODY = [
  chat({ role: 'assistant', content: 'The cat' }),
  chat({ content: ' sat' }),
  chat({ content: ' on the' }),
  chat({ content: ' Mat.' }),
  'event: ping\ndata: {"type":"ping"}\n\n',
  chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }] }),
  chat({}, 'tool_calls'),
  'data: [DONE]\n\n',
].join('')

function manualStore(options: StoreOptions = {}) {
  const pending: Array<() => void> = []
  const deferred: Array<() => void> = []
  const store = createPanelStore(null, {
    schedule: (f) => pending.push(f),
    defer: (w) => { deferred.push(w); return () => { const i = deferred.indexOf(w); if (i >= 0) deferred.splice(i, 1) } },
    ...options,
  })
  const tick = () => { while (pending.length) pending.shift()!() }
  return { store, tick, deferred }
}

function loaded(body = BODY, options: StoreOptions = {}) {
  const s = manualStore(options)
  s.store.apply(request('r'))
  s.store.apply({ type: 'chunk', id: 'r', data: body, t: T0 + 5 })
  s.store.apply({ type: 'finished', id: 'r', t: T0 + 9 })
  s.store.select('r')
  s.tick()
  return s
}

const shown = (store: LocalPanelStore) => Array.from(store.selection.value!.items)
const counts = (store: LocalPanelStore) => {
  const s = store.selection.value!.search!
  return { count: s.count, total: s.total, done: s.done, error: s.error }
}

describe('parseQuery', () => {
  it('reads plain text case-insensitively and escapes what a regex would read', () => {
    const q = parseQuery('a.b (c)')
    expect(q.kind).toBe('text')
    if (q.kind !== 'text') return
    expect([q.re.test('xA.B (C)y'), q.re.test('axb (c)')]).toEqual([true, false])
  })

  it('reads /regex/flags; g and y are dropped (test() would keep state between frames)', () => {
    const q = parseQuery('/^c[a-z]t$/gi')
    expect(q.kind).toBe('regex')
    if (q.kind !== 'regex') return
    expect([q.re.flags, q.re.test('CAT'), q.re.test('CAT'), q.re.test('coat')]).toEqual(['i', true, true, false])
  })

  it('an invalid regex says why and never throws; a path with slashes is plain text; empty is no search', () => {
    expect(parseQuery('/(unclosed/')).toEqual({ kind: 'invalid', message: 'Invalid regular expression: /(unclosed/: Unterminated group' })
    expect(parseQuery('/v1/chat').kind).toBe('text')
    expect(parseQuery('/a/xyz').kind).toBe('text')
    expect(parseQuery('')).toEqual({ kind: 'none' })
  })
})

describe('stepIndex', () => {
  const items = Int32Array.from([2, 5, 9])
  it('goes to the next or previous match, wrapping around, from a frame that is or is not a match', () => {
    expect([stepIndex(items, null, 1), stepIndex(items, null, -1)]).toEqual([0, 2])
    expect([stepIndex(items, 5, 1), stepIndex(items, 5, -1)]).toEqual([2, 0])
    expect([stepIndex(items, 9, 1), stepIndex(items, 2, -1)]).toEqual([0, 2])
    expect([stepIndex(items, 6, 1), stepIndex(items, 6, -1), stepIndex(items, 0, -1)]).toEqual([2, 1, 2])
    expect(stepIndex(new Int32Array(0), 3, 1)).toBe(-1)
  })
})

describe('the frame search in the store', () => {
  it('narrows the list to the matching frames and says N of M (plain text, any case)', () => {
    const { store } = loaded()
    expect(shown(store)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    store.search.value = 'CAT'
    // frames 0 ("The cat") and 5 (the arguments {"q":"cat"}); not "Mat"
    expect(shown(store)).toEqual([0, 5])
    expect(counts(store)).toEqual({ count: 2, total: 8, done: true, error: null })
    store.search.value = ''
    expect(store.selection.value!.search).toBe(null)
    expect(shown(store)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it('matches a regex against the data and the SSE event name', () => {
    const { store } = loaded()
    store.search.value = '/[cm]at\\b/'
    expect(shown(store)).toEqual([0, 5])
    store.search.value = '/[cm]at\\b/i'
    expect(shown(store)).toEqual([0, 3, 5])
    store.search.value = '/^ping$/'
    expect(shown(store)).toEqual([4])
    store.search.value = '/\\[DONE\\]/'
    expect(shown(store)).toEqual([7])
  })

  it('an invalid regex leaves the list whole and says what is wrong', () => {
    const { store } = loaded()
    store.search.value = '/[/'
    expect(shown(store)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(counts(store)).toEqual({ count: 0, total: 8, done: true, error: 'Invalid regular expression: /[/: Unterminated character class' })
    store.searchStep(1)
    expect(store.selectedFrame.value).toBe(null)
  })

  it('Enter and Shift+Enter step through the matches, wrapping around', () => {
    const { store } = loaded()
    // (not /at/: "chat.completion.chunk" is in every frame's data)
    store.search.value = '/[cs]at\\b/'
    expect(shown(store)).toEqual([0, 1, 5])
    const steps: Array<number | null> = []
    for (const d of [1, 1, 1, 1, 1, -1, -1]) { store.searchStep(d); steps.push(store.selectedFrame.value) }
    expect(steps).toEqual([0, 1, 5, 0, 1, 0, 5])
  })

  it('marks the reply text the matching frames produced, adjacent runs joined', () => {
    const { store } = loaded()
    store.search.value = '/sat|on the|cat/'
    const found = store.selection.value!.found
    // " sat" + " on the" are adjacent: one range; "The cat" is frame 0's; the arguments are frame 5's
    expect(found).toEqual([
      { field: { choice: 0, channel: 'content', toolCall: null }, start: 0, end: 18 },
      { field: { choice: 0, channel: 'arguments', toolCall: 0 }, start: 0, end: 11 },
    ])
    store.search.value = 'mat'
    expect(store.selection.value!.found).toEqual([{ field: { choice: 0, channel: 'content', toolCall: null }, start: 18, end: 23 }])
    // the selected frame's own marks stay apart
    store.selectFrame(1, { scrub: false })
    expect(store.selection.value!.highlight).toEqual([{ field: { choice: 0, channel: 'content', toolCall: null }, start: 7, end: 11 }])
  })

  it('with pings hidden, a matching ping is not listed but still counted', () => {
    const { store } = loaded()
    store.hideDimmed.value = true
    store.search.value = '/ping|DONE|cat/'
    expect(shown(store)).toEqual([0, 5])
    expect(counts(store)).toEqual({ count: 4, total: 8, done: true, error: null })
  })

  it('the search and the steps arrive as events (a host search bar)', () => {
    const { store } = loaded()
    store.apply({ type: 'search', query: 'cat' })
    expect([store.search.value, shown(store)]).toEqual(['cat', [0, 5]])
    store.apply({ type: 'search-step', delta: 1 })
    store.apply({ type: 'search-step', delta: 1 })
    expect(store.selectedFrame.value).toBe(5)
    store.apply({ type: 'search-step', delta: -1 })
    expect(store.selectedFrame.value).toBe(0)
    store.apply({ type: 'search', query: '' })
    expect(store.selection.value!.search).toBe(null)
  })
})

describe('searching a long stream', () => {
  /** 20,000 frames; every 7th says "needle". */
  const N = 20_000
  const long = Array.from({ length: N }, (_, i) => chat({ content: i % 7 === 3 ? `needle ${i} ` : `hay ${i} ` })).join('')
  const expected = Array.from({ length: N }, (_, i) => i).filter((i) => i % 7 === 3)

  it('searches in slices, a batch after each, the list growing, each slice within its budget', () => {
    // a clock that moves 1 ms per read: a slice stops after its budget of reads
    let t = 0
    const { store, tick, deferred } = loaded(long, { now: () => (t += 1) })
    store.search.value = 'NEEDLE'
    const first = store.selection.value!.search!
    expect([first.count, first.scanned, first.done]).toEqual([0, 0, false])
    const progress: number[] = []
    let slices = 0
    while (deferred.length > 0) {
      const before = t
      deferred.shift()!()
      slices++
      // the clock was read once per 32 frames, and the slice stopped once past its 12 ms
      expect(t - before).toBeLessThanOrEqual(14)
      tick()
      progress.push(store.selection.value!.search!.scanned)
    }
    expect(slices).toBeGreaterThan(10)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(counts(store)).toEqual({ count: expected.length, total: N, done: true, error: null })
    expect(shown(store)).toEqual(expected)
    // the reply text of the matches, built batch by batch as they came: each needle, once
    const view = store.selection.value!
    const content = view.reply.choices[0]!.content
    expect(view.found.map((h) => content.slice(h.start, h.end))).toEqual(expected.map((i) => `needle ${i} `))
  })

  it('a new query starts over; frames that arrive later are searched when they arrive', () => {
    const { store, tick, deferred } = manualStore()
    store.apply(request('g'))
    store.select('g')
    const half = long.length / 2
    const cut = long.lastIndexOf('data:', half)
    store.apply({ type: 'chunk', id: 'g', data: long.slice(0, cut), t: T0 + 1 })
    tick()
    // the view is read as a component would, after each change: the search starts then
    store.search.value = 'needle'
    expect(store.selection.value!.search!.done).toBe(false)
    store.search.value = 'needle 3 '
    expect(store.selection.value!.search!.scanned).toBe(0)
    while (deferred.length > 0) deferred.shift()!()
    tick()
    expect(counts(store)).toEqual({ count: 1, total: store.selection.value!.frameCount, done: true, error: null })
    store.search.value = 'needle'
    expect(store.selection.value!.search!.done).toBe(false)
    while (deferred.length > 0) deferred.shift()!()
    tick()
    const partial = store.selection.value!.search!.count
    store.apply({ type: 'chunk', id: 'g', data: long.slice(cut), t: T0 + 2 })
    store.apply({ type: 'finished', id: 'g', t: T0 + 3 })
    tick()
    // the batch repaints the list (the view is read): the new frames are searched from then on
    expect(store.selection.value!.search!.done).toBe(false)
    while (deferred.length > 0) deferred.shift()!()
    tick()
    expect(partial).toBeLessThan(expected.length)
    expect(counts(store)).toEqual({ count: expected.length, total: N, done: true, error: null })
    expect(shown(store)).toEqual(expected)
  })
})
