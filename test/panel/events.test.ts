// applyEvent: the one place events change a panel store (the shell's capture events, and the
// panel's own `force`).

import { describe, expect, it } from 'vitest'
import type { CaptureEvent, CapturedRequest } from '../../panel/shell.js'
import { applyEvent, createPanelStore, type PanelEvent } from '../../panel/store/index.js'
import { requestEvent } from '../support/requests.js'

const T0 = 1_754_000_000_000
const NDJSON = '{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n'
  + '{"model":"m","message":{"role":"assistant","content":" there"},"done":true,"done_reason":"stop"}\n'

const request = (id: string, over: Partial<CapturedRequest> = {}): CaptureEvent =>
  requestEvent({ id, url: 'paste', contentType: null, startedAt: T0, source: 'paste', ...over })

/** A store whose batches run only when the test says so, with two finished NDJSON requests, `a` selected. */
function twoRequests() {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
  const tick = () => { while (pending.length) pending.shift()!() }
  for (const id of ['a', 'b']) {
    const events: PanelEvent[] = [request(id), { type: 'chunk', id, data: NDJSON, t: T0 + 5 }, { type: 'finished', id, t: T0 + 9 }]
    for (const e of events) applyEvent(store, e)
  }
  applyEvent(store, { type: 'select', id: 'a' })
  tick()
  return { store, tick, pending }
}

describe('applyEvent', () => {
  it('force reads the kept chunks again with the provider forced, and shows it before the batch runs', () => {
    const { store } = twoRequests()
    store.selectFrame(1)
    expect([store.selectedFrame.value, store.selection.value!.scrub]).toEqual([1, 1])
    applyEvent(store, { type: 'force', id: 'a', forced: { provider: 'generic' } })
    const v = store.selection.value!
    expect([v.row.provider, v.row.forced, v.providerReason, v.reply.choices]).toEqual(['generic', { provider: 'generic' }, 'forced', []])
    // the frames were read again: no frame stays selected, the reply shown is the latest
    expect([store.selectedFrame.value, v.scrub]).toEqual([null, null])
  })

  it('force with {} gives the choice back to the core', () => {
    const { store, tick } = twoRequests()
    applyEvent(store, { type: 'force', id: 'a', forced: { transport: 'sse' } })
    tick()
    expect([store.requests.value[0]!.transport, store.requests.value[0]!.frames]).toEqual(['sse', 0])
    applyEvent(store, { type: 'force', id: 'a', forced: {} })
    tick()
    const row = store.requests.value[0]!
    expect([row.provider, row.transport, row.frames, row.forced]).toEqual(['ollama', 'ndjson', 2, {}])
    expect(store.selection.value!.reply.choices[0]!.content).toBe('Hi there')
  })

  it('force on a request not selected leaves the selected frame alone', () => {
    const { store } = twoRequests()
    store.selectFrame(1)
    expect(store.requests.value.map((r) => [r.id, r.provider])).toEqual([['a', 'ollama'], ['b', 'ollama']])
    applyEvent(store, { type: 'force', id: 'b', forced: { provider: 'generic' } })
    // shown at once, before the batch runs
    expect([store.selectedId.value, store.selectedFrame.value]).toEqual(['a', 1])
    expect(store.requests.value.map((r) => [r.id, r.provider])).toEqual([['a', 'ollama'], ['b', 'generic']])
  })

  it('force and removed for an unknown request change nothing, and schedule no batch', () => {
    const { store, pending } = twoRequests()
    const version = store.version.value
    const requests = store.requests.value
    applyEvent(store, { type: 'force', id: 'nope', forced: { provider: 'generic' } })
    applyEvent(store, { type: 'removed', id: 'nope' })
    expect([pending.length, store.version.value, store.requests.value]).toEqual([0, version, requests])
  })

  it('removed drops a request, and the selection with it', () => {
    const { store, tick } = twoRequests()
    applyEvent(store, { type: 'removed', id: 'a' })
    tick()
    expect([store.requests.value.map((r) => r.id), store.selectedId.value, store.selection.value]).toEqual([['b'], null, null])
  })

  it('store.apply is applyEvent', () => {
    const { store, tick } = twoRequests()
    store.apply({ type: 'force', id: 'b', forced: { provider: 'generic' } })
    store.apply({ type: 'note', level: 'info', message: 'hello' })
    tick()
    expect([store.requests.value[1]!.provider, store.notes.value]).toEqual(['generic', [{ level: 'info', message: 'hello' }]])
  })

  it('ignores every event once the store is disposed', () => {
    const { store, pending } = twoRequests()
    store.dispose()
    const events: PanelEvent[] = [
      request('c'), { type: 'chunk', id: 'a', data: NDJSON, t: null }, { type: 'removed', id: 'a' },
      { type: 'force', id: 'a', forced: { provider: 'generic' } }, { type: 'note', level: 'warning', message: 'late' },
      { type: 'live', enabled: true }, { type: 'select', id: 'b' }, { type: 'navigated', url: 'https://example.com/' },
    ]
    for (const e of events) applyEvent(store, e)
    expect([pending.length, store.requests.value.map((r) => [r.id, r.provider]), store.notes.value, store.live.value, store.selectedId.value])
      .toEqual([0, [['a', 'ollama'], ['b', 'ollama']], [], { enabled: false, message: null }, 'a'])
  })
})
