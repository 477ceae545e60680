// A long list's rows (10,000 requests from one HAR) without holding the page: rendered in
// groups of GROUP rows, each group re-rendered only when one of its rows (or which of them is
// selected) changed, each group skipped by layout and paint while off-screen (CSS
// content-visibility), and the rows of a list that grew by thousands at once added a few
// hundred per animation frame (the first at once). Every row is still in the DOM in the end:
// find-in-page and the list's keyboard reach them all.

import { Component, type VNode } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'

/** Rows per group. */
export const GROUP = 100
/** Rows added in the first animation frame while a list catches up (then as many as the frames allow). */
export const ROWS_PER_FRAME = 100

interface Row { id: string }

interface GroupProps<R extends Row> {
  rows: R[]
  /** The selected row's id when it is in this group, else null. */
  selected: string | null
  /** Anything else the rows show that is not in them (the first start of the list). */
  extra: unknown
  render: (row: R, selected: boolean) => VNode
}

/** The same row, or an equal copy of it (a list sent whole again from the worker has new objects): compared field by field, nested values too. */
export function sameRow(a: object, b: object): boolean {
  return same(a, b, 0)
}

function same(x: unknown, y: unknown, depth: number): boolean {
  if (x === y) return true
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || depth > 4) return false
  if (Array.isArray(x) !== Array.isArray(y)) return false
  const kx = Object.keys(x)
  if (kx.length !== Object.keys(y).length) return false
  for (const k of kx) if (!same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], depth + 1)) return false
  return true
}

class Group<R extends Row> extends Component<GroupProps<R>> {
  override shouldComponentUpdate(next: GroupProps<R>) {
    const a = this.props
    if (next.selected !== a.selected || next.extra !== a.extra || next.rows.length !== a.rows.length) return true
    for (let i = 0; i < next.rows.length; i++) if (!sameRow(next.rows[i]!, a.rows[i]!)) return true
    return false
  }
  override render() {
    const { rows, selected, extra, render } = this.props
    return <div class="ds-row-group">{rows.map((r) => <Slot key={r.id} row={r} selected={r.id === selected} extra={extra} render={render} />)}</div>
  }
}

interface SlotProps<R extends Row> { row: R; selected: boolean; extra: unknown; render: (row: R, selected: boolean) => VNode }

/** One row, rendered again only when it changed (a group re-renders when one of its rows did). */
class Slot<R extends Row> extends Component<SlotProps<R>> {
  override shouldComponentUpdate(next: SlotProps<R>) {
    const a = this.props
    return next.selected !== a.selected || next.extra !== a.extra || !sameRow(next.row, a.row)
  }
  override render() { return this.props.render(this.props.row, this.props.selected) }
}

/** Time a catch-up step aims at (ms): the step grows or shrinks to it, from what the last one took to render. */
const STEP_MS = 40

/** How many of `total` rows to render: all, or (after a jump of more than ROWS_PER_FRAME) more each frame, as many as about STEP_MS of rendering allows. */
export function useCatchUp(total: number): number {
  const [shown, setShown] = useState(Math.min(total, ROWS_PER_FRAME))
  const pace = useRef({ step: ROWS_PER_FRAME, renderAt: 0, stepped: false })
  const target = Math.max(total, 0)
  pace.current.renderAt = performance.now()
  // what the last step cost to render and commit (this component's subtree): the next step grows or shrinks to STEP_MS
  useLayoutEffect(() => {
    const p = pace.current
    if (!p.stepped) return
    p.stepped = false
    const took = performance.now() - p.renderAt
    p.step = Math.max(100, Math.min(2000, Math.round(p.step * (took > STEP_MS * 1.5 ? STEP_MS / took : took < STEP_MS / 2 ? 2 : 1))))
  })
  useEffect(() => {
    const p = pace.current
    if (shown > target) { setShown(target); return } // a list that shrank (a filter, Clear): grows from there again
    if (shown >= target) return
    let cancelled = false
    const go = () => {
      if (cancelled) return
      cancelled = true
      p.stepped = true
      setShown((n) => Math.min(target, n + p.step))
    }
    const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(go, 0)) : 0
    const timer = setTimeout(go, 100)
    return () => { cancelled = true; if (raf) cancelAnimationFrame(raf); clearTimeout(timer) }
  }, [shown, target])
  return Math.min(shown, target)
}

export function RowGroups<R extends Row>({ rows, selected, extra, render }: Omit<GroupProps<R>, 'rows' | 'selected'> & { rows: R[]; selected: string | null }) {
  const shown = useCatchUp(rows.length)
  const groups: VNode[] = []
  for (let at = 0; at < shown; at += GROUP) {
    const slice = rows.slice(at, Math.min(shown, at + GROUP))
    const has = selected !== null && slice.some((r) => r.id === selected) ? selected : null
    // keyed by position: a group's rows are compared one by one
    groups.push(<Group key={at} rows={slice} selected={has} extra={extra} render={render} />)
  }
  return <>{groups}</>
}
