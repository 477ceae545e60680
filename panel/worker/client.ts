// The UI side of the merging worker (protocol.ts): requests opened in the worker, their bytes
// sent there (a buffer the UI owns whole is transferred, not copied), and what comes back
// kept as plain data: each request's facts and its reply rebuilt from the patches, and
// windows of frames on demand (a promise per window). Listeners hear of every update, so a
// store can bump its version once per batch of them.

import type { Frame, MergeOptions, Reply } from '../../src/library.js'
import { applyPatch, type FromWorker, type MergeFacts, type ToWorker } from './protocol.js'

/** The worker, or anything that passes messages like it (a MessagePort, a test's fake). */
export interface WorkerLike {
  postMessage(message: ToWorker, transfer?: Transferable[]): void
  onmessage: ((event: { data: FromWorker }) => void) | null
}

export interface RemoteRequest {
  readonly id: string
  /** The facts and reply of the last update (null before the first). */
  readonly facts: MergeFacts | null
  readonly reply: Reply | null
  /** Why the worker stopped merging it, if it did. */
  readonly failed: string | null
  /**
   * Sends a piece of the body. `owned`: the caller will not read `data` again, so a buffer
   * it fills whole is transferred to the worker instead of copied.
   */
  push(data: Uint8Array | string, t: number | null, owned?: boolean): void
  end(): void
  /** Frames [from, to), built in the worker. */
  frames(from: number, to: number): Promise<Frame[]>
  /** Frees the request in the worker (and here). */
  release(): void
}

export interface MergeClient {
  open(id: string, options: MergeOptions): RemoteRequest
  get(id: string): RemoteRequest | null
  /** Called after every update from the worker (with the request's id). */
  onUpdate(listener: (id: string) => void): () => void
}

export function createMergeClient(worker: WorkerLike): MergeClient {
  interface State { facts: MergeFacts | null; reply: Reply | null; failed: string | null }
  const states = new Map<string, State>()
  const requests = new Map<string, RemoteRequest>()
  const waiting = new Map<number, (frames: Frame[]) => void>()
  const listeners = new Set<(id: string) => void>()
  let calls = 0

  worker.onmessage = ({ data: msg }) => {
    if (msg.type === 'frames') {
      waiting.get(msg.call)?.(msg.frames)
      waiting.delete(msg.call)
      return
    }
    const s = states.get(msg.id)
    if (!s) return
    if (msg.type === 'update') {
      s.facts = msg.facts
      s.reply = applyPatch(s.reply, msg.reply)
    } else {
      s.failed = msg.message
    }
    for (const l of listeners) l(msg.id)
  }

  const open = (id: string, options: MergeOptions): RemoteRequest => {
    const s: State = { facts: null, reply: null, failed: null }
    states.set(id, s)
    worker.postMessage({ type: 'open', id, options })
    const request: RemoteRequest = {
      id,
      get facts() { return s.facts },
      get reply() { return s.reply },
      get failed() { return s.failed },
      push(data, t, owned = false) {
        const whole = typeof data !== 'string' && owned && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer
        worker.postMessage({ type: 'push', id, data, t }, whole ? [(data as Uint8Array).buffer as ArrayBuffer] : [])
      },
      end() { worker.postMessage({ type: 'end', id }) },
      frames(from, to) {
        const call = ++calls
        return new Promise<Frame[]>((resolve) => {
          waiting.set(call, resolve)
          worker.postMessage({ type: 'frames', id, call, from, to })
        })
      },
      release() {
        states.delete(id)
        requests.delete(id)
        worker.postMessage({ type: 'release', id })
      },
    }
    requests.set(id, request)
    return request
  }

  return {
    open,
    get: (id) => requests.get(id) ?? null,
    onUpdate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
