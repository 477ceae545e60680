// Where each message part's text sits in its choice's channel text. A message protocol's
// channel is its messages' text parts joined in message order (docs/wire-formats.md#messages),
// so while messages stream at once an earlier reply's channel is not a prefix of the latest's
// (a message before another grows); each part's own text is. Positions are carried from one
// reply to another through the part that holds them.

import type { Channel, Reply } from '../src/library.js'

/** A text part: its message (id, or position for a message without one), its place, its span in the channel. */
interface PartSpan { key: string; start: number; end: number }

const CHANNEL_OF: Record<string, Channel | undefined> = { text: 'content', reasoning: 'reasoning', refusal: 'refusal' }

/** True when the reply's messages are the wire's own (their text is joined into choice 0). */
export function joinsMessages(reply: Reply): boolean {
  return reply.messages.some((m) => m.id !== null)
}

/** Each reply's spans per channel: a Reply is never changed once built, so they are computed once (a search marks thousands of ranges). */
const cache = new WeakMap<Reply, Map<Channel, { spans: PartSpan[]; byKey: Map<string, PartSpan> }>>()

function layout(reply: Reply, channel: Channel): { spans: PartSpan[]; byKey: Map<string, PartSpan> } {
  let per = cache.get(reply)
  if (per === undefined) cache.set(reply, per = new Map())
  let l = per.get(channel)
  if (l === undefined) {
    const spans = partSpans(reply, channel)
    per.set(channel, l = { spans, byKey: new Map(spans.map((x) => [x.key, x])) })
  }
  return l
}

/** The channel's text parts in order, each with its span in the channel text of choice 0. */
export function partSpans(reply: Reply, channel: Channel): PartSpan[] {
  const out: PartSpan[] = []
  let at = 0
  reply.messages.forEach((m, i) => {
    m.parts.forEach((p, k) => {
      if (!('text' in p) || CHANNEL_OF[p.type] !== channel) return
      out.push({ key: `${m.id ?? `#${i}`}\u0000${k}`, start: at, end: at + p.text.length })
      at += p.text.length
    })
  })
  return out
}

/**
 * The range [start, end) of `from`'s channel as ranges of `to`'s, part by part (a part `to`
 * lacks, or the text of a part past its length there, is left out).
 */
export function mapRange(from: Reply, to: Reply, channel: Channel, start: number, end: number): Array<[number, number]> {
  if (from === to || !joinsMessages(from)) return [[start, end]]
  const there = layout(to, channel).byKey
  const spans = layout(from, channel).spans
  const out: Array<[number, number]> = []
  // the spans are in order: start at the first that ends past `start` (a search marks many ranges)
  let lo = 0
  let hi = spans.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (spans[mid]!.end <= start) lo = mid + 1
    else hi = mid
  }
  for (let i = lo; i < spans.length && spans[i]!.start < end; i++) {
    const s = spans[i]!
    const a = Math.max(start, s.start)
    const b = Math.min(end, s.end)
    if (a >= b) continue
    const t = there.get(s.key)
    if (t === undefined) continue
    const from0 = t.start + (a - s.start)
    const to0 = Math.min(t.end, t.start + (b - s.start))
    if (from0 < to0) out.push([from0, to0])
  }
  return out
}

/** A position of `from`'s channel in `to`'s (null when its part is not there). */
export function mapOffset(from: Reply, to: Reply, channel: Channel, offset: number): number | null {
  if (from === to || !joinsMessages(from)) return offset
  const spans = layout(from, channel).spans
  const s = spans.find((x) => offset >= x.start && offset < x.end) ?? spans.find((x) => offset === x.end)
  if (s === undefined) return null
  const t = layout(to, channel).byKey.get(s.key)
  return t === undefined ? null : t.start + (offset - s.start)
}
