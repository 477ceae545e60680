// The one timer of a request's cache (panel/store/deferred-run.ts): at most one run waiting,
// cancelled by forget(), skipped for a model the store no longer holds.

import { describe, expect, it } from 'vitest'
import { DeferredRun } from '../../panel/store/deferred-run.js'
import type { ModelState, StoreEnv } from '../../panel/store/types.js'

function clock() {
  const timers: Array<{ work: () => void; ms: number; cancelled: boolean }> = []
  let held = true
  const env = {
    now: () => 0,
    defer: (work: () => void, ms: number) => {
      const t = { work, ms, cancelled: false }
      timers.push(t)
      return () => { t.cancelled = true }
    },
    holds: () => held,
  } as unknown as StoreEnv
  const fire = () => { for (const t of timers.splice(0)) if (!t.cancelled) t.work() }
  return { env, timers, fire, drop: () => { held = false } }
}
const model = {} as ModelState

describe('a cache\'s deferred run', () => {
  it('keeps one run waiting however often it is asked, and may be asked again once it ran', () => {
    const { env, timers, fire } = clock()
    const run = new DeferredRun(model, env)
    const ran: string[] = []
    run.schedule(() => ran.push('first'), 30)
    run.schedule(() => ran.push('second'), 0)
    expect(timers.map((t) => t.ms)).toEqual([30])
    expect(run.waiting).toBe(true)
    fire()
    expect(ran).toEqual(['first'])
    expect(run.waiting).toBe(false)
    run.schedule(() => ran.push('third'), 5)
    fire()
    expect(ran).toEqual(['first', 'third'])
  })

  it('forget() cancels the run waiting', () => {
    const { env, timers, fire } = clock()
    const run = new DeferredRun(model, env)
    const ran: string[] = []
    run.schedule(() => ran.push('x'), 10)
    run.forget()
    expect(timers[0]!.cancelled).toBe(true)
    expect(run.waiting).toBe(false)
    fire()
    expect(ran).toEqual([])
  })

  it('does nothing for a model the store no longer holds', () => {
    const { env, fire, drop } = clock()
    const run = new DeferredRun(model, env)
    const ran: string[] = []
    run.schedule(() => ran.push('x'), 10)
    drop()
    fire()
    expect(ran).toEqual([])
  })
})
