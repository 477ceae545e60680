// A Cache-Control: no-store stream in the request list (issue 16): Chrome keeps no body of it
// for the devtools network API, so a row captured on completion (the HAR path) with no body
// says why and what to do; live capture reads its bytes as they arrive, and it ends finished.

import { describe, expect, it } from 'vitest'
import type { CaptureEvent, CapturedRequest, Header } from '../../panel/shell.js'
import { createPanelStore } from '../../panel/store.js'

const T0 = 1_754_000_000_000
const WHOLE = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

function rowAfter(source: CapturedRequest['source'], responseHeaders: Header[], body: string | null) {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
  const events: CaptureEvent[] = [
    {
      type: 'request',
      request: {
        id: 'r', method: 'POST', url: 'https://api.example.com/v1/chat/completions', status: 200, requestHeaders: [], responseHeaders,
        requestBody: null, contentType: 'text/event-stream', startedAt: T0, source,
      },
    },
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
