// A bar between two panes that the user drags (or moves with the arrow keys) to share the
// room between them. It reports a size in pixels; the layout (panel/layout.ts) keeps it
// within bounds and remembers it.

import { useRef } from 'preact/hooks'

interface Props {
  /** 'vertical': a bar between columns (dragged sideways); 'horizontal': between rows. */
  orientation: 'vertical' | 'horizontal'
  label: string
  /** The size of the pane before the bar (px), and its bounds. */
  value: number
  min: number
  max: number
  onChange: (value: number) => void
  testid: string
}

/** Pixels moved per arrow key press (ten times that with Shift). */
const STEP = 16

export function Splitter({ orientation, label, value, min, max, onChange, testid }: Props) {
  const drag = useRef<{ start: number; at: number } | null>(null)
  const along = (e: PointerEvent) => (orientation === 'vertical' ? e.clientX : e.clientY)
  const set = (v: number) => onChange(Math.round(Math.min(max, Math.max(min, v))))

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return
    e.preventDefault()
    ;(e.currentTarget as HTMLElement).setPointerCapture(e.pointerId)
    drag.current = { start: value, at: along(e) }
  }
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current
    if (d) set(d.start + along(e) - d.at)
  }
  const onPointerUp = (e: PointerEvent) => {
    drag.current = null
    const el = e.currentTarget as HTMLElement
    if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? STEP * 10 : STEP
    const back = orientation === 'vertical' ? 'ArrowLeft' : 'ArrowUp'
    const forth = orientation === 'vertical' ? 'ArrowRight' : 'ArrowDown'
    if (e.key === back) set(value - step)
    else if (e.key === forth) set(value + step)
    else if (e.key === 'Home') set(min)
    else if (e.key === 'End') set(max)
    else return
    e.preventDefault()
  }

  return (
    <div
      class={`ds-splitter ${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      title={`${label}: drag, or use the arrow keys`}
      data-testid={testid}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  )
}
