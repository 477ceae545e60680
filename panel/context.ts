// What every component reads: the store (computes), the shell (host functions) and the
// UI-only state that no other part of the panel needs.

import { signal, type Signal } from '@preact/signals'
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { createSizes, rememberedFlag, type Sizes } from './layout.js'
import type { PanelShell } from './shell.js'
import type { PanelStore } from './store/index.js'

/** One entry of a menu (right-click, or the Export button's): plain text and an action. */
export interface MenuItem {
  label: string
  /** A stable name for tests (data-action). */
  action: string
  run: () => void | Promise<void>
  disabled?: boolean
  title?: string
  /** A line before it. */
  separator?: boolean
}

/** The menu shown, at a point of the page (client coordinates). */
export interface MenuState {
  x: number
  y: number
  label: string
  items: MenuItem[]
  /** Where focus goes back to when it closes. */
  returnFocus: HTMLElement | null
  testid?: string
}

export interface UiState {
  /** The frame detail pane is open. */
  detailOpen: Signal<boolean>
  /** Exports include credentials (off by default; an explicit choice). */
  includeCredentials: Signal<boolean>
  /** A short message after an action (copied, saved). */
  status: Signal<string>
  theme: Signal<'light' | 'dark'>
  /** The pane shown when frames and reply are tabs (a narrow panel). */
  tab: Signal<'frames' | 'reply'>
  /** The open menu, if any. */
  menu: Signal<MenuState | null>
  /** Pane sizes the user dragged (kept through the shell's storage when it has one). */
  sizes: Sizes
  /** The Problems block is open (folded by the user: kept through the shell's storage, like the sizes). */
  problemsOpen: Signal<boolean>
}

export interface PanelContextValue {
  store: PanelStore
  shell: PanelShell
  ui: UiState
}

export function createUiState(theme: 'light' | 'dark', storage?: PanelShell['storage']): UiState {
  return {
    detailOpen: signal(false),
    includeCredentials: signal(false),
    status: signal(''),
    theme: signal(theme),
    tab: signal('frames'),
    menu: signal(null),
    sizes: createSizes(storage),
    problemsOpen: rememberedFlag(storage, 'deltascope.problems.open', true),
  }
}

/** Opens the selected frame's detail, and shows the Frames tab when frames and reply are tabs (a link to a frame from the reply side). */
export function showFrame(ui: UiState): void {
  ui.detailOpen.value = true
  ui.tab.value = 'frames'
}

/** Says something short after an action; it goes after 6 s unless something else was said since. */
export function say(ui: UiState, message: string): void {
  ui.status.value = message
  setTimeout(() => { if (ui.status.value === message) ui.status.value = '' }, 6000)
}

export const PanelContext = createContext<PanelContextValue | null>(null)

export function usePanel(): PanelContextValue {
  const value = useContext(PanelContext)
  if (!value) throw new Error('panel components must be rendered inside mountPanel()')
  return value
}
