// The Problems list's order and note counts, over real diagnostics (so a reply is not buried
// under info notes): warnings and
// errors before the info notes, and the notes counted by code over the whole list, a summary
// ("N more … not listed (M in all)", from the debugger's findings and from the core's
// accumulator alike) counted for the N notes it stands for.

import { describe, expect, it } from 'vitest'
import { diagnose } from '../../src/debug/diagnose.js'
import type { Recording } from '../../src/exchange/types.js'
import { createMerger } from '../../src/index.js'
import { noteCounts, notesIn, problemsFirst } from '../../panel/store/problem-order.js'
import { recording } from '../support/requests.js'
import { DONE, openaiChunk } from '../support/streams.js'

/** An OpenAI chat chunk without an id: the counts below follow from its length, read 7 bytes at a time. */
const chunk = (delta: object, finish: string | null = null) => openaiChunk(delta, finish, { id: null })

/** 150 content frames, a finish reason sent twice, each read 7 bytes: 153 frames split across reads. */
function splitEverywhere(): Recording {
  const body = chunk({ role: 'assistant', content: '' }) + Array.from({ length: 150 }, () => chunk({ content: 'x' })).join('') + chunk({}, 'stop') + chunk({}, 'stop') + DONE
  const reads = Array.from({ length: Math.ceil(body.length / 7) }, (_, i) => [body.slice(i * 7, i * 7 + 7), 10 + i] as const)
  return recording(reads, { id: 'r', startedAt: 0, source: 'live' })
}

describe('the Problems list\'s order and note counts', () => {
  it('the debugger\'s summary stands for the notes it does not list: 100 listed + 1 summary of 54 = 154 frames split', () => {
    const ds = diagnose(splitEverywhere())
    const split = ds.filter((d) => d.code === 'frame-split-across-reads')
    expect(split.map(notesIn).reduce((a, b) => a + b, 0)).toBe(154)
    expect(noteCounts(ds)).toEqual([{ code: 'frame-split-across-reads', count: 154 }, { code: 'duplicate-finish', count: 1 }])
  })

  it('the accumulator\'s summary too: 150 ignored events, 100 listed, 50 summed up', () => {
    const m = createMerger({ url: 'https://api.anthropic.com/v1/messages' })
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
    m.push(event('message_start', { message: { id: 'm', role: 'assistant', content: [] } }) + Array.from({ length: 150 }, () => event('odd_event', {})).join('') + event('message_stop', {}))
    m.end()
    expect(noteCounts(m.diagnostics())).toEqual([{ code: 'note', count: 150 }])
  })

  it('warnings and errors first, each list in the order it came; a list of one kind is as it was', () => {
    const ds = diagnose(splitEverywhere())
    const warning = { frame: 5, level: 'warning' as const, code: 'content-after-finish' as const, message: 'w', symptom: 's' }
    const error = { frame: 9, level: 'error' as const, code: 'glued-frames' as const, message: 'e', symptom: 's' }
    const ordered = problemsFirst([...ds.slice(0, 3), warning, ...ds.slice(3, 6), error])
    expect(ordered.map((d) => [d.level, d.frame])).toEqual([['warning', 5], ['error', 9], ['info', 0], ['info', 1], ['info', 2], ['info', 3], ['info', 4], ['info', 5]])
    expect(problemsFirst(ds)).toEqual(ds)
  })
})
