// Snapshot reading for user rules: each frame (or, in patch mode, the document after it) holds
// the whole text so far, per choice and channel and per tool call's arguments; the reply gets
// what the new whole adds. Text goes through the shared snapshot helper (snapshot.ts: a rewrite
// is a truncate, the new rest and a snapshot-rewrote note); arguments have no truncate, so a
// rewrite of them keeps what was written and says so.

import type { Delta } from '../core/adapters.js'
import { extendsText, SnapshotTexts as ChannelSnapshots } from './snapshot.js'

const SOURCE = 'rules'

export class SnapshotTexts {
  private readonly channels = new ChannelSnapshots()
  private readonly args = new Map<string, string>()
  /** Fields seen at least once: the first "" still marks the channel present. */
  private readonly seen = new Set<string>()

  /** The deltas that turn the previous whole text of (choice, channel) into `text`. */
  text(choice: number, channel: 'content' | 'reasoning', text: string): Delta[] {
    const deltas = this.channels.update(text, { choice, channel, source: SOURCE })
    const key = `${choice} ${channel}`
    if (deltas.length === 0 && !this.seen.has(key)) deltas.push({ type: 'text', choice, channel, text: '' })
    this.seen.add(key)
    return deltas
  }

  /** The channel got `text` appended by a plain text delta (patch mode's appends): kept in step, no compare. */
  appended(choice: number, channel: 'content' | 'reasoning', text: string): void {
    this.channels.appended(choice, channel, text)
    this.seen.add(`${choice} ${channel}`)
  }

  /** The part of a tool call's whole arguments that is new, or null when nothing is; a rewrite is noted in `out`. */
  arguments(choice: number, key: number | null, args: string, out: Delta[]): string | null {
    const k = `${choice} ${key}`
    const before = this.args.get(k) ?? ''
    this.args.set(k, args)
    if (extendsText(before, args)) return args.length > before.length ? args.slice(before.length) : null
    out.push({
      type: 'note', level: 'warning', code: 'snapshot-rewrote',
      message: `${SOURCE}: the arguments snapshot of tool call ${key ?? '(no key)'} of choice ${choice} does not extend the previous one (${before.length} characters): the arguments keep what was first written`,
    })
    return null
  }
}
