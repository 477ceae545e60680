// A long list grows to its limit over a few frames instead of in one: the selection pane's
// first render of a big reply laid out 50 tool calls, 50 problems and the frame rows in one
// task (1,100 layout objects, 136 ms). Its first rows come at once; the rest a batch per turn
// (turns.ts), so what is in view is there in the first frame and the rest follows.

import { useEffect, useState } from 'preact/hooks'
import { nextTurn } from './turns.js'

/** Rows rendered at once, and added per turn. */
export const STAGGER_ROWS = 10

/**
 * How many of a list's first `limit` rows to render now, of the `rows` it has (it grows only
 * while there is more to show). `of` names what the list is of (the selected request): a list
 * that starts over for another request grows again from the start.
 */
export function useStaggered(limit: number, rows: number, of: unknown): number {
  const [state, setState] = useState({ of, shown: STAGGER_ROWS })
  const shown = state.of === of ? state.shown : STAGGER_ROWS
  useEffect(() => {
    if (shown >= Math.min(limit, rows)) return
    return nextTurn(() => setState((s) => ({ of, shown: (s.of === of ? s.shown : STAGGER_ROWS) + STAGGER_ROWS })))
  }, [shown, limit, rows, of])
  return Math.min(shown, limit)
}
