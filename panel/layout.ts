// The panel's layout for the width it has, and the pane sizes the user dragged. Pure rules
// (no DOM) so they are tested without a browser; the components measure and apply them.
//
//   wide   (>= STACK_BELOW px)  the request list beside the selected request, a splitter between
//   narrow (<  STACK_BELOW px)  the request list above the selected request, a splitter between
//   and in the selected request: frames beside the reply with a splitter, or, when it is
//   narrower than TABS_BELOW px, tabs named Frames and Reply (one pane at a time, full width)
//
// Sizes are kept through the shell's storage when it has one (the page: localStorage), else
// for as long as the panel is open. Only the extension shells (src/shells) may touch extension APIs, so the
// DevTools panel gets storage only if its shell offers it.

import { signal, type Signal } from '@preact/signals'
import type { PanelShell } from './shell.js'

/** Below this panel width the request list goes above the selected request. */
export const STACK_BELOW = 700
/** Below this width of the selected request, frames and reply are tabs. */
export const TABS_BELOW = 640
/** The narrowest a pane may be dragged (px). */
export const MIN_PANE = 220
export const MIN_LIST = 160
export const MIN_LIST_HEIGHT = 72

export interface Sizes {
  /** Width of the request list beside the selected request (px); NaN until dragged: about a fifth of the panel. */
  listWidth: Signal<number>
  /** Height of the request list above the selected request (px). */
  listHeight: Signal<number>
  /** The frames' share of the frames + reply width (0..1). */
  framesShare: Signal<number>
}

const KEYS = { listWidth: 'deltascope.layout.listWidth', listHeight: 'deltascope.layout.listHeight', framesShare: 'deltascope.layout.framesShare' } as const
const DEFAULTS = { listWidth: NaN, listHeight: 150, framesShare: 0.58 }

type Storage = NonNullable<PanelShell['storage']>

function read(storage: Storage | undefined, key: string, fallback: number, min: number, max: number): number {
  let raw: string | null = null
  try {
    raw = storage?.get(key) ?? null
  } catch {
    // storage refused: the default
  }
  const n = raw === null ? NaN : Number(raw)
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback
}

/** The sizes, read from `storage` when given; each change is written back (a refused write is ignored: the size stays in memory). */
export function createSizes(storage?: Storage): Sizes {
  const sizes: Sizes = {
    listWidth: signal(read(storage, KEYS.listWidth, DEFAULTS.listWidth, MIN_LIST, 4000)),
    listHeight: signal(read(storage, KEYS.listHeight, DEFAULTS.listHeight, MIN_LIST_HEIGHT, 4000)),
    framesShare: signal(read(storage, KEYS.framesShare, DEFAULTS.framesShare, 0.1, 0.9)),
  }
  if (storage) {
    for (const name of Object.keys(KEYS) as Array<keyof typeof KEYS>) {
      let first = true
      sizes[name].subscribe((v) => {
        if (first) { first = false; return }
        try {
          storage.set(KEYS[name], String(Math.round(v * 1000) / 1000))
        } catch {
          // full or refused: kept in memory only
        }
      })
    }
  }
  return sizes
}

/**
 * A yes/no the user sets (the Problems block open or folded), read from `storage` when given
 * ("true" / "false"; anything else: the default), each change written back (a refused write
 * is ignored: it stays in memory).
 */
export function rememberedFlag(storage: Storage | undefined, key: string, fallback: boolean): Signal<boolean> {
  let raw: string | null = null
  try {
    raw = storage?.get(key) ?? null
  } catch {
    // storage refused: the default
  }
  const flag = signal(raw === 'true' ? true : raw === 'false' ? false : fallback)
  if (storage) {
    let first = true
    flag.subscribe((v) => {
      if (first) { first = false; return }
      try {
        storage.set(key, String(v))
      } catch {
        // full or refused: kept in memory only
      }
    })
  }
  return flag
}

/** The request list's width beside the selection: what was dragged, within what leaves room for the frames and the reply. */
export function listWidthFor(panelWidth: number, wanted: number): number {
  const max = Math.max(MIN_LIST, Math.min(panelWidth * 0.5, panelWidth - MIN_PANE * 2))
  const width = Number.isNaN(wanted) ? Math.min(300, panelWidth * 0.22) : wanted
  return Math.round(Math.min(max, Math.max(MIN_LIST, width)))
}

/** The request list's height above the selection (narrow panels): at most 40% of the panel. */
export function listHeightFor(panelHeight: number, wanted: number): number {
  const max = Math.max(MIN_LIST_HEIGHT, panelHeight * 0.4)
  return Math.round(Math.min(max, Math.max(MIN_LIST_HEIGHT, wanted)))
}

/** The frames' share of the selection width: each of frames and reply keeps at least MIN_PANE px. */
export function framesShareFor(width: number, wanted: number): number {
  if (width <= MIN_PANE * 2) return 0.5
  const min = MIN_PANE / width
  return Math.min(1 - min, Math.max(min, wanted))
}

/** One string, cut in the middle: the head (it ellipsizes) and a tail always shown (the query of a URL, the end of a path). */
export function middleSplit(text: string, tail = 24): [string, string] {
  if (text.length <= tail + 8) return [text, '']
  // the query string, when short enough, is what tells requests apart: kept whole in the tail
  const q = text.indexOf('?')
  let cut = text.length - tail
  if (q > 0 && text.length - q <= tail * 1.5) cut = Math.min(cut, q)
  // the tail starts at a separator a few characters on ("&trace=…", not "21&trace=…")
  if (cut !== q) {
    for (let i = cut; i < Math.min(cut + 10, text.length - 8); i++) {
      if ('/?&#;'.includes(text[i]!)) { cut = i; break }
    }
  }
  // never between the two halves of a surrogate pair
  const c = text.charCodeAt(cut)
  if (c >= 0xdc00 && c <= 0xdfff) cut--
  return [text.slice(0, cut), text.slice(cut)]
}
