// Reading the accumulator's provenance log back: as records in the choices' coordinates (a
// message's text where it stands in its choice's joined channel, a call's arguments by the
// call's place in choice.toolCalls), and as records in the message parts' own coordinates.

import type { MessageTable, PartPlace, TextPart } from './messages.js'
import type { ProvenanceLog } from './provenance-log.js'
import { sortedCalls, type ToolState } from './reply-tool-call.js'
import type { Channel, PartProvenance, ProvenanceVisit } from './types.js'

/** What a provenance record's target is: a channel of a choice (or a message's text part in it), or a call's arguments. */
export type ProvenanceTarget =
  | { choice: number; channel: Channel; part?: TextPart }
  | { choice: number; channel: 'arguments'; tool: ToolState }

/** A choice as provenance reads it: its calls, and its channels' own text lengths. */
export interface ChoiceCalls {
  index: number
  calls: { calls: ToolState[] }
  channels: Record<Channel, { length: number }>
}

const CHANNELS: readonly Channel[] = ['content', 'reasoning', 'refusal']

/** Every record that still holds text, in the order written, in the choices' coordinates. */
export function eachProvenance(log: ProvenanceLog, targets: readonly ProvenanceTarget[], choices: Iterable<ChoiceCalls>, messages: MessageTable, visit: ProvenanceVisit): void {
  const positions = new Map<ToolState, number>()
  for (const c of choices) {
    sortedCalls(c.calls.calls).forEach((t, i) => positions.set(t, i))
    if (messages.size > 0) for (const channel of CHANNELS) messages.placeText(c.index, channel, c.channels[channel].length)
  }
  for (let i = 0; i < log.count; i++) {
    if (!log.holdsText(i)) continue
    const t = targets[log.targetAt(i)]!
    if (t.channel === 'arguments') visit(log.frameAt(i), t.choice, t.channel, positions.get(t.tool)!, log.startAt(i), log.endAt(i))
    else {
      // a message's text is credited where it stands in the choice's joined channel
      const shift = t.part === undefined ? 0 : t.part.offset
      visit(log.frameAt(i), t.choice, t.channel, null, log.startAt(i) + shift, log.endAt(i) + shift)
    }
  }
}

/** Every record whose target is shown as a message part (`where`), in the part's coordinates. */
export function partProvenance(log: ProvenanceLog, where: ReadonlyMap<number, PartPlace>): PartProvenance[] {
  const out: PartProvenance[] = []
  for (let i = 0; i < log.count; i++) {
    if (!log.holdsText(i)) continue
    const place = where.get(log.targetAt(i))
    if (place !== undefined) out.push({ frame: log.frameAt(i), message: place.message, part: place.part, start: log.startAt(i), end: log.endAt(i) })
  }
  return out
}
