// The memory budget (store/budget.ts) as the user sets it: a menu in the toolbar, kept
// through the shell's storage (the page's localStorage) when there is one; and the pin of
// the selected request, which the budget never releases.

import { useEffect } from 'preact/hooks'
import { usePanel } from '../context.js'
import { DEFAULT_MEMORY_BUDGET, formatBudget, MEMORY_BUDGETS } from '../store/budget.js'

const KEY = 'deltascope.memoryBudget'

export function MemoryBudgetSelect() {
  const { store, shell } = usePanel()
  // the budget kept from the last session, if it is one the menu offers
  useEffect(() => {
    let kept: string | null = null
    try { kept = shell.storage?.get(KEY) ?? null } catch { /* storage refused: the default stays */ }
    const n = Number(kept)
    if ((MEMORY_BUDGETS as readonly number[]).includes(n)) store.memoryBudget.value = n
  }, [])
  const choose = (n: number) => {
    store.memoryBudget.value = n
    try { shell.storage?.set(KEY, String(n)) } catch { /* kept for this session only */ }
  }
  const value = store.memoryBudget.value
  const options: readonly number[] = MEMORY_BUDGETS.includes(value as (typeof MEMORY_BUDGETS)[number]) ? MEMORY_BUDGETS : [...MEMORY_BUDGETS, value].sort((a, b) => a - b)
  return (
    <label class="ds-check" title="Memory for every request together (bodies and what is derived from them). Past it, the oldest finished requests that are not pinned are released; a request alone over it stops growing.">
      Memory
      <select data-testid="memory-budget" value={String(value)} onChange={(e) => choose(Number(e.currentTarget.value))}>
        {options.map((n) => <option key={n} value={String(n)}>{formatBudget(n)}{n === DEFAULT_MEMORY_BUDGET ? ' (default)' : ''}</option>)}
      </select>
    </label>
  )
}

/** Pins the selected request: the memory budget never releases it. */
export function PinToggle({ id, pinned }: { id: string; pinned: boolean }) {
  const { store } = usePanel()
  return (
    <label class="ds-check" title="A pinned request is never released by the memory budget">
      <input type="checkbox" data-testid="pin" checked={pinned} onChange={(e) => store.pin(id, e.currentTarget.checked)} />
      Pin
    </label>
  )
}
