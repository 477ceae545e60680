import { describe, expect, it } from 'vitest'
import { around, comparedFields, renderComparison, renderDiagnosis, renderTiming, TIMES_UNKNOWN } from '../../src/cli/report.js'
import type { Comparison } from '../../src/debug/compare-types.js'
import type { Timing } from '../../src/debug/timing.js'
import { choiceMessages, type Reply, type ReplyChoice } from '../../src/index.js'

const lines = (...l: string[]) => l.join('\n') + '\n'

const choice = (index: number): ReplyChoice => ({ index, role: 'assistant', content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: 'stop' })
const reply = (choices: number[]): Reply => ({
  transport: 'sse', provider: 'openai-chat', done: true, frameCount: 3, choices: choices.map(choice), messages: choiceMessages(choices.map(choice)), usage: null, errors: [],
})

describe('check: the fields and the first difference', () => {
  it('a list of messages compared in place of the choices lists each message', () => {
    const r: Reply = {
      ...reply([0]),
      messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'A' }] }, { id: 'b', role: 'assistant', parts: [{ type: 'text', text: 'B' }] }],
    }
    const comparison: Comparison = {
      equal: false, notCompared: ['choices[0]', 'usage'],
      differences: [{ field: 'messages[1].parts[0].text', expected: 'B', got: 'b', offset: 0, frame: null, cause: 'other', message: 'm' }],
    }
    expect(comparedFields(comparison, r)).toEqual(['messages[0]', 'messages[1]'])
  })

  it('lists each choice field and usage, less what was not compared, plus fields only a difference names', () => {
    const comparison: Comparison = {
      equal: false,
      differences: [
        { field: 'choices[0].toolCalls[1].arguments', expected: '{}', got: '{', offset: 1, frame: 2, cause: 'tool-arguments-differ', message: 'm' },
        { field: 'choices[2]', expected: null, got: {}, offset: null, frame: null, cause: 'other', message: 'extra' },
      ],
      notCompared: ['choices[0].reasoning', 'choices[1]', 'usage'],
    }
    expect(comparedFields(comparison, reply([0, 1]))).toEqual([
      'choices[0].content', 'choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'choices[2]',
    ])
    expect(renderComparison({ comparison, reply: reply([0, 1]) }).split('\n').slice(0, 6)).toEqual([
      '✓ choices[0].content', '✓ choices[0].refusal', '✗ choices[0].toolCalls', '✓ choices[0].finishReason', '✗ choices[2]',
      'not compared (the result does not carry them): choices[0].reasoning, choices[1], usage',
    ])
  })

  it('a difference in a whole choice marks each of its fields', () => {
    const comparison: Comparison = {
      equal: false,
      differences: [{ field: 'choices[1]', expected: choice(1), got: null, offset: null, frame: null, cause: 'other', message: 'The client\'s result has no choice 1.' }],
      notCompared: [],
    }
    const out = renderComparison({ comparison, reply: reply([0, 1]) })
    expect(out).toContain('✓ choices[0].content\n')
    expect(out).toContain('✗ choices[1].content\n✗ choices[1].reasoning\n')
    expect(out.slice(out.indexOf('choices[1]\n'))).toBe(lines(
      'choices[1]',
      '  expected  {"index":1,"role":"assistant","content":"","reasoning":"","…',
      '  got       null',
      "  what      The client's result has no choice 1.",
      '  cause     other: no documented cause explains it',
    ))
  })

  it('context: about 30 characters each side, cuts marked, the column of the offset', () => {
    const text = '0123456789'.repeat(10)
    expect(around(text, 50)).toEqual({ line: '…' + text.slice(20, 80) + '…', caret: 31 })
    expect(around('short', 2)).toEqual({ line: 'short', caret: 2 })
    expect(around('ab', 2)).toEqual({ line: 'ab(end)', caret: 2 })
    expect(around('a\nb\u202ec', 2)).toEqual({ line: 'a\\nb\\u202ec', caret: 3 })
    // a surrogate pair at the cut stays whole
    const emoji = 'x'.repeat(19) + '😀' + 'y'.repeat(40)
    expect(around(emoji, 50).line.startsWith('…😀')).toBe(true)
  })
})

describe('diagnose and timing', () => {
  it('diagnostics: aligned codes, lines from the diagnostic or the frame, symptoms indented', () => {
    const out = renderDiagnosis([
      { frame: null, level: 'warning', code: 'no-terminal-event', message: 'ended', symptom: 'hangs' },
      { frame: 4, level: 'info', code: 'stall', message: 'waited', symptom: 'gives up' },
      { frame: 2, level: 'error', code: 'unknown-field', message: 'odd\u001b', symptom: '', line: 7 },
    ], undefined, (f) => f * 10)
    expect(out).toBe(lines(
      'warning  no-terminal-event  ended',
      '                            hangs',
      'info     stall              frame 4 · line 40: waited',
      '                            gives up',
      'error    unknown-field      frame 2 · line 7: odd\\u001b',
      '',
      '3 findings: 1 error, 1 warning, 1 info',
    ))
    expect(renderDiagnosis([], undefined, undefined, { brokenFrames: 2, streamErrors: 1 })).toBe(lines(
      'no findings', 'also 2 broken frames and 1 provider stream error: deltascope merge lists them',
    ))
  })

  it('timing: "-" where unknown, whole ms from 100, one decimal below; unknown times said so', () => {
    const t: Timing = {
      timesUnknown: false, ttfb: 12.345, firstFrame: 140, firstReasoning: null, firstContent: 380.4, firstToolCall: null, total: 2280,
      frames: 18, gaps: { max: 1540, p50: 40, p95: 1540 }, stalls: [{ afterFrame: 4, ms: 1540 }], framesPerSecond: 7.777, contentCharsPerSecond: null,
    }
    expect(renderTiming(t)).toBe(lines(
      'ttfb             12.3 ms',
      'first frame      140 ms',
      'first reasoning  -',
      'first content    380 ms',
      'first tool call  -',
      'total            2280 ms',
      'frames           18',
      'gaps             max 1540 ms · p50 40 ms · p95 1540 ms',
      'stalls (1)       1540 ms after frame 4',
      'frames/s         7.8',
      'content chars/s  -',
    ))
    const unknown: Timing = { ...t, timesUnknown: true }
    expect(renderTiming(unknown)).toBe(lines(TIMES_UNKNOWN.raw, 'frames  18'))
    expect(renderTiming(unknown, undefined, false)).toBe(lines(TIMES_UNKNOWN.recording, 'frames  18'))
  })
})
