// The worker's side (protocol.ts): the mergers of the panel's requests, one per request, fed
// the bytes the UI sends. After a burst of pushes it sends each changed request's update
// once (scheduled, not per push): its facts and its reply as patches. A reply snapshot costs
// the core time per character, so while a stream grows it is taken at most every
// SNAPSHOT_RATIO times what it cost (the facts are sent every time: they are cheap). A merger
// that throws fails its request alone.

import { createMerger, type Merger, type Reply } from '../../src/library.js'
import { diffReply, type FromWorker, type MergeFacts, type ToWorker } from './protocol.js'

/** Updates are sent at most this often (ms): about one animation frame. */
const UPDATE_MS = 16
/** While a stream grows, a snapshot is taken again only after this many times its cost. */
const SNAPSHOT_RATIO = 5

interface Held {
  merger: Merger
  ended: boolean
  /** The reply last sent, when it was taken (clock) and what it cost (ms). */
  sent: Reply | null
  at: number
  cost: number
}

export interface MergeHost {
  receive(message: ToWorker): void
  /** Sends the pending updates now (the scheduler calls it). */
  flush(): void
  /** Requests held (tests, and a worker that reports its load). */
  readonly size: number
}

export function createMergeHost(
  send: (message: FromWorker, transfer?: Transferable[]) => void,
  options: { now?: () => number; schedule?: (flush: () => void, ms: number) => void } = {},
): MergeHost {
  const now = options.now ?? (() => performance.now())
  const schedule = options.schedule ?? ((f, ms) => { setTimeout(f, ms) })
  const held = new Map<string, Held>()
  const dirty = new Set<string>()
  let scheduled = false

  const changed = (id: string) => {
    dirty.add(id)
    if (scheduled) return
    scheduled = true
    schedule(flush, UPDATE_MS)
  }

  const fail = (id: string, err: unknown) => {
    held.delete(id)
    dirty.delete(id)
    send({ type: 'failed', id, message: String(err) })
  }

  const update = (id: string, h: Held) => {
    const m = h.merger
    const t = now()
    // a dear snapshot of a growing stream waits; the last one sent stands meanwhile
    const wait = !h.ended && h.sent !== null && t - h.at < h.cost * SNAPSHOT_RATIO
    const reply = wait ? h.sent! : m.snapshot()
    if (!wait) {
      h.cost = now() - t
      h.at = t
    }
    const facts: MergeFacts = {
      frameCount: m.frameCount, bytes: m.byteLength, errors: reply.errors.length,
      done: reply.done, provider: reply.provider, transport: reply.transport, ended: h.ended,
    }
    send({ type: 'update', id, facts, reply: diffReply(h.sent, reply) })
    h.sent = reply
    if (wait) changed(id) // the snapshot not taken now is taken at a later flush
  }

  function flush(): void {
    scheduled = false
    const ids = [...dirty]
    dirty.clear()
    for (const id of ids) {
      const h = held.get(id)
      if (!h) continue
      try {
        update(id, h)
      } catch (err) {
        fail(id, err)
      }
    }
  }

  const receive = (msg: ToWorker): void => {
    if (msg.type === 'open') {
      held.set(msg.id, { merger: createMerger(msg.options), ended: false, sent: null, at: 0, cost: 0 })
      changed(msg.id)
      return
    }
    const h = held.get(msg.id)
    if (!h) return
    try {
      switch (msg.type) {
        case 'push':
          if (msg.t === null) h.merger.push(msg.data)
          else h.merger.push(msg.data, msg.t)
          changed(msg.id)
          return
        case 'end':
          h.merger.end()
          h.ended = true
          changed(msg.id)
          return
        case 'frames': {
          const n = h.merger.frameCount
          const from = Math.max(0, Math.min(msg.from, n))
          send({ type: 'frames', id: msg.id, call: msg.call, frames: h.merger.frames(from, Math.max(from, Math.min(msg.to, n))) })
          return
        }
        case 'release':
          held.delete(msg.id)
          dirty.delete(msg.id)
          return
      }
    } catch (err) {
      fail(msg.id, err)
    }
  }

  return { receive, flush, get size() { return held.size } }
}
