// The panel's memory: each body held once (by the merger, read back for exports), and the
// per-tab memory budget (panel/store/budget.ts): its rules with exact numbers, then the
// store applying them batch by batch.

import { describe, expect, it } from 'vitest'
import { merge } from '../../src/index.js'
import type { CaptureEvent } from '../../panel/shell.js'
import { createPanelStore, type LocalPanelStore, type StoreOptions } from '../../panel/store/index.js'
import { costOf, DEFAULT_MEMORY_BUDGET, formatBudget, mayGrow, MB, releasedNote, toRelease, type Holding } from '../../panel/store/budget.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat } from '../support/streams.js'

const T0 = 1_754_000_000_000
const enc = (s: string) => new TextEncoder().encode(s)

/** 5 frames, one of them broken; 'é' and '✓' make text and bytes differ in length. */
const STREAM = [chat({ role: 'assistant', content: 'Hé' }), chat({ content: 'llo ✓' }), 'data: {"choices":[\n\n', chat({}, 'stop'), 'data: [DONE]\n\n']
const BODY = STREAM.join('')
const BODY_BYTES = enc(BODY).length
/** What the budget counts for one such request: its bytes, 5 frames, 1 problem. */
const ONE = BODY_BYTES + 5 * 64 + 1024

function manualStore(options: StoreOptions = {}) {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f), ...options })
  const tick = () => { while (pending.length) pending.shift()!() }
  /** Runs the one batch pending (a batch that leaves merging to do schedules the next). */
  const step = () => pending.shift()?.()
  return { store, tick, step }
}

const request = (id: string): CaptureEvent => requestEvent({ id, url: `https://api.example.com/v1/chat/completions?r=${id}`, startedAt: T0, source: 'live' })

function feed(store: LocalPanelStore, id: string, finish = true): void {
  store.apply(request(id))
  STREAM.forEach((p, i) => store.apply({ type: 'chunk', id, data: p, t: T0 + i }))
  if (finish) store.apply({ type: 'finished', id, t: T0 + 10 })
}

const h = (id: string, bytes: number, over: Partial<Holding> = {}): Holding => ({ id, bytes, frames: 0, problems: 0, ended: true, pinned: false, ...over })

describe('memory budget rules', () => {
  it('counts a request as its body bytes, 64 bytes a frame and 1,024 a broken frame or stream error', () => {
    expect(costOf({ bytes: 1000, frames: 10, problems: 2 })).toBe(3688)
  })

  it('releases the oldest ended, unpinned requests, as few as bring the rest within the budget', () => {
    const all = [h('a', 100), h('b', 100, { ended: false }), h('c', 100, { pinned: true }), h('d', 100), h('e', 100)]
    expect(toRelease(all, 500)).toEqual([])
    expect(toRelease(all, 400)).toEqual(['a'])
    expect(toRelease(all, 399)).toEqual(['a', 'd'])
    expect(toRelease(all, 250)).toEqual(['a', 'd', 'e'])
  })

  it('releases every request that may go when that is still not enough, and never a live or pinned one', () => {
    expect(toRelease([h('a', 100, { ended: false }), h('b', 50), h('c', 100, { pinned: true })], 10)).toEqual(['b'])
  })

  it('lets a request grow while its cost with the new bytes stays within the budget', () => {
    expect([mayGrow({ bytes: 936, frames: 1, problems: 0 }, 24, 1024), mayGrow({ bytes: 936, frames: 1, problems: 0 }, 25, 1024)]).toEqual([true, false])
  })

  it('says what it released, naming three at most', () => {
    expect(formatBudget(DEFAULT_MEMORY_BUDGET)).toBe('512 MB')
    expect(formatBudget(2048 * MB)).toBe('2 GB')
    expect(releasedNote(['/a', '/b', '/c', '/d', '/e'], 512 * MB)).toBe(
      'Memory budget (512 MB): released 5 older finished requests (/a, /b, /c and 2 more) to make room; pin a request to keep it, or raise the budget')
  })
})

describe('the store within its memory budget', () => {
  it('holds each body once: the request notes where its chunks ended and when, and exports read the bytes back from the merger', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1')
    tick()
    const model = store.parts.recorder.models.get('r1')!
    let end = 0
    expect(model.reads).toEqual({ ends: STREAM.map((p) => (end += enc(p).length)), ts: STREAM.map((_, i) => T0 + i) })
    const source = store.recordings.get('r1')!
    expect(source.chunks.map((c) => [[...(c.data as Uint8Array)], c.t])).toEqual(STREAM.map((p, i) => [[...enc(p)], T0 + i]))
    expect(source.expected).toEqual(merge(BODY, { url: 'https://api.example.com/v1/chat/completions?r=r1', contentType: 'text/event-stream' }))
  })

  it('counts the default budget as 512 MB, and applies a new budget at the next batch', () => {
    const { store, tick } = manualStore()
    expect(store.memoryBudget.value).toBe(512 * MB)
    feed(store, 'r1')
    feed(store, 'r2')
    tick()
    store.memoryBudget.value = ONE
    expect(store.requests.value.map((r) => r.id)).toEqual(['r1', 'r2'])
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['r2'])
  })

  it('past the budget, releases the oldest finished requests at the next batch, with a note naming them', () => {
    const { store, tick } = manualStore({ memoryBudget: 2 * ONE })
    for (const id of ['r1', 'r2', 'r3']) {
      feed(store, id)
      tick()
    }
    expect(store.requests.value.map((r) => r.id)).toEqual(['r2', 'r3'])
    expect(store.notes.value).toEqual([{ level: 'warning', message: 'Memory budget (0 MB): released 1 older finished request (/v1/chat/completions?r=r1) to make room; pin a request to keep it, or raise the budget' }])
  })

  it('never releases a pinned request, the selected one, or one still live', () => {
    const { store, tick } = manualStore({ memoryBudget: 2 * ONE })
    feed(store, 'r1')
    feed(store, 'r2')
    feed(store, 'r3', false)
    store.pin('r1', true)
    store.select('r2')
    tick()
    expect(store.requests.value.map((r) => [r.id, r.pinned])).toEqual([['r1', true], ['r2', false], ['r3', false]])
    store.apply({ type: 'finished', id: 'r3', t: T0 + 20 })
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['r1', 'r2'])
    store.memoryBudget.value = ONE
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['r1', 'r2'])
    store.pin('r1', false)
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['r2'])
  })

  it('stops a request that alone reaches the budget, with a notice; what it kept stays merged and exportable', () => {
    // room for the first two chunks and the frames derived from them, not the third
    const kept = enc(STREAM[0]! + STREAM[1]!).length
    const { store, tick } = manualStore({ memoryBudget: kept + 2 * 64 + enc(STREAM[2]!).length - 1 })
    store.apply(request('big'))
    for (const p of STREAM) {
      store.apply({ type: 'chunk', id: 'big', data: p, t: null })
      tick()
    }
    store.apply({ type: 'finished', id: 'big', t: null })
    tick()
    const row = store.requests.value[0]!
    expect([row.truncated, row.bytes, row.frames, row.state]).toEqual([true, kept, 2, 'finished'])
    expect(row.incomplete).toBe('cut: this request alone reached the memory budget; the rest was not kept')
    expect(store.notes.value.map((n) => n.message)).toEqual([
      `/v1/chat/completions?r=big: this request alone reached the memory budget (0 MB, its body and what is derived from it, about 0 MB); the rest of its body was not kept`,
    ])
    const source = store.recordings.get('big')!
    expect(source.chunks.map((c) => [...(c.data as Uint8Array)])).toEqual([[...enc(STREAM[0]!)], [...enc(STREAM[1]!)]])
    expect(source.expected).toEqual(merge(STREAM[0]! + STREAM[1]!, { url: 'https://api.example.com/v1/chat/completions?r=big', contentType: 'text/event-stream' }))
  })

  it('Clear releases every request and what it held', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1')
    feed(store, 'r2')
    tick()
    store.clear()
    expect([store.parts.recorder.models.size, store.requests.value.length]).toEqual([0, 0])
  })
})

describe('a long body at its end', () => {
  it("reads a body of over 20,000 frames with the debugger in a task of its own after the final reply; the merger's diagnostics stand meanwhile", () => {
    const deferred: Array<() => void> = []
    const { store, tick } = manualStore({ defer: (work) => { deferred.push(work); return () => {} } })
    const frame = chat({ content: 'x' })
    // CRLF line endings after the first frame: a diagnostic only the debugger's reading finds
    const body = frame + frame.replace(/\n/g, '\r\n').repeat(20_001) + 'data: [DONE]\n\n'
    store.apply(request('long'))
    store.apply({ type: 'chunk', id: 'long', data: body, t: null })
    store.apply({ type: 'finished', id: 'long', t: null })
    store.select('long')
    for (let i = 0; i < 50 && store.selection.value!.loading !== null; i++) tick()
    const before = store.selection.value!
    expect([before.row.state, before.frameCount, before.timing, before.diagnostics.some((d) => d.code === 'mixed-line-endings')]).toEqual(['finished', 20_003, null, false])
    for (const work of deferred.splice(0)) work()
    tick()
    const after = store.selection.value!
    expect([after.timing !== null, after.diagnostics.some((d) => d.code === 'mixed-line-endings')]).toEqual([true, true])
  })

  it('merges a large chunk in pieces sized by what the one before cost: 16 ms of it, from 64 KiB, between 2 KiB and 256 KiB', () => {
    // every read of the clock moves it 64 ms: each piece seems to cost 64 ms
    let clock = 0
    const { store, step } = manualStore({ sliceBudgetMs: 0, now: () => (clock += 64) })
    const body = chat({ content: 'x' }).repeat(20_000)
    store.apply(request('big'))
    store.apply({ type: 'chunk', id: 'big', data: body, t: null })
    store.select('big')
    const done: number[] = []
    for (let i = 0; i < 5; i++) {
      step()
      done.push(store.selection.value!.loading!.done)
    }
    expect(done.map((d, i) => d - (done[i - 1] ?? 0))).toEqual([65536, 16384, 4096, 2048, 2048])
  })
})

