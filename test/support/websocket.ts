// WebSocket captures in the shapes browsers write them, for tests.

import type { WsCapture } from '../../src/exchange/index.js'

/** A HAR as Chrome's DevTools saves it: the WebSocket entry keeps its messages, times in seconds. */
export function chromeHar(capture: WsCapture, extra: unknown[] = []) {
  return {
    log: {
      version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [],
      entries: [
        ...extra,
        {
          _fromCache: null, _initiator: { type: 'script' }, _priority: 'Medium', _resourceType: 'websocket',
          cache: {}, connection: '443',
          request: { method: 'GET', url: capture.url, httpVersion: 'HTTP/1.1', headers: [{ name: 'Upgrade', value: 'websocket' }], queryString: [], cookies: [], headersSize: 300, bodySize: 0 },
          response: { status: 101, statusText: 'Switching Protocols', httpVersion: 'HTTP/1.1', headers: [{ name: 'Upgrade', value: 'websocket' }], cookies: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: 200, bodySize: 0, _transferSize: 200, _error: null },
          serverIPAddress: '127.0.0.1', startedDateTime: new Date(capture.startedAt).toISOString(), time: 1000, timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 0, receive: 0 },
          _webSocketMessages: capture.messages.map((m) => ({
            type: m.direction, time: m.time! / 1000, opcode: m.opcode,
            data: typeof m.data === 'string' ? m.data : Buffer.from(m.data).toString('base64'),
          })),
        },
      ],
    },
  }
}
