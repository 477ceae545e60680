// The site a Live integrity check runs against (test/e2e/live-integrity*.test.ts, and
// `npm run bench:live`): a page on 127.0.0.1 whose streams, workers and plain resources let a
// test see whether Deltascope's Live capture changes anything the page gets.
//
//   /stream?kind=sse|ndjson|binary|plain&bytes=N[&enc=gzip|br][&pace=MS&chunk=BYTES][&stall=MS]
//       a deterministic body (siteBody) of about N bytes; as fast as the socket takes it, or
//       `chunk` bytes every `pace` ms; `stall` holds the second half back that long
//   /sw.js, /outer.js (a worker that starts /inner.js), /shared.js (a shared worker),
//   /frame.html (fetches a stream from inside an iframe: serve it from another site, e.g.
//   localhost against 127.0.0.1, for an out-of-process iframe)
//   /doc.html, /img.png: not streams, for the "other requests wait for nothing" timings
//
// The page side (inPage…) is plain JS strings for page.evaluate, in both browsers.

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { generateStream } from '../../bench/generate.js'
import { ROOT } from './browser.js'

export type BodyKind = 'sse' | 'ndjson' | 'binary' | 'plain'

const TYPES: Record<BodyKind, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
  // a binary event stream: Bedrock's framing type, which Live follows; every byte value in it
  binary: 'application/vnd.amazon.eventstream',
  // a chat backend answering text/plain: Live holds it until its first lines sniff as SSE
  plain: 'text/plain; charset=utf-8',
}

const bodies = new Map<string, Buffer>()

/** The exact bytes /stream sends (before any content encoding), cached by kind and size. */
export function siteBody(kind: BodyKind, bytes: number): Buffer {
  const key = `${kind}:${bytes}`
  let body = bodies.get(key)
  if (body) return body
  if (kind === 'binary') {
    body = Buffer.alloc(bytes)
    for (let i = 0; i < bytes; i++) body[i] = (i * 7 + (i >> 8)) & 0xff
  } else if (kind === 'ndjson') {
    body = Buffer.from(generateStream('ollama', bytes, 7), 'utf8')
  } else {
    body = Buffer.from(generateStream('openai', bytes, 7), 'utf8')
  }
  bodies.set(key, body)
  return body
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export interface LiveSite {
  /** http://127.0.0.1:PORT */
  url: string
  /** the same server under another site (an out-of-process iframe's origin) */
  otherSiteUrl: string
  /** every request's path, as it arrived */
  requests: string[]
  close(): Promise<void>
}

const JS = { 'content-type': 'text/javascript', 'cache-control': 'no-store' }

const SCRIPTS: Record<string, string> = {
  '/sw.js': `self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()))
self.addEventListener('message', (e) => e.waitUntil(fetch(e.data).then((r) => r.arrayBuffer()).then((b) => e.source.postMessage(b.byteLength))))`,
  '/outer.js': `const inner = new Worker('/inner.js'); inner.onmessage = (e) => postMessage(e.data); onmessage = (e) => inner.postMessage(e.data)`,
  '/inner.js': `onmessage = (e) => fetch(e.data).then((r) => r.arrayBuffer()).then((b) => postMessage(b.byteLength))`,
  '/shared.js': `onconnect = (c) => { const port = c.ports[0]; port.onmessage = (e) => fetch(e.data).then((r) => r.arrayBuffer()).then((b) => port.postMessage(b.byteLength)) }`,
}

export async function startLiveSite(): Promise<LiveSite> {
  const png = readFileSync(join(ROOT, 'src/shells/extension/icons/icon-128.png'))
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    requests.push(u.pathname + u.search)
    req.resume()
    const script = SCRIPTS[u.pathname]
    if (script !== undefined) return void res.writeHead(200, JS).end(script)
    if (u.pathname === '/frame.html') {
      // posts what its stream was to the parent: bytes and SHA-256, as inPageRead does
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><script>
onmessage = async (e) => { const r = await fetch(e.data); const b = new Uint8Array(await r.arrayBuffer());
  const h = [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');
  parent.postMessage({ bytes: b.byteLength, sha256: h }, '*') }
parent.postMessage('ready', '*')</script>`)
    }
    if (u.pathname === '/doc.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(`<!doctype html><title>doc</title><p>${'A paragraph. '.repeat(400)}</p>`)
    if (u.pathname === '/img.png') return void res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png)
    if (u.pathname === '/stream') return void stream(res, u.searchParams)
    if (u.pathname === '/frames') return void frames(res, Number(u.searchParams.get('rate') ?? 2000), Number(u.searchParams.get('seconds') ?? 5))
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Live integrity</title><p>Live integrity')
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    otherSiteUrl: `http://localhost:${port}`,
    requests,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()) }),
  }
}

function stream(res: ServerResponse, q: URLSearchParams): void {
  const kind = (q.get('kind') ?? 'sse') as BodyKind
  const raw = siteBody(kind, Number(q.get('bytes') ?? 1000))
  const enc = q.get('enc')
  const body = enc === 'gzip' ? gzipSync(raw) : enc === 'br' ? brotliCompressSync(raw) : raw
  res.writeHead(200, {
    'content-type': TYPES[kind],
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
    ...(enc ? { 'content-encoding': enc } : {}),
  })
  const pace = Number(q.get('pace') ?? 0)
  const chunk = Number(q.get('chunk') ?? 65_536)
  const stall = Number(q.get('stall') ?? 0)
  let at = 0
  let stalled = false
  // as fast as the socket takes it (write until it says wait, then on 'drain'), or paced
  const next = (): void => {
    while (at < body.length) {
      if (stall > 0 && !stalled && at >= body.length / 2) {
        stalled = true
        setTimeout(next, stall)
        return
      }
      const piece = body.subarray(at, at + chunk)
      at += piece.length
      const more = res.write(piece)
      if (pace > 0) { setTimeout(next, pace); return }
      if (!more) { res.once('drain', next); return }
    }
    res.end()
  }
  next()
}

/** The body /frames sends: `count` OpenAI chunks, one short word each, then [DONE]. */
export function framesBody(count: number): string[] {
  const frames: string[] = []
  for (let i = 0; i < count; i++) frames.push(`data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"w${i} "}}]}\n\n`)
  frames.push('data: [DONE]\n\n')
  return frames
}

/** `rate` frames a second for `seconds`, written every 10 ms, each write its own socket write. */
function frames(res: ServerResponse, rate: number, seconds: number): void {
  const all = framesBody(rate * seconds)
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' })
  const perTick = Math.max(1, Math.round(rate / 100))
  let at = 0
  const t0 = Date.now()
  const tick = (): void => {
    // catch up with the clock: the rate holds even when a timer fires late
    const due = Math.min(all.length, Math.round(((Date.now() - t0) / 1000) * rate) + perTick)
    while (at < due) res.write(all[at++]!)
    if (at < all.length) setTimeout(tick, 10)
    else res.end()
  }
  tick()
}

/** A page expression: fetches `url` and reads it to the end; {ms, bytes, sha256}. */
export function inPageRead(url: string): string {
  return readExpression(JSON.stringify(url))
}

/** inPageRead of a URL given as a JS expression (evaluated in the page). */
function readExpression(url: string): string {
  return `(async () => {
    const t0 = performance.now()
    const res = await fetch(${url})
    const reader = res.body.getReader()
    const parts = []
    let n = 0
    for (;;) { const { done, value } = await reader.read(); if (done) break; parts.push(value); n += value.byteLength }
    const ms = performance.now() - t0
    const all = new Uint8Array(n)
    let at = 0
    for (const p of parts) { all.set(p, at); at += p.byteLength }
    const h = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((x) => x.toString(16).padStart(2, '0')).join('')
    return { ms, bytes: n, sha256: h }
  })()`
}

/**
 * A page expression: registers /sw.js under a fresh scope and waits for it to activate;
 * {ms} or {error} after `timeoutMs`.
 */
export function inPageServiceWorker(scope: string, timeoutMs: number): string {
  return `(async () => {
    const t0 = performance.now()
    const timeout = new Promise((_, no) => setTimeout(() => no(new Error('not activated within ${timeoutMs} ms')), ${timeoutMs}))
    try {
      const reg = await Promise.race([navigator.serviceWorker.register('/sw.js', { scope: ${JSON.stringify(scope)} }), timeout])
      const w = reg.installing || reg.waiting || reg.active
      if (w.state !== 'activated') await Promise.race([new Promise((ok) => w.addEventListener('statechange', () => { if (w.state === 'activated') ok() })), timeout])
      return { ms: performance.now() - t0, state: w.state }
    } catch (e) { return { error: String(e && e.message || e) } }
  })()`
}

/** A page expression: the byte count of `url` fetched by the service worker of `scope` (registered by inPageServiceWorker). */
export function inPageServiceWorkerFetch(scope: string, url: string): string {
  return `(async () => {
    const reg = await navigator.serviceWorker.getRegistration(${JSON.stringify(scope)})
    return await new Promise((ok) => { navigator.serviceWorker.addEventListener('message', (e) => ok(e.data), { once: true }); reg.active.postMessage(${JSON.stringify(url)}) })
  })()`
}

/** A page expression: the byte count of `url` fetched by a worker started by a worker. */
export function inPageNestedWorkerFetch(url: string): string {
  return `new Promise((ok) => { const w = new Worker('/outer.js'); w.onmessage = (e) => { ok(e.data); w.terminate() }; w.postMessage(${JSON.stringify(url)}) })`
}

/** A page expression: {bytes, sha256} of `url` fetched inside an iframe from `frameOrigin`. */
export function inPageIframeFetch(frameOrigin: string, url: string): string {
  return `new Promise((ok) => {
    const f = document.createElement('iframe')
    onmessage = (e) => { if (e.data === 'ready') f.contentWindow.postMessage(${JSON.stringify(url)}, '*'); else { ok(e.data); f.remove() } }
    f.src = ${JSON.stringify(frameOrigin + '/frame.html')}
    document.body.append(f)
  })`
}

/** A page expression: ms to fetch `url` whole (a document), or to load it as an <img>. */
export function inPageTimeResource(url: string, as: 'fetch' | 'img'): string {
  return as === 'fetch'
    ? `(async () => { const t0 = performance.now(); await (await fetch(${JSON.stringify(url)})).text(); return performance.now() - t0 })()`
    : `new Promise((ok, no) => { const t0 = performance.now(); const i = new Image(); i.onload = () => ok(performance.now() - t0); i.onerror = () => no(new Error('image failed')); i.src = ${JSON.stringify(url)} })`
}

/** One stream the page reads under Live: its path on the site and the bytes the page must get. */
export interface IntegrityCase {
  label: string
  path: string
  want: Buffer
  /**
   * Sent at once, not paced: Chrome may report it finished before Live's request to stream
   * it is answered, and then it is captured on completion (DevTools' HAR entry) instead.
   */
  atOnce?: true
}

/** The streams whose bytes must reach the page exactly as sent, Live on or off (both browsers' e2e). */
export function integrityCases(): IntegrityCase[] {
  const c = (label: string, kind: BodyKind, bytes: number, extra = ''): IntegrityCase => ({
    label,
    path: `/stream?kind=${kind}&bytes=${bytes}${extra}`,
    want: siteBody(kind, bytes),
  })
  return [
    { ...c('SSE, 1 KB sent at once', 'sse', 1000), atOnce: true },
    { ...c('SSE, 5 MB as fast as the socket takes it', 'sse', 5_000_000), atOnce: true },
    c('NDJSON, paced', 'ndjson', 20_000, '&pace=5&chunk=997'),
    c('a binary event stream holding every byte value', 'binary', 70_000, '&pace=5&chunk=4099'),
    { ...c('SSE, gzip, sent at once', 'sse', 300_000, '&enc=gzip'), atOnce: true },
    { ...c('SSE, br, sent at once', 'sse', 300_000, '&enc=br'), atOnce: true },
    c('text/plain that sniffs as SSE', 'plain', 50_000, '&pace=5&chunk=8191'),
    c('SSE, its second half held back 2 s', 'sse', 40_000, '&stall=2000&chunk=1024'),
  ]
}

/** A page expression: reads `n` copies of `url` at once (`&copy=i` added); [{ms, bytes, sha256}] in order. */
export function inPageConcurrent(url: string, n: number): string {
  return `Promise.all(Array.from({ length: ${n} }, (_, i) => ${readExpression(`${JSON.stringify(url)} + '&copy=' + i`)}))`
}

/**
 * A page expression: starts reading `url`, and aborts the fetch once `after` bytes arrived;
 * {bytes, sha256} of what the page got before the abort.
 */
export function inPageAbortAfter(url: string, after: number): string {
  return `(async () => {
    const ctl = new AbortController()
    const res = await fetch(${JSON.stringify(url)}, { signal: ctl.signal })
    const reader = res.body.getReader()
    const parts = []
    let n = 0
    try {
      for (;;) { const { done, value } = await reader.read(); if (done) break; parts.push(value); n += value.byteLength; if (n >= ${after}) ctl.abort() }
    } catch {}
    const all = new Uint8Array(n)
    let at = 0
    for (const p of parts) { all.set(p, at); at += p.byteLength }
    const h = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((x) => x.toString(16).padStart(2, '0')).join('')
    return { bytes: n, sha256: h }
  })()`
}
