// A WebSocket connection carries many replies: its messages are read into frames
// (ws-message.ts), the provider is chosen from the first received frame an adapter recognises
// (earlier ones held, as for a body), and each received frame goes to the turn its adapter
// names (ProviderAdapter.turn): a Realtime response, a Live turn, a chat message. Each turn has
// a router and accumulator of its own, so its Reply is built by the same merge rules as an
// HTTP body's. Sent messages are listed, never merged. A connection that closes while a turn
// is open marks that turn cut.

import { ProviderChooser } from './provider-chooser.js'
import { Router } from './router.js'
import { SYMPTOMS } from './symptoms.js'
import type { Diagnostic, FrameError, ProviderId, Reply, StreamError } from './types.js'
import type { ParsedFrame, ProviderAdapter, ProviderChoice, ProviderRegistry, TurnMark } from './adapters.js'
import { MessageReader, type WsFrame, type WsMessage, type WsProtocol } from './ws-message.js'

export interface ConnectionOptions {
  provider?: ProviderId
  /** The WebSocket's URL: a hint for the provider while no frame has told. */
  url?: string
  /** The sub-protocol, when the caller knows it better than the first message. */
  protocol?: WsProtocol
}

export type TurnState = 'live' | 'done' | 'cut'

export interface Turn {
  /** 0-based among the connection's turns. */
  index: number
  /** The adapter's key (a response id, a message id); null when the wire names none. */
  key: string | null
  /** The seq of every frame that went to it, in order. */
  frames: number[]
  /** live: still streaming; done: its last event came; cut: the connection closed before it. */
  state: TurnState
  reply: Reply
}

export interface ConnectionClose {
  /** The close code; null when the connection ended without a close frame (1006 in the browser), or when the code is not known (then `reason` says so). */
  code: number | null
  reason: string
  time: number | null
}

export interface Connection {
  /** The next message; returns the frames read from it. */
  push(message: WsMessage): WsFrame[]
  /** The connection closed (or the capture ended): open turns are cut. */
  close(info?: Partial<ConnectionClose>): void
  readonly closed: ConnectionClose | null
  /** The provider is chosen: no received frame is held unrouted any more. */
  readonly decided: boolean
  readonly frameCount: number
  readonly messageCount: number
  frame(seq: number): WsFrame
  frames(from?: number, to?: number): WsFrame[]
  /** Every turn, its Reply as it stands. */
  turns(): Turn[]
  providerChoice(): ProviderChoice
  protocol(): WsProtocol | null
  /** Provider errors of every turn (their frames are the connection's seqs). */
  streamErrors(): StreamError[]
  /** The connection's findings, then each turn's, by frame. */
  diagnostics(): Diagnostic[]
}

export function createConnection(registry: ProviderRegistry, options: ConnectionOptions = {}): Connection {
  return new WsConnection(registry, options)
}

interface TurnRecord {
  index: number
  key: string | null
  frames: number[]
  state: TurnState
  router: Router
  errors: FrameError[]
}

class WsConnection implements Connection {
  private readonly reader: MessageReader
  private readonly all: WsFrame[] = []
  private readonly records: TurnRecord[] = []
  private readonly found: Diagnostic[] = []
  /** Received frames are held until it decides, then routed (a test that throws claims nothing, silently). */
  private readonly chooser: ProviderChooser<WsFrame>
  private messages = 0
  closed: ConnectionClose | null = null

  constructor(private readonly registry: ProviderRegistry, options: ConnectionOptions) {
    this.reader = new MessageReader(options.protocol ?? null)
    this.chooser = new ProviderChooser(registry, { url: options.url }, {
      recognize: (frame) => this.recognize(frame),
      decided: (_adapter, _reason, held) => { for (const f of held) this.route(f) },
    })
    if (options.provider) this.chooser.decide(registry.adapter(options.provider), 'forced')
  }

  private get adapter(): ProviderAdapter | null {
    return this.chooser.adapter
  }

  get frameCount(): number { return this.all.length }
  get decided(): boolean { return this.adapter !== null }
  get messageCount(): number { return this.messages }

  push(message: WsMessage): WsFrame[] {
    if (this.closed) throw new Error('push() after close(): the connection is over')
    const n = this.messages++
    const made: WsFrame[] = []
    for (const piece of this.reader.read(message)) {
      const frame: WsFrame = { ...piece, seq: this.all.length, message: n, direction: message.direction, time: message.time, turn: null }
      this.all.push(frame)
      made.push(frame)
      if (message.direction === 'receive') this.received(frame)
    }
    return made
  }

  private received(frame: WsFrame): void {
    if (frame.kind === 'invalid') { this.invalid(frame); return }
    if (frame.kind !== 'data') return
    if (this.adapter === null && !this.chooser.offer(frame)) return
    this.route(frame)
  }

  /** A frame that did not parse: an error of the turn it falls in (the latest open one), else the connection's. */
  private invalid(frame: WsFrame): void {
    const open = this.records.at(-1)
    const error: FrameError = { frame: frame.seq, offset: frame.error!.position, line: frame.message + 1, raw: frame.raw.slice(0, 2000), message: frame.error!.message }
    if (open !== undefined && open.state === 'live') {
      open.errors.push(error)
      open.frames.push(frame.seq)
      frame.turn = open.index
      return
    }
    this.found.push({ frame: frame.seq, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: `message ${frame.message + 1} (received): ${error.message}` })
  }

  private route(frame: WsFrame): void {
    const parsed: ParsedFrame = { seq: frame.seq, event: frame.event, json: frame.json }
    const mark = this.markOf(parsed)
    if (mark === null) return
    const turn = this.turnFor(mark)
    if (turn === null) return
    frame.turn = turn.index
    turn.frames.push(frame.seq)
    turn.router.frame(parsed)
    // an adapter that names no turns (rules, the fallback) ends one at its terminal marker
    const ended = mark.end === true || (this.adapter!.turn === undefined && turn.router.accumulator.ended)
    if (ended && turn.state === 'live') {
      turn.router.end(frame.seq)
      turn.state = 'done'
    }
  }

  /** The adapter's mark; one whose turn() throws puts the frame in the latest turn, with the failure said. */
  private markOf(parsed: ParsedFrame): TurnMark | null {
    const adapter = this.adapter!
    // without turn(), one turn at a time: each ends at its terminal marker (route)
    if (adapter.turn === undefined) return { key: null }
    try {
      return adapter.turn(parsed)
    } catch (e) {
      this.found.push({ frame: parsed.seq, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: `frame ${parsed.seq}: telling its turn as ${adapter.id} failed (${String((e as Error)?.message ?? e).slice(0, 200)}): it went to the latest turn` })
      return { key: null }
    }
  }

  private turnFor(mark: TurnMark): TurnRecord | null {
    const found = this.find(mark.key)
    const open = mark.open ?? 'if-none'
    if (open === 'never') return found
    if (open === 'if-none' && found !== null && found.state === 'live') return found
    const router = new Router(this.registry, { provider: this.adapter!.id })
    const turn: TurnRecord = { index: this.records.length, key: mark.key, frames: [], state: 'live', router, errors: [] }
    this.records.push(turn)
    return turn
  }

  private find(key: string | null): TurnRecord | null {
    for (let i = this.records.length - 1; i >= 0; i--) {
      if (key === null || this.records[i]!.key === key) return this.records[i]!
    }
    return null
  }

  close(info: Partial<ConnectionClose> = {}): void {
    if (this.closed) return
    this.closed = { code: info.code ?? null, reason: info.reason ?? '', time: info.time ?? null }
    if (this.adapter === null && this.chooser.held > 0) this.chooser.decideFallback()
    const reason = this.closed.reason.slice(0, 120)
    // a code null with a reason: closed, the code unknown (DevTools does not report it)
    const how = this.closed.code === null
      ? (reason === '' ? 'ended without a close frame' : `closed (${reason})`)
      : `closed (code ${this.closed.code}${reason === '' ? '' : `, ${JSON.stringify(reason)}`})`
    for (const turn of this.records) {
      if (turn.state !== 'live') continue
      const last = turn.frames.at(-1) ?? this.all.length - 1
      turn.router.end(last)
      turn.state = 'cut'
      this.found.push({ frame: last, level: 'warning', code: 'no-terminal-event', symptom: SYMPTOMS['no-terminal-event'], message: `the connection ${how} in the middle of turn ${turn.index + 1}${turn.key === null ? '' : ` (${JSON.stringify(turn.key.slice(0, 80))})`}: its reply is cut` })
    }
    if (this.adapter?.id === this.registry.fallback.id && this.chooser.reason !== 'forced' && this.all.some((f) => f.direction === 'receive' && f.kind === 'data')) {
      this.found.push({ frame: null, level: 'warning', code: 'unknown-provider', symptom: SYMPTOMS['unknown-provider'], message: 'no received message matched a known provider: frames are listed, no reply was rebuilt (force one with the provider option)' })
    }
  }

  frame(seq: number): WsFrame {
    const f = this.all[seq]
    if (f === undefined) throw new RangeError(`no frame ${seq}: the connection has ${this.all.length}`)
    return { ...f }
  }

  frames(from = 0, to = this.all.length): WsFrame[] {
    return this.all.slice(from, to).map((f) => ({ ...f }))
  }

  turns(): Turn[] {
    return this.records.map((t) => ({ index: t.index, key: t.key, frames: t.frames.slice(), state: t.state, reply: this.reply(t) }))
  }

  private reply(t: TurnRecord): Reply {
    const state = t.router.accumulator.state()
    return { transport: 'websocket', provider: t.router.provider, done: state.done, frameCount: t.frames.length, choices: state.choices, messages: state.messages, usage: state.usage, errors: t.errors.slice() }
  }

  providerChoice(): ProviderChoice {
    return this.chooser.choice()
  }

  protocol(): WsProtocol | null {
    return this.reader.protocol
  }

  streamErrors(): StreamError[] {
    return this.records.flatMap((t) => t.router.accumulator.streamErrors)
  }

  diagnostics(): Diagnostic[] {
    return [...this.found, ...this.records.flatMap((t) => t.router.accumulator.diagnostics)].sort((a, b) => (a.frame ?? -1) - (b.frame ?? -1))
  }

  private recognize(frame: WsFrame): ProviderAdapter | null {
    try {
      return this.registry.recognize({ seq: frame.seq, event: frame.event, json: frame.json })
    } catch {
      return null
    }
  }

}
