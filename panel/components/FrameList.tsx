// The frames of the selected request, virtualised: only the rows in view are built (the
// store builds each from the core on demand), so 100,000 frames cost what 40 do.
// Arrows move, Page Up/Down jump, Home/End go to the ends, Enter opens the frame; a right
// click opens the frame's menu. While a search runs, the list holds the matching frames only.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { frameMenu } from '../menus.js'
import { FrameRowView, type RowColumns } from './FrameRowView.js'
import { openMenu } from './Menu.js'
import { UnreadBody } from './UnreadBody.js'

export const ROW_HEIGHT = 20
const HEAD_HEIGHT = 20
const OVERSCAN = 8
/**
 * Below these widths (px) the wall-clock column, then the size column, go to the row's tooltip.
 * (Measured here, and the columns set once on the list, rather than with CSS container queries:
 * a query container is styled and laid out again whenever a row changes, which a live stream
 * does on every batch.)
 */
const NARROW = 680
const NARROWER = 460
/** The event column never takes more than this many characters (the summary needs the room). */
const MAX_EVENT_CHARS = 26

export function FrameList() {
  const ctx = usePanel()
  const { store, ui } = ctx
  const view = store.selection.value
  const ref = useRef<HTMLDivElement>(null)
  /** Where the list is scrolled (the scroll events keep it; following a live stream sets it). */
  const scrollTop = useRef(0)
  const [, rerender] = useState(0)
  const [height, setHeight] = useState(400)
  const [width, setWidth] = useState(800)
  const atBottom = useRef(true)
  /** The scrollTop set to follow a live stream: its scroll event must not read as the user scrolling away. */
  const followedTo = useRef(-1)
  /** The request was live at the last batch (its last frames arrive with the end). */
  const wasLive = useRef(false)
  /** Widest event name seen in view for this request (characters): the column only grows, so rows don't shift while scrolling. */
  const labelChars = useRef(0)
  const count = view?.itemCount ?? 0
  const id = view?.id
  // a new request starts at the top
  const shownId = useRef<string | undefined>(undefined)
  if (shownId.current !== id) {
    shownId.current = id
    scrollTop.current = 0
    atBottom.current = true
    labelChars.current = 0
    wasLive.current = false
  }

  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = () => {
      setHeight(el.clientHeight)
      setWidth(el.clientWidth)
    }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  useLayoutEffect(() => {
    const el = ref.current
    if (el) el.scrollTop = 0
  }, [id])

  // live: stay at the bottom while frames arrive, if the user was there. The rows at the
  // bottom are built in this render and the list is scrolled there before the paint: one
  // layout per batch. (An import read in slices is 'live' too, but is read from the top.)
  const live = view?.row.state === 'live'
  const follow = !!view && view.row.source === 'live' && view.frame === null && (live || wasLive.current) && atBottom.current
  // computed, not read from the DOM: reading scrollHeight would force a layout per batch
  const bottom = Math.max(0, count * ROW_HEIGHT + HEAD_HEIGHT - height)
  if (follow) scrollTop.current = bottom
  useLayoutEffect(() => {
    wasLive.current = live
    const el = ref.current
    if (!el || !follow) return
    el.scrollTop = bottom
    followedTo.current = bottom
  }, [count, follow])

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

  const first = Math.max(0, Math.floor(scrollTop.current / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(count, Math.ceil((scrollTop.current + height) / ROW_HEIGHT) + OVERSCAN)
  // a row not here yet (a store in a worker sends the rows in view a moment later) is held blank
  const items = store.frameItems(first, last)
  // the time columns only when the capture has arrival times (live capture, fixtures)
  const times = items.some((i) => i?.type === 'frame' && i.time !== null)
  // and the event column only when frames have names (SSE events, JSON types)
  const labels = items.some((i) => i?.type === 'frame' && i.label !== '')
  for (const i of items) if (i?.type === 'frame' && i.label.length > labelChars.current) labelChars.current = i.label.length
  // wide enough for the names in view (content_block_delta, response.output_text.delta), within reason: longer ones end in … and show whole on hover
  const eventWidth = `calc(${Math.min(Math.max(labelChars.current, 5), MAX_EVENT_CHARS)}ch + 2px)`
  // narrow: the wall-clock time goes to the row's tooltip (the time since start stays); narrower: the size too
  const columns: RowColumns = { times, clock: times && width > NARROW, labels, size: width > NARROWER }
  const template = [
    `calc(${Math.max(3, String(view.frameCount).length)}ch + 6px)`,
    columns.times && '5.5em',
    columns.clock && '7.5em',
    columns.labels && (width > NARROWER ? eventWidth : `min(${eventWidth}, 14ch)`),
    // the kind: "incomplete" is wider than data, done and broken, and only a cancelled stream's last frame has it
    view.row.partialFrame === null ? '4.5em' : 'calc(10ch + 4px)',
    columns.size && '4em',
    // the summary takes what is left
    'minmax(6ch, 1fr)',
  ].filter(Boolean).join(' ')
  const page = Math.max(1, Math.floor((height - HEAD_HEIGHT) / ROW_HEIGHT) - 1)

  const onScroll = (e: Event) => {
    const el = e.currentTarget as HTMLDivElement
    // (by the time the event arrives, more rows may have been added below: that is still following)
    const followed = Math.abs(el.scrollTop - followedTo.current) <= 1
    atBottom.current = followed || el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT * 2
    if (followed && follow) return // the rows for it are built already
    scrollTop.current = el.scrollTop
    rerender((n) => n + 1)
  }

  const onOpen = (seq: number) => {
    store.selectFrame(seq)
    ui.detailOpen.value = true
  }
  const onMenu = (seq: number, e: MouseEvent) => {
    e.preventDefault()
    store.selectFrame(seq)
    openMenu(ui, e, `Frame ${seq}`, frameMenu(ctx, view.id, seq, e), undefined, ref.current)
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
      case 'ContextMenu': {
        const seq = store.selectedFrame.value
        const row = seq === null ? null : ref.current?.querySelector(`[data-seq="${seq}"]`)
        if (seq === null || !row) return
        const r = row.getBoundingClientRect()
        const at = new MouseEvent('contextmenu', { clientX: r.left + 24, clientY: r.bottom })
        openMenu(ui, at, `Frame ${seq}`, frameMenu(ctx, view.id, seq, at), undefined, ref.current)
        break
      }
      default: return
    }
    e.preventDefault()
  }

  return (
    <div
      ref={ref}
      class="ds-framelist"
      role="listbox"
      aria-label="Frames"
      aria-activedescendant={view.frame !== null ? `ds-frame-${view.frame}` : undefined}
      tabIndex={0}
      data-testid="frame-list"
      data-count={count}
      style={{ '--cols': template }}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
    >
      <div class="ds-framehead" aria-hidden="true">
        <span>#</span>
        {columns.times && <span title="time since the request started">elapsed</span>}
        {columns.clock && <span>time</span>}
        {columns.labels && <span>event</span>}
        <span>kind</span>
        {columns.size && <span>size</span>}
        <span>summary</span>
      </div>
      <div class="ds-framelist-inner" style={{ height: `${count * ROW_HEIGHT}px` }}>
        {/* the rows in view, in one block moved as the list scrolls; row elements are reused by
            position, so a live stream that scrolls by changes their text, not the elements */}
        <div class="ds-framelist-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {items.map((item, k) => item === null ? <div key={k} class="ds-frame" data-testid="frame-pending" /> : (
            <FrameRowView
              key={k}
              item={item}
              selected={item.type === 'frame' && item.seq === view.frame}
              columns={columns}
              onOpen={onOpen}
              onMenu={onMenu}
            />
          ))}
        </div>
      </div>
      {count === 0 && <Empty />}
    </div>
  )
}

/** What an empty list says: no match, nothing yet, or a body that is not a stream (its raw text). */
function Empty() {
  const { store } = usePanel()
  const view = store.selection.value!
  const { search, row } = view
  if (search && search.error === null) {
    return <div class="ds-empty" data-testid="frames-empty">{search.done ? 'No frame matches the search.' : 'Searching…'}</div>
  }
  if (view.frameCount > 0) return <div class="ds-empty" data-testid="frames-empty">Every frame is hidden (Hide pings &amp; [DONE]).</div>
  if (row.state === 'live') return <div class="ds-empty" data-testid="frames-empty">Waiting for the first frame…</div>
  if (row.bytes > 0 && view.latest.transport === 'unknown') return <UnreadBody />
  return (
    <div class="ds-empty" data-testid="frames-empty">
      {row.bytes === 0 ? 'No frames: the body was empty.' : 'No frames: see the problems beside the reply.'}
    </div>
  )
}
