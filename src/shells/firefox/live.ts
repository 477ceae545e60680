// Live capture in Firefox's background script (Firefox only): webRequest.filterResponseData on
// the inspected tab's requests. This module is the Firefox build's alone
// (background-firefox.ts); Chrome's is live.ts.
//
// While live capture is on for a tab, its requests are watched with webRequest listeners
// filtered to that tab (frames and dedicated workers of the tab included, as Firefox gives them
// the tab's id) and to the request types a stream comes by (fetch, XHR, EventSource); none is
// registered while it is off. onHeadersReceived (blocking: the filter must be in place before
// the first body byte) decides from the response headers alone (live-decide.ts) and attaches
// a StreamFilter to streams and maybe-streams; every other response of those types waits only
// for that synchronous decision. Its `ondata` writes every chunk straight back to the page
// first, then queues the same bytes in the outbox (live-outbox.ts), which posts them to the
// hub in batches: the exact bytes, after content decoding, in arrival order. The thread that
// runs ondata does nothing else per read, so the next read is passed on at once. `onstop` closes the filter. A maybe-stream (a fetch answered text/plain, …)
// is held until its first lines sniff as a stream; if they do not, the filter is disconnected
// and the response is never announced.
//
// Needs the host permission (`<all_urls>`): Firefox lets the user withhold an MV3 add-on's host
// permissions, and a DevTools panel has no permissions.request to ask again, so turning live
// capture on says what is missing and where to grant it.
//
// The background is an event page: Firefox suspends it after 30 s without extension API
// activity (extensions.background.idle.timeout), open Ports notwithstanding, and live capture
// would end with it. While live capture is on, the host permission is checked again every
// WATCH_MS: that call keeps the page awake, and a permission withdrawn in about:addons
// meanwhile ends live capture with a note instead of silently missing requests.

import browser, { type WebRequest } from 'webextension-polyfill'
import { headerValue } from '../../exchange/shared.js'
import type { Header } from '../../exchange/types.js'
import type { LiveBackend } from '../extension/background.js'
import { HeadSniffer, liveDecision } from '../extension/live-decide.js'
import { liveChannelName, type HubToWorker, type LiveRequestInfo, type WorkerToHub } from '../extension/messages.js'
import { LiveOutbox } from '../extension/live-outbox.js'
import type { LiveSession } from '../extension/live-session.js'

export const HOST_PERMISSION = '<all_urls>'

export const MISSING_HOST_PERMISSION =
  'Live capture in Firefox reads responses through webRequest, which needs the add-on\'s permission to "Access your data for all websites". ' +
  'That permission is withheld: grant it in about:addons → Deltascope → Permissions, then turn Live on again. ' +
  'Until then requests are captured when they finish.'

/** The webRequest types a streamed response can arrive as (see start). */
const STREAM_REQUEST_TYPES: WebRequest.ResourceType[] = ['xmlhttprequest', 'other']

/** Requests remembered between onBeforeRequest and their response headers (some never get any). */
const MAX_PENDING = 2000
/** Well inside Firefox's 30 s idle timeout; the Firefox test's build makes it shorter. */
const WATCH_MS = __DELTASCOPE_LIVE_WATCH_MS__

interface Sent {
  method: string
  url: string
  requestHeaders: Header[]
  requestBody: string | null
  startedAt: number
}

interface Tracked {
  filter: WebRequest.StreamFilter
  info: LiveRequestInfo
  /** 'sniff' while a maybe-stream is undecided, 'on' once announced, 'done' after its end or once Live is off (its bytes still pass). */
  phase: 'sniff' | 'on' | 'done'
  sniffer: HeadSniffer | null
  held: Array<{ data: ArrayBuffer; t: number }>
  /** The filter stopped: the body is all here, but whether it completed or the page aborted it is not known yet. */
  stopped: boolean
  /** webRequest.onCompleted fired (the request completed). */
  completed: boolean
  /** Ends it as finished if neither onCompleted nor onErrorOccurred comes after the stop. */
  verdictTimer: ReturnType<typeof setTimeout> | null
}

/**
 * How long after the filter stops the verdict waits for onCompleted or onErrorOccurred: a page
 * that aborts its fetch stops the filter before onErrorOccurred says NS_BINDING_ABORTED.
 */
const VERDICT_WAIT_MS = 2000

interface Session extends LiveSession<Sent, Tracked> {
  /** Removes the webRequest listeners. */
  remove: () => void
}

const sessions = new Map<number, Session>()
let watch: ReturnType<typeof setInterval> | null = null

export const firefoxLive: LiveBackend = {
  async handle(msg: HubToWorker, post: (m: WorkerToHub) => void): Promise<void> {
    if (msg.type === 'live-stop') {
      stop(msg.tabId)
      post({ type: 'live-result', ok: true, enabled: false })
      return
    }
    if (typeof browser.webRequest?.filterResponseData !== 'function') {
      post({ type: 'live-result', ok: false, enabled: false, message: 'Live capture needs webRequest.filterResponseData, which this browser does not offer.' })
      return
    }
    let granted = false
    try {
      granted = await browser.permissions.contains({ origins: [HOST_PERMISSION] })
    } catch { /* treated as withheld */ }
    if (!granted) {
      post({ type: 'live-result', ok: false, enabled: false, message: MISSING_HOST_PERMISSION })
      return
    }
    const existing = sessions.get(msg.tabId)
    if (existing) {
      existing.post = post
    } else {
      try {
        sessions.set(msg.tabId, start(msg.tabId, post))
      } catch (e) {
        post({ type: 'live-result', ok: false, enabled: false, message: `Could not watch the tab's requests: ${(e as Error).message ?? String(e)}` })
        return
      }
    }
    watch ??= setInterval(() => void checkPermission(), WATCH_MS)
    post({ type: 'live-result', ok: true, enabled: true })
  },
  async stop(tabId: number): Promise<void> {
    stop(tabId)
  },
}

/** The watch: see the header. */
async function checkPermission(): Promise<void> {
  let granted = true
  try {
    granted = await browser.permissions.contains({ origins: [HOST_PERMISSION] })
  } catch { /* keep going: only a clear "no" stops live capture */ }
  if (granted) return
  for (const s of [...sessions.values()]) {
    stop(s.tabId)
    s.post({ type: 'live-detached', reason: 'the add-on\'s host permission was withdrawn; grant "Access your data for all websites" in about:addons to use Live again' })
  }
}

function stop(tabId: number): void {
  const s = sessions.get(tabId)
  if (!s) return
  sessions.delete(tabId)
  s.outbox.flush()
  s.channel.close()
  if (sessions.size === 0 && watch !== null) {
    clearInterval(watch)
    watch = null
  }
  s.remove()
  // a response in flight keeps its filter to its end, passing its bytes on as they come and
  // capturing none: a disconnect while data was in flight let the page get its bytes out of
  // order (the same length, another SHA-256, in one full run of the Firefox live-integrity test)
  for (const t of s.tracked.values()) t.phase = 'done'
  s.tracked.clear()
  s.sent.clear()
}

function start(tabId: number, post: (m: WorkerToHub) => void): Session {
  // Only the request types a stream can come by: fetch and XHR (`xmlhttprequest`) and
  // EventSource (`other`). Documents, scripts, styles, images, fonts and media never pass
  // through a blocking listener of Deltascope's, so they never wait on its thread.
  const filter: WebRequest.RequestFilter = { urls: [HOST_PERMISSION], tabId, types: STREAM_REQUEST_TYPES }
  const channel = new BroadcastChannel(liveChannelName(tabId))
  const s: Session = { tabId, post, outbox: new LiveOutbox(channel), channel, sent: new Map(), tracked: new Map(), remove: () => undefined }

  const onBeforeRequest = (d: WebRequest.OnBeforeRequestDetailsType): void => {
    if (s.sent.size >= MAX_PENDING) s.sent.delete(s.sent.keys().next().value!)
    const previous = s.sent.get(d.requestId) // a redirect keeps the id: keep the first start
    s.sent.set(d.requestId, {
      method: d.method,
      url: d.url,
      requestHeaders: previous?.requestHeaders ?? [],
      requestBody: requestBodyText(d.requestBody) ?? previous?.requestBody ?? null,
      startedAt: previous?.startedAt ?? d.timeStamp,
    })
  }
  const onSendHeaders = (d: WebRequest.OnSendHeadersDetailsType): void => {
    const sent = s.sent.get(d.requestId)
    if (sent) sent.requestHeaders = toHeaders(d.requestHeaders)
  }
  const onHeadersReceived = (d: WebRequest.OnHeadersReceivedDetailsType): WebRequest.BlockingResponse => {
    const responseHeaders = toHeaders(d.responseHeaders)
    const decision = liveDecision(responseHeaders, d.type, d.statusCode)
    if (decision === 'no' || s.tracked.has(d.requestId)) return {}
    const sent = s.sent.get(d.requestId)
    const info: LiveRequestInfo = {
      id: `live:ff:${d.requestId}`,
      requestId: d.requestId,
      method: sent?.method ?? d.method,
      url: d.url,
      status: d.statusCode,
      requestHeaders: sent?.requestHeaders ?? [],
      responseHeaders,
      requestBody: sent?.requestBody ?? null,
      contentType: headerValue(responseHeaders, 'content-type'),
      startedAt: sent?.startedAt ?? d.timeStamp,
    }
    let streamFilter: WebRequest.StreamFilter
    try {
      streamFilter = browser.webRequest.filterResponseData(d.requestId)
    } catch {
      return {} // not filterable (a cached or already finished response): the HAR path lists it
    }
    const t: Tracked = {
      filter: streamFilter, info, phase: decision === 'maybe' ? 'sniff' : 'on', sniffer: decision === 'maybe' ? new HeadSniffer(info.url, undefined, info.contentType) : null, held: [],
      stopped: false, completed: false, verdictTimer: null,
    }
    s.tracked.set(d.requestId, t)
    if (t.phase === 'on') s.outbox.push({ type: 'live-request', request: info })
    streamFilter.ondata = (e) => {
      // Always first: the page gets its bytes whatever happens below.
      streamFilter.write(e.data)
      onData(s, d.requestId, t, e.data)
    }
    streamFilter.onstop = () => {
      streamFilter.close()
      t.stopped = true
      // finished only once the request completed; an abort by the page is said by onErrorOccurred
      if (t.completed) end(s, d.requestId, t, null)
      else t.verdictTimer = setTimeout(() => end(s, d.requestId, t, null), VERDICT_WAIT_MS)
    }
    streamFilter.onerror = () => {
      end(s, d.requestId, t, streamFilter.error || 'failed')
    }
    return {}
  }
  const onErrorOccurred = (d: WebRequest.OnErrorOccurredDetailsType): void => {
    const t = s.tracked.get(d.requestId)
    if (t) end(s, d.requestId, t, d.error)
    else s.sent.delete(d.requestId)
  }
  const onCompleted = (d: WebRequest.OnCompletedDetailsType): void => {
    const t = s.tracked.get(d.requestId)
    if (!t) { s.sent.delete(d.requestId); return }
    // the filter may still be passing the last bytes on: the request ends when it stops
    t.completed = true
    if (t.stopped) end(s, d.requestId, t, null)
  }

  browser.webRequest.onBeforeRequest.addListener(onBeforeRequest, filter, ['requestBody'])
  browser.webRequest.onSendHeaders.addListener(onSendHeaders, filter, ['requestHeaders'])
  browser.webRequest.onHeadersReceived.addListener(onHeadersReceived, filter, ['blocking', 'responseHeaders'])
  browser.webRequest.onErrorOccurred.addListener(onErrorOccurred, filter)
  browser.webRequest.onCompleted.addListener(onCompleted, filter)
  s.remove = () => {
    browser.webRequest.onBeforeRequest.removeListener(onBeforeRequest)
    browser.webRequest.onSendHeaders.removeListener(onSendHeaders)
    browser.webRequest.onHeadersReceived.removeListener(onHeadersReceived)
    browser.webRequest.onErrorOccurred.removeListener(onErrorOccurred)
    browser.webRequest.onCompleted.removeListener(onCompleted)
  }
  return s
}

/** Kept cheap: runs for every network chunk of a followed response. */
function onData(s: Session, requestId: string, t: Tracked, data: ArrayBuffer): void {
  const now = Date.now()
  if (t.phase === 'on') {
    s.outbox.pushChunk(t.info.id, new Uint8Array(data), now)
    return
  }
  if (t.phase !== 'sniff') return
  t.held.push({ data, t: now })
  const verdict = t.sniffer!.push(new Uint8Array(data))
  if (verdict === null) return
  if (verdict === 'no') {
    drop(s, requestId, t)
    try { t.filter.disconnect() } catch { /* ended */ }
    return
  }
  announce(s, t)
}

/** The body ended: `failure` null when complete, else the browser's error name. */
function end(s: Session, requestId: string, t: Tracked, failure: string | null): void {
  if (t.phase === 'done') return
  if (t.verdictTimer !== null) clearTimeout(t.verdictTimer)
  if (t.phase === 'sniff') {
    if (t.sniffer!.end() === 'no') { drop(s, requestId, t); return }
    announce(s, t)
  }
  t.phase = 'done'
  s.tracked.delete(requestId)
  s.sent.delete(requestId)
  const now = Date.now()
  if (failure === null) {
    s.outbox.push({ type: 'live-finished', id: t.info.id, t: now })
  } else {
    const canceled = failure === 'NS_BINDING_ABORTED' || failure === 'NS_ERROR_ABORT'
    s.outbox.push({ type: 'live-failed', id: t.info.id, t: now, canceled, reason: canceled ? 'cancelled by the page' : failure })
  }
}

function announce(s: Session, t: Tracked): void {
  t.phase = 'on'
  // a maybe-stream that sniffed as one says why it is listed
  if (t.sniffer !== null && t.sniffer.reason !== null) t.info.listedBecause = t.sniffer.reason
  t.sniffer = null
  s.outbox.push({ type: 'live-request', request: t.info })
  const held = t.held
  t.held = []
  for (const h of held) s.outbox.pushChunk(t.info.id, new Uint8Array(h.data), h.t)
}

function drop(s: Session, requestId: string, t: Tracked): void {
  t.phase = 'done'
  t.held = []
  t.sniffer = null
  s.tracked.delete(requestId)
  s.sent.delete(requestId)
}

function toHeaders(list: WebRequest.HttpHeaders | undefined): Header[] {
  const out: Header[] = []
  for (const h of list ?? []) {
    const value = h.value ?? (h.binaryValue ? String.fromCharCode(...h.binaryValue) : '')
    out.push({ name: h.name, value })
  }
  return out
}

const UTF8 = new TextDecoder()

function requestBodyText(body: WebRequest.OnBeforeRequestDetailsTypeRequestBodyType | undefined): string | null {
  if (!body) return null
  if (body.raw && body.raw.length > 0) {
    let text = ''
    for (const part of body.raw) if (part.bytes) text += UTF8.decode(part.bytes as ArrayBuffer, { stream: true })
    return text + UTF8.decode()
  }
  if (body.formData) {
    const form = new URLSearchParams()
    // Typed as one string per key; Firefox gives an array of them.
    for (const [k, values] of Object.entries(body.formData as unknown as Record<string, string | string[]>)) {
      for (const v of Array.isArray(values) ? values : [values]) form.append(k, v)
    }
    return form.toString()
  }
  return null
}
