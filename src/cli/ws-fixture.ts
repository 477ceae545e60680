// deltascope ws-fixture FILE: a WebSocket connection of a HAR (Chrome's Export HAR keeps its
// messages as `_webSocketMessages`) written as a WebSocket fixture, credentials redacted
// (src/exchange/websocket-redact.ts), for replayWebSocket and the panel.

import { basename } from 'node:path'
import type { StreamArgs } from './args.js'
import { InputError, Output, readText } from './io.js'
import { WS_FIXTURE_FORMAT, harWebSockets, parseWsFixture, redactWsCapture, toWsFixture, type WsCapture } from '../exchange/index.js'
import { FixtureError } from '../exchange/fixture.js'

export async function wsFixtureCommand(command: StreamArgs, out: Output): Promise<number> {
  const file = command.file
  const name = file === '-' ? 'stdin' : file
  let value: unknown
  try {
    value = JSON.parse(await readText(file))
  } catch (e) {
    if (e instanceof InputError) throw e
    throw new InputError(`${name}: not JSON (${(e as Error).message}): ws-fixture reads a HAR`)
  }
  let sockets: Array<{ index: number; capture: WsCapture }>
  try {
    sockets = typeof value === 'object' && value !== null && (value as { format?: unknown }).format === WS_FIXTURE_FORMAT
      ? [{ index: 0, capture: parseWsFixture(value).capture }]
      : harWebSockets(value).filter((s) => s.capture.messages.length > 0)
  } catch (e) {
    if (e instanceof FixtureError) throw new InputError(`${name}: ${e.message}`)
    throw e
  }
  if (sockets.length === 0) throw new InputError(`${name} holds no WebSocket entry with messages (Chrome DevTools' Export HAR keeps them as _webSocketMessages)`)
  const n = command.entry ?? 1
  const picked = sockets[n - 1]
  if (picked === undefined) {
    const list = sockets.map((s, i) => `${i + 1} = ${s.capture.url} (${s.capture.messages.length} messages)`).join('; ')
    throw new InputError(`--entry ${n}: ${name} has ${sockets.length} WebSocket ${sockets.length === 1 ? 'entry' : 'entries'}: ${list}`)
  }
  const { capture, removed } = redactWsCapture(picked.capture)
  const note = `exported by deltascope ws-fixture from ${file === '-' ? 'stdin' : basename(file)}, HAR entry ${picked.index}`
  await out.write(JSON.stringify(toWsFixture(capture, { note, redactions: removed }), null, 2) + '\n')
  return 0
}
