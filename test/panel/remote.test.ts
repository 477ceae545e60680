// The panel's store in a worker (panel/remote): the store (host.ts) and its mirror on the UI
// thread (mirror.ts) joined by a real MessageChannel, so every message is structured-cloned
// as between a page and its worker. Each rule: what the mirror shows is exactly what the
// store itself shows for the same events.

import { afterEach, describe, expect, it } from 'vitest'
import { choiceMessages, createMerger, merge, type Reply } from '../../src/index.js'
import type { CaptureEvent, CapturedRequest } from '../../panel/shell.js'
import { createPanelStore, type PanelStore } from '../../panel/store/index.js'
import { createStoreHost } from '../../panel/remote/host.js'
import { applyList, diffList } from '../../panel/remote/list-patch.js'
import { createStoreMirror } from '../../panel/remote/mirror.js'
import { LISTED, type FromStore, type Port, type ToStore } from '../../panel/remote/protocol.js'
import { applyPatch, diffReply } from '../../panel/remote/reply-patch.js'
import { requestEvent } from '../support/requests.js'
import { openaiChunk as chat } from '../support/streams.js'

const T0 = 1_754_000_000_000
const URL_ = 'https://api.openai.com/v1/chat/completions'

const request = (id: string, over: Partial<CapturedRequest> = {}): CaptureEvent =>
  requestEvent({ id, url: `${URL_}?x=${id}`, requestBody: '{"stream":true}', startedAt: T0, source: 'live', ...over })

const STREAM = [
  ': keep-alive\n\n',
  chat({ role: 'assistant', content: 'Hé' }), chat({ content: 'llo' }),
  chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get', arguments: '{"a"' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
  'data: {"choices":[\n\n', chat({}, 'tool_calls'), 'data: [DONE]\n\n',
]
const BODY = STREAM.join('')

function events(id: string, parts: string[], finish = true): CaptureEvent[] {
  const out: CaptureEvent[] = [request(id)]
  parts.forEach((p, i) => out.push({ type: 'chunk', id, data: new TextEncoder().encode(p), t: T0 + 10 * (i + 1) }))
  if (finish) out.push({ type: 'finished', id, t: T0 + 10 * (parts.length + 1) })
  return out
}

const open: Array<{ close(): void }> = []
afterEach(() => { while (open.length) open.pop()!.close() })

/** A mirror and its store joined by a MessageChannel, and a store of its own fed the same events (the reference). */
function joined() {
  const channel = new MessageChannel()
  open.push(channel.port1, channel.port2)
  const host = createStoreHost(channel.port1 as unknown as Port<ToStore, FromStore>)
  const mirror = createStoreMirror(channel.port2 as unknown as Port<FromStore, ToStore>)
  const local = createPanelStore(null, { schedule: (f) => { setTimeout(f, 0) } })
  const apply = (list: CaptureEvent[]) => { for (const e of list) { mirror.apply(e); local.apply(e) } }
  return { host, mirror, local, apply }
}

/** Waits until `check` holds (the messages went there and back), or fails after 2 s. */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 2000
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

const finished = (store: PanelStore, id: string) => () => store.requests.value.find((r) => r.id === id)?.state === 'finished'

describe('reply patches', () => {
  const reply = (content: string, errors: Reply['errors'] = []): Reply => ({
    transport: 'sse', provider: 'openai', done: false, frameCount: 1, usage: null, errors,
    choices: [{ index: 0, role: 'assistant', content, reasoning: '', refusal: '', toolCalls: [], finishReason: null }],
    messages: [{ id: null, role: 'assistant', parts: content === '' ? [] : [{ type: 'text', text: content }] }],
  })
  /** A plain reply's messages are its choices, as the receiving side rebuilds them. */
  const asMessages = (r: Reply): Reply => ({ ...r, messages: choiceMessages(r.choices) })

  it('sends the messages of a message protocol whole, and none of a plain reply (rebuilt from its choices)', () => {
    const plain = reply('Hi')
    expect(diffReply(null, plain).messages).toBeNull()
    expect(applyPatch(null, diffReply(null, plain))).toEqual(plain)
    const run: Reply = { ...reply('AB'), messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'A' }] }, { id: 'b', role: 'assistant', parts: [{ type: 'text', text: 'B' }] }] }
    expect(diffReply(plain, run).messages).toEqual(run.messages)
    expect(applyPatch(plain, diffReply(plain, run))).toEqual(run)
  })

  it('sends a text that grew as what was appended, and rebuilds it exactly', () => {
    const a = reply('Hello')
    const b = reply('Hello, world')
    const patch = diffReply(a, b)
    expect(patch.choices[0]!.content).toEqual({ from: 5, text: ', world' })
    expect(applyPatch(a, patch)).toEqual(b)
  })

  it('sends a text that did not grow from the one before whole', () => {
    const patch = diffReply(reply('Hello'), reply('Help'))
    expect(patch.choices[0]!.content).toEqual({ from: 0, text: 'Help' })
    expect(applyPatch(reply('Hello'), patch)).toEqual(reply('Help'))
  })

  it('sends the tool calls that differ from the ones at the same positions, and the new ones (compared field by field, not by identity)', () => {
    const call: Reply['choices'][number]['toolCalls'][number] = { index: 0, id: 'call_1', type: 'function', name: 'get', arguments: '{"a":1}', parsedArguments: { a: 1 }, argumentsError: null }
    const withCalls = (calls: typeof call[]): Reply => asMessages({ ...reply('x'), choices: [{ ...reply('x').choices[0]!, toolCalls: calls }] })
    const second = { ...call, index: 1, id: 'call_2', arguments: '{"b"' }
    const grown = { ...second, arguments: '{"b":2}', parsedArguments: { b: 2 } }
    const third = { ...call, index: 2, id: 'call_3' }
    const before = withCalls([call, second, third])
    const cases: Array<[typeof call[], { length: number; set: Array<[number, typeof call]>; from: null }]> = [
      [[{ ...call, parsedArguments: { a: 1 } }, { ...second }, third], { length: 3, set: [], from: null }],
      [[call, grown, third], { length: 3, set: [[1, grown]], from: null }],
      [[call, second, third, { ...call, index: 3 }], { length: 4, set: [[3, { ...call, index: 3 }]], from: null }],
      [[grown], { length: 1, set: [[0, grown]], from: null }],
      [[call, second], { length: 2, set: [], from: null }],
    ]
    for (const [calls, expected] of cases) {
      const patch = diffReply(before, withCalls(calls))
      expect(patch.choices[0]!.toolCalls).toEqual(expected)
      expect(applyPatch(before, patch)).toEqual(withCalls(calls))
    }
  })

  it('sends the calls a new one moved (sorted in before them: an index used again) by where they were, not again', () => {
    const call = (index: number, id: string, args: string): Reply['choices'][number]['toolCalls'][number] => ({ index, id, type: 'function', name: 'get', arguments: args, parsedArguments: null, argumentsError: 'partial' })
    const withCalls = (calls: Array<ReturnType<typeof call>>): Reply => asMessages({ ...reply('x'), choices: [{ ...reply('x').choices[0]!, toolCalls: calls }] })
    const [a0, b1, c0, d1] = [call(0, 'a', '{'), call(1, 'b', '{'), call(0, 'c', '{'), call(1, 'd', '{')]
    const before = withCalls([a0, b1])
    // c (index 0 again) sorts before b; b is the same object, moved
    const next = withCalls([a0, c0, b1])
    const patch = diffReply(before, next)
    expect(patch.choices[0]!.toolCalls).toEqual({ length: 3, set: [[1, c0]], from: Int32Array.from([0, -1, 1]) })
    expect(applyPatch(before, patch)).toEqual(next)
    // d (index 1 again) at the end, b grown in place: nothing moved
    const grown = { ...b1, arguments: '{}' }
    const after = withCalls([a0, c0, grown, d1])
    expect(diffReply(next, after).choices[0]!.toolCalls).toEqual({ length: 4, set: [[2, grown], [3, d1]], from: null })
    expect(applyPatch(next, diffReply(next, after))).toEqual(after)
  })

  it('sends only the errors after the ones sent, when they are the same objects; all of them otherwise', () => {
    const e1 = { frame: 0, offset: 0, line: 1, raw: 'x', message: 'm1' }
    const e2 = { frame: 1, offset: 3, line: 3, raw: 'y', message: 'm2' }
    const a = reply('', [e1])
    expect(diffReply(a, reply('', [e1, e2]))).toMatchObject({ errorsFrom: 1, errors: [e2] })
    // the same length, other objects: a merger read again (forced) found other errors
    expect(diffReply(a, reply('', [{ ...e2 }]))).toMatchObject({ errorsFrom: 0, errors: [e2] })
    expect(applyPatch(a, diffReply(a, reply('', [e1, e2])))).toEqual(reply('', [e1, e2]))
  })
})

describe('list patches', () => {
  const [a, b, c, d] = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]

  it('sends nothing for the same list, the new entries for a list that grew, the changed entries for one that changed in place', () => {
    expect(diffList([a, b], [a, b])).toBeNull()
    expect(diffList([a, b], [a, b, c])).toEqual({ keep: 2, add: [c] })
    expect(diffList([a, b, c, d, a, b, c, d], [a, b, c, d, a, d, c, d])).toEqual({ set: [[5, d]] })
    expect(diffList([a, b], [b, a])).toEqual({ whole: [b, a] })
    expect(diffList(null, [a])).toEqual({ whole: [a] })
  })

  it('rebuilds the list exactly, and keeps the same list when nothing was added', () => {
    const prev = [a, b, c, d]
    for (const next of [[a, b, c, d, a], [a, c, c, d], [d], []]) expect(applyList(prev, diffList(prev, next)!)).toEqual(next)
    expect(applyList(prev, { keep: 4, add: [] })).toBe(prev)
  })
})

describe('the store in a worker, seen through its mirror', () => {
  it('shows the same request rows, selection and reply as the store itself', async () => {
    const { mirror, local, apply } = joined()
    apply(events('r1', STREAM))
    await until(finished(mirror, 'r1'))
    await until(finished(local, 'r1'))
    expect(mirror.requests.value).toEqual(local.requests.value)
    expect(mirror.rows.value.map((r) => r.id)).toEqual(['r1'])
    mirror.select('r1')
    local.select('r1')
    await until(() => mirror.selection.value !== null)
    const { items: _items, ...expected } = local.selection.value!
    expect(mirror.selection.value).toEqual(expected)
    expect(mirror.selection.value!.latest).toEqual(merge(BODY, { url: `${URL_}?x=r1`, contentType: 'text/event-stream' }))
    expect(mirror.selection.value!.itemCount).toBe(8)
  })

  it('rebuilds a reply that grows over many updates exactly, from the text appended', async () => {
    const { mirror, apply } = joined()
    apply(events('r1', [], false))
    mirror.select('r1')
    let body = ''
    for (let i = 0; i < 30; i++) {
      const part = chat({ content: `part ${i}, ` })
      body += part
      mirror.apply({ type: 'chunk', id: 'r1', data: part, t: T0 + i })
      if (i % 7 === 0) await until(() => mirror.selection.value?.frameCount === i + 1)
    }
    mirror.apply({ type: 'finished', id: 'r1', t: T0 + 100 })
    await until(finished(mirror, 'r1'))
    await until(() => mirror.selection.value?.row.state === 'finished')
    expect(mirror.selection.value!.latest.choices[0]!.content).toBe(merge(body).choices[0]!.content)
  })

  it('sends a newly selected request\'s first rows with it; other rows once asked for, blank until then; each exactly the store\'s own', async () => {
    const { mirror, local, apply } = joined()
    const long = Array.from({ length: 300 }, (_, i) => chat({ content: `${i} ` }))
    apply(events('r1', long))
    mirror.select('r1')
    local.select('r1')
    await until(() => mirror.selection.value?.row.state === 'finished')
    await until(() => local.selection.value?.index === 'ready')
    await until(() => mirror.selection.value?.index === 'ready')
    expect(mirror.frameItems(0, 20)).toEqual(local.frameItems(0, 20))
    expect(mirror.frameItems(250, 260)).toEqual(Array(10).fill(null))
    await until(() => mirror.frameItems(250, 260)[0] !== null)
    expect(mirror.frameItems(250, 260)).toEqual(local.frameItems(250, 260))
  })

  it('sends the tail of the list with each batch while the end of a growing list is in view', async () => {
    const { mirror, apply } = joined()
    apply(events('r1', Array.from({ length: 300 }, (_, i) => chat({ content: `${i} ` })), false))
    mirror.select('r1')
    await until(() => mirror.selection.value?.itemCount === 300)
    mirror.frameItems(290, 300) // the end of the list in view: its tail is asked for
    await until(() => mirror.frameItems(290, 300)[0] !== null)
    mirror.apply({ type: 'chunk', id: 'r1', data: chat({ content: 'b' }) + chat({ content: 'c' }), t: T0 + 1 })
    await until(() => mirror.selection.value?.itemCount === 302)
    // the new rows came with the batch that added them: nothing to ask
    expect(mirror.frameItems(292, 302).map((i) => (i?.type === 'frame' ? i.seq : null))).toEqual([292, 293, 294, 295, 296, 297, 298, 299, 300, 301])
  })

  it('sends the first LISTED entries of each problem list, and their exact totals', async () => {
    const { mirror, local, apply } = joined()
    const broken = Array.from({ length: 1000 }, (_, i) => `data: {x${i}\n\n`)
    apply(events('r1', broken))
    mirror.select('r1')
    local.select('r1')
    await until(() => mirror.selection.value?.row.state === 'finished' && local.selection.value?.row.state === 'finished')
    await until(() => mirror.selection.value!.totals.diagnostics === local.selection.value!.totals.diagnostics)
    const [m, l] = [mirror.selection.value!, local.selection.value!]
    expect(l.latest.errors.length).toBe(1000)
    expect(m.totals).toEqual(l.totals)
    expect(m.totals.errors).toBe(1000)
    expect(m.latest.errors).toEqual(l.latest.errors.slice(0, LISTED))
    expect(m.diagnostics).toEqual(l.diagnostics.slice(0, LISTED))
    expect(m.latest.choices).toEqual(l.latest.choices)
  })

  it('answers a frame: null at first (asked for), then the exact frame; loadFrame waits for it', async () => {
    const { mirror, apply } = joined()
    apply(events('r1', STREAM))
    mirror.select('r1')
    await until(() => mirror.selection.value?.row.state === 'finished')
    const m = createMerger({ url: `${URL_}?x=r1`, contentType: 'text/event-stream' })
    STREAM.forEach((p, i) => m.push(p, T0 + 10 * (i + 1)))
    m.end()
    expect(mirror.frame(4)).toBeNull()
    await until(() => mirror.frame(4) !== null)
    expect(mirror.frame(4)).toEqual(m.frame(4))
    expect(await mirror.loadFrame(1)).toEqual(m.frame(1))
    expect(await mirror.loadFrame(99)).toBeNull()
  })

  it('loads a request for the exports: the body as it arrived, chunk by chunk with its times, the reply and the frames', async () => {
    const { mirror, local, apply } = joined()
    apply(events('r1', STREAM))
    await until(finished(mirror, 'r1'))
    await until(finished(local, 'r1'))
    const source = (await mirror.recordings.load('r1'))!
    const held = local.recordings.get('r1')!
    expect(source.chunks.map((c) => [new TextDecoder().decode(c.data as Uint8Array), c.t])).toEqual(STREAM.map((p, i) => [p, T0 + 10 * (i + 1)]))
    expect(source.expected).toEqual(held.expected)
    expect([source.request, source.state, source.transport, source.truncated]).toEqual([held.request, 'finished', 'sse', false])
    expect(await source.frames()).toEqual(held.frames())
    expect(new TextDecoder().decode((await mirror.recordings.head('r1', 20))!)).toBe(BODY.slice(0, 20))
    expect(await mirror.recordings.rebuilt('r1')).toEqual(held.expected)
    expect(await mirror.recordings.rebuilt('nope')).toBeNull()
    // the last two frames: the finish and [DONE]
    expect(new TextDecoder().decode((await mirror.recordings.tail('r1', 2, 10_000))!)).toBe(STREAM.slice(-2).join(''))
    expect(await mirror.recordings.load('nope')).toBeNull()
  })

  it('sends the settings changed here to the store: the filter narrows the rows, the search the frame list', async () => {
    const { mirror, apply } = joined()
    apply(events('r1', STREAM))
    apply(events('r2', [chat({ content: 'x' })]))
    await until(() => mirror.rows.value.length === 2)
    mirror.filter.value = 'x=r2'
    await until(() => mirror.rows.value.length === 1)
    expect(mirror.rows.value[0]!.id).toBe('r2')
    mirror.filter.value = ''
    mirror.select('r1')
    mirror.apply({ type: 'search', query: 'call_1' })
    expect(mirror.search.value).toBe('call_1')
    await until(() => mirror.selection.value?.search?.done === true)
    expect([mirror.selection.value!.search!.count, mirror.selection.value!.itemCount]).toEqual([1, 1])
  })

  it('selects the frame that wrote a position of the reply, and says when none did', async () => {
    const { mirror, apply } = joined()
    apply(events('r1', STREAM))
    mirror.select('r1')
    await until(() => mirror.selection.value?.index === 'ready')
    expect(await mirror.selectFrameAt({ choice: 0, channel: 'content', toolCall: null }, 3)).toBe(true)
    await until(() => mirror.selectedFrame.value !== null)
    expect(mirror.selectedFrame.value).toBe(1)
    expect(await mirror.selectFrameAt({ choice: 0, channel: 'content', toolCall: null }, 500)).toBe(false)
  })

  it('reads a request whose URL has saved rules with them, from its first byte', async () => {
    const { mirror } = joined()
    await mirror.rules.ready
    const rules = { version: 1 as const, mode: 'append' as const, text: 'choices[*].delta.content' }
    await mirror.rules.save(`${URL_}*`, rules)
    for (const e of events('r1', STREAM)) mirror.apply(e)
    await until(finished(mirror, 'r1'))
    expect(mirror.requests.value[0]!.forced).toEqual({ rules })
  })

  it('applies the changes that arrive between two animation frames together: one version bump', async () => {
    const channel = new MessageChannel()
    open.push(channel.port1, channel.port2)
    createStoreHost(channel.port1 as unknown as Port<ToStore, FromStore>)
    const runs: Array<() => void> = []
    let states = 0
    const port = channel.port2 as unknown as Port<FromStore, ToStore>
    const mirror = createStoreMirror({
      postMessage: (m) => port.postMessage(m),
      set onmessage(f: Port<FromStore, ToStore>['onmessage']) { port.onmessage = f && ((e) => { if (e.data.type === 'state') states++; f(e) }) },
      get onmessage() { return port.onmessage },
    } as Port<FromStore, ToStore>, null, { schedule: (f) => runs.push(f) })
    for (const e of events('r1', STREAM)) mirror.apply(e)
    await until(() => states >= 1)
    for (const e of events('r2', STREAM)) mirror.apply(e)
    await until(() => states >= 2)
    await new Promise((r) => setTimeout(r, 50))
    expect([runs.length, mirror.version.value, mirror.requests.value.length]).toEqual([1, 0, 0])
    runs.shift()!()
    expect(mirror.version.value).toBe(1)
    expect(mirror.requests.value.map((r) => [r.id, r.state])).toEqual([['r1', 'finished'], ['r2', 'finished']])
  })

  it('sends a chunk that is a view of a larger buffer as its own bytes (a clone of the view would carry the whole buffer)', () => {
    const sent: Array<{ message: ToStore; transfer: Transferable[] }> = []
    const mirror = createStoreMirror({ postMessage: (message, transfer = []) => { sent.push({ message, transfer }) }, onmessage: null }, null, { schedule: () => {} })
    const piece = new TextEncoder().encode(BODY)
    const view = piece.subarray(10, 30)
    mirror.apply({ type: 'chunk', id: 'r1', data: view, t: 5 })
    mirror.apply({ type: 'chunk', id: 'r1', data: piece, t: 6 })
    const chunks = sent.filter((s) => s.message.type === 'event')
    const [first, second] = chunks.map((s) => (s.message as Extract<ToStore, { type: 'event' }>).event as Extract<CaptureEvent, { type: 'chunk' }>)
    expect([(first!.data as Uint8Array).buffer.byteLength, new TextDecoder().decode(first!.data as Uint8Array), first!.t]).toEqual([20, BODY.slice(10, 30), 5])
    expect(chunks[0]!.transfer).toEqual([(first!.data as Uint8Array).buffer])
    // a whole buffer is the caller's: cloned as it is, not moved away from it
    expect([second!.data, chunks[1]!.transfer]).toEqual([piece, []])

    expect(piece.byteLength).toBe(new TextEncoder().encode(BODY).byteLength) // the caller's buffer is not detached
  })

  it('starts the store with live capture as the shell has it (the worker\'s store has no shell to ask)', async () => {
    const channel = new MessageChannel()
    open.push(channel.port1, channel.port2)
    const host = createStoreHost(channel.port1 as unknown as Port<ToStore, FromStore>)
    const mirror = createStoreMirror(channel.port2 as unknown as Port<FromStore, ToStore>, { kind: 'devtools', live: { mechanism: 'a test shell', setEnabled: async () => ({ ok: true }), enabled: () => true } })
    expect(mirror.live.value.enabled).toBe(true)
    await until(() => host.store.live.value.enabled)
    await new Promise((r) => setTimeout(r, 30))
    expect([host.store.live.value.enabled, mirror.live.value.enabled]).toEqual([true, true])
  })

  it('runs a batch after a quiet while at once: its wait counts from the last batch\'s end, not from the change', async () => {
    const channel = new MessageChannel()
    open.push(channel.port1, channel.port2)
    const host = createStoreHost(channel.port1 as unknown as Port<ToStore, FromStore>)
    await new Promise((r) => setTimeout(r, 40))
    host.store.apply(request('quiet'))
    // a timer due in 5 ms sees the batch done (BATCH_MS, 16 ms, counted from the change would not)
    const listed = await new Promise<number>((r) => setTimeout(() => r(host.store.requests.peek().length), 5))
    expect(listed).toBe(1)
  })

  it('clears, and a Clear on the mirror empties the store', async () => {
    const { mirror, host, apply } = joined()
    apply(events('r1', STREAM))
    await until(finished(mirror, 'r1'))
    mirror.clear()
    await until(() => mirror.requests.value.length === 0)
    expect(host.store.requests.value).toEqual([])
  })
})
