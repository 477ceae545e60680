// Merging off the UI thread (panel/worker): the worker's host and the UI's client joined by a
// fake channel that clones every message as postMessage does (and moves transferred buffers),
// delivered when the test says, so each rule is checked with exact values.

import { describe, expect, it } from 'vitest'
import { createMerger, merge, type Reply } from '../../src/index.js'
import { createMergeClient, type WorkerLike } from '../../panel/worker/client.js'
import { createMergeHost } from '../../panel/worker/host.js'
import { applyPatch, diffReply, type FromWorker, type ToWorker } from '../../panel/worker/protocol.js'

const chat = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
const STREAM = [
  chat({ role: 'assistant', content: 'Hé' }), chat({ content: 'llo' }),
  chat({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get', arguments: '{"a"' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
  'data: {"choices":[\n\n', chat({}, 'tool_calls'), 'data: [DONE]\n\n',
]
const BODY = STREAM.join('')
const OPTIONS = { url: 'https://api.openai.com/v1/chat/completions', contentType: 'text/event-stream' }

/**
 * Host and client on a fake channel: `round()` passes the queued messages to the host, runs
 * its scheduled flush and passes its messages back; `deliver()` runs rounds until all is
 * quiet. `step`: how far the host's clock moves each time it is read (a snapshot then
 * "costs" that much).
 */
function joined(step = 0) {
  const toHost: ToWorker[] = []
  const toClient: FromWorker[] = []
  const log: FromWorker[] = []
  const flushes: Array<() => void> = []
  let clock = 0
  const host = createMergeHost((m) => { toClient.push(structuredClone(m)); log.push(structuredClone(m)) }, { now: () => (clock += step), schedule: (f) => flushes.push(f) })
  const worker: WorkerLike = {
    onmessage: null,
    postMessage(msg, transfer = []) { toHost.push(structuredClone(msg, { transfer })) },
  }
  const client = createMergeClient(worker)
  const round = () => {
    for (const msg of toHost.splice(0)) host.receive(msg)
    for (const f of flushes.splice(0)) f()
    for (const msg of toClient.splice(0)) worker.onmessage?.({ data: msg })
  }
  const deliver = () => {
    for (let i = 0; i < 20 && (toHost.length || flushes.length || toClient.length); i++) round()
  }
  return { host, client, round, deliver, log }
}

describe('merging in a worker', () => {
  it('rebuilds on the UI side exactly the reply merge() gives, from patches, with the row facts', () => {
    const { client, deliver } = joined()
    const r = client.open('r1', OPTIONS)
    for (const p of STREAM) {
      r.push(new TextEncoder().encode(p), 5, true)
      deliver()
    }
    r.end()
    deliver()
    const want = merge(BODY, OPTIONS)
    expect(r.reply).toEqual(want)
    expect(r.facts).toEqual({ frameCount: 7, bytes: new TextEncoder().encode(BODY).length, errors: 1, done: true, provider: 'openai-chat', transport: 'sse', ended: true })
  })

  it('sends one update per request for a burst of pushes, not one per push', () => {
    const { client, deliver, host } = joined()
    const updates: string[] = []
    client.onUpdate((id) => updates.push(id))
    const a = client.open('a', OPTIONS)
    const b = client.open('b', OPTIONS)
    for (const p of STREAM) { a.push(p, null); b.push(p, null) }
    deliver()
    expect([updates, host.size]).toEqual([['a', 'b'], 2])
  })

  it('sends text as what was appended since the last update', () => {
    const { client, deliver, log } = joined()
    const r = client.open('r', OPTIONS)
    r.push(STREAM[0]!, null)
    deliver()
    r.push(STREAM[1]!, null)
    deliver()
    const updates = log.filter((m): m is Extract<FromWorker, { type: 'update' }> => m.type === 'update')
    expect(updates.map((u) => u.reply.choices.map((c) => c.content))).toEqual([[{ from: 0, text: 'Hé' }], [{ from: 2, text: 'llo' }]])
  })

  it('sends a text that did not grow from the one before whole, and the patches rebuild it', () => {
    const prev = merge(chat({ content: 'abc' }), OPTIONS)
    const next: Reply = { ...prev, choices: [{ ...prev.choices[0]!, content: 'xy' }] }
    const patch = diffReply(prev, next)
    expect(patch.choices[0]!.content).toEqual({ from: 0, text: 'xy' })
    expect(applyPatch(prev, patch)).toEqual(next)
  })

  it('answers a window of frames, clamped to the frames there are, built in the worker', async () => {
    const { client, deliver } = joined()
    const r = client.open('r', OPTIONS)
    r.push(BODY, null)
    deliver()
    const window = r.frames(2, 4)
    const past = r.frames(6, 99)
    deliver()
    const m = createMerger(OPTIONS)
    m.push(BODY)
    expect(await window).toEqual(m.frames(2, 4))
    expect((await past).map((f) => f.seq)).toEqual([6])
  })

  it('transfers a buffer the caller owns whole, and copies a view of a larger one', () => {
    const { client, deliver } = joined()
    const r = client.open('r', OPTIONS)
    const owned = new TextEncoder().encode(STREAM[0]!)
    const big = new TextEncoder().encode(STREAM[1]! + STREAM[2]!)
    const view = big.subarray(0, new TextEncoder().encode(STREAM[1]!).length)
    r.push(owned, null, true)
    r.push(view, null, true)
    deliver()
    expect([owned.byteLength, big.byteLength > 0, r.facts!.bytes]).toEqual([0, true, new TextEncoder().encode(STREAM[0]! + STREAM[1]!).length])
  })

  it('fails the one request whose merger throws, and goes on with the others', () => {
    const { client, deliver, host } = joined()
    const bad = client.open('bad', OPTIONS)
    const good = client.open('good', OPTIONS)
    bad.end()
    bad.push('data: 1\n\n', null)
    good.push(BODY, null)
    good.end()
    deliver()
    expect([bad.failed, good.reply!.done, host.size]).toEqual(['Error: push() after end(): create a new merger for a new body', true, 1])
  })

  it('frees a released request in the worker', () => {
    const { client, deliver, host } = joined()
    const r = client.open('r', OPTIONS)
    r.push(BODY, null)
    deliver()
    r.release()
    deliver()
    expect([host.size, client.get('r')]).toEqual([0, null])
  })

  it('while a stream grows, takes a dear snapshot again only after five times its cost; the facts stay current', () => {
    // every read of the clock moves it 10 ms: a snapshot costs 10 ms
    const { client, round, deliver } = joined(10)
    const r = client.open('r', OPTIONS)
    r.push(STREAM[0]!, null)
    deliver()
    r.push(STREAM[1]!, null)
    round()
    expect([r.reply!.choices[0]!.content, r.facts!.frameCount]).toEqual(['Hé', 2])
    deliver()
    expect([r.reply!.choices[0]!.content, r.facts!.frameCount]).toEqual(['Héllo', 2])
  })
})
