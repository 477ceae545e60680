// Rendering spread over frames takes turns page-wide (panel/components/turns.ts): one step per
// frame, whoever asks, in the order they asked. Node has no animation frames: a turn is the
// module's timer there, as in a hidden page.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

beforeEach(() => { vi.useFakeTimers(); vi.resetModules() })
afterEach(() => { vi.useRealTimers() })

const load = () => import('../../panel/components/turns.js')

describe('turns', () => {
  it('gives the first step of a frame at once, and no second one in the same frame', async () => {
    const { stepNow } = await load()
    expect(stepNow()).toBe(true)
    expect(stepNow()).toBe(false)
    vi.advanceTimersByTime(16)
    expect(stepNow()).toBe(true)
  })

  it('runs the callers waiting for a turn one per turn, in the order they asked', async () => {
    const { nextTurn } = await load()
    const ran: string[] = []
    nextTurn(() => ran.push('reasoning'))
    nextTurn(() => ran.push('content'))
    nextTurn(() => ran.push('tool calls'))
    expect(ran).toEqual([])
    vi.advanceTimersByTime(100)
    expect(ran).toEqual(['reasoning'])
    vi.advanceTimersByTime(100)
    expect(ran).toEqual(['reasoning', 'content'])
    vi.advanceTimersByTime(100)
    expect(ran).toEqual(['reasoning', 'content', 'tool calls'])
  })

  it('counts a turn as the step of its frame: a text that appears then waits for the next', async () => {
    const { nextTurn, stepNow } = await load()
    nextTurn(() => {})
    vi.advanceTimersByTime(100)
    expect(stepNow()).toBe(false)
    vi.advanceTimersByTime(16)
    expect(stepNow()).toBe(true)
  })

  it('never runs a caller that cancelled', async () => {
    const { nextTurn } = await load()
    const ran: string[] = []
    const cancel = nextTurn(() => ran.push('unmounted'))
    nextTurn(() => ran.push('kept'))
    cancel()
    vi.advanceTimersByTime(300)
    expect(ran).toEqual(['kept'])
  })
})
