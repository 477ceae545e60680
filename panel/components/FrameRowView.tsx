// One row of the frame list. Broken frames carry the parser's message and position;
// comments, pings and [DONE] are dimmed; the partial last frame of a stream the page
// cancelled is "incomplete" (what was there when it stopped), not broken.

import { formatBytes, formatClock, formatSince, oneLine } from '../format.js'
import type { FrameItem } from '../store/index.js'

/** The optional columns shown (the list decides, from the rows in view and its width). */
export interface RowColumns {
  /** Time since the request started. */
  times: boolean
  /** Wall-clock time. */
  clock: boolean
  /** Event name. */
  labels: boolean
  size: boolean
}

interface Props {
  item: FrameItem
  selected: boolean
  columns: RowColumns
  onOpen: (seq: number) => void
  onMenu: (seq: number, e: MouseEvent) => void
}

/** Characters of summary laid out: more than the widest column shows (the tooltip has it all). */
const SUMMARY_CHARS = 160

export function FrameRowView({ item, selected, columns, onOpen, onMenu }: Props) {
  const { times, clock, labels, size } = columns
  if (item.type === 'entry') {
    const text = item.kind === 'comment' ? oneLine(item.raw, SUMMARY_CHARS) : `${oneLine(item.raw, SUMMARY_CHARS)} (no data: not a frame)`
    return (
      <div
        class="ds-frame entry dimmed"
        role="presentation"
        data-testid="frame-entry"
        data-kind={item.kind}
        title={`line ${item.line}: ${item.kind === 'comment' ? 'comment' : 'event without data'} (not a frame)`}
      >
        <span class="num">·</span>{times && <span />}{clock && <span class="clock" />}{labels && <span>{item.kind === 'empty' ? 'no data' : ''}</span>}
        <span>{item.kind}</span>{size && <span class="num size">{formatBytes(item.size)}</span>}<span>{text}</span>
      </div>
    )
  }
  const classes = ['ds-frame']
  if (item.dimmed) classes.push('dimmed')
  if (item.broken) classes.push('broken')
  if (item.streamError) classes.push('stream-error')
  if (item.problem) classes.push(`problem-${item.problem.level}`)
  if (item.incomplete) classes.push('incomplete')
  const summary = item.incomplete
    ? 'incomplete: the page cancelled the stream before this frame ended'
    : item.broken
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
      data-incomplete={item.incomplete ? 'true' : undefined}
      data-problem={item.problem?.level}
      title={`${item.time !== null ? formatClock(item.time) + ' · ' : ''}${formatBytes(item.size)} · ${summary}${item.unterminated ? ' (not ended by a blank line)' : ''}`}
      onClick={() => onOpen(item.seq)}
      onContextMenu={(e) => onMenu(item.seq, e)}
    >
      <span class="num">
        {item.problem && <span class={`ds-problem-mark ${item.problem.level}`} title={item.problem.message} data-testid="problem-mark" aria-label={`${item.problem.level}: ${item.problem.message}`}>●</span>}
        {item.seq}
      </span>
      {times && <span>{formatSince(item.sinceStart)}</span>}
      {clock && <span class="clock">{formatClock(item.time)}</span>}
      {labels && <span title={item.label}>{item.label}</span>}
      <span class="kind">{item.incomplete ? 'incomplete' : item.kind === 'invalid' ? 'broken' : item.kind}{item.unterminated && !item.incomplete ? '*' : ''}</span>
      {size && <span class="num size">{formatBytes(item.size)}</span>}
      <span>{summary.length > SUMMARY_CHARS ? summary.slice(0, SUMMARY_CHARS - 1) + '…' : summary}</span>
    </div>
  )
}
