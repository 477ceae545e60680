// OpenAI Responses: a channel's text parts as the accumulator holds them, so that a part's
// final value (`*.done`, the terminal response's output) is compared with that part alone.
// Each part keeps where it starts in the channel and its text so far, concatenated as it
// streams (never joined until compared: a string comparison of different lengths reads no
// character), so a `.done` after every delta costs the event, not the channel.

import type { Channel, Delta } from '../core/adapters.js'

/** One part of a channel: where it starts (in characters of the channel) and its text so far. */
interface Part {
  start: number
  text: string
}

export class ChannelMirror {
  /** The channel's length, as the accumulator holds it. */
  private length = 0
  private readonly parts = new Map<string, Part>()
  /** The part of the latest delta; null before any. */
  private last: string | null = null

  constructor(private readonly choice: number, private readonly channel: Channel, private readonly separator: string) {}

  /**
   * Records a delta of part `key` and returns the text to append: the separator first when
   * the delta starts another part than the one before. A part that streams in several runs
   * (parts interleaved, never seen in practice) is compared as the concatenation of its runs.
   */
  append(key: string, text: string): string {
    const sep = this.last === null || this.last === key ? '' : this.separator
    this.length += sep.length
    let part = this.parts.get(key)
    if (part === undefined) {
      part = { start: this.length, text: '' }
      this.parts.set(key, part)
    }
    part.text += text
    this.length += text.length
    this.last = key
    return sep + text
  }

  /**
   * The final-text deltas for the final values of some parts (by key). An empty channel takes
   * them whole (joined by the separator). Otherwise each part is compared with its final
   * value; a final part that never streamed would be text the deltas lack, at the end.
   */
  finals(finals: ReadonlyMap<string, string>, source: string, out: Delta[]): void {
    const base = { type: 'final-text', choice: this.choice, channel: this.channel, source } as const
    if (this.last === null) {
      const texts = [...finals.values()].filter((t) => t !== '')
      out.push({ ...base, text: texts.join(this.separator) })
      // what the accumulator now holds
      for (const [key, text] of finals) if (text !== '') this.append(key, text)
      return
    }
    for (const [key, text] of finals) {
      const part = this.parts.get(key)
      if (part === undefined) {
        if (text !== '') out.push({ ...base, text: this.separator + text, span: { start: this.length, have: '' } })
      } else if (part.text !== text) {
        out.push({ ...base, text, span: { start: part.start, have: part.text } })
      }
    }
  }
}
