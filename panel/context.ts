// What every component reads: the store (computes), the shell (host functions) and the
// UI-only state that no other part of the panel needs.

import { signal, type Signal } from '@preact/signals'
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { PanelShell } from './shell.js'
import type { PanelStore } from './store.js'

export interface UiState {
  /** The frame detail pane is open. */
  detailOpen: Signal<boolean>
  /** Exports include credentials (off by default; an explicit choice). */
  includeCredentials: Signal<boolean>
  /** A short message after an action (copied, saved). */
  status: Signal<string>
  theme: Signal<'light' | 'dark'>
}

export interface PanelContextValue {
  store: PanelStore
  shell: PanelShell
  ui: UiState
}

export function createUiState(theme: 'light' | 'dark'): UiState {
  return { detailOpen: signal(false), includeCredentials: signal(false), status: signal(''), theme: signal(theme) }
}

export const PanelContext = createContext<PanelContextValue | null>(null)

export function usePanel(): PanelContextValue {
  const value = useContext(PanelContext)
  if (!value) throw new Error('panel components must be rendered inside mountPanel()')
  return value
}
