// The one menu the panel shows at a time: the right-click menu of a request or a frame, and
// the Export button's menu when the export actions do not fit. Plain elements (role menu /
// menuitem buttons), placed at the pointer within the window; arrows move, Enter runs, Escape
// or a click elsewhere closes it, and focus goes back where it was.

import { Fragment } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { say, usePanel, type MenuItem, type MenuState, type UiState } from '../context.js'

/**
 * Opens a menu at a mouse event (right click) or under an element (a button). Focus goes back
 * to `returnFocus` when it closes (by default the element clicked, or the button).
 */
export function openMenu(ui: UiState, at: MouseEvent | HTMLElement, label: string, items: MenuItem[], testid?: string, returnFocus?: HTMLElement | null): void {
  let x: number
  let y: number
  if ('clientX' in at) {
    x = at.clientX
    y = at.clientY
    returnFocus ??= at.currentTarget instanceof HTMLElement ? at.currentTarget : null
  } else {
    const r = at.getBoundingClientRect()
    x = r.left
    y = r.bottom
    returnFocus ??= at
  }
  const menu: MenuState = { x, y, label, items, returnFocus: returnFocus ?? null }
  if (testid) menu.testid = testid
  ui.menu.value = menu
}

export function Menu() {
  const { ui } = usePanel()
  const menu = ui.menu.value
  const ref = useRef<HTMLDivElement>(null)
  /** Closes this menu (not one opened since); `restore` gives focus back to where it was. */
  const close = (restore: boolean) => {
    if (!menu || ui.menu.peek() !== menu) return
    ui.menu.value = null
    if (restore) menu.returnFocus?.focus()
  }

  // within the window: a menu opened near the right or bottom edge opens leftwards or upwards
  useLayoutEffect(() => {
    const el = ref.current
    if (!el || !menu) return
    const win = el.ownerDocument.defaultView!
    const r = el.getBoundingClientRect()
    const left = Math.max(4, Math.min(menu.x, win.innerWidth - r.width - 4))
    const top = menu.y + r.height > win.innerHeight - 4 ? Math.max(4, menu.y - r.height) : menu.y
    el.style.left = `${left}px`
    el.style.top = `${top}px`
    el.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus()
  }, [menu])

  // a layout effect: listening from the moment the menu is in the DOM (a passive effect runs a
  // frame later, and a click in between would not close it)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el || !menu) return
    const doc = el.ownerDocument
    const away = (e: Event) => { if (!el.contains(e.target as Node)) close(false) }
    const onBlur = () => close(false)
    const win = doc.defaultView!
    doc.addEventListener('pointerdown', away, true)
    win.addEventListener('blur', onBlur)
    win.addEventListener('resize', onBlur)
    return () => {
      doc.removeEventListener('pointerdown', away, true)
      win.removeEventListener('blur', onBlur)
      win.removeEventListener('resize', onBlur)
    }
  }, [menu])

  if (!menu) return null
  const run = async (item: MenuItem) => {
    close(true)
    try {
      await item.run()
    } catch (err) {
      say(ui, `${item.label} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const items = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? [])
    const i = items.indexOf(e.target as HTMLElement)
    if (e.key === 'Escape' || e.key === 'Tab') close(true)
    else if (e.key === 'ArrowDown') items[(i + 1) % items.length]?.focus()
    else if (e.key === 'ArrowUp') items[(i - 1 + items.length) % items.length]?.focus()
    else if (e.key === 'Home') items[0]?.focus()
    else if (e.key === 'End') items[items.length - 1]?.focus()
    else return
    e.preventDefault()
  }

  return (
    <div
      ref={ref}
      class="ds-menu"
      role="menu"
      aria-label={menu.label}
      data-testid={menu.testid ?? 'context-menu'}
      style={{ left: `${menu.x}px`, top: `${menu.y}px` }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      {menu.items.map((item) => (
        <Fragment key={item.action}>
          {item.separator && <div class="ds-menu-sep" role="separator" />}
          <button
            type="button"
            role="menuitem"
            class="ds-menu-item"
            data-action={item.action}
            data-testid={item.action.startsWith('export-') ? item.action : undefined}
            disabled={item.disabled}
            title={item.title}
            onClick={() => void run(item)}
          >
            {item.label}
          </button>
        </Fragment>
      ))}
    </div>
  )
}
