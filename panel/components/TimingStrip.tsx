// When things came: first byte, first reasoning, first content, first tool call, the end, and a
// chart of the gaps between frames with stalls marked (a bar selects the frame after its gap).
// Where no time is known (a finished capture got its body at once, a pasted body), it says so
// rather than show one identical time on every frame.

import { showFrame, usePanel } from '../context.js'
import { formatDuration } from '../format.js'

/** Bars drawn at most: beyond, each bar is the largest gap of a run of frames. */
const MAX_BARS = 240

export function TimingStrip() {
  const { store, ui, shell } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const t = view.timing
  if (t === null) {
    return view.row.state === 'live' ? <div class="ds-timing ds-timing-note" data-testid="timing">timing: when the stream ends</div> : null
  }
  if (t.timesUnknown) {
    const why = shell.kind === 'devtools' ? 'times unknown: turn on Live (without it the body arrives whole once the stream ended)' : 'times unknown: the input has no chunk times (export a fixture with Live capture on)'
    return <div class="ds-timing ds-timing-note" data-testid="timing" data-unknown="true">{why}</div>
  }
  const marks: Array<[string, number | null, string]> = [
    ['first byte', t.ttfb, 'ttfb'],
    ['first reasoning', t.firstReasoning, 'reasoning'],
    ['first content', t.firstContent, 'content'],
    ['first tool call', t.firstToolCall, 'tool'],
    ['end', t.total, 'end'],
  ]
  const go = (seq: number) => {
    store.selectFrame(seq, { scrub: false })
    showFrame(ui)
  }
  return (
    <div class="ds-timing" data-testid="timing">
      <div class="ds-timing-facts">
        {marks.filter(([, v]) => v !== null).map(([label, v, key]) => (
          <span key={key} data-testid={`timing-${key}`}>{label} <b>{formatDuration(v)}</b></span>
        ))}
        {t.stalls.length > 0 && <span class="ds-badge bad" data-testid="timing-stalls">{t.stalls.length} stall{t.stalls.length === 1 ? '' : 's'}</span>}
        {t.gaps.p50 !== null && <span>gap p50 {formatDuration(t.gaps.p50)} · p95 {formatDuration(t.gaps.p95)} · max {formatDuration(t.gaps.max)}</span>}
      </div>
      {view.frameTimes && view.frameTimes.length > 1 && <GapChart times={view.frameTimes} stallAfter={new Set(t.stalls.map((s) => s.afterFrame))} onPick={go} />}
    </div>
  )
}

interface Bar { seq: number; gap: number; stall: boolean }

function GapChart({ times, stallAfter, onPick }: { times: ReadonlyArray<number | null>; stallAfter: Set<number>; onPick: (seq: number) => void }) {
  const bars = barsOf(times, stallAfter)
  const max = bars.reduce((m, b) => Math.max(m, b.gap), 0) || 1
  const w = 100 / bars.length
  return (
    <svg class="ds-gaps" viewBox="0 0 100 24" preserveAspectRatio="none" role="img" aria-label="Gaps between frames" data-testid="gap-chart">
      {bars.map((b, i) => {
        const h = Math.max(0.6, (24 * b.gap) / max)
        return (
          <rect
            key={i} x={i * w} y={24 - h} width={Math.max(w * 0.8, 0.2)} height={h}
            class={b.stall ? 'stall' : undefined} data-seq={b.seq} data-testid={b.stall ? 'gap-stall' : 'gap-bar'}
            onClick={() => onPick(b.seq)}
          >
            <title>{`${formatDuration(b.gap)} before frame ${b.seq}${b.stall ? ' (a stall)' : ''}`}</title>
          </rect>
        )
      })}
    </svg>
  )
}

/** The gap before each frame; many frames are folded into MAX_BARS bars, each its run's largest gap. */
function barsOf(times: ReadonlyArray<number | null>, stallAfter: Set<number>): Bar[] {
  const per = Math.max(1, Math.ceil((times.length - 1) / MAX_BARS))
  const out: Bar[] = []
  for (let start = 1; start < times.length; start += per) {
    let best: Bar | null = null
    for (let seq = start; seq < Math.min(times.length, start + per); seq++) {
      const a = times[seq - 1]
      const b = times[seq]
      const gap = a === null || a === undefined || b === null || b === undefined ? 0 : Math.max(0, b - a)
      if (best === null || gap > best.gap) best = { seq, gap, stall: stallAfter.has(seq - 1) }
    }
    if (best) out.push(best)
  }
  return out
}
