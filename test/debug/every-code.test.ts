// Every declared diagnostic is emitted by some rule (a code nothing emits is a promise the
// debugger does not keep): each DiagnosticCode (the keys
// of SYMPTOMS, which is complete by type) is produced by a repository fixture, whole or cut
// into timed reads, or by the one scenario named for it below (a code no fixture shows). A
// code added to the union that no rule emits fails here; so does a scenario that stops
// producing its code.

import { describe, expect, it } from 'vitest'
import { diagnose } from '../../src/debug/diagnose.js'
import { createMerger, createProviderRegistry, defaultRegistry, SYMPTOMS, type Diagnostic, type ProviderAdapter } from '../../src/index.js'
import { loadFixtures } from '../support/fixtures.js'
import { recording } from '../support/requests.js'
import { DONE, openaiChunk } from '../support/streams.js'

const encoder = new TextEncoder()

const whole = (body: string | Uint8Array, request?: Parameters<typeof recording>[1]) => diagnose(recording([[body, null]], request))

/** An OpenAI chat chunk without an id (the scenarios below cut the wire at character offsets). */
const chunk = (delta: object, finish: string | null = null, extra: Record<string, unknown> = {}) => openaiChunk(delta, finish, { id: null, ...extra })
const role = chunk({ role: 'assistant', content: '' })
const hel = chunk({ content: 'Hel' })
const lo = chunk({ content: 'lo' })
const stop = chunk({}, 'stop')
const done = DONE

/** Gemini's JSON array stream (its URL says so). */
const GEMINI = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent'
const candidate = (text: string) => JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] })

/** An adapter that throws on the frame that says so: what frame-failed stands for (a defect, contained). */
const fragile: ProviderAdapter = {
  id: 'fragile',
  recognizes: (frame) => (frame.json as Record<string, unknown>)['fragile'] === true,
  createMapper: () => ({
    map(frame) {
      const j = frame.json as Record<string, unknown>
      if (j['map'] === 'throw') throw new RangeError('Maximum call stack size exceeded')
      return [{ type: 'text', choice: 0, channel: 'content', text: String(j['text'] ?? '') }]
    },
  }),
}

function withRegistry(body: string, adapters: ProviderAdapter[]): Diagnostic[] {
  const m = createMerger({ registry: createProviderRegistry(adapters, defaultRegistry.fallback) })
  m.push(body)
  m.end()
  return m.diagnostics()
}

/** The scenario for each code no repository fixture produces: one sentence, one body. */
const SCENARIOS: Record<string, [string, () => Diagnostic[]]> = {
  'invalid-utf8': ['a byte that is no UTF-8 inside a delta', () => whole(new Uint8Array([...encoder.encode(role + 'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a'), 0xff, ...encoder.encode('"},"finish_reason":null}]}\n\n' + stop + done)]))],
  'unknown-transport': ['a body that is neither SSE, NDJSON nor a JSON array', () => whole('hello\ndata: {}\n\n', { contentType: null })],
  'binary-eventstream': ['a body of NUL bytes', () => whole('\0\0\0', { contentType: null })],
  'unknown-provider': ['SSE frames no adapter recognises', () => whole('data: {"foo":1}\n\ndata: {"foo":2}\n\n', { url: 'https://example.com/stream' })],
  'truncated-json-array': ['a JSON array stream cut before its "]"', () => whole(`[${candidate('Hi')},\n${candidate(' there')}`, { url: GEMINI, contentType: 'application/json' })],
  'stray-text': ['text after a JSON array stream\'s "]"', () => whole(`[${candidate('Hi')}]\nthanks`, { url: GEMINI, contentType: 'application/json' })],
  'invalid-retry': ['a retry line that is no number', () => whole(role + 'retry: soon\n' + hel + lo + stop + done)],
  'unknown-field': ['an SSE line whose field SSE does not know', () => whole(role + 'delta: x\n' + hel + lo + stop + done)],
  'glued-frames': ['two frames without the blank line between them', () => whole(chunk({ role: 'assistant', content: 'Hi' }) + hel.slice(0, -1) + lo + stop + done)],
  'missing-data-prefix': ['a payload block without `data:`', () => whole(role + hel.replace(/^data: /, '') + lo + stop + done)],
  'data-after-done': ['content after [DONE]', () => whole(role + hel + stop + done + lo)],
  'mixed-line-endings': ['CRLF frames, then one with LF', () => whole((role + hel).replace(/\n/g, '\r\n') + lo + (stop + done).replace(/\n/g, '\r\n'))],
  'bom': ['a UTF-8 byte order mark at the start', () => whole('\ufeff' + role + hel + lo + stop + done)],
  'burst': ['every frame within 50 ms after a first byte 800 ms late', () => {
    const body = role + Array.from({ length: 17 }, () => chunk({ content: 'x' })).join('') + stop + done
    return diagnose(recording([[body.slice(0, role.length), 800], [body.slice(role.length), 850]]))
  }],
  'tool-name-changed': ['a second name fragment after the first one', () => whole(role
    + chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'edit_ex', arguments: '' } }] })
    + chunk({ tool_calls: [{ index: 0, function: { name: 'isting_file', arguments: '{}' } }] })
    + chunk({}, 'tool_calls') + done)],
  'content-after-finish': ['content after the finish reason, before [DONE]', () => whole(role + hel + stop + lo + done)],
  'inline-think-tags': ['<think>…</think> inside the content', () => whole(role + chunk({ content: '<think>plan</think>' }) + hel + stop + done)],
  'too-deep': ['a usage field nested 300 levels', () => whole(role + hel + chunk({}, 'stop', { usage: { deep: JSON.parse('['.repeat(300) + ']'.repeat(300)) } }) + done)],
  'frame-failed': ['an adapter that throws on a frame (contained: the frames after it are merged)', () => withRegistry('data: {"fragile":true,"text":"a"}\n\ndata: {"fragile":true,"map":"throw"}\n\ndata: {"fragile":true,"text":"b"}\n\n', [fragile])],
}

/** Every code the repository fixtures produce, read whole and cut into timed reads of 7 bytes. */
function fixtureCodes(): Set<string> {
  const codes = new Set<string>()
  for (const f of loadFixtures()) {
    const reads: Array<[Uint8Array, number]> = []
    for (let at = 0; at < f.wire.length; at += 7) reads.push([f.wire.slice(at, at + 7), 100 + at])
    for (const cut of [[[f.wire, null]] as Array<[Uint8Array, number | null]>, reads]) {
      const r = recording(cut, { url: f.options.url ?? '', contentType: f.options.contentType ?? null })
      if (f.options.provider || f.options.transport || f.options.rules) {
        r.forced = {
          ...(f.options.provider ? { provider: f.options.provider } : {}),
          ...(f.options.transport ? { transport: f.options.transport } : {}),
          ...(f.options.rules ? { rules: f.options.rules } : {}),
        }
      }
      for (const d of diagnose(r)) codes.add(d.code)
    }
  }
  return codes
}

describe('every declared diagnostic is emitted by some rule', () => {
  const fromFixtures = fixtureCodes()

  it('every DiagnosticCode is produced by a repository fixture or by its scenario', () => {
    const produced = new Set(fromFixtures)
    for (const [code, [, run]] of Object.entries(SCENARIOS)) if (run().some((d) => d.code === code)) produced.add(code)
    expect(Object.keys(SYMPTOMS).filter((code) => !produced.has(code))).toEqual([])
  })

  it('arguments-invalid comes from real wire: the repository fixtures whose tool arguments do not parse at the end', () => {
    expect(fromFixtures.has('arguments-invalid')).toBe(true)
  })

  for (const [code, [sentence, run]] of Object.entries(SCENARIOS)) {
    it(`${code}: ${sentence}`, () => {
      expect(run().filter((d) => d.code === code).length).toBeGreaterThan(0)
    })
  }
})
