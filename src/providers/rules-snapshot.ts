// Snapshot reading for user rules: each frame holds the whole text so far, per choice and
// channel (and per tool call's arguments); the reply gets what the new whole adds.

import type { Delta } from '../core/types.js'

export class SnapshotTexts {
  private readonly last = new Map<string, string>()

  /** The deltas that turn the previous whole text of (choice, channel) into `text`. */
  text(choice: number, channel: 'content' | 'reasoning', text: string): Delta[] {
    const key = `${choice} ${channel}`
    const before = this.last.get(key) ?? ''
    this.last.set(key, text)
    if (text.startsWith(before)) return text.length > before.length || !this.seen(key) ? [{ type: 'text', choice, channel, text: text.slice(before.length) }] : []
    return [{ type: 'note', level: 'warning', message: `the ${channel} snapshot of choice ${choice} does not extend the previous one (${before.length} → ${text.length} characters): kept as first written` }]
  }

  /** The part of a tool call's whole arguments that is new, or null when nothing is; a rewrite is noted in `out`. */
  arguments(choice: number, key: number | null, args: string, out: Delta[]): string | null {
    const k = `${choice} call ${key}`
    const before = this.last.get(k) ?? ''
    this.last.set(k, args)
    if (args.startsWith(before)) return args.length > before.length ? args.slice(before.length) : null
    out.push({ type: 'note', level: 'warning', message: `the arguments snapshot of tool call ${key} (choice ${choice}) does not extend the previous one: kept as first written` })
    return null
  }

  private readonly marked = new Set<string>()
  /** "" marks a field present the first time only. */
  private seen(key: string): boolean {
    if (this.marked.has(key)) return true
    this.marked.add(key)
    return false
  }
}
