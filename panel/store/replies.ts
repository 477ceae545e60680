// The replies of one request: the latest (a throttled snapshot while the stream grows), the
// reply after a given frame (the scrubber, a selected frame), and the facts the core keeps as
// it goes (entries, stream errors; diagnostics are the debugger's: debug.ts). A snapshot costs the core time per tool call
// and per character (arguments parsed, text joined), so a dear one is not taken on every
// batch of a growing stream: see clock.ts.

import type { FrameEntry, Reply, StreamError } from '../../src/library.js'
import { timed, waitToRerun } from './clock.js'
import { DeferredRun } from './deferred-run.js'
import type { ModelState, RequestCache, StoreEnv } from './types.js'

/** A snapshot cheaper than this (ms) is taken on every batch; a dearer one... */
const SNAPSHOT_CHEAP_MS = 4
/** ...at most every this many times its cost while the stream grows... */
const SNAPSHOT_RATIO = 5
/** ...or this often (ms) while a large body is merged in slices (its progress is shown meanwhile). */
const SNAPSHOT_LOADING_MS = 1000
/** Replies after a frame kept (a few steps of the scrubber back and forth). */
const REPLY_AT_CACHE = 16

/** What the core keeps as it goes: reading it is cheap, so it is always current. */
export interface Facts {
  rev: number
  /** Comments and event-only blocks (the core's FrameEntry). */
  entries: FrameEntry[]
  streamErrors: StreamError[]
  /** The first stream error of each frame that carries one. */
  streamErrorByFrame: Map<number, string>
}

export class ReplyCache implements RequestCache {
  /** The latest snapshot, the rev it was taken at, and when it was taken (clock). */
  private snapshot: { rev: number; reply: Reply; at: number } | null = null
  /** What the latest snapshot cost (ms). */
  private cost = 0
  /** A batch once a throttled snapshot may be taken again, even if nothing else arrives. */
  private readonly run: DeferredRun
  private readonly replyAt = new Map<number, Reply>()
  private factsCache: Facts | null = null

  constructor(private readonly model: ModelState, private readonly env: StoreEnv) {
    this.run = new DeferredRun(model, env)
  }

  /** The reply as it stands, or the snapshot before while a dear one may not be taken again yet. */
  latest(): Reply {
    const m = this.model
    if (m.final) return this.ended(m.final)
    const cur = this.snapshot
    if (cur && cur.rev === m.rev) return cur.reply
    const merging = this.env.merging(m)
    if (cur && cur.reply.frameCount > 0 && (this.cost > SNAPSHOT_CHEAP_MS || merging)) {
      const wait = waitToRerun(this.env.now(), cur.at, this.cost, SNAPSHOT_RATIO, merging ? SNAPSHOT_LOADING_MS : 0)
      if (wait > 0) {
        this.run.schedule(() => this.env.changed(), wait)
        return cur.reply
      }
    }
    return this.take()
  }

  /** The reply as it stands now, whatever it costs (exports). */
  fresh(): Reply {
    const m = this.model
    if (m.final) return this.ended(m.final)
    const cur = this.snapshot
    return cur && cur.rev === m.rev ? cur.reply : this.take()
  }

  /** The reply as it stood after frame `seq`. */
  after(seq: number): Reply {
    const m = this.model
    const count = m.merger.frameCount
    if (count === 0) return this.latest()
    if (seq >= count - 1 && m.final) return m.final
    const key = Math.min(seq, count - 1)
    let reply = this.replyAt.get(key)
    if (!reply) {
      // the core continues its last replay when moving forward: stepping through frames is cheap
      reply = m.merger.replyAt(key)
      if (this.replyAt.size >= REPLY_AT_CACHE) this.replyAt.delete(this.replyAt.keys().next().value!)
      this.replyAt.set(key, reply)
    }
    return reply
  }

  facts(): Facts {
    const m = this.model
    if (this.factsCache && this.factsCache.rev === m.rev) return this.factsCache
    const streamErrors = m.merger.streamErrors()
    const streamErrorByFrame = new Map<number, string>()
    for (const s of streamErrors) if (!streamErrorByFrame.has(s.frame)) streamErrorByFrame.set(s.frame, s.message)
    this.factsCache = { rev: m.rev, entries: m.merger.entries(), streamErrors, streamErrorByFrame }
    return this.factsCache
  }

  forget(): void {
    this.run.forget()
  }

  /** A new merger: nothing cached holds. */
  reset(): void {
    this.forget()
    this.snapshot = null
    this.cost = 0
    this.factsCache = null
    this.replyAt.clear()
  }

  /**
   * The final reply; the last snapshot is let go (a 64 MB stream's snapshot from before its
   * end held 2.8 MB of text and its own arrays for as long as the request was kept).
   */
  private ended(final: Reply): Reply {
    this.snapshot = null
    return final
  }

  private take(): Reply {
    const m = this.model
    if (m.final) return m.final
    const { value: reply, spent, at } = timed(() => this.env.now(), () => m.merger.snapshot())
    this.cost = spent
    this.snapshot = { rev: m.rev, reply, at }
    return reply
  }
}
