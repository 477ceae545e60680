// panel/recent.ts: a few values kept by key, the least recently used let go first.

import { describe, expect, it } from 'vitest'
import { recent } from '../../panel/recent.js'

describe('recent', () => {
  it('makes a value once, and gives the kept one back after', () => {
    const cache = new Map<number, string>()
    let made = 0
    const make = (k: number) => () => { made++; return `v${k}` }
    expect([recent(cache, 1, 2, make(1)), recent(cache, 1, 2, make(1))]).toEqual(['v1', 'v1'])
    expect(made).toBe(1)
  })

  it('lets the least recently used go first, a use counting as recent', () => {
    const cache = new Map<number, string>()
    for (const k of [1, 2]) recent(cache, k, 2, () => `v${k}`)
    recent(cache, 1, 2, () => 'again') // 1 used: 2 is now the oldest
    recent(cache, 3, 2, () => 'v3')
    expect([...cache.entries()]).toEqual([[1, 'v1'], [3, 'v3']])
  })
})
