// replayWebSocket: a recorded connection played to a real client through a WebSocket
// constructor with the browser's API. The received messages come in their recorded order; the
// replay waits where the recording has the client sending, and records what it sends.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket'
import { afterEach, describe, expect, it } from 'vitest'
import { parseWsFixture, replayWebSocket } from '../../src/testing.js'

const file = (name: string) => readFileSync(join(import.meta.dirname, '../ws-fixtures', name), 'utf8')
const realtime = file('openai-realtime/transcript-then-function-call.json')
const expected = parseWsFixture(realtime).expected!

const original = (globalThis as { WebSocket?: unknown }).WebSocket
afterEach(() => { (globalThis as { WebSocket?: unknown }).WebSocket = original })

describe('replayWebSocket', () => {
  it('the openai SDK\'s Realtime client, answering each response.done, rebuilds what the fixture expects; its sends are recorded', async () => {
    const replay = replayWebSocket(realtime)
    ;(globalThis as { WebSocket?: unknown }).WebSocket = replay.WebSocket
    const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test' }))
    const text = new Map<string, string>()
    const calls: Array<[string, string]> = []
    const errors: string[] = []
    rt.socket.addEventListener('open', () => rt.send({ type: 'response.create', response: { output_modalities: ['audio'] } }))
    // the SDK's types know the GA names only: the beta events this recording has are read off 'event'
    rt.on('event', (event) => {
      const e = event as unknown as { type: string; response_id?: string; delta?: string; call_id?: string; arguments?: string; response?: { id: string } }
      if (e.type === 'response.audio_transcript.delta') text.set(e.response_id!, (text.get(e.response_id!) ?? '') + e.delta)
      if (e.type === 'response.function_call_arguments.done') calls.push([e.call_id!, e.arguments!])
      if (e.type === 'response.done' && e.response!.id === 'resp_001') rt.send({ type: 'response.create' })
      if (e.type === 'response.done' && e.response!.id === 'resp_002') rt.socket.send('{"event_id":"event_567","foo":"bar"}')
    })
    rt.on('error', (e) => { errors.push((e as { error?: { message?: string } }).error?.message ?? e.message) })
    const closed = new Promise<{ code: number }>((resolve) => rt.socket.addEventListener('close', (e) => resolve(e as unknown as { code: number })))
    await replay.done
    expect((await closed).code).toBe(1000)
    expect(text.get('resp_001')).toBe(expected[0]!.reply.choices[0]!.content)
    expect(calls).toEqual(expected[1]!.reply.choices[0]!.toolCalls.map((c) => [c.id, c.arguments]))
    expect(errors).toEqual(["The 'type' field is missing."])
    expect(replay.url).toBe('wss://api.openai.com/v1/realtime?model=gpt-realtime')
    expect(replay.sent.map((s) => JSON.parse(s as string).type ?? null)).toEqual(['response.create', 'response.create', null])
  })

  it('a client that never sends hears nothing past the first recorded send; without waiting it hears all', async () => {
    const waiting = replayWebSocket(realtime)
    const heard: string[] = []
    const ws = new waiting.WebSocket('wss://x')
    ws.onmessage = (e) => heard.push(JSON.parse(e.data as string).type)
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0))
    expect(heard).toEqual(['session.created'])
    ws.close()
    await waiting.done
    expect(ws.readyState).toBe(3)

    const free = replayWebSocket(realtime, { waitForSends: false })
    const all: string[] = []
    const ws2 = new free.WebSocket('wss://x')
    ws2.addEventListener('message', (e) => all.push(JSON.parse((e as MessageEvent).data).type))
    await free.done
    expect(all.length).toBe(14)
  })

  it('binary messages arrive as ArrayBuffer when asked; a recording closed without a close frame errors and closes 1006', async () => {
    const capture = {
      url: 'wss://x', startedAt: 0, requestHeaders: [], responseHeaders: [], status: 101,
      messages: [{ direction: 'receive' as const, opcode: 2, data: new Uint8Array([1, 2, 3]), time: 0 }],
      close: { code: null, reason: '', time: 5 },
    }
    const replay = replayWebSocket(capture)
    const ws = new replay.WebSocket('wss://x')
    ws.binaryType = 'arraybuffer'
    const got: unknown[] = []
    ws.onmessage = (e) => got.push([...new Uint8Array(e.data as ArrayBuffer)])
    ws.onerror = () => got.push('error')
    ws.onclose = (e) => got.push(['close', e.code, e.wasClean])
    await replay.done
    expect(got).toEqual([[1, 2, 3], 'error', ['close', 1006, false]])
  })
})
