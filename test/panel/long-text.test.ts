// Issue 33: long texts cut for display and laid out in steps (panel/long-text.ts,
// ProgressiveText's stepsOf); a list patch for entries inserted before the last ones
// (panel/remote/list-patch.ts); the request list's catch-up (RowGroups' sameRow).

import { describe, expect, it } from 'vitest'
import { cutText, DISPLAY_CUT, safeCut, stepBounds } from '../../panel/long-text.js'
import { stepsOf } from '../../panel/components/ProgressiveText.js'
import { sameRow } from '../../panel/components/RowGroups.js'
import { applyList, diffList, diffListCapped, type ListPatch } from '../../panel/remote/list-patch.js'

describe('cutText', () => {
  it('keeps a short text whole', () => {
    expect(cutText('abc')).toEqual({ head: 'abc', hidden: 0 })
    const exact = 'x'.repeat(DISPLAY_CUT)
    expect(cutText(exact)).toEqual({ head: exact, hidden: 0 })
  })
  it('cuts a long one and counts exactly what it hid', () => {
    const text = 'y'.repeat(DISPLAY_CUT + 1234)
    const { head, hidden } = cutText(text)
    expect(head).toBe(text.slice(0, DISPLAY_CUT))
    expect(hidden).toBe(1234)
  })
  it('never splits a surrogate pair', () => {
    const text = 'a'.repeat(9) + '😀' + 'b'.repeat(10)
    expect(safeCut(text, 10)).toBe(9)
    const { head, hidden } = cutText(text, 10)
    expect(head).toBe('a'.repeat(9))
    expect(head.length + hidden).toBe(text.length)
  })
})

describe('stepBounds', () => {
  it('covers the text exactly, in steps no longer than asked', () => {
    let text = ''
    for (let i = 0; text.length < 100_000; i++) text += `line ${i} 😀 of some text${i % 7 === 0 ? '\n' : ' '}`
    const bounds = stepBounds(text, 1000)
    expect(bounds[bounds.length - 1]).toBe(text.length)
    let at = 0
    for (const end of bounds) {
      expect(end).toBeGreaterThan(at)
      expect(end - at).toBeLessThanOrEqual(1000)
      // never inside a surrogate pair
      const c = text.charCodeAt(end - 1)
      expect(c >= 0xd800 && c <= 0xdbff).toBe(false)
      at = end
    }
    // after a line break where the step's last quarter has one
    expect(bounds.slice(0, -1).filter((b) => text[b - 1] === '\n').length).toBeGreaterThan(bounds.length / 2)
  })
  it('cuts a text without line breaks after a space in the step\'s last quarter: between two words', () => {
    const text = 'word '.repeat(500) // 2,500 characters, a space every five
    expect(stepBounds(text, 1000)).toEqual([1000, 2000, 2500])
    const odd = 'abcdefghijk '.repeat(200) // 2,400: spaces at 11, 23, …, 995, …
    const bounds = stepBounds(odd, 1000)
    expect(bounds).toEqual([996, 1992, 2400])
    for (const b of bounds.slice(0, -1)) expect(odd[b - 1]).toBe(' ')
  })
  it('cuts a text without line breaks (a data: URL) at the step size', () => {
    expect(stepBounds('z'.repeat(2500), 1000)).toEqual([1000, 2000, 2500])
    expect(stepBounds('', 1000)).toEqual([])
  })
})

describe('stepsOf', () => {
  it('keeps every piece, its marks and its order', () => {
    const pieces = [{ text: 'a'.repeat(1500) }, { text: 'b'.repeat(700), mark: '' }, { text: 'c'.repeat(2100), mark: 'ds-found', testid: 'found-mark' }]
    const steps = stepsOf(pieces, 1000)
    expect(steps.flat().map((p) => p.text).join('')).toBe(pieces.map((p) => p.text).join(''))
    for (const step of steps) expect(step.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(1000)
    for (const p of steps.flat()) {
      const kind = p.text[0]
      expect(p.mark).toBe(kind === 'a' ? undefined : kind === 'b' ? '' : 'ds-found')
      expect(new Set(p.text).size).toBe(1)
    }
  })
})

describe('diffList', () => {
  const rows = (n: number, tag = '') => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}` }))
  it('sends entries inserted before the last ones as what follows the common start', () => {
    const old = rows(5)
    const inserted = [...old.slice(0, 4), ...rows(1000, 'new'), old[4]!]
    const patch = diffList(old, inserted)!
    expect(patch).toEqual({ keep: 4, add: inserted.slice(4) })
    expect(applyList(old, patch)).toEqual(inserted)
  })
  it('sends the changed entries alone unless every one changed', () => {
    const old = rows(10)
    const next = old.map((r, i) => (i === 3 ? r : { ...r }))
    const patch = diffList(old, next)!
    expect('set' in patch && patch.set.length).toBe(9)
    const applied = applyList(old, patch)
    expect(applied).toEqual(next)
    expect(applied[3]).toBe(old[3])
    expect('whole' in diffList(old, old.map((r) => ({ ...r })))!).toBe(true)
  })
})

describe('diffListCapped', () => {
  const rows = (n: number, tag = '') => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}` }))
  it('sends a list of 2,500 new entries in parts of at most 1,000, which rebuild it exactly', () => {
    const next = rows(2500)
    let held: Array<{ id: string }> = []
    let prev: readonly { id: string }[] | null = null
    const sizes: number[] = []
    for (let more = true; more;) {
      const step: { patch: ListPatch<{ id: string }> | null; now: readonly { id: string }[]; more: boolean } = diffListCapped(prev, next, 1000)
      held = applyList(held, step.patch!)
      sizes.push(held.length)
      expect(held).toEqual(step.now)
      prev = step.now
      more = step.more
    }
    expect(sizes).toEqual([1000, 2000, 2500])
    expect(held).toEqual(next)
    expect(diffListCapped(prev, next, 1000)).toEqual({ patch: null, now: next, more: false })
  })
  it('caps the changed entries of a list of the same length, the rest in the next part', () => {
    const old = rows(3000)
    const next = old.map((r, i) => (i % 3 === 0 ? r : { ...r, changed: true }))
    const first = diffListCapped(old, next, 1000)
    expect([first.more, 'set' in first.patch! && first.patch.set.length]).toEqual([true, 1000])
    const second = diffListCapped(first.now, next, 1000)
    expect([second.more, 'set' in second.patch! && second.patch.set.length]).toEqual([false, 1000])
    expect(applyList(applyList(old, first.patch!), second.patch!)).toEqual(next)
  })
  it('sends a small change as diffList does', () => {
    const old = rows(10)
    const next = [...old, ...rows(2, 'n')]
    expect(diffListCapped(old, next, 1000)).toEqual({ patch: diffList(old, next), now: next, more: false })
  })
})

describe('sameRow', () => {
  it('is true of an equal copy, false of a changed one', () => {
    const row = { id: 'a', frames: 3, page: { state: 'ok', cause: null }, status: 200 }
    expect(sameRow(row, structuredClone(row))).toBe(true)
    expect(sameRow(row, { ...row, frames: 4 })).toBe(false)
    expect(sameRow(row, { ...row, page: { state: 'bad', cause: null } })).toBe(false)
  })
})
