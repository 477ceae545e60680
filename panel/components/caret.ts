// Where a click landed in a block of text: the character under the pointer, counted from the
// block's start. Shared by the reply's traced text and the message parts, which both select
// the frame that wrote the character clicked.

/** Character offset in `root` of the caret, moved to the character actually under the pointer. */
export function characterAt(root: HTMLElement, node: Node, offset: number, x: number, y: number): number {
  const doc = root.ownerDocument
  const range = doc.createRange()
  range.setStart(root, 0)
  range.setEnd(node, offset)
  const caret = range.toString().length
  if (caret === 0 || node.nodeType !== Node.TEXT_NODE) return caret
  // a click on the right half of a character puts the caret after it: use that character
  if (offset > 0) {
    const prev = doc.createRange()
    prev.setStart(node, offset - 1)
    prev.setEnd(node, offset)
    for (const r of Array.from(prev.getClientRects())) {
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return caret - 1
    }
  }
  return caret
}
