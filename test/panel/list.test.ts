// The request list as in the Network panel (by start time, then arrival), the mark and reason
// of an incomplete stream, the partial last frame of a cancelled stream (incomplete, not
// broken), and notes said once with a count, dismissed, cleared.

import { describe, expect, it } from 'vitest'
import type { CaptureEvent, CapturedRequest } from '../../panel/shell.js'
import { createPanelStore, type FrameItem } from '../../panel/store/index.js'
import { startCell } from '../../panel/request-columns.js'
import { formatDuration } from '../../panel/format.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat, openaiStream } from '../support/streams.js'

const T0 = 1_754_000_000_000

const request = (id: string, over: Partial<CapturedRequest> = {}): CaptureEvent =>
  requestEvent({ id, url: `https://api.openai.com/v1/chat/completions?r=${id}`, startedAt: T0, source: 'live', ...over })

const WHOLE = openaiStream(['Hi'])
/** Two frames, then a third cut mid-JSON (the page aborted while it arrived). */
const CUT = chat({ role: 'assistant', content: 'Hi' }) + chat({ content: ' there' }) + 'data: {"id":"c","object":"chat.comple'

function store() {
  const pending: Array<() => void> = []
  const s = createPanelStore(null, { schedule: (f) => pending.push(f), maxBytesPerRequest: 4096 })
  const tick = () => { while (pending.length) pending.shift()!() }
  return { store: s, tick }
}

describe('request order', () => {
  it('lists by start time, then arrival; a request without a start time stays after the one before it', () => {
    const { store: s, tick } = store()
    s.apply(request('late-start', { startedAt: T0 + 50 }))
    s.apply(request('early-start', { startedAt: T0 + 10 }))
    s.apply(request('no-start', { startedAt: Number.NaN }))
    s.apply(request('same-start', { startedAt: T0 + 10 }))
    tick()
    expect(s.requests.value.map((r) => r.id)).toEqual(['early-start', 'no-start', 'same-start', 'late-start'])
    // the filter keeps the order
    s.filter.value = '-no-start'
    expect(s.rows.value.map((r) => r.id)).toEqual(['early-start', 'same-start', 'late-start'])
    // finishing first changes nothing
    s.apply({ type: 'chunk', id: 'late-start', data: WHOLE, t: T0 + 60 })
    s.apply({ type: 'finished', id: 'late-start', t: T0 + 70 })
    tick()
    expect(s.requests.value.map((r) => r.id)).toEqual(['early-start', 'no-start', 'same-start', 'late-start'])
  })
})

describe('incomplete streams', () => {
  it('a stream the page cancelled mid-frame: cancelled, its last frame incomplete and not counted broken', () => {
    const { store: s, tick } = store()
    s.apply(request('c'))
    s.apply({ type: 'chunk', id: 'c', data: CUT, t: T0 + 5 })
    s.apply({ type: 'cancelled', id: 'c', t: T0 + 9, reason: 'net::ERR_ABORTED' })
    s.select('c')
    tick()
    const row = s.requests.value[0]!
    expect([row.state, row.frames, row.broken, row.partialFrame, row.done]).toEqual(['cancelled', 3, 0, 2, false])
    expect(row.incomplete).toBe("cancelled (net::ERR_ABORTED) before the stream's terminal event; frame 2 is cut short")
    const frames = s.frameItems(0, 3).filter((i): i is Extract<FrameItem, { type: 'frame' }> => i.type === 'frame')
    expect(frames.map((f) => [f.seq, f.kind, f.incomplete, f.broken === null])).toEqual([[0, 'data', false, true], [1, 'data', false, true], [2, 'invalid', true, true]])
    // the core's reply still lists it among its errors: the panel is what reads it as incomplete
    expect(s.selection.value!.reply.errors.map((e) => e.frame)).toEqual([2])
  })

  it('the same cut body, finished by the server: a broken frame, and no terminal event', () => {
    const { store: s, tick } = store()
    s.apply(request('f'))
    s.apply({ type: 'chunk', id: 'f', data: CUT, t: T0 + 5 })
    s.apply({ type: 'finished', id: 'f', t: T0 + 9 })
    tick()
    const row = s.requests.value[0]!
    expect([row.state, row.broken, row.partialFrame]).toEqual(['finished', 1, null])
    expect(row.incomplete).toBe("no terminal event: the body ended before the provider's end marker ([DONE], message_stop, response.completed, done:true, a finish reason); it may have been cut")
  })

  it('whole, running, empty, not a stream, over the cap', () => {
    const { store: s, tick } = store()
    const cases: Array<[string, string | null, 'finished' | 'live']> = [
      ['whole', WHOLE, 'finished'],
      ['running', chat({ content: 'Hi' }), 'live'],
      ['empty', '', 'finished'],
      ['not-a-stream', '<html>Bad gateway</html>\n', 'finished'],
      ['over-cap', WHOLE.repeat(40), 'finished'],
    ]
    for (const [id, body, end] of cases) {
      s.apply(request(id, { contentType: id === 'not-a-stream' ? null : 'text/event-stream', url: id === 'not-a-stream' ? 'pasted text' : `https://x.test/${id}` }))
      if (body) s.apply({ type: 'chunk', id, data: body, t: T0 + 1 })
      if (end === 'finished') s.apply({ type: 'finished', id, t: T0 + 2 })
    }
    tick()
    expect(Object.fromEntries(s.requests.value.map((r) => [r.id, r.incomplete]))).toEqual({
      whole: null,
      running: null,
      empty: 'no frames: the body ended empty',
      'not-a-stream': null,
      'over-cap': 'cut: the body went over the size kept per request; the rest was not kept',
    })
  })
})

describe('notes', () => {
  it('the same message is one note with a count; dismissed one by one; Clear removes them; a navigation keeps them', () => {
    const { store: s } = store()
    for (let i = 0; i < 8; i++) s.apply({ type: 'note', level: 'warning', message: 'live capture detached' })
    s.apply({ type: 'note', level: 'info', message: 'hello' })
    s.apply({ type: 'note', level: 'info', message: 'hello' })
    expect(s.notes.value).toEqual([
      { level: 'warning', message: 'live capture detached', count: 8 },
      { level: 'info', message: 'hello', count: 2 },
    ])
    s.apply({ type: 'note', level: 'info', message: 'once' })
    s.dismissNote(1)
    expect(s.notes.value).toEqual([{ level: 'warning', message: 'live capture detached', count: 8 }, { level: 'info', message: 'once' }])
    s.apply({ type: 'navigated', url: 'https://app.test/' })
    expect(s.notes.value.length).toBe(2)
    s.clearNotes()
    expect(s.notes.value).toEqual([])
  })
})

describe('start and duration cells', () => {
  it('say a time since the first request in its two largest units, up to days (a HAR recorded last year beside a paste of today)', () => {
    const cases: Array<[number, string]> = [
      [0, '0 ms'], [999, '999 ms'], [1500, '1.50 s'], [59_990, '59.99 s'], [61_000, '1 min 1 s'], [3_599_000, '59 min 59 s'],
      [3_600_000, '1 h 0 min'], [5_430_000, '1 h 30 min'], [86_399_000, '23 h 59 min'], [86_400_000, '1 d 0 h'], [792_814 * 60_000 + 2000, '550 d 13 h'],
    ]
    expect(cases.map(([ms]) => formatDuration(ms))).toEqual(cases.map(([, text]) => text))
    expect([startCell(T0, T0), startCell(T0 + 2000, T0), startCell(null, T0), startCell(T0 + 86_400_000 * 3, T0)]).toEqual(['0', '+2.00 s', '—', '+3 d 0 h'])
  })
})
