// What the panel's popovers share (the redaction list, the stream rules editor): a toggle button
// that gets focus back when its popover closes by a choice, and a popover placed under that
// button within the window, its first text box focused, closed by a click anywhere else.

import type { RefObject } from 'preact'
import { useLayoutEffect, useRef, useState } from 'preact/hooks'

/** The open state of a popover and its button; `close(true)` gives the button its focus back. */
export function usePopoverToggle() {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const close = (restore: boolean): void => {
    setOpen(false)
    if (restore) button.current?.focus()
  }
  return { open, toggle: () => setOpen(!open), close, button }
}

/**
 * Places the popover at `ref` under `anchor` (its right edge on the anchor's for 'right', its
 * left edge for 'left'), within the window, again when the window or the popover resizes; a
 * click elsewhere closes it. A layout effect: listening from the moment it is shown.
 */
export function useAnchoredPopover(
  ref: RefObject<HTMLElement>, anchor: HTMLElement | null, onClose: (restore: boolean) => void, align: 'left' | 'right',
): void {
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const doc = el.ownerDocument
    const win = doc.defaultView!
    const place = () => {
      const at = anchor?.getBoundingClientRect()
      const r = el.getBoundingClientRect()
      const x = at ? (align === 'right' ? at.right - r.width : at.left) : 4
      el.style.left = `${Math.max(4, Math.min(x, win.innerWidth - r.width - 4))}px`
      el.style.top = `${Math.max(4, Math.min(at ? at.bottom + 2 : 4, win.innerHeight - r.height - 4))}px`
    }
    place()
    el.querySelector<HTMLTextAreaElement>('textarea')?.focus()
    const away = (e: Event) => { if (!el.contains(e.target as Node) && e.target !== anchor) onClose(false) }
    doc.addEventListener('pointerdown', away, true)
    win.addEventListener('resize', place)
    // placed again when it grows (problems listed after a save, a longer preview)
    const grown = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place)
    grown?.observe(el)
    return () => {
      doc.removeEventListener('pointerdown', away, true)
      win.removeEventListener('resize', place)
      grown?.disconnect()
    }
  }, [])
}
