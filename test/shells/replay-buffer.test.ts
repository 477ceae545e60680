// What the hub keeps for the panel's store (src/shells/extension/replay-buffer.ts): every event until a
// store takes them, bounded; after that, no body bytes (the store's merger holds them), and a
// store that connects later hears of each request with the reason its body is not there.

import { describe, expect, it } from 'vitest'
import { HANDED_OVER, ReplayBuffer } from '../../src/shells/extension/replay-buffer.js'
import type { CaptureEvent, CapturedRequest } from '../../src/exchange/types.js'
import { createPanelStore } from '../../panel/store/index.js'
import { capturedRequest } from '../support/requests.js'

const request = (id: string): CapturedRequest => capturedRequest({ id, url: `https://api.example.com/${id}`, startedAt: 0, source: 'live' })
const bytes = (n: number) => new Uint8Array(n).fill(0x61)

/** A buffer fed `events` in order, numbered from 1. */
function fed(max: number, events: CaptureEvent[]) {
  const buffer = new ReplayBuffer(max)
  const dropped = events.map((event, i) => buffer.add({ n: i + 1, event }))
  return { buffer, dropped }
}

describe('the hub\'s replay buffer', () => {
  it('keeps every event, numbered, for a store that connects later', () => {
    const events: CaptureEvent[] = [{ type: 'request', request: request('a') }, { type: 'chunk', id: 'a', data: bytes(10), t: 1 }, { type: 'finished', id: 'a', t: 2 }]
    const { buffer, dropped } = fed(100, events)
    expect(buffer.replay()).toEqual(events.map((event, i) => ({ n: i + 1, event })))
    expect([buffer.bytes, dropped]).toEqual([10, [false, false, false]])
  })

  it('counts a string chunk at two bytes a character, as the browser holds it', () => {
    expect(fed(100, [{ type: 'request', request: request('a') }, { type: 'chunk', id: 'a', data: 'hello', t: null }]).buffer.bytes).toBe(10)
  })

  it('over its budget, drops the oldest requests whole until half of it is used, and says it dropped', () => {
    const events: CaptureEvent[] = []
    for (const id of ['a', 'b', 'c']) events.push({ type: 'request', request: request(id) }, { type: 'chunk', id, data: bytes(40), t: null }, { type: 'finished', id, t: null })
    const { buffer, dropped } = fed(100, events)
    expect(dropped).toEqual([false, false, false, false, false, false, false, true, false])
    expect(buffer.replay().map(({ n }) => n)).toEqual([7, 8, 9])
    expect(buffer.bytes).toBe(40)
  })

  it('keeps no body once a store took the events: the bytes kept drop to none, and later chunks are not kept', () => {
    const { buffer } = fed(1000, [{ type: 'request', request: request('a') }, { type: 'chunk', id: 'a', data: bytes(30), t: 1 }])
    buffer.handOver()
    expect(buffer.bytes).toBe(0)
    expect(buffer.add({ n: 3, event: { type: 'chunk', id: 'a', data: bytes(30), t: 2 } })).toBe(false)
    buffer.add({ n: 4, event: { type: 'finished', id: 'a', t: 3 } })
    buffer.add({ n: 5, event: { type: 'request', request: request('b') } })
    buffer.add({ n: 6, event: { type: 'chunk', id: 'b', data: bytes(30), t: 4 } })
    expect(buffer.bytes).toBe(0)
    // a later store: both requests, each saying where its body went; their ends; no chunk
    expect(buffer.replay()).toEqual([
      { n: 1, event: { type: 'request', request: { ...request('a'), bodyWithheld: HANDED_OVER } } },
      { n: 4, event: { type: 'finished', id: 'a', t: 3 } },
      { n: 5, event: { type: 'request', request: { ...request('b'), bodyWithheld: HANDED_OVER } } },
    ])
  })

  it('replays a request that had no body after the hand-over as it was', () => {
    const { buffer } = fed(1000, [{ type: 'note', level: 'info', message: 'hi' }])
    buffer.handOver()
    buffer.add({ n: 2, event: { type: 'request', request: request('c') } })
    buffer.add({ n: 3, event: { type: 'finished', id: 'c', t: 1 } })
    expect(buffer.replay()).toEqual([
      { n: 1, event: { type: 'note', level: 'info', message: 'hi' } },
      { n: 2, event: { type: 'request', request: request('c') } },
      { n: 3, event: { type: 'finished', id: 'c', t: 1 } },
    ])
  })

  it('a live request replayed without its body says where it went in its row', () => {
    const { buffer } = fed(1000, [{ type: 'request', request: request('a') }, { type: 'chunk', id: 'a', data: 'data: {"choices":[]}\n\n', t: 1 }, { type: 'finished', id: 'a', t: 2 }])
    buffer.handOver()
    const pending: Array<() => void> = []
    const later = createPanelStore(null, { schedule: (f) => pending.push(f) })
    for (const { event } of buffer.replay()) later.apply(event)
    while (pending.length) pending.shift()!()
    expect(later.requests.value[0]!.incomplete).toBe(`no body: ${HANDED_OVER}`)
  })
})
