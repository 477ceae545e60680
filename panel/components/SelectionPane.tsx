// The selected request: its header, then the frame list (with the frame detail under it) and
// the reply: side by side with a splitter between, or, when the pane is narrower than
// TABS_BELOW, as two tabs named Frames and Reply, one shown at a time at full width.

import { useLayoutEffect, useState } from 'preact/hooks'
import { usePanel } from '../context.js'
import { framesShareFor, MIN_PANE, TABS_BELOW } from '../layout.js'
import { FrameDetail } from './FrameDetail.js'
import { FrameList } from './FrameList.js'
import { FrameSearch } from './FrameSearch.js'
import { ReplyView } from './ReplyView.js'
import { SelectionHeader } from './SelectionHeader.js'
import { Splitter } from './Splitter.js'

export function SelectionPane() {
  const { store, ui } = usePanel()
  const view = store.selection.value
  // the body is measured whichever element it is (a callback ref: the element may change)
  const [body, bodyRef] = useState<HTMLDivElement | null>(null)
  const [width, setWidth] = useState(0)

  useLayoutEffect(() => {
    const el = body
    if (!el) return
    const measure = () => setWidth(el.clientWidth)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [body])

  if (!view) {
    return <div class="ds-empty">Select a stream to see its frames beside the reply.</div>
  }
  const detail = ui.detailOpen.value && view.frame !== null
  const tabs = width > 0 && width < TABS_BELOW
  const tab = ui.tab.value
  const frames = (
    <div class={`ds-frames-col${detail ? ' with-detail' : ''}`} id="ds-pane-frames" role={tabs ? 'tabpanel' : undefined} aria-labelledby={tabs ? 'ds-tab-frames' : undefined}>
      <FrameSearch />
      <FrameList />
      {detail && <FrameDetail seq={view.frame!} />}
    </div>
  )
  const reply = (
    <section class="ds-pane ds-reply-pane" aria-label="Reply" id="ds-pane-reply" role={tabs ? 'tabpanel' : undefined}>
      <ReplyView />
    </section>
  )
  if (tabs) {
    const tabButton = (name: 'frames' | 'reply', label: string, extra: string) => (
      <button
        type="button"
        role="tab"
        id={`ds-tab-${name}`}
        class="ds-tab"
        aria-selected={tab === name}
        aria-controls={`ds-pane-${name}`}
        data-testid={`pane-tab-${name}`}
        onClick={() => { ui.tab.value = name }}
        onKeyDown={(e) => {
          // arrows move between the two tabs, as in any tab list
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
          e.preventDefault()
          const other = name === 'frames' ? 'reply' : 'frames'
          ui.tab.value = other
          ;(e.currentTarget as HTMLElement).ownerDocument.getElementById(`ds-tab-${other}`)?.focus()
        }}
      >
        {label}{extra && <span class="ds-tab-extra">{extra}</span>}
      </button>
    )
    const found = view.search && view.search.error === null ? ` ${view.search.count}` : ''
    return (
      <div class="ds-selection" data-panes="tabs">
        <SelectionHeader />
        <div ref={bodyRef} class="ds-sel-body tabs">
          <div class="ds-tabs" role="tablist" aria-label="Frames or reply">
            {tabButton('frames', 'Frames', found || ` ${view.frameCount}`)}
            {tabButton('reply', 'Reply', view.scrub !== null ? ` after frame ${view.scrub}` : '')}
          </div>
          {tab === 'frames' ? frames : reply}
        </div>
      </div>
    )
  }
  const share = framesShareFor(width, ui.sizes.framesShare.value)
  const left = Math.round(width * share)
  return (
    <div class="ds-selection" data-panes="split">
      <SelectionHeader />
      <div ref={bodyRef} class="ds-sel-body" style={{ gridTemplateColumns: `minmax(0, ${share}fr) auto minmax(0, ${1 - share}fr)` }}>
        {frames}
        <Splitter
          orientation="vertical"
          label="Frames and reply"
          value={left}
          min={Math.min(MIN_PANE, width / 2)}
          max={Math.max(width - MIN_PANE, width / 2)}
          onChange={(v) => { if (width > 0) ui.sizes.framesShare.value = v / width }}
          testid="split-frames"
        />
        {reply}
      </div>
    </div>
  )
}
