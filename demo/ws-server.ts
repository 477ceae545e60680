// A minimal RFC 6455 server, for the demo's WebSocket endpoints and the tests: text and binary
// messages, server frames unmasked, client frames unmasked here; no extensions, no
// fragmentation on send. Enough to play a recorded connection to a real browser. Attach it to
// a node:http server's `upgrade` event.

import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

export interface TestSocket {
  send(data: string | Uint8Array): void
  close(code?: number, reason?: string): void
  /** The next message the client sends (text as a string). */
  next(): Promise<string | Uint8Array>
  readonly received: Array<string | Uint8Array>
}

/** Completes the handshake of `req` and returns the socket. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex): TestSocket {
  const key = String(req.headers['sec-websocket-key'] ?? '')
  const accept = createHash('sha1').update(key + GUID).digest('base64')
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
  ;(socket as Duplex & { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true)
  const received: Array<string | Uint8Array> = []
  const waiting: Array<(m: string | Uint8Array) => void> = []
  let consumed = 0
  let buffer = Buffer.alloc(0)
  const deliver = (): void => {
    while (waiting.length > 0 && consumed < received.length) waiting.shift()!(received[consumed++]!)
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      if (buffer.length < 2) return
      const opcode = buffer[0]! & 0x0f
      const masked = (buffer[1]! & 0x80) !== 0
      let length = buffer[1]! & 0x7f
      let at = 2
      if (length === 126) { if (buffer.length < 4) return; length = buffer.readUInt16BE(2); at = 4 }
      else if (length === 127) { if (buffer.length < 10) return; length = Number(buffer.readBigUInt64BE(2)); at = 10 }
      const mask = masked ? buffer.subarray(at, at + 4) : null
      if (masked) at += 4
      if (buffer.length < at + length) return
      const payload = Buffer.from(buffer.subarray(at, at + length))
      if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!
      buffer = buffer.subarray(at + length)
      if (opcode === 1) received.push(payload.toString('utf8'))
      else if (opcode === 2) received.push(new Uint8Array(payload))
      else if (opcode === 8) { socket.end(); return }
      deliver()
    }
  })
  socket.on('error', () => {})
  const frame = (opcode: number, payload: Buffer): Buffer => {
    const n = payload.length
    const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 0xff]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b })()])
    return Buffer.concat([head, payload])
  }
  return {
    received,
    send(data) { socket.write(typeof data === 'string' ? frame(1, Buffer.from(data, 'utf8')) : frame(2, Buffer.from(data))) },
    close(code = 1000, reason = '') {
      const payload = Buffer.alloc(2 + Buffer.byteLength(reason))
      payload.writeUInt16BE(code)
      payload.write(reason, 2)
      socket.write(frame(8, payload))
      socket.end()
    },
    next() { return new Promise((resolve) => { waiting.push(resolve); deliver() }) },
  }
}
