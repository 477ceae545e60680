// "Reply after frame N": a slider over the frames; at its right end, the latest reply.

import { usePanel } from '../context.js'

export function Scrubber() {
  const { store } = usePanel()
  const view = store.selection.value
  if (!view || view.frameCount === 0) return null
  const n = view.frameCount
  const at = view.scrub
  const value = at === null ? n : at
  const set = (v: number) => store.scrubTo(v >= n ? null : Math.max(0, v))
  const label = at === null ? `Latest reply (${n} frame${n === 1 ? '' : 's'})` : `Reply after frame ${at} of ${n - 1}`
  return (
    <div class={`ds-scrub${at === null ? '' : ' rewound'}`} data-testid="scrubber">
      <button type="button" class="ds-button" aria-label="One frame back" disabled={value <= 0} onClick={() => set(value - 1)}>◀</button>
      <input
        type="range"
        min={0}
        max={n}
        step={1}
        value={value}
        aria-label="Reply after frame"
        aria-valuetext={label}
        data-testid="scrub-slider"
        onInput={(e) => {
          // long streams: rebuild only when the slider is released
          if (view.autoScrub) set(Number(e.currentTarget.value))
        }}
        onChange={(e) => set(Number(e.currentTarget.value))}
      />
      <button type="button" class="ds-button" aria-label="One frame forward" disabled={at === null} onClick={() => set(value + 1)}>▶</button>
      <span class="ds-scrub-label" data-testid="scrub-label">{label}</span>
      {at !== null && <button type="button" class="ds-button" onClick={() => set(n)}>Latest</button>}
    </div>
  )
}
