// Snapshot mode (src/providers/snapshot.ts): frames that carry the whole text so far become
// deltas of what each frame changed, so the reply is the last snapshot and provenance credits
// every frame with exactly what it added; a snapshot that does not extend the last is said.

import { describe, expect, it } from 'vitest'
import { Accumulator } from '../../src/core/accumulator.js'
import { SYMPTOMS, type Delta } from '../../src/index.js'
import { commonPrefixLength, extendsText, SnapshotChannels, snapshotDeltas, SnapshotTexts, type SnapshotPlace } from '../../src/providers/snapshot.js'

const at: SnapshotPlace = { choice: 0, channel: 'content', source: 'messages/partial' }

/** Feeds snapshots, one frame each, through one tracker into an accumulator. */
function merged(snapshots: string[]): Accumulator {
  const texts = new SnapshotTexts()
  const acc = new Accumulator()
  snapshots.forEach((s, frame) => texts.update(s, at).forEach((d) => acc.apply(d, frame)))
  return acc
}

describe('snapshotDeltas', () => {
  it('a snapshot that extends the last is one text delta of what it added', () => {
    expect(snapshotDeltas('Hello', 'Hello world', at)).toEqual([{ type: 'text', choice: 0, channel: 'content', text: ' world' }])
  })

  it('the same snapshot again is no delta', () => {
    expect(snapshotDeltas('Hello', 'Hello', at)).toEqual([])
  })

  it('the first snapshot is all added', () => {
    expect(snapshotDeltas('', 'Hi', { choice: 2, channel: 'reasoning', source: 'text' })).toEqual([{ type: 'text', choice: 2, channel: 'reasoning', text: 'Hi' }])
  })

  it('a snapshot that rewrites is a truncate to the common prefix, the rest, and a snapshot-rewrote warning', () => {
    expect(snapshotDeltas('Hello world', 'Hello there', at)).toEqual([
      { type: 'text-truncate', choice: 0, channel: 'content', length: 6 },
      { type: 'text', choice: 0, channel: 'content', text: 'there' },
      {
        type: 'note', level: 'warning', code: 'snapshot-rewrote',
        message: 'messages/partial: the snapshot of choice 0 content does not extend the previous one (11 characters): it differs from character 6 on (was "world", now "there"); the text was cut to 6 characters and the rest replaced',
      },
    ])
  })

  it('a snapshot that shrinks is a truncate and a snapshot-rewrote warning, with no text', () => {
    expect(snapshotDeltas('Hello world', 'Hello', at)).toEqual([
      { type: 'text-truncate', choice: 0, channel: 'content', length: 5 },
      { type: 'note', level: 'warning', code: 'snapshot-rewrote', message: 'messages/partial: the snapshot of choice 0 content shrank from 11 characters to 5: the text past character 5 was taken back' },
    ])
  })

  it('with an offset (text of earlier messages before it in the channel) the truncate keeps that text too', () => {
    expect(snapshotDeltas('Hello world', 'Hello there', { ...at, offset: 7 }).slice(0, 2)).toEqual([
      { type: 'text-truncate', choice: 0, channel: 'content', length: 13 },
      { type: 'text', choice: 0, channel: 'content', text: 'there' },
    ])
  })

  it('an empty snapshot after text takes it all back', () => {
    expect(snapshotDeltas('Hi', '', at).slice(0, 1)).toEqual([{ type: 'text-truncate', choice: 0, channel: 'content', length: 0 }])
  })

  it('a rewrite never cuts between the halves of a surrogate pair', () => {
    expect(snapshotDeltas('a\u{1F600}', 'a\u{1F601}', at).slice(0, 2)).toEqual([
      { type: 'text-truncate', choice: 0, channel: 'content', length: 1 },
      { type: 'text', choice: 0, channel: 'content', text: '\u{1F601}' },
    ])
  })

  it('a rewrite quotes at most 40 characters of either text', () => {
    const note = snapshotDeltas('x' + 'a'.repeat(100), 'x' + 'b'.repeat(100), at)[2] as Extract<Delta, { type: 'note' }>
    expect(note.message).toBe(`messages/partial: the snapshot of choice 0 content does not extend the previous one (101 characters): it differs from character 1 on (was "${'a'.repeat(40)}…", now "${'b'.repeat(40)}…"); the text was cut to 1 characters and the rest replaced`)
  })
})

describe('extendsText and commonPrefixLength', () => {
  it('a change anywhere in the old text (not only its tail) is not an extension', () => {
    const old = 'a'.repeat(5000)
    const changed = 'a'.repeat(1000) + 'b' + 'a'.repeat(3999) + 'more'
    expect([extendsText(old, old + 'more'), extendsText(old, changed), extendsText(old, old.slice(1))]).toEqual([true, false, false])
  })

  it('the common prefix is found across 1 KiB blocks to the exact character', () => {
    const base = 'q'.repeat(3000)
    expect([
      commonPrefixLength(base + 'x', base + 'y'),
      commonPrefixLength(base, base.slice(0, 2047) + 'z'),
      commonPrefixLength('', 'abc'),
      commonPrefixLength('abc', 'abc'),
    ]).toEqual([3000, 2047, 0, 3])
  })
})

describe('SnapshotTexts through the accumulator', () => {
  it('the reply is the last snapshot, and provenance credits each frame with what it added', () => {
    const acc = merged(['The', 'The cat', 'The cat sat'])
    expect(acc.state().choices[0]!.content).toBe('The cat sat')
    expect(acc.provenanceRecords().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 3], [1, 3, 7], [2, 7, 11]])
    expect(acc.diagnostics).toEqual([])
  })

  it('after a rewrite the reply is the new snapshot, the rewriting frame owns what it changed, and the rewrite is a diagnostic of its frame', () => {
    const acc = merged(['The cat', 'The cat sat', 'The dog sat', 'The dog sat down'])
    expect(acc.state().choices[0]!.content).toBe('The dog sat down')
    expect(acc.provenanceRecords().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 4], [2, 4, 11], [3, 11, 16]])
    expect(acc.diagnostics.map((d) => [d.frame, d.code, d.level, d.symptom])).toEqual([[2, 'snapshot-rewrote', 'warning', SYMPTOMS['snapshot-rewrote']]])
  })

  it('a snapshot that shrinks leaves the shorter text', () => {
    const acc = merged(['Hello world', 'Hello'])
    expect(acc.state().choices[0]!.content).toBe('Hello')
    expect(acc.provenanceRecords().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, 5]])
  })

  it('channels and choices are tracked apart', () => {
    const texts = new SnapshotTexts()
    texts.update('abc', at)
    expect(texts.update('xyz', { ...at, channel: 'reasoning' })).toEqual([{ type: 'text', choice: 0, channel: 'reasoning', text: 'xyz' }])
    expect(texts.update('abcd', at)).toEqual([{ type: 'text', choice: 0, channel: 'content', text: 'd' }])
    expect(texts.update('q', { ...at, choice: 1 })).toEqual([{ type: 'text', choice: 1, channel: 'content', text: 'q' }])
  })

  it('appended keeps the tracker in step with plain appends to the same channel', () => {
    const texts = new SnapshotTexts()
    texts.update('Hel', at)
    texts.appended(0, 'content', 'lo')
    expect([texts.current(0, 'content'), texts.update('Hello!', at)]).toEqual(['Hello', [{ type: 'text', choice: 0, channel: 'content', text: '!' }]])
  })

  it('a 10 MB snapshot and its extension are one text delta each, of exactly what was added', () => {
    const big = 'w'.repeat(10 * 1024 * 1024)
    const texts = new SnapshotTexts()
    const first = texts.update(big, at)
    const second = texts.update(big + 'end', at)
    expect([first.length, (first[0] as { text: string }).text.length, second]).toEqual([1, 10 * 1024 * 1024, [{ type: 'text', choice: 0, channel: 'content', text: 'end' }]])
  })

  it('a 10 MB snapshot rewritten in its middle is cut there, with the diagnostic', () => {
    const half = 5 * 1024 * 1024
    const big = 'w'.repeat(2 * half)
    const rewritten = 'w'.repeat(half) + 'X' + 'w'.repeat(half - 1)
    const acc = merged([big, rewritten])
    expect(acc.state().choices[0]!.content === rewritten).toBe(true)
    expect(acc.provenanceRecords().map((p) => [p.frame, p.start, p.end])).toEqual([[0, 0, half], [1, half, 2 * half]])
    expect(acc.diagnostics.map((d) => d.code)).toEqual(['snapshot-rewrote'])
  })
})

describe('SnapshotChannels: several writers in one channel', () => {
  /** Applies each frame's deltas from `step` to one accumulator. */
  function run(steps: Array<(c: SnapshotChannels, out: Delta[]) => void>) {
    const channels = new SnapshotChannels()
    const acc = new Accumulator()
    steps.forEach((step, frame) => {
      const out: Delta[] = []
      step(channels, out)
      out.forEach((d) => acc.apply(d, frame))
    })
    return { content: acc.state().choices[0]?.content, codes: acc.diagnostics.map((d) => [d.frame, d.code]) }
  }

  it('a writer that wrote last rewrites its own text only: the text before it stays', () => {
    expect(run([
      (c, out) => c.append(out, 0, 'content', 'Intro. ', 'a'),
      (c, out) => c.snapshot(out, 'Draft', 'b', at),
      (c, out) => c.snapshot(out, 'Final', 'b', at),
    ])).toEqual({ content: 'Intro. Final', codes: [[2, 'snapshot-rewrote']] })
  })

  it('a writer another wrote after extends after the other\'s text; its rewrite is said and not applied', () => {
    expect(run([
      (c, out) => c.snapshot(out, 'One', 'a', at),
      (c, out) => c.snapshot(out, 'Two', 'b', at),
      (c, out) => c.snapshot(out, 'One more', 'a', at),
      (c, out) => c.snapshot(out, 'Uno', 'a', at),
    ])).toEqual({ content: 'OneTwo more', codes: [[3, 'snapshot-rewrote']] })
  })
})
