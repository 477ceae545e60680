// Frame ↔ reply text, in the reply shown. Provenance positions are those of the latest reply;
// the reply shown may be an earlier one (the scrubber), whose text is a prefix of the latest
// (for a message protocol, each message part's is: message-layout.ts carries positions part
// by part) but whose tool calls may sit elsewhere in the list, so a call is matched by its
// wire index and id. Clicks need the index fresh (ensure); a selected frame's highlight uses the one
// there is (selection.ts).

import type { Provenance, Reply } from '../../src/library.js'
import { mapOffset, mapRange } from '../message-layout.js'
import type { FieldRef } from '../provenance.js'
import type { RequestModel } from './request-model.js'
import type { Highlight, SelectionState } from './types.js'

/** Position of a tool call of reply `from` in reply `to` (same wire index and id); null when `to` has no such call. */
export function mapToolCall(from: Reply, to: Reply, choice: number, pos: number): number | null {
  if (from === to) return pos
  const call = from.choices.find((c) => c.index === choice)?.toolCalls[pos]
  if (!call) return null
  const calls = to.choices.find((c) => c.index === choice)?.toolCalls ?? []
  const i = calls.findIndex((c) => c.index === call.index && c.id === call.id)
  return i < 0 ? null : i
}

/** Provenance ranges of the latest reply, as highlights in the reply shown (ranges of calls it lacks are left out). */
export function toShown(ranges: readonly Provenance[], latest: Reply, shown: Reply): Highlight[] {
  const out: Highlight[] = []
  for (const r of ranges) {
    if (r.channel === 'arguments') {
      if (r.toolCall === null) continue
      const toolCall = mapToolCall(latest, shown, r.choice, r.toolCall)
      if (toolCall !== null) out.push({ field: { choice: r.choice, channel: r.channel, toolCall }, start: r.start, end: r.end })
      continue
    }
    for (const [start, end] of mapRange(latest, shown, r.channel, r.start, r.end)) {
      out.push({ field: { choice: r.choice, channel: r.channel, toolCall: null }, start, end })
    }
  }
  return out
}

/** The frame that produced a position of the shown reply. */
export function frameAt(m: RequestModel, view: SelectionState, field: FieldRef, offset: number): number | null {
  let ref = field
  let at: number | null = offset
  if (field.channel === 'arguments' && field.toolCall !== null) {
    const pos = mapToolCall(view.reply, view.latest, field.choice, field.toolCall)
    if (pos === null) return null
    ref = { ...field, toolCall: pos }
  } else if (field.channel !== 'arguments') at = mapOffset(view.reply, view.latest, field.channel, offset)
  return at === null ? null : m.provenance.ensure().provenance.frameAt(ref, at)
}

/** The ranges a frame contributed, in the shown reply. */
export function rangesFor(m: RequestModel, view: SelectionState, seq: number): Highlight[] {
  return toShown(m.provenance.ensure().provenance.forFrame(seq), view.latest, view.reply)
}
