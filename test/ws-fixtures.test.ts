// Every WebSocket fixture under test/ws-fixtures/<adapter>/ is a capture of real wire text
// (its meta.note says where each message comes from) with the turns a correct client rebuilds.
// Its messages are pushed one by one: the final turns must equal the stored ones exactly, and
// while they stream every turn not yet ended is live.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createConnection, defaultRegistry, PROVIDER_IDS } from '../src/index.js'
import { parseWsFixture } from '../src/exchange/index.js'

const root = join(import.meta.dirname, 'ws-fixtures')
const files = readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((f) => join(dir, f)))

describe('WebSocket fixtures', () => {
  it('every WebSocket adapter (one that places frames in turns) has fixtures, each citing its source', () => {
    const dirs = new Set(files.map((f) => f.split('/')[0]))
    const webSocket = PROVIDER_IDS.filter((id) => defaultRegistry.adapter(id).turn !== undefined)
    expect([...dirs].sort()).toEqual([...webSocket].sort())
    for (const f of files) expect(parseWsFixture(readFileSync(join(root, f), 'utf8')).note).toMatch(/\w{20}/)
  })

  for (const file of files) {
    const { capture, expected, note } = parseWsFixture(readFileSync(join(root, file), 'utf8'))
    it(`${file}: ${note!.slice(0, 120)}…`, () => {
      const c = createConnection({ url: capture.url })
      for (const m of capture.messages) {
        c.push(m)
        const turns = c.turns()
        // a turn ends only by its own last event: until then it is live
        for (const t of turns.slice(0, -1)) expect(t.state).not.toBe('cut')
      }
      if (capture.close) c.close(capture.close)
      expect(c.turns().map((t) => ({ key: t.key, state: t.state, reply: t.reply }))).toEqual(expected)
      expect(c.providerChoice()).toEqual({ id: file.split('/')[0], reason: 'frames' })
    })
  }
})
