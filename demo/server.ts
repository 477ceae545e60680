// The demo chat app: a minimal chat page plus mock LLM endpoints that stream each
// provider's real wire format from recorded fixtures. Bound to 127.0.0.1 only.
//
//   npm run demo            (PORT=8787 by default)
//   POST /v1/chat/completions?fixture=<name>&broken=1&cut=1&pace=25&seed=7
//   WebSockets (websocket.ts): ws://…/ws/realtime, ws://…/ws/live, Socket.IO at /socket.io/

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { ENDPOINTS, loadScenario } from './scenarios.js'
import { attachWebSockets } from './websocket.js'
import { mangle, networkChunks } from './wire.js'

export interface DemoServer {
  url: string
  close(): Promise<void>
}

const HERE = fileURLToPath(new URL('.', import.meta.url))

export interface DemoOptions {
  port?: number
  host?: string
  /** A built standalone page (dist/page) to serve at /inspector/. */
  pageDir?: string
}

export async function startDemoServer(options: DemoOptions = {}): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer((req, res) => {
    handle(req, res, options.pageDir).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`demo server error: ${(e as Error).message}`)
    })
  })
  attachWebSockets(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, pageDir: string | undefined): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://demo')
  if (req.method === 'GET' && pageDir && url.pathname.startsWith('/inspector')) return servePage(res, pageDir, url.pathname)
  if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html')) {
    return send(res, 200, 'text/html; charset=utf-8', readFileSync(`${HERE}public/index.html`, 'utf8'))
  }
  if (req.method === 'GET' && url.pathname === '/client.js') return send(res, 200, 'text/javascript; charset=utf-8', clientScript())
  if (req.method === 'GET' && url.pathname === '/scenarios.json') return send(res, 200, 'application/json', JSON.stringify(scenarioList()))
  const endpoint = ENDPOINTS.find((e) => e.path.test(url.pathname))
  if (!endpoint) return send(res, 404, 'text/plain', `no such endpoint: ${url.pathname}`)
  if (req.method === 'OPTIONS') return send(res, 204, 'text/plain', '')
  await drain(req)
  const fixture = url.searchParams.get('fixture') ?? endpoint.fixture
  const scenario = loadScenario(endpoint.provider, fixture, endpoint.contentType)
  if (!scenario) return send(res, 404, 'application/json', JSON.stringify({ error: { message: `no fixture ${endpoint.provider}/${fixture}` } }))
  const body = mangle(scenario.body, endpoint.provider, endpoint.contentType.includes('ndjson'), {
    broken: url.searchParams.get('broken') === '1',
    cut: url.searchParams.get('cut') === '1',
  })
  await stream(res, req, body, scenario.contentType, Number(url.searchParams.get('pace') ?? 25), Number(url.searchParams.get('seed') ?? 7))
}

async function stream(res: ServerResponse, req: IncomingMessage, body: string, contentType: string, pace: number, seed: number): Promise<void> {
  res.writeHead(200, {
    'content-type': contentType,
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'access-control-allow-origin': '*',
  })
  let cancelled = false
  req.on('close', () => { cancelled = true })
  res.on('close', () => { cancelled = true })
  for (const chunk of networkChunks(new TextEncoder().encode(body), seed)) {
    if (cancelled) return
    res.write(chunk)
    if (pace > 0) await sleep(pace)
  }
  res.end()
}

function scenarioList() {
  const root = fileURLToPath(new URL('../test/fixtures/', import.meta.url))
  return ENDPOINTS.map((e) => ({
    provider: e.provider,
    endpoint: e.example,
    default: e.fixture,
    fixtures: (existsSync(`${root}${e.provider}`) ? readdirSync(`${root}${e.provider}`) : []).filter((f) => /\.(sse|ndjson|json)$/.test(f) && !f.endsWith('.expected.json')).map((f) => f.replace(/\.[a-z]+$/, '')).sort(),
  }))
}

let compiled: string | null = null
/** The chat page's script, written in TypeScript and stripped of types on first request. */
function clientScript(): string {
  compiled ??= ts.transpileModule(readFileSync(`${HERE}client.ts`, 'utf8'), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText
  return compiled
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.sse': 'text/plain; charset=utf-8',
}

/** Static files of the standalone page; names are resolved inside pageDir only. */
function servePage(res: ServerResponse, pageDir: string, pathname: string): void {
  if (pathname === '/inspector') { res.writeHead(302, { location: '/inspector/' }); res.end(); return }
  const rel = decodeURIComponent(pathname.slice('/inspector/'.length)) || 'index.html'
  const file = resolve(pageDir, rel)
  if (!file.startsWith(resolve(pageDir) + sep) || !existsSync(file) || !statSync(file).isFile()) return send(res, 404, 'text/plain', 'not found')
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
  res.end(readFileSync(file))
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  res.end(body)
}

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => { req.resume(); req.on('end', resolve); req.on('error', () => resolve()) })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env['PORT'] ?? 8787)
  const pageDir = process.env['DELTASCOPE_PAGE_DIR']
  startDemoServer({ port, ...(pageDir ? { pageDir } : {}) }).then(
    (s) => {
      console.log(`Demo chat app:         ${s.url}/`)
      if (pageDir) console.log(`Standalone inspector:  ${s.url}/inspector/`)
    },
    (e: Error) => {
      console.error(`deltascope demo: cannot listen on 127.0.0.1:${port}: ${e.message} (set PORT to another port)`)
      process.exit(1)
    },
  )
}
