// A Cache-Control: no-store stream in the request list: Chrome keeps no body of it
// for the devtools network API, so a row captured on completion (the HAR path) with no body
// says why and what to do; live capture reads its bytes as they arrive, and it ends finished.
// And what was once seen under Live: a stream the page closes once it has the terminal event
// ends finished, not cancelled.

import { describe, expect, it } from 'vitest'
import type { CaptureEvent, CapturedRequest, Header } from '../../panel/shell.js'
import { createPanelStore } from '../../panel/store/index.js'
import { requestEvent } from '../support/requests.js'

const T0 = 1_754_000_000_000
const WHOLE = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

function rowAfter(source: CapturedRequest['source'], responseHeaders: Header[], body: string | null, extra: Partial<CapturedRequest> = {}) {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
  const events: CaptureEvent[] = [
    requestEvent({ id: 'r', url: 'https://api.example.com/v1/chat/completions', responseHeaders, startedAt: T0, source, ...extra }),
    ...(body === null ? [] : [{ type: 'chunk', id: 'r', data: body, t: T0 + 5 } as CaptureEvent]),
    { type: 'finished', id: 'r', t: T0 + 10 },
  ]
  for (const e of events) store.apply(e)
  while (pending.length) pending.shift()!()
  return store.requests.value[0]!
}

const noStore = [{ name: 'Cache-Control', value: 'no-store' }]

describe('a no-store stream', () => {
  it('captured on completion with no body: the row says the server sent no-store and to turn on Live and reload', () => {
    const row = rowAfter('har', noStore, null)
    expect(row.state).toBe('finished')
    expect(row.incomplete).toBe('no body: the server sent Cache-Control: no-store; Chrome kept no body: turn on Live and reload')
  })

  it('recognises no-store among other directives, in any case', () => {
    expect(rowAfter('har', [{ name: 'cache-control', value: 'private, No-Store, max-age=0' }], null).incomplete)
      .toBe('no body: the server sent Cache-Control: no-store; Chrome kept no body: turn on Live and reload')
  })

  it('an empty body without no-store keeps the plain reason', () => {
    expect(rowAfter('har', [{ name: 'cache-control', value: 'no-cache' }], null).incomplete).toBe('no frames: the body ended empty')
  })

  it('with the reason the hub gave (a body larger than Chrome keeps), the row says that reason instead', () => {
    const why = 'DevTools handed over none of its 27.2 MB: Chrome keeps no body this large for extensions once the request has finished. Turn on Live and reload.'
    expect(rowAfter('har', noStore, null, { bodyWithheld: why }).incomplete)
      .toBe('no body: DevTools handed over none of its 27.2 MB: Chrome keeps no body this large for extensions once the request has finished. Turn on Live and reload')
    expect(rowAfter('har', [], '', { bodyWithheld: why }).incomplete).toMatch(/^no body: DevTools handed over none of its 27\.2 MB/)
  })

  it('captured live, its bytes arrive and it ends finished and whole', () => {
    const row = rowAfter('live', noStore, WHOLE)
    expect(row.state).toBe('finished')
    expect(row.frames).toBe(2)
    expect(row.incomplete).toBe(null)
  })

  it('captured on completion with its body (Chromium 156 kept it in every case measured): whole', () => {
    const row = rowAfter('har', noStore, WHOLE)
    expect(row.incomplete).toBe(null)
    expect(row.frames).toBe(2)
  })
})

describe('a stream the page closes once it has the terminal event', () => {
  // Chrome reports it as a failed, cancelled load (Network.loadingFailed canceled: seen for a
  // fetch whose reader is cancelled after [DONE], and an EventSource closed on [DONE], with the
  // server holding the connection open): the page read every byte that mattered.
  function closedAfter(body: string) {
    const pending: Array<() => void> = []
    const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
    store.apply(requestEvent({ id: 'r', method: 'GET', url: 'https://api.example.com/v1/chat/completions', startedAt: T0, source: 'live' }))
    store.apply({ type: 'chunk', id: 'r', data: body, t: T0 + 5 })
    store.apply({ type: 'cancelled', id: 'r', t: T0 + 10, reason: 'cancelled by the page' })
    while (pending.length) pending.shift()!()
    return store.requests.value[0]!
  }

  it('is finished, whole, and says on hover that the page closed it after the terminal event', () => {
    const row = closedAfter(WHOLE)
    expect([row.state, row.done, row.incomplete, row.broken]).toEqual(['finished', true, null, 0])
    expect(row.cancelReason).toBe('closed by the page after the terminal event (cancelled by the page)')
  })

  it('is still cancelled when the terminal event had not come', () => {
    const row = closedAfter(WHOLE.slice(0, WHOLE.indexOf('data: [DONE]')).replace(',"finish_reason":"stop"', ''))
    expect([row.state, row.done, row.cancelReason]).toEqual(['cancelled', false, 'cancelled by the page'])
  })
})
