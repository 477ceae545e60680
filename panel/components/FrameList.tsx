// The frames of the selected request, virtualised: only the rows in view are built (the
// store builds each from the core on demand), so 100,000 frames cost what 40 do.
// Arrows move, Page Up/Down jump, Home/End go to the ends, Enter opens the frame.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { FrameRowView } from './FrameRowView.js'

export const ROW_HEIGHT = 20
const HEAD_HEIGHT = 20
const OVERSCAN = 8

export function FrameList() {
  const { store, ui } = usePanel()
  const view = store.selection.value
  const ref = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(400)
  const atBottom = useRef(true)
  const count = view?.items.length ?? 0
  const id = view?.id

  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    setHeight(el.clientHeight)
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => setHeight(el.clientHeight))
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  // a new request starts at the top
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    el.scrollTop = 0
    setScrollTop(0)
    atBottom.current = true
  }, [id])

  // live: stay at the bottom while frames arrive, if the user was there
  useLayoutEffect(() => {
    const el = ref.current
    // (an import being read in slices is 'live' too, but is read from the top)
    if (!el || view?.row.state !== 'live' || view.row.source !== 'live' || view.frame !== null) return
    if (atBottom.current) {
      // computed, not read from the DOM: reading scrollHeight would force a layout per frame
      const bottom = Math.max(0, count * ROW_HEIGHT + HEAD_HEIGHT - height)
      el.scrollTop = bottom
      setScrollTop(bottom)
    }
  }, [count])

  // keep the selected frame in view
  useEffect(() => {
    const el = ref.current
    if (!el || !view || view.frameIndex < 0) return
    const top = view.frameIndex * ROW_HEIGHT
    const visible = el.clientHeight - HEAD_HEIGHT
    if (top < el.scrollTop) el.scrollTop = top
    else if (top + ROW_HEIGHT > el.scrollTop + visible) el.scrollTop = top + ROW_HEIGHT - visible
  }, [view?.frame, view?.frameIndex])

  if (!view) return null

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN)
  const items = store.frameItems(first, last)
  // the time columns only when the capture has arrival times (live capture, fixtures)
  const times = items.some((i) => i.type === 'frame' && i.time !== null)
  // and the event column only when frames have names (SSE events, JSON types)
  const labels = items.some((i) => i.type === 'frame' && i.label !== '')
  const page = Math.max(1, Math.floor((height - HEAD_HEIGHT) / ROW_HEIGHT) - 1)

  const onScroll = (e: Event) => {
    const el = e.currentTarget as HTMLDivElement
    atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2
    setScrollTop(el.scrollTop)
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return
    switch (e.key) {
      case 'ArrowDown': store.moveFrame(1); break
      case 'ArrowUp': store.moveFrame(-1); break
      case 'PageDown': store.moveFrame(page); break
      case 'PageUp': store.moveFrame(-page); break
      case 'Home': store.moveFrame(-Infinity); break
      case 'End': store.moveFrame(Infinity); break
      case 'Enter':
        if (store.selectedFrame.value === null) store.moveFrame(1)
        ui.detailOpen.value = true
        break
      case 'Escape':
        if (!ui.detailOpen.value) return
        ui.detailOpen.value = false
        break
      default: return
    }
    e.preventDefault()
  }

  return (
    <div
      ref={ref}
      class={`ds-framelist${times ? '' : ' no-times'}${labels ? '' : ' no-labels'}`}
      role="listbox"
      aria-label="Frames"
      aria-activedescendant={view.frame !== null ? `ds-frame-${view.frame}` : undefined}
      tabIndex={0}
      data-testid="frame-list"
      data-count={count}
      style={{ '--seq-width': `calc(${Math.max(3, String(view.frameCount).length)}ch + 6px)` }}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
    >
      <div class="ds-framehead" aria-hidden="true">
        <span>#</span>{times && <><span title="time since the request started">elapsed</span><span class="clock">time</span></>}{labels && <span>event</span>}<span>kind</span><span class="size">size</span><span>summary</span>
      </div>
      <div class="ds-framelist-inner" style={{ height: `${count * ROW_HEIGHT}px` }}>
        {items.map((item, k) => (
          <FrameRowView
            key={item.type === 'frame' ? `f${item.seq}` : `e${item.index}`}
            item={item}
            top={(first + k) * ROW_HEIGHT}
            selected={item.type === 'frame' && item.seq === view.frame}
            times={times}
            labels={labels}
            onOpen={(seq) => {
              store.selectFrame(seq)
              ui.detailOpen.value = true
            }}
          />
        ))}
        {count === 0 && (
          <div class="ds-empty">
            {view.row.state === 'live' ? 'Waiting for the first frame…' : 'No frames: see the diagnostics beside.'}
          </div>
        )}
      </div>
    </div>
  )
}
