// timing(): exact figures on a recording whose chunk times were chosen, and the unknown-times case.

import { describe, expect, it } from 'vitest'
import { diagnose } from '../../src/debug/diagnose.js'
import { timing } from '../../src/debug/timing.js'
import { recording } from '../support/requests.js'
import { openaiChunk as chunk } from '../support/streams.js'

const f0 = chunk({ role: 'assistant', reasoning_content: 'Think' }) // reasoning
const f1 = chunk({ reasoning_content: 'ing' })
const f2 = chunk({ content: 'Hello' })
const f3 = chunk({ content: ' world' })
const f4 = chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] })
const f5 = chunk({}, 'tool_calls')
const f6 = 'data: [DONE]\n\n'

// frame times: 120, 200, 260, 1460, 1500, 1520, 1520 (ms since the request started)
const reads: Array<[string, number]> = [
  [f0, 120],
  [f1 + f2.slice(0, 20), 200],
  [f2.slice(20), 260],
  [f3, 1460],
  [f4, 1500],
  [f5 + f6, 1520],
]

describe('timing', () => {
  it('exact figures from chosen chunk times', () => {
    expect(timing(recording(reads))).toEqual({
      timesUnknown: false,
      ttfb: 120,
      firstFrame: 120,
      firstReasoning: 120,
      firstContent: 260,
      firstToolCall: 1500,
      total: 1520,
      frames: 7,
      // gaps 80, 60, 1200, 40, 20, 0: nearest rank
      gaps: { max: 1200, p50: 40, p95: 1200 },
      stalls: [{ afterFrame: 2, ms: 1200 }],
      // 6 frames after the first in 1.4 s
      framesPerSecond: 6000 / 1400,
      // " world" (6 characters) after the first content frame, in 1.2 s
      contentCharsPerSecond: 5,
    })
  })

  it('the stalls are those of the stall diagnostic, with the same threshold', () => {
    const r = recording(reads)
    expect(diagnose(r).filter((d) => d.code === 'stall').map((d) => d.frame)).toEqual(timing(r).stalls.map((s) => s.afterFrame + 1))
    expect(timing(r, { stallMs: 1201 }).stalls).toEqual([])
    expect(timing(r, { stallMs: 60 }).stalls).toEqual([{ afterFrame: 0, ms: 80 }, { afterFrame: 1, ms: 60 }, { afterFrame: 2, ms: 1200 }])
  })

  it('the first byte is the first non-empty read; absent channels are null', () => {
    const t = timing(recording([['', 50], [chunk({ role: 'assistant', content: 'Hi' }), 300], [chunk({}, 'stop') + 'data: [DONE]\n\n', 300]]))
    expect(t).toEqual({
      timesUnknown: false, ttfb: 300, firstFrame: 300, firstReasoning: null, firstContent: 300, firstToolCall: null, total: 300, frames: 3,
      gaps: { max: 0, p50: 0, p95: 0 }, stalls: [], framesPerSecond: null, contentCharsPerSecond: null,
    })
  })

  it('no times (a body known only whole): every time field is null and timesUnknown says so', () => {
    expect(timing(recording([[reads.map(([d]) => d).join(''), null]]))).toEqual({
      timesUnknown: true, ttfb: null, firstFrame: null, firstReasoning: null, firstContent: null, firstToolCall: null, total: null, frames: 7,
      gaps: { max: null, p50: null, p95: null }, stalls: [], framesPerSecond: null, contentCharsPerSecond: null,
    })
  })
})
