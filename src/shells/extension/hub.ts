// The hub runs in the devtools page, which lives as long as DevTools is open on the tab.
// It turns the browser's view of the network into CaptureEvents, keeps them (bounded), and
// replays them to the panel's store whenever it connects (messages.ts). Two sources:
// - baseline: devtools.network.onRequestFinished + getContent (complete bodies, no permission);
// - live: the background's live capture (bytes as they arrive), opt-in: Chrome's debugger
//   session in the service worker, Firefox's webRequest.filterResponseData in the background
//   script. The hub speaks the same messages to both.

import browser, { type Runtime } from 'webextension-polyfill'
import { utf8Length } from '../../library.js'
import { headerValue } from '../../exchange/shared.js'
import { listedReason, sniffBody } from '../../exchange/sniff.js'
import type { CaptureEvent, CapturedRequest, Header } from '../../exchange/types.js'
import { LiveLedger } from './dedupe.js'
import { HubSockets, webSocketsUnseen } from './hub-websocket.js'
import { ReplayBuffer } from './replay-buffer.js'
import {
  LIVE_PORT_NAME,
  controlChannelName,
  hubChannelName,
  liveChannelName,
  sender,
  type HubToWorker,
  type LiveCaptureMessage,
  type LiveChannelMessage,
  type NumberedEvent,
  type PanelToHub,
  type StoreToHub,
  type WorkerToHub,
} from './messages.js'
import {
  bodyFromContent,
  isStreamingContentType,
  lossyBinaryText,
  mayBeStream,
  normaliseGetContent,
  withoutZeroTail,
  type RawContent,
} from './normalise.js'

/** Bytes of body kept for replay (until the panel's store takes them) before the oldest requests are dropped. */
const KEEP_BYTES = 64 * 1024 * 1024
/** With live mode on, how long a finished HAR entry waits for the live messages to arrive. */
const LIVE_SETTLE_MS = 400

/** The HAR entry DevTools hands to onRequestFinished (HAR 1.2 fields, plus Chrome's own). */
interface HarRequest {
  startedDateTime: string
  time: number
  request: { method: string; url: string; headers: Header[]; postData?: { text?: string } }
  response: { status: number; headers: Header[]; bodySize?: number; content: { mimeType: string; size?: number } }
  getContent: (...args: unknown[]) => unknown
  _resourceType?: string
  _requestId?: string
}

export function startHub(): void {
  const tabId = browser.devtools.inspectedWindow.tabId
  const events = new BroadcastChannel(hubChannelName(tabId))
  const toStore = sender<'hub→store'>(events)
  const control = new BroadcastChannel(controlChannelName(tabId))
  const toPanel = sender<'hub→panel'>(control)

  // ---- events kept for replay (replay-buffer.ts) ------------------------------------------------------------
  const kept = new ReplayBuffer(KEEP_BYTES)
  let counter = 0
  let droppedNoteSent = false

  const emit = (event: CaptureEvent): void => {
    const numbered: NumberedEvent = { n: ++counter, event }
    const dropped = kept.add(numbered)
    toStore({ type: 'event', n: numbered.n, event })
    if (dropped && !droppedNoteSent) {
      droppedNoteSent = true
      emit({ type: 'note', level: 'warning', message: `Deltascope keeps ${KEEP_BYTES >> 20} MB of captured bodies until its panel is opened; older requests were dropped from that buffer.` })
    }
  }

  // ---- the store (replay) and the panel (the Live toggle) ------------------------------------
  const liveCalls: Array<{ panelId: string; call: number }> = []
  events.onmessage = (ev: MessageEvent<StoreToHub>) => {
    if (ev.data.type !== 'hello') return
    // the replay is cloned as it is posted: from then on the store's merger holds the bodies
    toStore({ type: 'replay', storeId: ev.data.storeId, events: kept.replay() })
    kept.handOver()
  }
  control.onmessage = (ev: MessageEvent<PanelToHub>) => {
    const msg = ev.data
    if (msg.type === 'live') {
      liveCalls.push({ panelId: msg.panelId, call: msg.call })
      setLive(msg.enabled)
    }
  }

  // ---- baseline: finished requests -------------------------------------------------------------
  let harCounter = 0
  const ledger = new LiveLedger<HarRequest>()

  const sockets = new HubSockets(emit)
  // where the browser gives no WebSocket messages at all, the panel says so once
  const manifest = browser.runtime.getManifest()
  const permissions = [...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? [])] as string[]
  if (permissions.includes('webRequestFilterResponse')) emit({ type: 'note', level: 'info', message: webSocketsUnseen('firefox') })
  else if (!permissions.includes('debugger')) emit({ type: 'note', level: 'info', message: webSocketsUnseen('chrome') })

  const onFinished = (entry: HarRequest): void => {
    if (sockets.onHarEntry(entry as unknown as Record<string, unknown>)) return
    const contentType = headerValue(entry.response.headers, 'content-type') ?? (entry.response.content.mimeType || null)
    if (!mayBeStream(contentType, entry._resourceType ?? null)) return
    if (liveWanted || ledger.openIds().length > 0) {
      setTimeout(() => claimThenList(entry), LIVE_SETTLE_MS)
    } else {
      claimThenList(entry)
    }
  }

  const claimThenList = (entry: HarRequest): void => {
    const result = ledger.claim(
      {
        requestId: entry._requestId ?? null,
        method: entry.request.method,
        url: entry.request.url,
        startedAt: Date.parse(entry.startedDateTime),
      },
      entry,
    )
    if (result === 'new') void listHarEntry(entry)
  }

  const listHarEntry = async (entry: HarRequest): Promise<void> => {
    const contentType = headerValue(entry.response.headers, 'content-type') ?? (entry.response.content.mimeType || null)
    const raw = await getContent(entry)
    // Firefox fills what it did not keep of a large body with NULs: that part is not the body
    const { body, zeros } = withoutZeroTail(bodyFromContent(raw, contentType))
    let listedBecause: string | null = null
    if (!isStreamingContentType(contentType)) {
      const verdict = body.kind === 'none' ? 'no' : sniffBody(body.kind === 'text' ? body.text : body.bytes, entry.request.url)
      if (verdict === 'no') return
      listedBecause = listedReason(verdict, contentType)
    }
    const startedAt = Date.parse(entry.startedDateTime)
    const id = `har-${++harCounter}`
    const request: CapturedRequest = {
      id,
      method: entry.request.method,
      url: entry.request.url,
      status: entry.response.status || null,
      requestHeaders: headers(entry.request.headers),
      responseHeaders: headers(entry.response.headers),
      requestBody: entry.request.postData?.text ?? null,
      contentType,
      startedAt,
      source: 'har',
      ...(listedBecause !== null ? { listedBecause } : {}),
      ...(body.kind === 'text' && body.decodedAs !== undefined ? { bodyDecodedAs: body.decodedAs } : {}),
    }
    const end = Number.isFinite(entry.time) ? startedAt + entry.time : null
    const withheld = withheldReason(entry, body)
    emit({ type: 'request', request: withheld === null ? request : { ...request, bodyWithheld: withheld } })
    if (withheld !== null) {
      // the row says so too (panel/store/request-model.ts incompleteReason), with the same words
      emit({ type: 'note', level: 'warning', message: `No body for ${entry.request.method} ${entry.request.url}: ${withheld}` })
    } else if (body.kind === 'bytes') {
      // the body arrives whole, after the end: when its frames came is unknown (t null), so
      // timing says "turn on Live" rather than show one time on every frame
      if (body.bytes.byteLength > 0) emit({ type: 'chunk', id, data: body.bytes, t: null })
    } else if (body.kind === 'text' && body.text.length > 0) {
      const lossy = lossyBinaryText(body, contentType)
      if (lossy !== null) emit({ type: 'note', level: 'warning', message: `${entry.request.method} ${entry.request.url}: ${lossy}` })
      emit({ type: 'chunk', id, data: body.text, t: null })
    }
    // a body DevTools cut short (Firefox keeps the first part of a large one) ends cut, not
    // finished: its last frame is a cut, not a malformed frame, and the row says why
    const cut = cutReason(entry, body, zeros)
    if (cut !== null) {
      emit({ type: 'note', level: 'warning', message: `Body cut short for ${entry.request.method} ${entry.request.url}: ${cut}` })
      emit({ type: 'cancelled', id, t: end, reason: cut })
    } else {
      emit({ type: 'finished', id, t: end, status: entry.response.status })
    }
  }

  browser.devtools.network.onRequestFinished.addListener((r) => onFinished(r as unknown as HarRequest))
  browser.devtools.network.onNavigated.addListener((url: string) => emit({ type: 'navigated', url }))

  // ---- live: the background's live capture ------------------------------------------------------------
  let liveWanted = false
  let port: Runtime.Port | null = null

  const answerPanel = (ok: boolean, message?: string): void => {
    const call = liveCalls.shift()
    if (!call) return
    toPanel({ type: 'live-result', panelId: call.panelId, call: call.call, ok, ...(message !== undefined ? { message } : {}) })
  }

  const abandonOpen = (reason: string): void => {
    sockets.abandon(reason)
    for (const id of ledger.openIds()) {
      const held = ledger.abandon(id)
      emit({ type: 'cancelled', id, t: Date.now(), reason })
      for (const entry of held) void listHarEntry(entry)
    }
  }

  const ensurePort = (): Runtime.Port => {
    if (port) return port
    const p = browser.runtime.connect({ name: LIVE_PORT_NAME })
    p.onMessage.addListener((msg: unknown) => onWorker(msg as WorkerToHub))
    p.onDisconnect.addListener(() => {
      if (port === p) port = null
      while (liveCalls.length > 0) answerPanel(false, 'The extension\'s background went away.')
      if (liveWanted) {
        liveWanted = false
        emit({ type: 'live', enabled: false, message: 'the extension\'s background went away' })
        emit({ type: 'note', level: 'warning', message: 'Live capture stopped (the extension\'s background went away). Requests are still captured when they finish.' })
        abandonOpen('live capture stopped')
      }
    })
    port = p
    return p
  }

  const setLive = (enabled: boolean): void => {
    const toWorker = sender<'hub→worker'>(ensurePort())
    const msg: HubToWorker = enabled ? { type: 'live-start', tabId } : { type: 'live-stop', tabId }
    if (!enabled && liveWanted) {
      liveWanted = false
      abandonOpen('live capture turned off')
    }
    toWorker(msg)
  }

  // what live capture saw: batches on the live channel, each acknowledged once taken
  const liveChannel = new BroadcastChannel(liveChannelName(tabId))
  const toLive = sender<'live channel'>(liveChannel)
  liveChannel.onmessage = (ev: MessageEvent<LiveChannelMessage>) => {
    if (ev.data.type !== 'live-batch') return
    for (const m of ev.data.events) onCaptured(m)
    toLive({ type: 'live-ack', seq: ev.data.seq })
  }

  const onCaptured = (msg: LiveCaptureMessage): void => {
    if (sockets.onCaptured(msg)) return
    switch (msg.type) {
      case 'live-request': {
        const r = msg.request
        ledger.add({ id: r.id, requestId: r.requestId, method: r.method, url: r.url, startedAt: r.startedAt })
        emit({
          type: 'request',
          request: {
            id: r.id,
            method: r.method,
            url: r.url,
            status: r.status,
            requestHeaders: r.requestHeaders,
            responseHeaders: r.responseHeaders,
            requestBody: r.requestBody,
            contentType: r.contentType,
            startedAt: r.startedAt,
            source: 'live',
            ...(r.listedBecause !== undefined ? { listedBecause: r.listedBecause } : {}),
          },
        })
        return
      }
      case 'live-chunk':
        if (ledger.state(msg.id) !== 'open') return
        emit({ type: 'chunk', id: msg.id, data: msg.data, t: msg.t })
        return
      case 'live-finished':
        if (ledger.state(msg.id) !== 'open') return
        ledger.finish(msg.id)
        emit({ type: 'finished', id: msg.id, t: msg.t })
        return
      case 'live-failed':
        if (ledger.state(msg.id) !== 'open') return
        ledger.finish(msg.id)
        emit({ type: 'cancelled', id: msg.id, t: msg.t, reason: msg.reason })
        return
      case 'live-shed': {
        if (ledger.state(msg.id) !== 'open') return
        // as when live capture is lost: the row ends here, and DevTools' finished entry, if it
        // keeps the body, is listed beside it whole
        const held = ledger.abandon(msg.id)
        emit({ type: 'cancelled', id: msg.id, t: msg.t, reason: msg.reason })
        emit({ type: 'note', level: 'warning', message: `${msg.reason}.` })
        for (const entry of held) void listHarEntry(entry)
        return
      }
    }
  }

  const onWorker = (msg: WorkerToHub): void => {
    switch (msg.type) {
      case 'live-result':
        liveWanted = msg.ok ? msg.enabled : false
        answerPanel(msg.ok, msg.message)
        // every panel (and a panel opened later, from the replay) shows the state there is
        emit({ type: 'live', enabled: liveWanted, ...(msg.message !== undefined ? { message: msg.message } : {}) })
        if (msg.ok) {
          emit({
            type: 'note',
            level: 'info',
            message: msg.enabled
              ? 'Live capture on: streaming responses are shown as their bytes arrive.'
              // Chrome's Live sees WebSockets, Firefox's does not (said once at the start)
              : `Live capture off: requests are captured when they finish.${permissions.includes('debugger') ? ` ${webSocketsUnseen('chrome-live-off')}` : ''}`,
          })
        }
        return
      case 'live-problem':
        emit({ type: 'note', level: msg.level, message: msg.message })
        return
      case 'live-detached': {
        const was = liveWanted
        liveWanted = false
        emit({ type: 'live', enabled: false, message: msg.reason })
        emit({
          type: 'note',
          level: 'warning',
          message: `Live capture stopped (${msg.reason}). Falling back to capture on completion: requests are listed when they finish.`,
        })
        if (was || ledger.openIds().length > 0) abandonOpen(`live capture stopped (${msg.reason})`)
        return
      }
    }
  }
}

/**
 * Why DevTools handed over no body, or null when it did: none at all, or an empty one where
 * the response says there was more (HAR `content.size`, `bodySize`). An empty body otherwise
 * is a body: a stream that sent nothing. Chrome keeps no large body for extensions once a
 * request has finished: measured with Chromium 156, 10.5 MB of ASCII came, 23 MB did not,
 * nor 10.1 MB of text with some non-ASCII in it (9.9 MB did): about 20 MB as DevTools stores
 * it, two bytes a character once one is not ASCII. No exact limit is claimed to the user.
 */
function withheldReason(entry: HarRequest, body: ReturnType<typeof bodyFromContent>): string | null {
  const empty = body.kind === 'none' || (body.kind === 'bytes' ? body.bytes.byteLength === 0 : body.text.length === 0)
  if (!empty) return null
  const size = Math.max(entry.response.content.size ?? -1, entry.response.bodySize ?? -1)
  if (size >= 1_000_000) {
    return `DevTools handed over none of its ${(size / 1e6).toFixed(1)} MB: Chrome keeps no body this large for extensions once the request has finished. Turn on Live and reload.`
  }
  if (noStore(entry.response.headers)) return 'the server sent Cache-Control: no-store; Chrome kept no body: turn on Live and reload.'
  if (entry._resourceType === 'eventsource') return 'Chrome does not reliably give EventSource bodies to extensions; turn on live mode or use fetch.'
  if (size > 0) return `DevTools handed over none of its ${size} bytes: turn on Live and reload.`
  return body.kind === 'none' ? 'DevTools returned no body for it.' : null
}

/**
 * Why the body DevTools handed over is shorter than the response's, or null when it is whole:
 * `zeros` NULs were cut from its end (Firefox's, withoutZeroTail). A shortfall against HAR
 * `content.size` alone is not taken as a cut: a dropped BOM or a re-decoded charset moves the
 * two apart, and no such cut was ever seen.
 */
function cutReason(entry: HarRequest, body: ReturnType<typeof bodyFromContent>, zeros: number): string | null {
  const received = body.kind === 'bytes' ? body.bytes.byteLength : body.kind === 'text' ? utf8Length(body.text) : 0
  // nothing but NULs: no body at all, said by withheldReason
  if (zeros === 0 || received === 0) return null
  const declared = Math.max(entry.response.content.size ?? -1, received + zeros)
  const size = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.round(n / 1e3)} KB`)
  return `DevTools handed over only the first ${size(received)} of its ${size(declared)} (the rest came as zero bytes): Firefox keeps about 1 MB of a response for DevTools. Set devtools.netmonitor.responseBodyLimit to 0 in about:config, or turn on Live, and reload for the whole stream.`
}

/** The response said Cache-Control: no-store (Chrome then may keep no body for getContent). */
function noStore(list: ReadonlyArray<{ name: string; value: string }>): boolean {
  return list.some((h) => h.name.toLowerCase() === 'cache-control' && /(^|[\s,])no-store($|[\s,;=])/i.test(h.value))
}

function headers(list: ReadonlyArray<{ name: string; value: string }> | undefined): Header[] {
  return (list ?? []).map((h) => ({ name: h.name, value: h.value }))
}

/**
 * getContent, normalised over all result shapes: the callback form (works on every Chrome) or,
 * where the entry takes no callback (webextension-polyfill's wrapped entry on a Chrome
 * without a `browser` namespace throws on one), the promise form; Firefox answers both ways.
 */
function getContent(entry: HarRequest): Promise<RawContent> {
  return new Promise((resolve) => {
    let settled = false
    const done = (args: unknown[]): void => {
      if (settled) return
      settled = true
      resolve(normaliseGetContent(args))
    }
    const settle = (result: unknown): void => {
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        ;(result as PromiseLike<unknown>).then((v) => done([v]), () => done([null, '']))
      }
    }
    try {
      settle(entry.getContent((...args: unknown[]) => done(args)))
    } catch {
      try { settle(entry.getContent()) } catch { done([null, '']) }
    }
  })
}
