// A recorded WebSocket connection replayed to the user's own client (`deltascope/testing`): a
// fake server behind a WebSocket constructor with the browser's API. Each socket made plays the
// received messages in their recorded order; where the recording has the client sending, it
// waits for the client to send (any message: the recording shows when, not what), and it
// records everything the client sends. Web platform only (EventTarget, Event, MessageEvent),
// so it runs in Node and in browsers.
//
//   const replay = replayWebSocket(fixture)
//   const client = new MyRealtimeClient({ WebSocket: replay.WebSocket })
//   await replay.done
//   expect(replay.sent.length).toBe(2)

import { parseWsFixture, type WsCapture } from '../exchange/websocket.js'

export interface WebSocketReplayOptions {
  /** 0 (the default): each message as soon as the client can take it; 1: at the recorded pace; 2: twice as fast. */
  speed?: number
  /** Wait for the client's own messages where the recording has them (default true). */
  waitForSends?: boolean
}

export interface WebSocketReplay {
  /** Hand this to the client (or set it as globalThis.WebSocket): each `new` plays the recording from its start. */
  WebSocket: new (url: string | URL, protocols?: string | string[]) => WebSocket
  /** What the client sent on the latest socket, in order. */
  readonly sent: Array<string | Uint8Array>
  /** The URL the latest socket was opened with. */
  readonly url: string | null
  /** Resolves once the latest socket has played everything and closed (or, with no close recorded, played its last message). */
  readonly done: Promise<void>
}

/** A recording: a WebSocket capture, or a WebSocket fixture (parsed or its text). */
export function replayWebSocket(recording: WsCapture | string | object, options: WebSocketReplayOptions = {}): WebSocketReplay {
  const isCapture = typeof recording === 'object' && recording !== null && 'messages' in recording && !('format' in recording)
  const capture = isCapture ? recording as WsCapture : parseWsFixture(recording).capture
  const speed = options.speed ?? 0
  if (!(speed >= 0) || !Number.isFinite(speed)) throw new TypeError(`speed must be a number ≥ 0, got ${String(options.speed)}`)
  const state: { sent: Array<string | Uint8Array>; url: string | null; done: Promise<void> } = { sent: [], url: null, done: Promise.resolve() }

  class ReplayedWebSocket extends EventTarget {
    static readonly CONNECTING = 0
    static readonly OPEN = 1
    static readonly CLOSING = 2
    static readonly CLOSED = 3
    readonly CONNECTING = 0
    readonly OPEN = 1
    readonly CLOSING = 2
    readonly CLOSED = 3
    readonly url: string
    readonly protocol: string
    readonly extensions = ''
    readonly bufferedAmount = 0
    binaryType: 'blob' | 'arraybuffer' = 'blob'
    readyState = 0
    onopen: ((e: Event) => void) | null = null
    onmessage: ((e: MessageEvent) => void) | null = null
    onclose: ((e: Event) => void) | null = null
    onerror: ((e: Event) => void) | null = null
    private wake: (() => void) | null = null
    private consumed = 0
    /** The close the client asked for, fired on the next task as a browser does. */
    private closing: Promise<void> | null = null

    constructor(url: string | URL, protocols?: string | string[]) {
      super()
      this.url = String(url)
      this.protocol = Array.isArray(protocols) ? (protocols[0] ?? '') : (protocols ?? '')
      state.sent = []
      state.url = this.url
      state.done = this.play()
    }

    send(data: string | ArrayBufferLike | ArrayBufferView | Blob): void {
      if (this.readyState === 0) throw new DOMException('send() before the socket opened', 'InvalidStateError')
      if (this.readyState !== 1) return
      if (typeof data === 'string') state.sent.push(data)
      else if (ArrayBuffer.isView(data)) state.sent.push(new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)))
      else if (data instanceof ArrayBuffer) state.sent.push(new Uint8Array(data.slice(0)))
      else state.sent.push(new Uint8Array(0)) // a Blob's bytes arrive later than send(): recorded as sent, empty
      this.wake?.()
    }

    close(code = 1000, reason = ''): void {
      if (this.readyState >= 2) return
      this.readyState = 2
      this.wake?.()
      this.closing = tick(0).then(() => this.closed(code, reason, true))
    }

    private async play(): Promise<void> {
      await this.script()
      if (this.closing) await this.closing
    }

    private async script(): Promise<void> {
      await tick(0)
      if (this.readyState !== 0) return
      this.readyState = 1
      this.fire('open', new Event('open'))
      let last = capture.messages.find((m) => m.time !== null)?.time ?? null
      for (const m of capture.messages) {
        if (this.readyState !== 1) return
        if (m.direction === 'send') {
          if (options.waitForSends === false) continue
          while (state.sent.length <= this.consumed && this.readyState === 1) await new Promise<void>((resolve) => { this.wake = resolve })
          this.wake = null
          this.consumed++
          continue
        }
        const wait = speed > 0 && m.time !== null && last !== null ? Math.max(0, (m.time - last) / speed) : 0
        if (m.time !== null) last = m.time
        await tick(wait)
        if (this.readyState !== 1) return
        this.fire('message', new MessageEvent('message', { data: this.payload(m.data) }))
      }
      if (capture.close === null || this.readyState !== 1) return
      await tick(0)
      if (this.readyState !== 1) return
      // a connection that ended without a close frame is what the browser reports as 1006
      const code = capture.close.code ?? 1006
      if (code === 1006) this.fire('error', new Event('error'))
      this.closed(code, capture.close.reason, code !== 1006)
    }

    private payload(data: string | Uint8Array): string | ArrayBuffer | Blob {
      if (typeof data === 'string') return data
      const copy = data.slice().buffer
      return this.binaryType === 'arraybuffer' || typeof Blob === 'undefined' ? copy : new Blob([copy])
    }

    private closed(code: number, reason: string, wasClean: boolean): void {
      if (this.readyState === 3) return
      this.readyState = 3
      const e = Object.assign(new Event('close'), { code, reason, wasClean })
      this.fire('close', e)
    }

    private fire(type: 'open' | 'message' | 'close' | 'error', e: Event): void {
      const handler = this[`on${type}`] as ((e: Event) => void) | null
      handler?.call(this, e)
      this.dispatchEvent(e)
    }
  }

  return {
    WebSocket: ReplayedWebSocket as unknown as WebSocketReplay['WebSocket'],
    get sent() { return state.sent },
    get url() { return state.url },
    get done() { return state.done },
  }
}

function tick(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
