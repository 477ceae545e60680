// WebSocket framing: a message is a frame, its direction kept; the sub-protocol is told from
// the first text message (Engine.IO v4 / Socket.IO, SignalR JSON, else JSON and text); binary
// is hex with its size; a malformed packet is an invalid frame naming the message and position.

import { describe, expect, it } from 'vitest'
import { createConnection, type WsMessage } from '../../src/index.js'

const rx = (data: string | Uint8Array, opcode = typeof data === 'string' ? 1 : 2): WsMessage => ({ direction: 'receive', opcode, data, time: null })
const tx = (data: string): WsMessage => ({ direction: 'send', opcode: 1, data, time: 5 })

function read(...messages: WsMessage[]) {
  const c = createConnection()
  for (const m of messages) c.push(m)
  return c
}

const brief = (f: { kind: string; event: string | null; json?: unknown; note: string | null; direction: string }) => ({ direction: f.direction, kind: f.kind, event: f.event, json: f.json, note: f.note })

describe('Engine.IO v4 and Socket.IO', () => {
  it('reads open, connect, events, ping and pong, each message one frame with its direction', () => {
    const c = read(
      rx('0{"sid":"lv_VI97HAXpY6yYWAAAC","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}'),
      tx('40'),
      rx('40{"sid":"wZX3oN0bSVIhsaknAAAI"}'),
      tx('42["hello",{"text":"hi"}]'),
      rx('42["chat","one",2]'),
      rx('2'),
      tx('3'),
    )
    expect(c.protocol()).toBe('engine.io')
    expect(c.frames().map(brief)).toEqual([
      { direction: 'receive', kind: 'control', event: null, json: { sid: 'lv_VI97HAXpY6yYWAAAC', upgrades: [], pingInterval: 25000, pingTimeout: 20000, maxPayload: 1000000 }, note: 'Engine.IO open' },
      { direction: 'send', kind: 'control', event: null, json: undefined, note: 'Socket.IO connect' },
      { direction: 'receive', kind: 'control', event: null, json: { sid: 'wZX3oN0bSVIhsaknAAAI' }, note: 'Socket.IO connect' },
      { direction: 'send', kind: 'data', event: 'hello', json: { text: 'hi' }, note: null },
      { direction: 'receive', kind: 'data', event: 'chat', json: ['one', 2], note: null },
      { direction: 'receive', kind: 'control', event: null, json: undefined, note: 'Engine.IO ping' },
      { direction: 'send', kind: 'control', event: null, json: undefined, note: 'Engine.IO pong' },
    ])
    expect(c.frame(3).time).toBe(5)
    expect(c.frame(3).message).toBe(3)
  })

  it('a namespace and an ack id are read; a binary event announces its attachments and the binary messages after it say so', () => {
    const c = read(
      rx('0{"sid":"x"}'),
      rx('451-/chat,7["upload",{"_placeholder":true,"num":0}]'),
      rx(new Uint8Array([1, 2, 255])),
    )
    expect(c.frames().slice(1).map((f) => ({ kind: f.kind, event: f.event, json: f.json, note: f.note, raw: f.raw, size: f.size }))).toEqual([
      { kind: 'data', event: 'upload', json: { _placeholder: true, num: 0 }, note: 'ack id 7 on /chat; 1 binary attachment follows', raw: '451-/chat,7["upload",{"_placeholder":true,"num":0}]', size: 51 },
      { kind: 'binary', event: null, json: undefined, note: 'Socket.IO binary attachment (0 more to come)', raw: '01 02 ff', size: 3 },
    ])
  })

  it('malformed packets are invalid frames whose error names the position in the message', () => {
    const c = read(rx('0{"sid":"x"}'), rx('9oops'), rx('42["a",{"b":]'), rx('42{"not":"an array"}'))
    expect(c.frames().slice(1).map((f) => ({ kind: f.kind, error: f.error }))).toEqual([
      { kind: 'invalid', error: { message: 'not an Engine.IO packet: its type "9" (at position 0) is none of 0–6', position: 0 } },
      { kind: 'invalid', error: { message: expect.stringMatching(/ at position 10 .*\(the JSON starts at position 2: position 12 of the message\)$/), position: 12 } },
      { kind: 'invalid', error: { message: 'a Socket.IO event is a JSON array starting with the event\'s name (at position 2)', position: 2 } },
    ])
    // received before any turn: the connection's own findings, one per frame, with the message's number
    expect(c.diagnostics().map((d) => [d.frame, d.code, d.message.slice(0, 25)])).toEqual([
      [1, 'frame-failed', 'message 2 (received): not'],
      [2, 'frame-failed', 'message 3 (received): Une'],
      [3, 'frame-failed', 'message 4 (received): a S'],
    ])
  })
})

describe('SignalR JSON', () => {
  it('splits a message at each \\x1e: one frame per record; handshake and ping are control frames', () => {
    const c = read(
      tx('{"protocol":"json","version":1}\x1e'),
      rx('{}\x1e'),
      rx('{"type":1,"target":"ReceiveMessage","arguments":[{"text":"Hel"}]}\x1e{"type":1,"target":"ReceiveMessage","arguments":["a","b"]}\x1e{"type":6}\x1e'),
      rx('{"type":2,"invocationId":"1","item":"lo"}\x1e{"type":3,"invocationId":"1"}\x1e{"type":1'),
    )
    expect(c.protocol()).toBe('signalr')
    expect(c.frames().map((f) => [f.message, f.kind, f.event, f.json, f.note])).toEqual([
      [0, 'control', null, { protocol: 'json', version: 1 }, 'SignalR handshake'],
      [1, 'control', null, {}, 'SignalR handshake'],
      [2, 'data', 'ReceiveMessage', { text: 'Hel' }, 'SignalR invocation'],
      [2, 'data', 'ReceiveMessage', ['a', 'b'], 'SignalR invocation'],
      [2, 'control', null, { type: 6 }, 'SignalR ping'],
      [3, 'data', 'stream-item', 'lo', 'SignalR stream item "1"'],
      [3, 'data', 'completion', { type: 3, invocationId: '1' }, 'SignalR completion'],
      [3, 'invalid', null, undefined, null],
    ])
    expect(c.frame(7).error).toEqual({ message: 'a SignalR record not ended by \\x1e (from position 72 of the message)', position: 72 })
  })
})

describe('plain JSON, text and binary', () => {
  it('JSON is parsed, text is listed as text, binary is hex with its size (the first 1,024 bytes shown)', () => {
    const big = new Uint8Array(1500).fill(0xab)
    const c = read(rx('{"type":"x"}'), rx('hello there'), rx(new Uint8Array([0, 16])), rx(big), rx('[1,'))
    expect(c.protocol()).toBe('json')
    expect(c.frames().map((f) => [f.kind, f.size])).toEqual([['data', 12], ['text', 11], ['binary', 2], ['binary', 1500], ['invalid', 3]])
    expect(c.frame(1).raw).toBe('hello there')
    expect(c.frame(2).raw).toBe('00 10')
    expect(c.frame(3).raw).toBe(Array(1024).fill('ab').join(' ') + ' …')
    expect(c.frame(4).error!.position).toBe(3)
  })
})
