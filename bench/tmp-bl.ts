import { createPanelStore } from '../panel/store.js'
const sseChunk = (content: string, extra = ''): string => `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}${extra}}]}\n\n`
const body = Array.from({ length: 2200 }, (_, i) => sseChunk(`${i} ${'x'.repeat(900)}`)).join('') + 'data: [DONE]\n\n'
const pending: Array<() => void> = []
const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
store.apply({ type: 'request', request: { id: 'r', method: 'POST', url: 'http://x/big.sse', status: 200, requestHeaders: [], responseHeaders: [], requestBody: null, contentType: 'text/event-stream; charset=utf-8', startedAt: 1, source: 'har' } })
store.apply({ type: 'chunk', id: 'r', data: body, t: null })
store.apply({ type: 'finished', id: 'r', t: 2 })
while (pending.length) pending.shift()!()
console.log(JSON.stringify(store.requests.value[0]))
