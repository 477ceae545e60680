// Hostile input: a failure inside one frame's handling becomes that frame's
// `frame-failed` diagnostic and never poisons the merger (the router wraps the adapter's
// recognition, its map and flush, and each delta's application); the CLI never prints
// "internal error", whatever the input.

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMerger, createProviderRegistry, defaultRegistry, merge, SYMPTOMS, type ProviderAdapter } from '../../src/index.js'
import { runCli } from '../cli/run.js'

const sse = (...frames: string[]) => frames.map((f) => `data: ${f}\n\n`).join('')

/** An adapter that throws where its frame says so. */
const fragile: ProviderAdapter = {
  id: 'fragile',
  recognizes(frame) {
    const j = frame.json as Record<string, unknown>
    if (j['recognize'] === 'throw') throw new TypeError('cannot tell')
    return j['fragile'] === true
  },
  createMapper() {
    let opened = false
    return {
      map(frame) {
        const j = frame.json as Record<string, unknown>
        if (j['map'] === 'throw') throw new RangeError('Maximum call stack size exceeded')
        if (j['map'] === 'bad-delta') return [{ type: 'text', choice: 0, channel: 'nowhere' as 'content', text: 'x' }, { type: 'text', choice: 0, channel: 'content', text: 'kept' }]
        opened = true
        return [{ type: 'text', choice: 0, channel: 'content', text: String(j['text'] ?? '') }]
      },
      flush() {
        if (opened) throw new Error('no way to close')
        return []
      },
    }
  },
}
const registry = createProviderRegistry([fragile], defaultRegistry.fallback)

describe('a frame an adapter fails on', () => {
  const body = sse(
    '{"recognize":"throw"}',
    '{"fragile":true,"text":"a"}',
    '{"fragile":true,"map":"throw"}',
    '{"fragile":true,"text":"b"}',
    '{"fragile":true,"map":"bad-delta"}',
    '{"fragile":true,"text":"c"}',
  )

  it('is that frame\'s diagnostic; the frames after it are merged', () => {
    const m = createMerger({ registry })
    m.push(body)
    const reply = m.end()
    expect(reply.provider).toBe('fragile')
    expect(reply.choices[0]!.content).toBe('abkeptc')
    expect(m.diagnostics().filter((d) => d.code === 'frame-failed')).toEqual([
      { frame: 0, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: 'frame 0: recognising its provider failed (TypeError: cannot tell); the frame was read as unrecognised and merging went on' },
      { frame: 2, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: 'frame 2: reading it as fragile failed (RangeError: Maximum call stack size exceeded); the frame was skipped and merging went on' },
      { frame: 4, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: 'frame 4: applying its "text" delta failed (TypeError: Cannot read properties of undefined (reading \'length\')); that delta was skipped and merging went on' },
      { frame: 5, level: 'error', code: 'frame-failed', symptom: SYMPTOMS['frame-failed'], message: 'frame 5: closing the fragile stream failed (Error: no way to close); what was open stays as it was and merging went on' },
    ])
  })

  it('merge() gives the same Reply, and a merger keeps taking pushes after a failure', () => {
    const m = createMerger({ registry })
    for (const piece of body.split(/(?<=\n\n)/)) m.push(piece)
    const reply = m.end()
    expect(merge(body, { registry })).toEqual(reply)
    expect(m.replyAt(3).choices[0]!.content).toBe('ab')
  })

  it('a failure message quotes at most 200 characters of the error', () => {
    const loud: ProviderAdapter = { ...fragile, id: 'loud', createMapper: () => ({ map() { throw new Error('x'.repeat(100_000)) } }) }
    const m = createMerger({ registry: createProviderRegistry([loud], defaultRegistry.fallback) })
    m.push(sse('{"fragile":true}'))
    m.end()
    const [d] = m.diagnostics().filter((x) => x.code === 'frame-failed')
    expect(d!.message).toBe(`frame 0: reading it as loud failed (Error: ${'x'.repeat(200)}…); the frame was skipped and merging went on`)
  })
})

describe('the CLI on hostile input', () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000)
  const body = sse(
    `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":${deep}}}]}}],"usage":{"x":${deep}}}`,
    `{"object":"chat.completion.chunk","choices":[],"error":${deep}}`,
    '[DONE]',
  )
  const dir = mkdtempSync(join(tmpdir(), 'deltascope-hardening-'))
  const file = join(dir, 'deep.sse')
  writeFileSync(file, body)

  for (const args of [['merge', '--json'], ['merge'], ['frames', '--json'], ['frames'], ['diagnose', '--json']]) {
    it(`${args.join(' ')}: no internal error; exit 1 (the stream carries an error), stderr empty`, async () => {
      const result = await runCli([...args, file])
      expect(result.stderr).toBe('')
      expect(result.code).toBe(1)
      if (args.includes('--json')) expect(() => JSON.parse(result.stdout)).not.toThrow()
    }, 60_000)
  }
})
