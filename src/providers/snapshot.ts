// Snapshot mode, shared by the adapters whose frames carry the whole text so far (LangGraph
// `messages/partial`, LibreChat's legacy `text`, a user rule's snapshot mode): each frame's
// text replaces the last, and the deltas say only what changed, so provenance credits each
// frame with exactly what it added. A snapshot that extends the previous one is a `text` delta
// of the added characters; any other is a `text-truncate` to the common prefix, a `text` delta
// of the rest and a `snapshot-rewrote` note (a client that appends snapshots repeats the text).
//
// Cost: telling an extension from a rewrite has to read the old text once per frame (a change
// can be anywhere in it). The tail is compared first (a rewrite near the end, the usual one, is
// found in O(TAIL)); an extension then costs one comparison of the old text with the new one's
// start, a memory compare of at most the new snapshot's length: the frame that carried the
// snapshot was just framed and JSON-parsed, which read those characters already, so a merge
// stays linear in the body, and the compare is a small part of it (measured: a 10 MB snapshot's
// check takes under a millisecond; 1,000 snapshots of a 400,000-character reply, a 200 MB
// body, about 15 ms of checks against seconds of parsing). A rewrite finds its common prefix
// by 1 KiB blocks, then characters. Nothing is joined or copied but the added text.

import type { Channel, Delta } from '../core/adapters.js'

/** Characters compared at the old text's end before the whole of it. */
const TAIL = 64
/** Block size of the common-prefix search. */
const BLOCK = 1024

export interface SnapshotPlace {
  choice: number
  channel: Channel
  /** What carried the snapshot, for the note ("messages/partial", "text"). */
  source: string
  /**
   * Characters of the channel before the snapshot's text (0 by default): several messages
   * snapshotted one after another into one channel. The truncate keeps `offset` + the common prefix.
   */
  offset?: number
}

/**
 * The deltas that turn a channel whose text is `previous` into `next`: one `text` delta
 * (what was added) when `next` extends `previous`; otherwise a `text-truncate` to their common
 * prefix, the `text` delta of the rest, and a `snapshot-rewrote` warning. None when equal.
 */
export function snapshotDeltas(previous: string, next: string, at: SnapshotPlace): Delta[] {
  const { choice, channel } = at
  if (extendsText(previous, next)) {
    return next.length === previous.length ? [] : [{ type: 'text', choice, channel, text: next.slice(previous.length) }]
  }
  const keep = splitSafe(next, commonPrefixLength(previous, next))
  const out: Delta[] = [{ type: 'text-truncate', choice, channel, length: (at.offset ?? 0) + keep }]
  if (next.length > keep) out.push({ type: 'text', choice, channel, text: next.slice(keep) })
  out.push({ type: 'note', level: 'warning', code: 'snapshot-rewrote', message: rewroteMessage(previous, next, keep, at) })
  return out
}

/**
 * True when `next` begins with the whole of `previous`: the tail first, then all of it. Slices
 * compared with `===` (V8 compares their characters as blocks of memory), not `startsWith`
 * (character by character: ten times slower on a long text).
 */
export function extendsText(previous: string, next: string): boolean {
  const n = previous.length
  if (next.length < n) return false
  const tail = Math.max(0, n - TAIL)
  return next.slice(tail, n) === previous.slice(tail) && next.slice(0, n) === previous
}

/** How many leading characters `a` and `b` share: by blocks, then by characters. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i + BLOCK <= n && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** A cut never splits a surrogate pair that `next` goes on with: the pair is rewritten whole. */
function splitSafe(next: string, keep: number): number {
  if (keep > 0 && keep < next.length) {
    const c = next.charCodeAt(keep - 1)
    if (c >= 0xd800 && c <= 0xdbff) return keep - 1
  }
  return keep
}

function rewroteMessage(previous: string, next: string, keep: number, at: SnapshotPlace): string {
  const where = `${at.source}: the snapshot of choice ${at.choice} ${at.channel}`
  const was = `${previous.length} characters`
  if (keep === next.length) return `${where} shrank from ${was} to ${next.length}: the text past character ${keep} was taken back`
  return `${where} does not extend the previous one (${was}): it differs from character ${keep} on (was ${clip(previous.slice(keep))}, now ${clip(next.slice(keep))}); the text was cut to ${keep} characters and the rest replaced`
}

function clip(s: string, max = 40): string {
  return JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s)
}

/**
 * The last snapshot of each (choice, channel) of one stream, for a mapper: `update` gives the
 * deltas from the last text to the new one and keeps the new one (a reference to the frame's
 * string, never a copy). `appended` keeps it in step when the same channel also gets plain
 * appends (a stream that mixes chunks and snapshots).
 */
export class SnapshotTexts {
  private readonly texts = new Map<string, string>()

  update(next: string, at: SnapshotPlace): Delta[] {
    const key = keyOf(at.choice, at.channel)
    const deltas = snapshotDeltas(this.texts.get(key) ?? '', next, at)
    this.texts.set(key, next)
    return deltas
  }

  /** The channel got `text` appended by a plain `text` delta. */
  appended(choice: number, channel: Channel, text: string): void {
    if (text.length === 0) return
    const key = keyOf(choice, channel)
    this.texts.set(key, (this.texts.get(key) ?? '') + text)
  }

  /** The channel's text as this tracker knows it. */
  current(choice: number, channel: Channel): string {
    return this.texts.get(keyOf(choice, channel)) ?? ''
  }
}

function keyOf(choice: number, channel: Channel): string {
  return `${choice} ${channel}`
}

/**
 * Several writers (messages, content parts) snapshotting or appending into the channels of
 * one stream, one after another: while a writer's text is the channel's tail, in one piece,
 * its snapshot's truncate keeps everything before it (the offset). A writer that another one
 * wrote after can still extend (the added text follows the other's, and its text is then in
 * two pieces), but a rewrite could only be applied by cutting the other's text: it is said
 * (`snapshot-rewrote`) and not applied.
 */
export class SnapshotChannels {
  /** Characters put in each (choice, channel), and the writer that put the last of them. */
  private readonly lengths = new Map<string, number>()
  private readonly lastWriter = new Map<string, string>()
  /** Each writer's text so far per (choice, channel), and whether it is still one piece at the channel's tail. */
  private readonly writers = new Map<string, { text: string; whole: boolean }>()

  /** Appends `text` for `writer` (a chunk: append mode). */
  append(out: Delta[], choice: number, channel: Channel, text: string, writer: string): void {
    if (text === '') return
    const key = keyOf(choice, channel)
    const own = this.writer(key, writer)
    if (own.text !== '' && this.lastWriter.get(key) !== writer) own.whole = false
    own.text += text
    out.push({ type: 'text', choice, channel, text })
    this.lengths.set(key, (this.lengths.get(key) ?? 0) + text.length)
    this.lastWriter.set(key, writer)
  }

  /** The deltas that make `writer`'s text in the channel `next` (the whole text so far). */
  snapshot(out: Delta[], next: string, writer: string, at: SnapshotPlace): void {
    const key = keyOf(at.choice, at.channel)
    const own = this.writer(key, writer)
    const previous = own.text
    if (next === previous) return
    const tail = previous === '' || (own.whole && this.lastWriter.get(key) === writer)
    if (!tail) {
      if (extendsText(previous, next)) this.append(out, at.choice, at.channel, next.slice(previous.length), writer)
      else {
        out.push({
          type: 'note', level: 'warning', code: 'snapshot-rewrote',
          message: `${at.source}: a snapshot of choice ${at.choice} ${at.channel} does not extend its previous one (${previous.length} characters), and other text was written after it: the change is not applied`,
        })
      }
      return
    }
    let now = this.lengths.get(key) ?? 0
    for (const d of snapshotDeltas(previous, next, { ...at, offset: now - previous.length })) {
      out.push(d)
      if (d.type === 'text') now += d.text.length
      else if (d.type === 'text-truncate') now = d.length
    }
    this.lengths.set(key, now)
    this.lastWriter.set(key, writer)
    own.text = next
  }

  private writer(key: string, writer: string): { text: string; whole: boolean } {
    const k = `${key} ${writer}`
    let w = this.writers.get(k)
    if (w === undefined) {
      w = { text: '', whole: true }
      this.writers.set(k, w)
    }
    return w
  }
}
