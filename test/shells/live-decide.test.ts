import { describe, expect, it } from 'vitest'
import { HeadSniffer, SNIFF_LIMIT, liveDecision } from '../../src/shells/extension/live-decide.js'
import { envelope } from '../support/connect.js'
import { bedrockEvent } from '../support/eventstream.js'

const h = (pairs: Record<string, string>): Array<{ name: string; value: string }> => Object.entries(pairs).map(([name, value]) => ({ name, value }))

describe('liveDecision: which responses live capture follows, from the headers alone', () => {
  it('follows declared streams, whatever the request type', () => {
    expect(liveDecision(h({ 'Content-Type': 'text/event-stream; charset=utf-8' }), 'xmlhttprequest')).toBe('stream')
    expect(liveDecision(h({ 'content-type': 'application/x-ndjson' }), 'Fetch')).toBe('stream')
    expect(liveDecision(h({ 'content-type': 'text/event-stream' }), 'EventSource')).toBe('stream')
    expect(liveDecision(h({ 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' }), 'other')).toBe('stream')
    expect(liveDecision(h({ 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }), 'xmlhttprequest')).toBe('stream')
  })

  it('sniffs fetches and XHRs whose type leaves it open (Chrome and Firefox names)', () => {
    for (const rt of ['Fetch', 'XHR', 'xmlhttprequest']) {
      expect(liveDecision(h({ 'content-type': 'text/plain; charset=utf-8' }), rt)).toBe('maybe')
      expect(liveDecision(h({ 'content-type': 'application/json' }), rt)).toBe('maybe')
      expect(liveDecision([], rt)).toBe('maybe')
    }
  })

  it('ignores what cannot be a stream: documents, scripts, images, redirects', () => {
    expect(liveDecision(h({ 'content-type': 'text/plain' }), 'main_frame')).toBe('no')
    expect(liveDecision(h({ 'content-type': 'text/plain' }), 'Document')).toBe('no')
    expect(liveDecision(h({ 'content-type': 'text/html' }), 'xmlhttprequest')).toBe('no')
    expect(liveDecision(h({ 'content-type': 'image/png' }), 'Fetch')).toBe('no')
    expect(liveDecision(h({ 'content-type': 'text/event-stream' }), 'xmlhttprequest', 302)).toBe('no')
  })
})

describe('HeadSniffer', () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

  it('decides SSE from the first field, across chunks and inside a UTF-8 character', () => {
    const s = new HeadSniffer('http://x/chat')
    const all = bytes('da')
    expect(s.push(all)).toBeNull()
    expect(s.push(bytes('ta: {"a":"€"}\n\n'))).toBe('sse')
  })

  it('waits for two JSON lines before calling it NDJSON, and says no to plain text', () => {
    const s = new HeadSniffer('http://x/api')
    expect(s.push(bytes('{"a":1}\n'))).toBeNull()
    expect(s.push(bytes('{"a":2}\n'))).toBe('ndjson')
    expect(new HeadSniffer('http://x/hello').push(bytes('Hello, world\n'))).toBe('no')
  })

  it('decides on what there is at the end, or past the limit', () => {
    const s = new HeadSniffer('http://x/api')
    expect(s.push(bytes('{"a":1}'))).toBeNull()
    expect(s.end()).toBe('no')
    const long = new HeadSniffer('http://x/api')
    expect(long.push(bytes(' '.repeat(SNIFF_LIMIT + 1)))).toBe('no')
  })
})

describe('the AI SDK v4 data stream and Bedrock', () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

  it('follows application/vnd.amazon.eventstream from byte 0, as a declared stream', () => {
    expect(liveDecision(h({ 'content-type': 'application/vnd.amazon.eventstream' }), 'Fetch')).toBe('stream')
  })

  it('a text/plain data stream without its header is sniffed, listed, and says why', () => {
    const s = new HeadSniffer('http://x/api/chat', SNIFF_LIMIT, 'text/plain; charset=utf-8')
    expect([s.push(bytes('0:"Hel')), s.reason]).toEqual([null, null])
    expect([s.push(bytes('lo"\n')), s.reason]).toEqual(['data-stream', 'Listed as a stream because its first line is an AI SDK v4 data-stream part (CODE:JSON) (Content-Type text/plain)'])
  })

  it('a binary event stream without its Content-Type is sniffed from its prelude, across chunks', () => {
    const message = bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } })
    const s = new HeadSniffer('http://x/model/m/converse-stream')
    expect([s.push(message.subarray(0, 5)), s.push(message.subarray(5, 30)), s.reason]).toEqual([
      null, 'eventstream', 'Listed as a stream because its body starts with an AWS event-stream message (the prelude CRC matches) (no Content-Type)',
    ])
  })
})

describe('Connect streams (Kimi)', () => {
  it('follows application/connect+json and application/connect+proto from byte 0, as declared streams', () => {
    expect([
      liveDecision(h({ 'content-type': 'application/connect+json' }), 'Fetch'),
      liveDecision(h({ 'content-type': 'application/connect+proto' }), 'xmlhttprequest'),
    ]).toEqual(['stream', 'stream'])
  })

  it('a Connect body without its Content-Type is sniffed from its first envelope, across chunks', () => {
    const body = envelope('{"op":"set","mask":"message","eventOffset":1}')
    const s = new HeadSniffer('https://www.kimi.com/apiv2/kimi.gateway.chat.v1.ChatService/Chat')
    expect([s.push(body.subarray(0, 3)), s.push(body.subarray(3, 20)), s.reason]).toEqual([
      null, 'connect', 'Listed as a stream because its body starts with a Connect envelope of JSON (flags, a 4-byte length, then "{") (no Content-Type)',
    ])
  })
})
