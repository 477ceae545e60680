// The panel's debugger, without a DOM: the diagnostics that name a client bug marked on their
// frames, the timing figures, and "compare with my client" / "diff two captures" as events.

import { describe, expect, it } from 'vitest'
import type { CaptureEvent } from '../../panel/shell.js'
import { createPanelStore, type FrameItem, type LocalPanelStore } from '../../panel/store/index.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat } from '../support/streams.js'

const T0 = 1_754_000_000_000

const request = (id: string): CaptureEvent =>
  requestEvent({ id, url: `https://api.example.com/v1/chat/completions?x=${id}`, requestBody: '{"stream":true}', startedAt: T0, source: 'live' })

/** Five frames: "Hello", " wor", "ld", the finish, [DONE]. */
const CLEAN = [chat({ role: 'assistant', content: 'Hello' }), chat({ content: ' wor' }), chat({ content: 'ld' }), chat({}, 'stop'), 'data: [DONE]\n\n']

function store(): { store: LocalPanelStore; tick: () => void } {
  const pending: Array<() => void> = []
  const s = createPanelStore(null, { schedule: (f) => pending.push(f) })
  return { store: s, tick: () => { while (pending.length) pending.shift()!() } }
}

/** Each part one network chunk, at the given ms after the start (or without a time). */
function feed(s: LocalPanelStore, id: string, parts: string[], times: Array<number | null>): void {
  s.apply(request(id))
  parts.forEach((p, i) => s.apply({ type: 'chunk', id, data: p, t: times[i] === null ? null : T0 + times[i]! }))
  s.apply({ type: 'finished', id, t: null })
}

const frameRows = (items: FrameItem[]) => items.filter((i): i is Extract<FrameItem, { type: 'frame' }> => i.type === 'frame')

describe('panel debugger', () => {
  it('a finished request shows the debugger\'s diagnostics, and the frame they concern carries a mark', () => {
    const { store: s, tick } = store()
    // a lost blank line glues frames 1 and 2 into one frame
    feed(s, 'g', [CLEAN[0]!, CLEAN[1]!.slice(0, -1) + CLEAN[2]!, CLEAN[3]!, CLEAN[4]!], [10, 20, 30, 40])
    tick()
    s.select('g')
    const view = s.selection.value!
    expect(view.diagnostics.map((d) => [d.code, d.level, d.frame])).toEqual([['glued-frames', 'error', 1]])
    expect(view.diagnostics[0]!.symptom.length).toBeGreaterThan(10)
    expect(frameRows(s.frameItems(0, 10)).map((f) => f.problem?.level ?? null)).toEqual([null, 'error', null, null])
  })

  it('timing: first byte, first content and the end, in ms since the request started; a stall marked', () => {
    const { store: s, tick } = store()
    feed(s, 't', CLEAN, [120, 130, 1600, 1610, 1620])
    tick()
    s.select('t')
    const t = s.selection.value!.timing!
    expect([t.timesUnknown, t.ttfb, t.firstFrame, t.firstContent, t.firstReasoning, t.total, t.frames]).toEqual([false, 120, 120, 120, null, 1620, 5])
    expect(t.stalls).toEqual([{ afterFrame: 1, ms: 1470 }])
    expect(s.selection.value!.frameTimes).toEqual([120, 130, 1600, 1610, 1620])
    expect(s.selection.value!.diagnostics.map((d) => [d.code, d.frame])).toEqual([['stall', 2]])
  })

  it('times unknown (a body that arrived whole) says so instead of one time on every frame', () => {
    const { store: s, tick } = store()
    feed(s, 'u', [CLEAN.join('')], [null])
    tick()
    s.select('u')
    expect(s.selection.value!.timing!.timesUnknown).toBe(true)
    expect(s.selection.value!.frameTimes).toBeNull()
  })

  it('while a stream runs, timing waits for its end and the merger\'s own diagnostics show', () => {
    const { store: s, tick } = store()
    s.apply(request('l'))
    s.apply({ type: 'chunk', id: 'l', data: CLEAN[0]!, t: T0 + 5 })
    tick()
    s.select('l')
    expect(s.selection.value!.timing).toBeNull()
    expect(s.selection.value!.diagnostics).toEqual([])
  })

  it('compare with a client that dropped a frame: the cause, the first difference\'s frame selected, fields marked', () => {
    const { store: s, tick } = store()
    feed(s, 'c', CLEAN, [10, 20, 30, 40, 50])
    tick()
    s.apply({ type: 'compare', id: 'c', against: { client: 'Hellold' } })
    tick()
    const c = s.comparison.value!
    expect(c.result.equal).toBe(false)
    expect(c.result.differences.map((d) => [d.field, d.cause, d.frame, d.offset])).toEqual([['choices[0].content', 'dropped-frames', 1, 5]])
    expect(c.fields).toEqual([{ field: 'choices[0].content', equal: false }])
    expect(c.result.notCompared).toEqual(['choices[0].reasoning', 'choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'usage'])
    expect(c.label).toBe("your client's text")
    expect(s.selectedId.value).toBe('c')
    expect(s.selectedFrame.value).toBe(1)
  })

  it('a client\'s result given as JSON is read by its shape (an OpenAI chat completion)', () => {
    const { store: s, tick } = store()
    feed(s, 'c', CLEAN, [10, 20, 30, 40, 50])
    tick()
    const completion = { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello world' }, finish_reason: 'stop' }] }
    s.apply({ type: 'compare', id: 'c', against: { client: JSON.stringify(completion) } })
    expect(s.comparison.value!.result.equal).toBe(true)
    expect(s.comparison.value!.fields.every((f) => f.equal)).toBe(true)
  })

  it('diff two captures: the other reply, and the frames side by side by seq', () => {
    const { store: s, tick } = store()
    feed(s, 'a', CLEAN, [10, 20, 30, 40, 50])
    feed(s, 'b', [CLEAN[0]!, CLEAN[2]!, CLEAN[3]!, CLEAN[4]!], [10, 20, 30, 40])
    tick()
    s.apply({ type: 'compare', id: 'a', against: { request: 'b' } })
    const c = s.comparison.value!
    expect(c.otherId).toBe('b')
    expect(c.otherReply!.choices[0]!.content).toBe('Hellold')
    expect(c.result.differences.map((d) => [d.field, d.cause, d.frame])).toEqual([['choices[0].content', 'dropped-frames', 1]])
    expect(c.aligned!.map((r) => [r.seq, r.same])).toEqual([[0, true], [1, false], [2, false], [3, false], [4, false]])
  })

  it('nothing to compare is a note, not a comparison; clear and a forced re-read drop the comparison', () => {
    const { store: s, tick } = store()
    feed(s, 'c', CLEAN, [10, 20, 30, 40, 50])
    tick()
    s.apply({ type: 'compare', id: 'c', against: { client: '  ' } })
    tick()
    expect(s.comparison.value).toBeNull()
    expect(s.notes.value.at(-1)).toEqual({ level: 'warning', message: "Paste your client's result first: its text, or its final object as JSON." })
    s.apply({ type: 'compare', id: 'c', against: { client: 'Hello world' } })
    expect(s.comparison.value!.result.equal).toBe(true)
    s.apply({ type: 'force', id: 'c', forced: { provider: 'generic' } })
    expect(s.comparison.value).toBeNull()
    s.apply({ type: 'compare', id: 'c', against: { client: 'x' } })
    s.apply({ type: 'compare-clear' })
    expect(s.comparison.value).toBeNull()
  })
})
