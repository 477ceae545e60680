// The panel store without a DOM: driven by CaptureEvents, read through its signals.

import { effect } from '@preact/signals'
import { describe, expect, it } from 'vitest'
import { merge } from '../../src/index.js'
import type { CaptureEvent, CapturedRequest } from '../../panel/shell.js'
import { createPanelStore, type FrameItem, type LocalPanelStore, type StoreOptions } from '../../panel/store/index.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat } from '../support/streams.js'

const T0 = 1_754_000_000_000

const request = (id: string, over: Partial<CapturedRequest> = {}): CaptureEvent =>
  requestEvent({ id, url: `https://api.example.com/v1/chat/completions?x=${id}`, requestBody: '{"stream":true}', startedAt: T0, source: 'live', ...over })

/** 9 frames: role+text, text, 2 tool-call fragments, a broken frame, a ping, finish, usage, [DONE]; plus a comment. */
const STREAM = [
  ': keep-alive\n\n',
  chat({ role: 'assistant', content: 'Hel' }),
  chat({ content: 'lo' }),
  chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city"' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: ':"Paris"}' } }] }),
  'data: {"choices":[{"index":0,"delta":{"content":"!"}}\n\n',
  'event: ping\ndata: {"type":"ping"}\n\n',
  chat({}, 'tool_calls'),
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 5, completion_tokens: 7 } })}\n\n`,
  'data: [DONE]\n\n',
]
const BODY = STREAM.join('')

/** A store whose batches run only when the test says so. */
function manualStore(options: StoreOptions = {}) {
  const pending: Array<() => void> = []
  const store = createPanelStore(null, { schedule: (f) => pending.push(f), ...options })
  const tick = () => { while (pending.length) pending.shift()!() }
  return { store, tick, pending }
}

function feed(store: LocalPanelStore, id: string, parts: string[], t0 = T0, finish = true): void {
  store.apply(request(id))
  parts.forEach((p, i) => store.apply({ type: 'chunk', id, data: p, t: t0 + 10 * (i + 1) }))
  if (finish) store.apply({ type: 'finished', id, t: t0 + 10 * (parts.length + 1) })
}

const frames = (items: FrameItem[]) => items.filter((i): i is Extract<FrameItem, { type: 'frame' }> => i.type === 'frame')

describe('panel store', () => {
  it('lists a finished request with exact row values', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1', STREAM)
    tick()
    expect(store.requests.value).toEqual([{
      id: 'r1', method: 'POST', url: 'https://api.example.com/v1/chat/completions?x=r1', path: '/v1/chat/completions?x=r1',
      host: 'api.example.com', status: 200, provider: 'openai-chat', transport: 'sse', frames: 9, broken: 1, streamErrors: 0,
      bytes: new TextEncoder().encode(BODY).length, duration: 110, startedAt: T0, state: 'finished', cancelReason: null, source: 'live',
      done: true, truncated: false, pinned: false, forced: {}, incomplete: null, partialFrame: null,
    }])
  })

  it('batches: apply() changes nothing visible until the scheduled flush, and schedules once per batch', () => {
    const { store, tick, pending } = manualStore()
    const v0 = store.version.value
    // what a component does: it re-renders when a signal it read changes
    const renders: number[] = []
    const stop = effect(() => { renders.push(store.requests.value.length) })
    store.apply(request('r1'))
    store.apply({ type: 'chunk', id: 'r1', data: STREAM[1]!, t: T0 + 1 })
    store.apply({ type: 'chunk', id: 'r1', data: STREAM[2]!, t: T0 + 2 })
    expect(pending.length).toBe(1)
    expect(store.version.value).toBe(v0)
    expect(renders).toEqual([0])
    tick()
    expect(store.version.value).toBe(v0 + 1)
    expect(renders).toEqual([0, 1])
    expect(store.requests.value[0]!.frames).toBe(2)
    stop()
    store.apply({ type: 'chunk', id: 'r1', data: STREAM[3]!, t: T0 + 3 })
    expect(pending.length).toBe(1)
  })

  it('grows live, chunk by chunk, with chunks that split frames', () => {
    // a clock that stands still: a snapshot costs nothing, so none is put off for its cost
    // (on a busy machine one measured cost held the next snapshot back past a tick)
    const { store, tick } = manualStore({ now: () => 0 })
    store.apply(request('r1'))
    store.apply({ type: 'select', id: 'r1' })
    tick()
    const seen: Array<[number, string, string]> = []
    // 7-character chunks: frames and even UTF-8-free JSON split anywhere
    for (let i = 0; i < BODY.length; i += 7) {
      store.apply({ type: 'chunk', id: 'r1', data: BODY.slice(i, i + 7), t: T0 + i })
      tick()
      const view = store.selection.value!
      const last = seen[seen.length - 1]
      const entry: [number, string, string] = [view.frameCount, view.reply.choices[0]?.content ?? '', view.row.state]
      if (!last || last[0] !== entry[0]) seen.push(entry)
    }
    expect(seen.map((s) => s[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(seen.map((s) => s[1])).toEqual(['', 'Hel', 'Hello', 'Hello', 'Hello', 'Hello', 'Hello', 'Hello', 'Hello', 'Hello'])
    expect(seen.every((s) => s[2] === 'live')).toBe(true)
    expect(store.requests.value[0]!.state).toBe('live')
    store.apply({ type: 'finished', id: 'r1', t: T0 + 5000 })
    tick()
    const row = store.requests.value[0]!
    expect([row.state, row.frames, row.duration, row.done]).toEqual(['finished', 9, 5000, true])
    expect(store.selection.value!.reply).toEqual(merge(BODY, { url: row.url, contentType: 'text/event-stream' }))
  })

  it('extends the frame list of a growing stream in body order, frames and comments, as built whole; a forced reading starts it over', () => {
    const { store, tick } = manualStore()
    store.apply(request('g'))
    store.select('g')
    const parts = [': c1\n\n', chat({ content: 'a' }), ': c2\n\n', chat({ content: 'b' }) + chat({ content: 'c' }) + ': c3\n\n']
    const seen: number[][] = []
    for (const p of parts) {
      store.apply({ type: 'chunk', id: 'g', data: p, t: null })
      tick()
      seen.push([...store.selection.value!.items])
    }
    expect(seen).toEqual([[-1], [-1, 0], [-1, 0, -2], [-1, 0, -2, 1, 2, -3]])
    store.apply({ type: 'force', id: 'g', forced: { transport: 'ndjson' } })
    tick()
    // read as NDJSON, no line is a comment or a JSON value: every line is a broken frame
    expect([...store.selection.value!.items]).toEqual(Array.from({ length: store.selection.value!.frameCount }, (_, i) => i))
  })

  it('accepts bytes, and a UTF-8 character split across chunks', () => {
    const { store, tick } = manualStore()
    const bytes = new TextEncoder().encode(chat({ content: 'héllo ✓' }) + 'data: [DONE]\n\n')
    store.apply(request('b'))
    for (let i = 0; i < bytes.length; i += 3) store.apply({ type: 'chunk', id: 'b', data: bytes.slice(i, i + 3), t: null })
    store.apply({ type: 'finished', id: 'b', t: null })
    store.select('b')
    tick()
    expect(store.selection.value!.reply.choices[0]!.content).toBe('héllo ✓')
    expect(store.requests.value[0]!.bytes).toBe(bytes.length)
    expect(store.requests.value[0]!.duration).toBe(null)
  })

  it('shows the reply, frame rows, and the reply after a selected frame', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1', STREAM)
    tick()
    store.select('r1')
    const view = store.selection.value!
    expect(view.reply.choices[0]).toEqual({
      index: 0, role: 'assistant', content: 'Hello', reasoning: '', refusal: '',
      toolCalls: [{ index: 0, id: 'call_1', type: 'function', name: 'get_weather', arguments: '{"city":"Paris"}', parsedArguments: { city: 'Paris' }, argumentsError: null }],
      finishReason: 'tool_calls',
    })
    expect(view.reply.usage).toEqual({ prompt_tokens: 5, completion_tokens: 7 })
    // comment first, then the 9 frames
    expect(Array.from(view.items)).toEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    const items = store.frameItems(0, view.items.length)
    expect(items[0]).toEqual({ type: 'entry', index: 0, kind: 'comment', raw: ': keep-alive\n', line: 1, beforeFrame: 0, size: 13, dimmed: true })
    const rows = frames(items)
    expect(rows.map((r) => [r.seq, r.kind, r.label, r.dimmed])).toEqual([
      [0, 'data', '', false],
      [1, 'data', '', false],
      [2, 'data', '', false],
      [3, 'data', '', false],
      [4, 'invalid', '', false],
      [5, 'data', 'ping', true],
      [6, 'data', '', false],
      [7, 'data', '', false],
      [8, 'done', '', true],
    ])
    expect(rows[0]!.summary).toBe('content "Hel"')
    expect(rows[3]!.summary).toBe('get_weather args ":\\"Paris\\"}"')
    expect(rows[0]!.time).toBe(T0 + 20)
    expect(rows[0]!.sinceStart).toBe(20)
    expect(rows[0]!.size).toBe(new TextEncoder().encode(STREAM[1]!).length - 1)
    const brokenAt = BODY.indexOf('data: {"choices":[{"index":0,"delta":{"content":"!"}}')
    expect(rows[4]!.broken).toEqual({
      message: view.reply.errors[0]!.message, line: BODY.slice(0, brokenAt).split('\n').length,
      position: 47, offset: brokenAt,
    })
    expect(rows[4]!.broken!.message).toBe(view.reply.errors[0]!.message)
    expect(rows[4]!.summary).toBe(view.reply.errors[0]!.message)
    expect(rows[8]!.summary).toBe('[DONE]')
    // no text contributed: the JSON without nulls and without the envelope every frame repeats
    expect(rows[6]!.summary).toBe('{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}')
    expect(rows[7]!.summary).toBe('{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7}}')

    // a frame click rewinds the reply to that frame
    store.selectFrame(0)
    let v = store.selection.value!
    expect([v.frame, v.scrub, v.reply.choices[0]!.content, v.reply.choices[0]!.toolCalls.length]).toEqual([0, 0, 'Hel', 0])
    expect(v.highlight).toEqual([{ field: { choice: 0, channel: 'content', toolCall: null }, start: 0, end: 3 }])
    store.selectFrame(2)
    v = store.selection.value!
    expect(v.reply.choices[0]!.toolCalls[0]!.arguments).toBe('{"city"')
    expect(v.reply.choices[0]!.toolCalls[0]!.argumentsError).not.toBe(null)
    expect(v.highlight).toEqual([{ field: { choice: 0, channel: 'arguments', toolCall: 0 }, start: 0, end: 7 }])
    // back to the latest
    store.scrubTo(null)
    v = store.selection.value!
    expect([v.frame, v.scrub, v.reply.choices[0]!.content]).toEqual([2, null, 'Hello'])
    expect(v.reply).toBe(v.latest)
  })

  it('maps provenance both ways: frame → ranges, reply position → frame', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1', STREAM)
    tick()
    store.select('r1')
    const content = { choice: 0, channel: 'content' as const, toolCall: null }
    const args = { choice: 0, channel: 'arguments' as const, toolCall: 0 }
    expect(store.rangesFor(1)).toEqual([{ field: content, start: 3, end: 5 }])
    expect(store.rangesFor(3)).toEqual([{ field: args, start: 7, end: 16 }])
    expect(store.rangesFor(5)).toEqual([])
    expect([0, 1, 2, 3, 4, 5].map((o) => store.frameAt(content, o))).toEqual([0, 0, 0, 1, 1, 1])
    expect([0, 6, 7, 15, 16].map((o) => store.frameAt(args, o))).toEqual([2, 2, 3, 3, 3])
    expect(store.frameAt({ choice: 0, channel: 'reasoning', toolCall: null }, 0)).toBe(null)
    expect(store.frameAt({ choice: 3, channel: 'content', toolCall: null }, 0)).toBe(null)
    // clicking reply text selects the producing frame without rewinding the reply
    store.selectFrame(store.frameAt(content, 4), { scrub: false })
    const v = store.selection.value!
    expect([v.frame, v.scrub, v.reply.choices[0]!.content]).toEqual([1, null, 'Hello'])
    expect(v.highlight).toEqual([{ field: content, start: 3, end: 5 }])
  })

  it('hides comments, pings and [DONE] on request, and moves with the arrow keys over visible frames', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1', STREAM)
    tick()
    store.select('r1')
    store.hideDimmed.value = true
    expect(Array.from(store.selection.value!.items)).toEqual([0, 1, 2, 3, 4, 6, 7])
    store.moveFrame(1)
    expect(store.selectedFrame.value).toBe(0)
    store.moveFrame(4)
    expect(store.selectedFrame.value).toBe(4)
    store.moveFrame(1)
    expect(store.selectedFrame.value).toBe(6)
    store.moveFrame(Infinity)
    expect(store.selectedFrame.value).toBe(7)
    store.moveFrame(1)
    expect(store.selectedFrame.value).toBe(7)
    store.moveFrame(-Infinity)
    expect(store.selectedFrame.value).toBe(0)
    store.hideDimmed.value = false
    store.selectFrame(8)
    store.hideDimmed.value = true
    expect(store.selection.value!.frameIndex).toBe(-1)
    store.moveFrame(-1)
    expect(store.selectedFrame.value).toBe(7)
  })

  it('marks a stream the page cancelled, keeping the partial reply', () => {
    const { store, tick } = manualStore()
    store.apply(request('c'))
    store.apply({ type: 'chunk', id: 'c', data: STREAM[1]! + STREAM[2]!.slice(0, 20), t: T0 + 40 })
    store.apply({ type: 'cancelled', id: 'c', t: T0 + 90, reason: 'AbortError' })
    // events after the end are ignored
    store.apply({ type: 'chunk', id: 'c', data: STREAM[3]!, t: T0 + 100 })
    store.apply({ type: 'finished', id: 'c', t: T0 + 120 })
    store.select('c')
    tick()
    const row = store.requests.value[0]!
    expect([row.state, row.cancelReason, row.duration, row.frames, row.done]).toEqual(['cancelled', 'AbortError', 90, 2, false])
    const v = store.selection.value!
    expect(v.reply.choices[0]!.content).toBe('Hel')
    // the unfinished second frame was dispatched at the end and failed to parse
    expect(v.reply.errors.length).toBe(1)
    expect(v.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['no-terminal-event']))
  })

  it('clears on navigation unless the log is preserved, and on clear()', () => {
    const { store, tick } = manualStore()
    feed(store, 'a', STREAM)
    store.select('a')
    tick()
    store.preserveLog.value = true
    store.apply({ type: 'navigated', url: 'https://example.com/next' })
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['a'])
    expect(store.selectedId.value).toBe('a')
    feed(store, 'b', STREAM)
    tick()
    expect(store.requests.value.map((r) => r.id)).toEqual(['a', 'b'])
    store.preserveLog.value = false
    store.apply({ type: 'navigated', url: 'https://example.com/again' })
    tick()
    expect(store.requests.value).toEqual([])
    expect(store.selectedId.value).toBe(null)
    expect(store.selection.value).toBe(null)
    feed(store, 'c', STREAM)
    store.select('c')
    tick()
    store.clear()
    tick()
    expect([store.requests.value.length, store.selectedId.value]).toEqual([0, null])
    // a chunk for a cleared request is ignored
    store.apply({ type: 'chunk', id: 'c', data: 'data: {}\n\n', t: null })
    tick()
    expect(store.requests.value).toEqual([])
  })

  it('filters rows by every term, with -term to exclude', () => {
    const { store, tick } = manualStore()
    feed(store, 'a', STREAM)
    store.apply(request('b', { url: 'https://api.anthropic.com/v1/messages', method: 'GET' }))
    store.apply({ type: 'chunk', id: 'b', data: 'event: message_stop\ndata: {"type":"message_stop"}\n\n', t: null })
    tick()
    const ids = () => store.rows.value.map((r) => r.id)
    expect(ids()).toEqual(['a', 'b'])
    store.filter.value = 'anthropic'
    expect(ids()).toEqual(['b'])
    store.filter.value = 'POST completions'
    expect(ids()).toEqual(['a'])
    store.filter.value = 'finished'
    expect(ids()).toEqual(['a'])
    store.filter.value = 'v1 -messages'
    expect(ids()).toEqual(['a'])
    store.filter.value = ''
    store.moveRequest(1)
    expect(store.selectedId.value).toBe('a')
    store.moveRequest(1)
    expect(store.selectedId.value).toBe('b')
    store.moveRequest(1)
    expect(store.selectedId.value).toBe('b')
  })

  it('forces a provider and a transport by merging the kept chunks again', () => {
    const { store, tick } = manualStore()
    const ndjson = '{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n{"model":"m","message":{"role":"assistant","content":" there"},"done":true,"done_reason":"stop"}\n'
    store.apply(request('n', { url: 'paste', contentType: null, source: 'paste' }))
    store.apply({ type: 'chunk', id: 'n', data: ndjson, t: null })
    store.apply({ type: 'finished', id: 'n', t: null })
    store.select('n')
    tick()
    expect([store.requests.value[0]!.provider, store.requests.value[0]!.transport]).toEqual(['ollama', 'ndjson'])
    expect(store.selection.value!.reply.choices[0]!.content).toBe('Hi there')
    store.apply({ type: 'force', id: 'n', forced: { provider: 'generic' } })
    tick()
    expect(store.requests.value[0]!.provider).toBe('generic')
    expect(store.requests.value[0]!.forced).toEqual({ provider: 'generic' })
    expect(store.selection.value!.reply.choices).toEqual([])
    store.apply({ type: 'force', id: 'n', forced: { transport: 'sse' } })
    tick()
    expect([store.requests.value[0]!.transport, store.requests.value[0]!.frames]).toEqual(['sse', 0])
    store.apply({ type: 'force', id: 'n', forced: {} })
    tick()
    expect(store.selection.value!.reply.choices[0]!.content).toBe('Hi there')
  })

  it('follows the shell: select and removed events, notes, requests updated in place', () => {
    const { store, tick } = manualStore()
    feed(store, 'a', STREAM)
    feed(store, 'b', STREAM)
    store.apply({ type: 'select', id: 'b' })
    store.apply({ type: 'select', id: 'nope' })
    expect(store.selectedId.value).toBe('b')
    store.apply({ type: 'request', request: { ...(request('a') as { request: CapturedRequest }).request, status: 500 } })
    store.apply({ type: 'removed', id: 'b' })
    store.apply({ type: 'note', level: 'warning', message: 'live capture detached: back to HAR' })
    tick()
    expect(store.requests.value.map((r) => [r.id, r.status, r.frames])).toEqual([['a', 500, 9]])
    expect(store.selectedId.value).toBe(null)
    expect(store.notes.value).toEqual([{ level: 'warning', message: 'live capture detached: back to HAR' }])
    store.dismissNote(0)
    expect(store.notes.value).toEqual([])
  })

  it('reports stream errors where they happened, and their frame', () => {
    const { store, tick } = manualStore()
    const body = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":1}}}\n\n'
      + 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
      + 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}\n\n'
      + 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    store.apply(request('e', { url: 'https://api.anthropic.com/v1/messages' }))
    store.apply({ type: 'chunk', id: 'e', data: body, t: T0 + 5 })
    store.apply({ type: 'finished', id: 'e', t: T0 + 6 })
    store.select('e')
    tick()
    const v = store.selection.value!
    expect(v.reply.choices[0]!.content).toBe('Part')
    expect(v.streamErrors.map((s) => [s.frame, s.message])).toEqual([[3, 'Overloaded']])
    expect(store.requests.value[0]!.streamErrors).toBe(1)
    expect(frames(store.frameItems(0, 10)).map((f) => f.streamError)).toEqual([null, null, null, 'Overloaded'])
    store.selectFrame(2)
    expect(store.selection.value!.streamErrors).toEqual([])
  })

  it('caps the body kept per request and says so', () => {
    const { store, tick } = manualStore({ maxBytesPerRequest: 200 })
    store.apply(request('big'))
    for (let i = 0; i < 10; i++) store.apply({ type: 'chunk', id: 'big', data: chat({ content: 'x' }), t: null })
    store.apply({ type: 'finished', id: 'big', t: null })
    tick()
    const row = store.requests.value[0]!
    expect(row.truncated).toBe(true)
    expect(row.bytes).toBeLessThanOrEqual(200)
    expect(store.notes.value.length).toBe(1)
    expect(store.notes.value[0]!.message).toMatch(/rest was not kept/)
  })

  it('indexes a long stream later, never on every batch, and selects its last frame quickly', () => {
    const deferred: Array<() => void> = []
    const { store, tick } = manualStore({ defer: (w) => { deferred.push(w); return () => {} } })
    store.apply(request('L'))
    store.select('L')
    const parts: string[] = []
    for (let i = 0; i < 3000; i++) parts.push(chat({ content: `w${i} ` }))
    for (let i = 0; i < parts.length; i += 500) {
      store.apply({ type: 'chunk', id: 'L', data: parts.slice(i, i + 500).join(''), t: null })
      tick()
      expect(store.selection.value!.frameCount).toBe(Math.min(i + 500, 3000))
    }
    store.apply({ type: 'finished', id: 'L', t: null })
    tick()
    const v = store.selection.value!
    expect(v.frameCount).toBe(3000)
    expect(v.reply.choices[0]!.content.startsWith('w0 w1 w2 ')).toBe(true)
    while (deferred.length) deferred.shift()!()
    tick()
    expect(store.selection.value!.index).toBe('ready')
    store.moveFrame(Infinity)
    expect(store.selection.value!.frame).toBe(2999)
    expect(store.selection.value!.reply.choices[0]!.content).toBe(v.latest.choices[0]!.content)
  })

  it('indexes a very long stream by itself, after the first paint, and never blocks a batch on it', () => {
    // a clock where every reading is 400 ms later: indexing looks expensive
    let t = 0
    const deferred: Array<() => void> = []
    const { store, tick } = manualStore({ now: () => (t += 400), defer: (w) => { deferred.push(w); return () => {} } })
    store.apply(request('L'))
    store.select('L')
    store.apply({ type: 'chunk', id: 'L', data: ': hi\n\n' + chat({ content: 'a' }), t: null })
    tick()
    // small: indexed at once (and measured as slow)
    expect(store.selection.value!.index).toBe('ready')
    for (let i = 0; i < 200; i++) store.apply({ type: 'chunk', id: 'L', data: chat({ content: 'b' }), t: null })
    store.apply({ type: 'finished', id: 'L', t: null })
    tick()
    let v = store.selection.value!
    expect([v.index, v.frameCount, v.reply.choices[0]!.content.length]).toEqual(['pending', 201, 201])
    // comments, stream errors and diagnostics are always current: only provenance waits
    expect(Array.from(v.items.slice(0, 3))).toEqual([-1, 0, 1])
    expect(v.diagnostics.map((d) => d.code)).toEqual(['no-terminal-event'])
    store.selectFrame(150, { scrub: false })
    expect(store.selection.value!.highlight).toEqual([])
    // rows past the old index describe themselves by their JSON until it is rebuilt
    expect(frames(store.frameItems(151, 152))[0]!.summary).toBe('{"choices":[{"index":0,"delta":{"content":"b"}}]}')
    store.hideDimmed.value = true
    expect(store.selection.value!.items.length).toBe(201)
    store.hideDimmed.value = false
    expect(deferred.length).toBe(1)
    deferred.shift()!()
    tick()
    v = store.selection.value!
    expect(v.index).toBe('ready')
    expect(v.highlight).toEqual([{ field: { choice: 0, channel: 'content', toolCall: null }, start: 150, end: 151 }])
    expect(frames(store.frameItems(151, 152))[0]!.summary).toBe('content "b"')
    expect(store.frameAt({ choice: 0, channel: 'content', toolCall: null }, 150)).toBe(150)
  })

  it('merges a large body in slices, one batch at a time, keeping the order of what followed it', () => {
    // a clock that does not move: every piece seems free, so each stays the first piece's 64 KiB
    const { store, pending } = manualStore({ sliceBudgetMs: 0, now: () => 0 })
    const parts: string[] = []
    for (let i = 0, size = 0; size < 1.3 * 1024 * 1024; i++) size += parts[parts.push(chat({ content: `w${i} ` })) - 1]!.length
    parts.push(chat({}, 'stop'), 'data: [DONE]\n\n')
    const body = parts.join('')
    store.apply(request('H', { source: 'har' }))
    store.apply({ type: 'select', id: 'H' })
    store.apply({ type: 'chunk', id: 'H', data: body, t: T0 + 5 })
    store.apply({ type: 'finished', id: 'H', t: T0 + 9 })
    // chunks after the end are ignored, as always
    store.apply({ type: 'chunk', id: 'H', data: chat({ content: 'late' }), t: null })
    expect(store.requests.value[0]!.bytes).toBe(body.length)
    let flushes = 0
    const counts: number[] = []
    while (pending.length) {
      pending.shift()!()
      flushes++
      const v = store.selection.value!
      counts.push(v.frameCount)
      if (pending.length) expect([v.row.state, v.loading !== null]).toEqual(['live', true])
    }
    // 64 KiB per batch: 21 batches, the last one also applies the end
    expect(flushes).toBe(Math.ceil(body.length / (64 * 1024)))
    expect(counts.every((c, i) => i === 0 || c > counts[i - 1]!)).toBe(true)
    const v = store.selection.value!
    expect([v.row.state, v.row.duration, v.loading, v.frameCount]).toEqual(['finished', 9, null, parts.length])
    expect(v.reply).toEqual(merge(body, { url: v.row.url, contentType: 'text/event-stream' }))
    // forcing merges it again the same way
    store.apply({ type: 'force', id: 'H', forced: { provider: 'openai-chat' } })
    expect(store.selection.value!.loading).not.toBe(null)
    while (pending.length) pending.shift()!()
    expect(store.selection.value!.reply.choices[0]!.content).toBe(v.reply.choices[0]!.content)
    expect(store.selection.value!.row.forced).toEqual({ provider: 'openai-chat' })
  })

  it('indexes a large body merged in slices only after the update that shows its end', () => {
    // every clock reading 400 ms later: indexing looks expensive, so it is deferred
    let t = 0
    const deferred: Array<{ work: () => void; ms: number }> = []
    const { store, pending } = manualStore({ now: () => (t += 400), defer: (work, ms) => { deferred.push({ work, ms }); return () => {} } })
    const parts: string[] = []
    for (let i = 0, size = 0; size < 300 * 1024; i++) size += parts[parts.push(chat({ content: `w${i} ` })) - 1]!.length
    store.apply(request('H'))
    store.apply({ type: 'select', id: 'H' })
    // small: indexed at once, and measured as slow
    store.apply({ type: 'chunk', id: 'H', data: chat({ content: 'a' }), t: T0 + 1 })
    while (pending.length) pending.shift()!()
    expect(store.selection.value!.index).toBe('ready')
    store.apply({ type: 'chunk', id: 'H', data: parts.join(''), t: T0 + 5 })
    store.apply({ type: 'finished', id: 'H', t: T0 + 9 })
    // each batch's update read, as the page's host reads it: the index is asked for while merging
    while (pending.length) { pending.shift()!(); void store.selection.value }
    expect([store.selection.value!.row.state, store.selection.value!.index, store.selection.value!.frameCount]).toEqual(['finished', 'pending', parts.length + 1])
    // the run asked for while the body was merged looks again, and waits for the update first
    const asked = deferred.shift()!
    expect(asked.ms).toBe(100)
    asked.work()
    expect([store.selection.value!.index, deferred.map((d) => d.ms)]).toEqual(['pending', [100]])
    deferred.shift()!.work()
    while (pending.length) pending.shift()!()
    expect(store.selection.value!.index).toBe('ready')
  })

  it('reports live capture as the shell says, starting from its current state', () => {
    const store = createPanelStore({ kind: 'devtools', live: { mechanism: 'a test shell', setEnabled: async () => ({ ok: true }), enabled: () => true } }, { schedule: () => {} })
    expect(store.live.value).toEqual({ enabled: true, message: null })
    store.apply({ type: 'live', enabled: false, message: 'the debugger was detached' })
    expect(store.live.value).toEqual({ enabled: false, message: 'the debugger was detached' })
    store.apply({ type: 'live', enabled: true })
    expect(store.live.value).toEqual({ enabled: true, message: null })
    expect(createPanelStore(null).live.value.enabled).toBe(false)
  })

  it('says how the provider was chosen, without inspecting every frame', () => {
    const { store, tick } = manualStore()
    feed(store, 'r1', STREAM)
    store.apply(request('u', { url: 'https://api.example.com/v1/messages' }))
    store.apply({ type: 'chunk', id: 'u', data: 'data: {"hello":1}\n\n', t: null })
    tick()
    const reason = (id: string) => { store.select(id); return store.selection.value!.providerReason }
    expect(reason('r1')).toBe('frames')
    // no frame has told: the URL's hint, while it streams and after
    expect(reason('u')).toBe('url')
    store.apply({ type: 'finished', id: 'u', t: null })
    tick()
    expect(reason('u')).toBe('url')
    store.apply({ type: 'force', id: 'r1', forced: { provider: 'generic' } })
    expect(reason('r1')).toBe('forced')
  })

  it('never evaluates captured text: hostile keys and markup stay data', () => {
    const { store, tick } = manualStore()
    const hostile = chat({ content: '<img src=x onerror=alert(1)>' }) + 'data: {"__proto__":{"polluted":1},"choices":[{"index":0,"delta":{"content":"{{constructor}}"}}]}\n\n'
    store.apply(request('h'))
    store.apply({ type: 'chunk', id: 'h', data: hostile, t: null })
    store.apply({ type: 'finished', id: 'h', t: null })
    store.select('h')
    tick()
    expect(store.selection.value!.reply.choices[0]!.content).toBe('<img src=x onerror=alert(1)>{{constructor}}')
    expect(({} as Record<string, unknown>)['polluted']).toBe(undefined)
  })
})
