// One row of the frame list. Broken frames carry the parser's message and position;
// comments, pings and [DONE] are dimmed.

import { formatBytes, formatClock, formatSince, oneLine } from '../format.js'
import type { FrameItem } from '../store.js'

interface Props {
  item: FrameItem
  top: number
  selected: boolean
  /** Show the two time columns. */
  times: boolean
  /** Show the event column. */
  labels: boolean
  onOpen: (seq: number) => void
}

export function FrameRowView({ item, top, selected, times, labels, onOpen }: Props) {
  if (item.type === 'entry') {
    const text = item.kind === 'comment' ? oneLine(item.raw, 200) : `${oneLine(item.raw, 200)} (no data: not a frame)`
    return (
      <div
        class="ds-frame entry dimmed"
        role="presentation"
        data-testid="frame-entry"
        data-kind={item.kind}
        style={{ top: `${top}px` }}
        title={`line ${item.line}: ${item.kind === 'comment' ? 'comment' : 'event without data'} (not a frame)`}
      >
        <span class="num">·</span>{times && <><span /><span class="clock" /></>}{labels && <span>{item.kind === 'empty' ? 'no data' : ''}</span>}
        <span>{item.kind}</span><span class="num size">{formatBytes(item.size)}</span><span>{text}</span>
      </div>
    )
  }
  const classes = ['ds-frame']
  if (item.dimmed) classes.push('dimmed')
  if (item.broken) classes.push('broken')
  if (item.streamError) classes.push('stream-error')
  const summary = item.broken
    ? `line ${item.broken.line}, position ${item.broken.position}: ${item.broken.message}`
    : item.streamError
      ? `stream error: ${item.streamError}`
      : item.summary
  return (
    <div
      id={`ds-frame-${item.seq}`}
      class={classes.join(' ')}
      role="option"
      aria-selected={selected}
      data-testid="frame-row"
      data-seq={item.seq}
      data-kind={item.kind}
      data-broken={item.broken ? 'true' : undefined}
      style={{ top: `${top}px` }}
      title={`${item.time !== null ? formatClock(item.time) + ' · ' : ''}${formatBytes(item.size)} · ${summary}${item.unterminated ? ' (not ended by a blank line)' : ''}`}
      onClick={() => onOpen(item.seq)}
    >
      <span class="num">{item.seq}</span>
      {times && <span>{formatSince(item.sinceStart)}</span>}
      {times && <span class="clock">{formatClock(item.time)}</span>}
      {labels && <span>{item.label}</span>}
      <span>{item.kind === 'invalid' ? 'broken' : item.kind}{item.unterminated ? '*' : ''}</span>
      <span class="num size">{formatBytes(item.size)}</span>
      <span>{summary}</span>
    </div>
  )
}
