// The CLI reads a HAR's WebSocket entries and WebSocket fixtures: each turn is a stream,
// counted by --entry and listed with its turn and key.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseWsFixture, replayTurns } from '../../src/exchange/index.js'
import { chromeHar } from '../support/websocket.js'
import { runCli } from './run.js'

const tmp = mkdtempSync(join(tmpdir(), 'deltascope-cli-ws-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const FIXTURE = join(import.meta.dirname, '../ws-fixtures/openai-realtime/transcript-then-function-call.json')
const fixture = parseWsFixture(readFileSync(FIXTURE, 'utf8'))

describe('WebSocket captures on the command line', () => {
  it('a HAR\'s WebSocket entry: --entry N is its N-th turn, with the turn\'s reply', async () => {
    const har = join(tmp, 'realtime.har')
    writeFileSync(har, JSON.stringify(chromeHar(fixture.capture)))
    const second = await runCli(['merge', '--json', '--entry', '2', har])
    // the error event after resp_002's end joins that turn: a stream error, exit 1
    expect(second.code).toBe(1)
    expect(JSON.parse(second.stdout).choices).toEqual(fixture.expected![1]!.reply.choices)
    const text = await runCli(['merge', har])
    expect(text.stdout).toContain('Hello, how can I assist you today?')
    expect(await runCli(['merge', '--entry', '3', har])).toEqual({
      code: 2, stdout: '',
      stderr: `deltascope: --entry 3: ${har} has 2 streaming entries: 1 = GET ${fixture.capture.url} (WebSocket turn 1 resp_001); 2 = GET ${fixture.capture.url} (WebSocket turn 2 resp_002)\n`,
    })
  })

  it('a WebSocket fixture lists its turns like a HAR\'s entries', async () => {
    const r = await runCli(['merge', '--json', '--entry', '1', FIXTURE])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).choices).toEqual(fixture.expected![0]!.reply.choices)
  })

  it('ws-fixture: a HAR\'s WebSocket entry as a WebSocket fixture, its key and tokens redacted, replaying to the same turns', async () => {
    const KEY = 'sk-proj-Abc123Def456Ghi789'
    const capture = {
      ...fixture.capture,
      messages: [{ direction: 'send' as const, opcode: 1, data: '{"type":"session.update","session":{"instructions":"hi"},"client_secret":"' + KEY + '"}', time: fixture.capture.startedAt }, ...fixture.capture.messages],
    }
    const har = chromeHar(capture) as { log: { entries: Array<Record<string, unknown>> } }
    ;(har.log.entries[0]!['request'] as { headers: unknown[] }).headers.push({ name: 'Sec-WebSocket-Protocol', value: `realtime, openai-insecure-api-key.${KEY}` })
    const path = join(tmp, 'key.har')
    writeFileSync(path, JSON.stringify(har))
    const r = await runCli(['ws-fixture', path])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain(KEY)
    const written = parseWsFixture(r.stdout)
    // what the client sent is redacted by field name as a request body is (a field named session included)
    expect(JSON.parse(r.stdout).meta.redactions).toEqual([{ where: 'request header', name: 'Sec-WebSocket-Protocol' }, { where: 'request body', name: 'session' }, { where: 'request body', name: 'client_secret' }])
    expect(written.capture.requestHeaders.at(-1)).toEqual({ name: 'Sec-WebSocket-Protocol', value: 'realtime, openai-insecure-api-key.[REDACTED]' })
    expect(written.expected).toEqual(fixture.expected)
    expect(replayTurns(written.capture).map((t) => t.reply)).toEqual(fixture.expected!.map((t) => t.reply))
    expect(await runCli(['ws-fixture', '--entry', '2', path])).toEqual({
      code: 2, stdout: '', stderr: `deltascope: --entry 2: ${path} has 1 WebSocket entry: 1 = ${fixture.capture.url} (18 messages)\n`,
    })
  })
})
