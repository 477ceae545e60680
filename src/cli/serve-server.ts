// The HTTP server of `deltascope serve`: each request routed to a capture by method and path
// (when one file is served, a request no route matches gets its captures all the same;
// captures of one route answer in turn), answered with
// the recorded status and headers and the body as the chosen chunking's reads, each written
// at its recorded time × 1/speed. CORS for browser apps: any origin, preflights answered.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Capture } from './serve-captures.js'

export interface ServeOptions {
  /** 1: the recorded pace; 2: twice as fast; 0: as fast as the socket takes it. */
  speed: number
  /** One line per request, when it ends. */
  log(line: string): void
  /** One file is served: any method and path is answered (by the captures in turn when none matches). */
  anyPath: boolean
}

/**
 * Headers the server cannot send as recorded: hop-by-hop ones (they described the recorded
 * connection), the length and encoding of the recorded wire (the body sent is the decoded
 * bytes, chunked), HTTP/2 pseudo-headers from a HAR, and CORS (the server's own).
 */
const UNTRUE = /^(connection|keep-alive|proxy-connection|proxy-authenticate|proxy-authorization|te|trailer|transfer-encoding|upgrade|content-length|content-encoding|access-control-.*|:.*)$/i

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304])

export function createReplayServer(captures: readonly Capture[], options: ServeOptions): Server {
  const turn = new Map<string, number>()
  const server = createServer((req, res) => {
    // recorded times count from the request
    const arrived = performance.now()
    cors(req, res)
    const method = (req.method ?? 'GET').toUpperCase()
    const path = (req.url ?? '/').split('?')[0]!
    if (method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      preflight(req, res)
      options.log(`${method} ${req.url} → 204 preflight${req.headers.origin ? ` from ${req.headers.origin}` : ''}`)
      return
    }
    let key = `${method} ${path}`
    let matching = captures.filter((c) => c.method === method && c.path === path)
    if (matching.length === 0 && options.anyPath) {
      key = '*'
      matching = [...captures]
    }
    if (matching.length === 0) {
      notFound(res, method, path, captures)
      options.log(`${method} ${req.url} → 404: no capture for it`)
      req.resume()
      return
    }
    const n = turn.get(key) ?? 0
    turn.set(key, n + 1)
    const capture = matching[n % matching.length]!
    // the request body is read (and its size logged), never compared: the capture answers whatever was asked
    let received = 0
    req.on('data', (c: Buffer) => { received += c.length })
    req.on('end', () => { void answer(capture, req, res, options, { arrived, received }) })
  })
  // a stream written in small pieces must leave in small pieces
  server.on('connection', (socket) => socket.setNoDelay(true))
  return server
}

function cors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin
  // the origin echoed (not "*"), so a page that sends credentials is answered too
  res.setHeader('Access-Control-Allow-Origin', origin ?? '*')
  if (origin !== undefined) {
    res.setHeader('Access-Control-Allow-Credentials', 'true')
    res.setHeader('Vary', 'Origin')
  }
  res.setHeader('Access-Control-Expose-Headers', '*')
}

function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Methods', req.headers['access-control-request-method'] ?? 'GET, POST')
  const asked = req.headers['access-control-request-headers']
  if (asked !== undefined) res.setHeader('Access-Control-Allow-Headers', asked)
  // Chrome's Private Network Access: a public page calling this local server asks first
  if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true')
  res.setHeader('Access-Control-Max-Age', '600')
  res.writeHead(204).end()
  req.resume()
}

function notFound(res: ServerResponse, method: string, path: string, captures: readonly Capture[]): void {
  const body = JSON.stringify({
    error: `deltascope serve: no capture for ${method} ${path}`,
    routes: [...new Set(captures.map((c) => `${c.method} ${c.path}`))],
  }, null, 2)
  res.writeHead(404, { 'Content-Type': 'application/json' }).end(body + '\n')
}

async function answer(capture: Capture, req: IncomingMessage, res: ServerResponse, options: ServeOptions, request: { arrived: number; received: number }): Promise<void> {
  const { arrived: started, received } = request
  const { fixture, reads } = capture
  const recorded = fixture.response.status
  const status = recorded !== null && recorded >= 200 && recorded <= 599 ? recorded : 200
  const headers: Array<[string, string]> = []
  for (const h of fixture.response.headers) if (!UNTRUE.test(h.name) && validHeader(h.name, h.value)) headers.push([h.name, h.value])
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type') && fixture.response.contentType) headers.push(['Content-Type', fixture.response.contentType])
  for (const [name, value] of headers) res.appendHeader(name, value)
  res.writeHead(status)
  res.flushHeaders()
  let gone = false
  res.on('close', () => { gone = !res.writableFinished })
  const body = NULL_BODY_STATUSES.has(status) ? [] : reads
  let sent = 0
  let bytes = 0
  for (const read of body) {
    if (options.speed > 0 && read.t !== null) {
      const wait = started + read.t / options.speed - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    }
    if (gone) break
    // each read handed to the socket before the next: with a pace, they leave apart
    await new Promise<void>((resolve) => res.write(read.bytes, () => resolve()))
    sent++
    bytes += read.bytes.length
  }
  if (!gone) res.end()
  const ms = Math.round(performance.now() - started)
  const what = gone ? `the client went away after ${sent} of ${body.length} reads` : `${sent} read${sent === 1 ? '' : 's'}, ${bytes} bytes in ${ms} ms`
  options.log(`${req.method} ${req.url} → ${status} · ${what} · ${capture.label}${received > 0 ? ` · request body ${received} bytes` : ''}`)
}

/** A header Node would refuse to send (a name or value a HAR may hold but HTTP/1.1 cannot carry). */
function validHeader(name: string, value: string): boolean {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) && !/[\r\n\0]/.test(value)
}
