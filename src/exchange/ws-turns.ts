// A WebSocket connection as the panel lists it: one request row per turn (docs/architecture.md
// #websocket). The connection (src/core/connection.ts) tells which turn each received frame
// belongs to; each turn's body is its frames written as SSE, so the store, the frame list, the
// reply view, provenance, the debugger and every export read a turn as they read any stream:
// a received frame is an event (`event:` the Socket.IO event or SignalR target, `data:` its
// JSON), and everything a client must not merge (sent messages, pings, the connection's own
// events, text, binary as hex) is a comment, listed dimmed. Turns appear as they start, grow
// frame by frame and finish at their end, or are cancelled when the connection closes first.
// The same events serve live capture (the hub) and import (HAR, WebSocket fixture).

import { createConnection, jsonText, type Connection, type ConnectionClose, type WsFrame, type WsMessage } from '../library.js'
import type { CapturedChunk, CapturedRequest, CaptureEvent, Header, Recording } from './types.js'

export interface TurnStreamOptions {
  /** Turn rows are `${id}-t${n}`. */
  id: string
  url: string
  startedAt: number
  source: CapturedRequest['source']
  requestHeaders?: Header[]
  responseHeaders?: Header[]
  provider?: string
}

export class TurnStreams {
  readonly connection: Connection
  /** The first frame not yet written to a turn. */
  private next = 0
  /** Comment blocks waiting for a turn to hold them (frames before the first turn, or between turns). */
  private held: Array<{ text: string; t: number | null }> = []
  /** Turns announced (request sent), and those whose row is finished or cancelled. */
  private readonly announced = new Set<number>()
  private readonly over = new Set<number>()
  /** Turns done by their last event, whose row finishes once a later frame goes elsewhere (usage may follow the end). */
  private readonly ending = new Map<number, number | null>()

  /** The rows' request fields: headers learnt after the start (a live handshake) are set here before a turn is announced. */
  constructor(readonly options: TurnStreamOptions) {
    this.connection = createConnection({ url: options.url, ...(options.provider ? { provider: options.provider } : {}) })
  }

  push(message: WsMessage): CaptureEvent[] {
    this.connection.push(message)
    return this.drain()
  }

  /** The connection closed: turns still open are cancelled with the reason; frames no turn took get a row of their own. */
  close(info: Partial<ConnectionClose> = {}): CaptureEvent[] {
    this.connection.close(info)
    const out = this.drain()
    const t = info.time ?? null
    for (const turn of this.connection.turns()) {
      if (this.over.has(turn.index) || !this.announced.has(turn.index)) continue
      this.over.add(turn.index)
      if (turn.state === 'cut') out.push({ type: 'cancelled', id: this.rowId(turn.index), t, reason: closedReason(this.connection.closed!) })
      else out.push({ type: 'finished', id: this.rowId(turn.index), t: this.ending.get(turn.index) ?? t, status: 101 })
    }
    if (this.held.length > 0) {
      const id = `${this.options.id}-c`
      out.push({ type: 'request', request: this.request(id, null) })
      for (const h of this.held) out.push({ type: 'chunk', id, data: h.text, t: h.t })
      out.push({ type: 'finished', id, t, status: 101 })
      this.held = []
    }
    return out
  }

  private drain(): CaptureEvent[] {
    const out: CaptureEvent[] = []
    const c = this.connection
    while (this.next < c.frameCount) {
      const f = c.frame(this.next)
      // a received frame not yet routed waits for the provider to be chosen (it may open a turn)
      if (!c.decided && f.direction === 'receive' && f.kind === 'data') break
      this.next++
      this.write(f, out)
    }
    const turns = c.turns()
    for (const turn of turns) {
      if (turn.state === 'done' && !this.over.has(turn.index) && !this.ending.has(turn.index)) this.ending.set(turn.index, c.frame(turn.frames.at(-1)!).time)
    }
    return out
  }

  private write(f: WsFrame, out: CaptureEvent[]): void {
    const turn = f.turn !== null && !this.over.has(f.turn) ? f.turn : null
    // a received frame that goes elsewhere ends the rows of turns done before it (what the
    // client sends, and pings, do not: the server may still add to the turn)
    if (f.direction === 'receive' && f.kind === 'data') {
      for (const [index, t] of this.ending) {
        if (index === turn) continue
        this.ending.delete(index)
        this.over.add(index)
        out.push({ type: 'finished', id: this.rowId(index), t, status: 101 })
      }
    }
    if (turn === null) {
      const block = { text: comment(f), t: f.time }
      const open = this.openRow()
      if (open === null) this.held.push(block)
      else out.push({ type: 'chunk', id: this.rowId(open), data: block.text, t: block.t })
      return
    }
    if (!this.announced.has(turn)) {
      this.announced.add(turn)
      const key = this.connection.turns()[turn]!.key
      const id = this.rowId(turn)
      out.push({ type: 'request', request: this.request(id, { connection: this.options.id, turn, key }) })
      for (const h of this.held) out.push({ type: 'chunk', id, data: h.text, t: h.t })
      this.held = []
    }
    out.push({ type: 'chunk', id: this.rowId(turn), data: event(f), t: f.time })
    // a frame that joins a turn after its end (usage, an error) moves the row's end
    if (this.ending.has(turn)) this.ending.set(turn, f.time)
  }

  /** The latest turn whose row is still open (streaming, or done and not yet finished). */
  private openRow(): number | null {
    let latest: number | null = null
    for (const i of this.announced) if (!this.over.has(i)) latest = i
    return latest
  }

  private rowId(turn: number): string {
    return `${this.options.id}-t${turn}`
  }

  private request(id: string, websocket: NonNullable<CapturedRequest['websocket']> | null): CapturedRequest {
    const o = this.options
    const request: CapturedRequest = {
      id, method: 'GET', url: o.url, status: 101, requestHeaders: o.requestHeaders ?? [], responseHeaders: o.responseHeaders ?? [],
      requestBody: null, contentType: 'text/event-stream', startedAt: o.startedAt, source: o.source,
    }
    request.websocket = websocket ?? { connection: o.id, turn: -1, key: null }
    request.listedBecause = websocket === null ? 'the WebSocket connection\'s frames outside any turn' : `turn ${websocket.turn + 1} of a WebSocket connection`
    return request
  }
}

/** Every event of a whole capture (an import): the turns' rows in order. */
export function turnEvents(options: TurnStreamOptions, messages: readonly WsMessage[], close: ConnectionClose | null): CaptureEvent[] {
  const streams = new TurnStreams(options)
  const out: CaptureEvent[] = []
  for (const m of messages) out.push(...streams.push(m))
  out.push(...streams.close(close ?? { code: null, reason: 'the capture ended here', time: messages.at(-1)?.time ?? null }))
  return out
}

/** A received frame as one SSE event: its data lines are its JSON (Socket.IO's and SignalR's payload written back as JSON). */
function event(f: WsFrame): string {
  const data = f.protocol === 'json' ? f.raw : jsonText(f.json ?? null)
  const head = f.event !== null ? `event: ${oneLine(f.event)}\n` : ''
  return head + data.split(/\r\n|\r|\n/).map((l) => `data: ${l}\n`).join('') + '\n'
}

/** A frame no client merges, as an SSE comment block saying what it is. */
function comment(f: WsFrame): string {
  const what = [
    f.direction === 'send' ? 'sent' : 'received',
    f.kind === 'binary' ? `binary, ${f.size} bytes` : f.kind === 'invalid' ? `not read: ${f.error!.message}` : f.kind === 'text' ? 'text, not JSON' : null,
    f.note,
  ].filter((x) => x !== null).join(', ')
  return `: [${what}]\n` + f.raw.split(/\r\n|\r|\n/).map((l) => `: ${l}\n`).join('') + '\n'
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]/g, ' ')
}

function closedReason(c: ConnectionClose): string {
  const how = c.code === null
    ? (c.reason === '' ? 'ended without a close frame' : `closed (${c.reason})`)
    : `closed (code ${c.code}${c.reason === '' ? '' : `, ${c.reason}`})`
  return `the WebSocket connection ${how} before this turn's end`
}

/** A capture's turns as Recordings (an import: the HAR's, a WebSocket fixture's), each with its chunks and times. */
export function turnRecordings(options: TurnStreamOptions, messages: readonly WsMessage[], close: ConnectionClose | null): Recording[] {
  const byId = new Map<string, Recording & { chunks: CapturedChunk[] }>()
  for (const e of turnEvents(options, messages, close)) {
    if (e.type === 'request') byId.set(e.request.id, { request: e.request, chunks: [] })
    else if (e.type === 'chunk') byId.get(e.id)?.chunks.push({ data: e.data, t: e.t })
  }
  return [...byId.values()]
}
