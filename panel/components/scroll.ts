// Scrolls one container so an element inside it is visible. Element.scrollIntoView would
// also scroll every overflow:hidden ancestor and shift the whole panel.

export function revealIn(el: Element, container: Element | null, topMargin = 0): void {
  if (!container) return
  const c = container.getBoundingClientRect()
  const r = el.getBoundingClientRect()
  if (r.top < c.top + topMargin) container.scrollTop -= c.top + topMargin - r.top
  else if (r.bottom > c.bottom) container.scrollTop += Math.min(r.bottom - c.bottom, r.top - c.top - topMargin)
}
