// A minimal RFC 6455 client for Node tests (Node 20 has no WebSocket): text messages, client
// frames masked, server frames unmasked; enough to talk to the demo's endpoints.

import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'

export interface TestClient {
  /** Every message received so far, with the close when it came. */
  readonly messages: string[]
  readonly closed: Promise<{ code: number; reason: string }>
  send(text: string): void
  /** Resolves with the next message received. */
  next(): Promise<string>
}

export function connectWebSocket(url: string): Promise<TestClient> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname)
    const messages: string[] = []
    const waiting: Array<(m: string) => void> = []
    let consumed = 0
    let onClose!: (c: { code: number; reason: string }) => void
    const closed = new Promise<{ code: number; reason: string }>((r) => { onClose = r })
    let buffer = Buffer.alloc(0)
    let open = false
    const client: TestClient = {
      messages, closed,
      send(text) {
        const payload = Buffer.from(text, 'utf8')
        const mask = randomBytes(4)
        const n = payload.length
        const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff])
        const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))
        socket.write(Buffer.concat([head, mask, body]))
      },
      next: () => new Promise((r) => { waiting.push(r); deliver() }),
    }
    const deliver = (): void => { while (waiting.length > 0 && consumed < messages.length) waiting.shift()!(messages[consumed++]!) }
    socket.on('connect', () => {
      socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    })
    socket.on('error', reject)
    socket.on('close', () => onClose({ code: 1006, reason: '' }))
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!open) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buffer.subarray(0, end).toString('latin1')
        if (!head.startsWith('HTTP/1.1 101')) { reject(new Error(head.split('\r\n')[0])); socket.destroy(); return }
        open = true
        buffer = buffer.subarray(end + 4)
        resolve(client)
      }
      for (;;) {
        if (buffer.length < 2) return
        const opcode = buffer[0]! & 0x0f
        let length = buffer[1]! & 0x7f
        let at = 2
        if (length === 126) { if (buffer.length < 4) return; length = buffer.readUInt16BE(2); at = 4 }
        else if (length === 127) { if (buffer.length < 10) return; length = Number(buffer.readBigUInt64BE(2)); at = 10 }
        if (buffer.length < at + length) return
        const payload = buffer.subarray(at, at + length)
        buffer = buffer.subarray(at + length)
        if (opcode === 1) { messages.push(payload.toString('utf8')); deliver() }
        else if (opcode === 8) { onClose({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') }); socket.end() }
      }
    })
  })
}
