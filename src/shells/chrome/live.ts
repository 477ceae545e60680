// Live capture in the service worker (Chrome only): chrome.debugger on the inspected tab. This
// module is the Chrome build's alone (service-worker.ts); Firefox's is live-firefox.ts.
//
// Network.enable; on Network.responseReceived of a streaming response,
// Network.streamResourceContent returns what arrived so far (bufferedData) and from then on
// every Network.dataReceived carries its bytes (data, base64). The bytes are decoded from
// base64 here and handed to the hub through the outbox (live-outbox.ts): batched, off the
// page's path, shed when the panel falls behind. The panel's core decodes the text with one
// streaming decoder per request. Workers and
// out-of-process iframes and service workers come through Target.setAutoAttach (flatten), each
// session resumed with Runtime.runIfWaitingForDebugger (watchChild).
//
// WebSockets (Network.webSocket*, of the tab and of every attached target) are followed by
// live-websocket.ts: each message with its time, split into turns by the hub.
//
// Responses that do not declare a stream type but may be one (a fetch answered text/plain, as
// chat backends often do) are streamed too, held back until their first lines decide
// (live-decide.ts); if they are not a stream they are dropped and never announced.

import browser from 'webextension-polyfill'
import type { Header } from '../../exchange/types.js'
import { liveChannelName, type HubToWorker, type LiveRequestInfo, type WorkerToHub } from '../extension/messages.js'
import { base64Decode } from '../../exchange/bytes.js'
import { LiveOutbox } from '../extension/live-outbox.js'
import type { LiveSession } from '../extension/live-session.js'
import { headerValue } from '../../exchange/shared.js'
import { HeadSniffer, liveDecision } from '../extension/live-decide.js'
import { onWebSocketEvent } from './live-websocket.js'

const PROTOCOL_VERSION = '1.3'
/** Requests remembered between requestWillBeSent and their response (some never get one). */
const MAX_PENDING_REQUESTS = 2000

interface Sent {
  method: string
  url: string
  headers: Header[]
  postData: string | null
  /** wall-clock ms minus monotonic ms for this request, to date CDP timestamps */
  clockOffset: number
  startedAt: number
}

type Op =
  | { kind: 'chunk'; data: Uint8Array; t: number }
  | { kind: 'finished'; t: number }
  | { kind: 'failed'; t: number; canceled: boolean; reason: string }

interface Tracked {
  id: string
  info: LiveRequestInfo
  /** 'pending' until streamResourceContent answers; 'sniff' while undecided; 'on' once announced. */
  phase: 'pending' | 'sniff' | 'on' | 'dropped'
  sniffing: boolean
  queue: Op[]
  held: Op[]
  sniffer: HeadSniffer | null
}

interface Session extends LiveSession<Sent, Tracked> {
  /** The CDP failures already said in the panel (reportFailure). */
  failures: Set<string>
  /** WebSockets followed (live-websocket.ts). */
  sockets: Map<string, { id: string; clockOffset: number }>
}

const sessions = new Map<number, Session>()

type Debuggee = chrome.debugger.Debuggee & { sessionId?: string }

function send(target: Debuggee, method: string, params?: object): Promise<unknown> {
  return (chrome.debugger.sendCommand as unknown as (t: Debuggee, m: string, p?: object) => Promise<unknown>)(target, method, params)
}

/** CDP's base64, decoded natively where the engine can (Chromium 140+), else in JS. */
function fromBase64(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64
  return native ? native(text) : base64Decode(text)
}

function toHeaders(h: Record<string, unknown> | undefined): Header[] {
  if (!h) return []
  const out: Header[] = []
  for (const [name, value] of Object.entries(h)) {
    // CDP joins repeated headers with "\n".
    for (const v of String(value).split('\n')) out.push({ name, value: v })
  }
  return out
}

function key(sessionId: string | undefined, requestId: string): string {
  return `${sessionId ?? 'tab'}:${requestId}`
}

export function installLiveCapture(): void {
  if (!chrome.debugger) return
  chrome.debugger.onEvent.addListener((source, method, params) => {
    const s = source.tabId !== undefined ? sessions.get(source.tabId) : undefined
    if (s) onEvent(s, (source as Debuggee).sessionId, method, (params ?? {}) as Record<string, unknown>)
  })
  chrome.debugger.onDetach.addListener((source, reason) => {
    if (source.tabId === undefined) return
    const s = sessions.get(source.tabId)
    if (!s) return
    sessions.delete(source.tabId)
    close(s)
    const why = reason === 'canceled_by_user' ? 'debugging was cancelled from the browser bar' : reason === 'target_closed' ? 'the tab was closed or replaced' : String(reason)
    s.post({ type: 'live-detached', reason: why })
  })
}

/** Handles one hub message; `post` answers on the hub's port. */
export async function handleHubMessage(msg: HubToWorker, post: (m: WorkerToHub) => void): Promise<void> {
  if (msg.type === 'live-start') {
    if (!chrome.debugger) {
      post({ type: 'live-result', ok: false, enabled: false, message: 'Live capture needs the chrome.debugger API, which this browser does not have.' })
      return
    }
    if (!(await browser.permissions.contains({ permissions: ['debugger'] }))) {
      post({ type: 'live-result', ok: false, enabled: false, message: 'The "debugger" permission was not granted.' })
      return
    }
    const existing = sessions.get(msg.tabId)
    if (existing) {
      existing.post = post
      post({ type: 'live-result', ok: true, enabled: true })
      return
    }
    const channel = new BroadcastChannel(liveChannelName(msg.tabId))
    const session: Session = { tabId: msg.tabId, post, outbox: new LiveOutbox(channel), channel, sent: new Map(), tracked: new Map(), failures: new Set(), sockets: new Map() }
    sessions.set(msg.tabId, session)
    try {
      await chrome.debugger.attach({ tabId: msg.tabId }, PROTOCOL_VERSION)
      await send({ tabId: msg.tabId }, 'Network.enable', {})
      await send({ tabId: msg.tabId }, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true })
      post({ type: 'live-result', ok: true, enabled: true })
    } catch (e) {
      sessions.delete(msg.tabId)
      channel.close()
      try { await chrome.debugger.detach({ tabId: msg.tabId }) } catch { /* not attached */ }
      post({ type: 'live-result', ok: false, enabled: false, message: `Could not attach the debugger: ${(e as Error).message ?? String(e)}` })
    }
  } else {
    await stopLive(msg.tabId)
    post({ type: 'live-result', ok: true, enabled: false })
  }
}

/** Detaches from the tab (the hub went away or live mode was turned off). */
export async function stopLive(tabId: number): Promise<void> {
  const s = sessions.get(tabId)
  if (!s) return
  sessions.delete(tabId)
  close(s)
  try { await chrome.debugger.detach({ tabId }) } catch { /* already detached */ }
}

/** What was captured before the end is still said; then the channel closes. */
function close(s: Session): void {
  s.outbox.flush()
  s.channel.close()
}

function onEvent(s: Session, sessionId: string | undefined, method: string, p: Record<string, unknown>): void {
  if (onWebSocketEvent(s, sessionId, method, p, toHeaders, fromBase64)) return
  const target: Debuggee = sessionId ? { tabId: s.tabId, sessionId } : { tabId: s.tabId }
  switch (method) {
    case 'Target.attachedToTarget': {
      const info = (p['targetInfo'] ?? {}) as { type?: string; url?: string }
      watchChild(s, p['sessionId'] as string, info.type ?? '', info.url ?? '', p['waitingForDebugger'] === true)
      return
    }
    case 'Network.requestWillBeSent': {
      const req = p['request'] as { method: string; url: string; headers?: Record<string, unknown>; postData?: string }
      const wallTime = (p['wallTime'] as number) * 1000
      const ts = (p['timestamp'] as number) * 1000
      if (s.sent.size >= MAX_PENDING_REQUESTS) s.sent.delete(s.sent.keys().next().value!)
      s.sent.set(key(sessionId, p['requestId'] as string), {
        method: req.method,
        url: req.url,
        headers: toHeaders(req.headers),
        postData: req.postData ?? null,
        clockOffset: Number.isFinite(wallTime) && Number.isFinite(ts) ? wallTime - ts : 0,
        startedAt: Number.isFinite(wallTime) ? wallTime : Date.now(),
      })
      return
    }
    case 'Network.responseReceived': {
      const requestId = p['requestId'] as string
      const k = key(sessionId, requestId)
      const sent = s.sent.get(k)
      const response = p['response'] as { status?: number; headers?: Record<string, unknown>; mimeType?: string; url?: string }
      const responseHeaders = toHeaders(response.headers)
      const contentType = headerValue(responseHeaders, 'content-type') ?? (response.mimeType || null)
      const decision = liveDecision(responseHeaders, String(p['type'] ?? ''))
      if (decision === 'no') { s.sent.delete(k); return }
      const maybe = decision === 'maybe'
      const info: LiveRequestInfo = {
        id: `live:${k}`,
        requestId,
        method: sent?.method ?? 'GET',
        url: sent?.url ?? response.url ?? '',
        status: response.status ?? null,
        requestHeaders: sent?.headers ?? [],
        responseHeaders,
        requestBody: sent?.postData ?? null,
        contentType,
        startedAt: sent?.startedAt ?? Date.now(),
      }
      const t: Tracked = { id: info.id, info, phase: 'pending', sniffing: maybe, queue: [], held: [], sniffer: null }
      s.tracked.set(k, t)
      send(target, 'Network.streamResourceContent', { requestId }).then(
        (result) => {
          const buffered = (result as { bufferedData?: string } | undefined)?.bufferedData ?? ''
          if (maybe) { t.phase = 'sniff'; t.sniffer = new HeadSniffer(info.url, undefined, info.contentType) } else announce(s, t)
          const queued = t.queue
          t.queue = []
          if (buffered) apply(s, k, t, { kind: 'chunk', data: fromBase64(buffered), t: Date.now() })
          for (const op of queued) apply(s, k, t, op)
        },
        () => {
          // Finished before streaming could start, or not streamable: the HAR path lists it.
          t.phase = 'dropped'
          s.tracked.delete(k)
        },
      )
      return
    }
    case 'Network.dataReceived': {
      const data = p['data'] as string | undefined
      if (!data) return
      const k = key(sessionId, p['requestId'] as string)
      const t = s.tracked.get(k)
      if (t) route(s, k, t, { kind: 'chunk', data: fromBase64(data), t: stamp(s, k, p) })
      return
    }
    case 'Network.loadingFinished': {
      const k = key(sessionId, p['requestId'] as string)
      const t = s.tracked.get(k)
      if (t) route(s, k, t, { kind: 'finished', t: stamp(s, k, p) })
      else s.sent.delete(k)
      return
    }
    case 'Network.loadingFailed': {
      const k = key(sessionId, p['requestId'] as string)
      const t = s.tracked.get(k)
      if (t) {
        const canceled = p['canceled'] === true
        const reason = canceled ? 'cancelled by the page' : String(p['errorText'] ?? 'failed')
        route(s, k, t, { kind: 'failed', t: stamp(s, k, p), canceled, reason })
      } else s.sent.delete(k)
      return
    }
  }
}

/** Target types that can start targets of their own (an iframe's worker, a worker's worker). */
const NESTING_TYPES = new Set(['iframe', 'worker', 'shared_worker'])

/**
 * A target the tab started (a worker, an out-of-process iframe, a service worker), held at its
 * start until released: its network is watched, then it runs. The commands are sent together,
 * none awaiting another: a service worker held at its start answers Network.enable only once it
 * runs, so awaiting that answer before releasing it held the worker forever (Chromium 156:
 * `navigator.serviceWorker.register()` never settled). The session processes them in order, so
 * the target's first request is still seen. A command that fails is said in the panel.
 */
function watchChild(s: Session, sessionId: string, type: string, url: string, waiting: boolean): void {
  const child: Debuggee = { tabId: s.tabId, sessionId }
  const commands: Array<[string, object | undefined]> = [['Network.enable', {}]]
  if (NESTING_TYPES.has(type)) commands.push(['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }])
  if (waiting) commands.push(['Runtime.runIfWaitingForDebugger', undefined])
  for (const [method, params] of commands) {
    send(child, method, params).catch((e: unknown) => reportFailure(s, method, type, url, e))
  }
}

/** Distinct failures said per session, at most: a page starting workers in a loop says it once. */
const MAX_FAILURES_SAID = 20

function reportFailure(s: Session, method: string, type: string, url: string, e: unknown): void {
  if (!sessions.has(s.tabId)) return // Live went off meanwhile: its sessions went with it
  const error = e instanceof Error ? e.message : String(e)
  const key = `${method} ${type} ${error}`
  if (s.failures.has(key) || s.failures.size >= MAX_FAILURES_SAID) return
  s.failures.add(key)
  // a target gone before its commands arrived (a short-lived worker) lost nothing to Live
  const gone = /not found|no (session|target)|closed|detached/i.test(error)
  s.post({
    type: 'live-problem',
    level: gone ? 'info' : 'warning',
    message: gone
      ? `Live: a ${type || 'target'} (${url || 'no URL'}) ended before ${method} reached it (${error}); nothing of it was missed.`
      : `Live: ${method} failed for a ${type || 'target'} (${url || 'no URL'}): ${error}. ${method === 'Network.enable' ? 'Its requests are captured when they finish.' : method === 'Runtime.runIfWaitingForDebugger' ? 'It may stay paused: turn Live off to release it.' : 'Targets it starts are captured when their requests finish.'}`,
  })
}

function stamp(s: Session, k: string, p: Record<string, unknown>): number {
  const ts = p['timestamp']
  const sent = s.sent.get(k)
  if (typeof ts === 'number' && sent && sent.clockOffset !== 0) return Math.round(ts * 1000 + sent.clockOffset)
  return Date.now()
}

function route(s: Session, k: string, t: Tracked, op: Op): void {
  if (t.phase === 'pending') t.queue.push(op)
  else apply(s, k, t, op)
}

function apply(s: Session, k: string, t: Tracked, op: Op): void {
  if (t.phase === 'dropped') return
  if (t.phase === 'sniff') {
    t.held.push(op)
    const verdict = op.kind === 'chunk' ? t.sniffer!.push(op.data) : t.sniffer!.end()
    if (verdict === null) return
    if (verdict === 'no') { t.phase = 'dropped'; t.held = []; s.tracked.delete(k); s.sent.delete(k); return }
    if (t.sniffer!.reason !== null) t.info.listedBecause = t.sniffer!.reason
    announce(s, t)
    const held = t.held
    t.held = []
    t.sniffer = null
    for (const h of held) forward(s, k, t, h)
    return
  }
  forward(s, k, t, op)
}

function announce(s: Session, t: Tracked): void {
  t.phase = 'on'
  s.outbox.push({ type: 'live-request', request: t.info })
}

function forward(s: Session, k: string, t: Tracked, op: Op): void {
  if (op.kind === 'chunk') s.outbox.pushChunk(t.id, op.data, op.t)
  else {
    if (op.kind === 'finished') s.outbox.push({ type: 'live-finished', id: t.id, t: op.t })
    else s.outbox.push({ type: 'live-failed', id: t.id, t: op.t, canceled: op.canceled, reason: op.reason })
    s.tracked.delete(k)
    s.sent.delete(k)
  }
}
