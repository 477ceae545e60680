// Long captured strings (a 10 MB data: URL in a frame, a million-character reply) are cut for
// display: laying out megabytes of text in one go holds the page for seconds. Pure: where to
// cut, and the pieces a text is laid out in when all of it is asked for (ProgressiveText).

/** Characters of a raw frame or a JSON string value shown before the cut. */
export const DISPLAY_CUT = 10_000
/**
 * Characters laid out per step when a long text is shown in full (one step per animation
 * frame). "Show all" on a million characters: 32,768 a step made a first frame of 180–230 ms
 * of style and layout; 16,384 make it 100 ms, and the whole text is in the page in 2 s.
 */
export const STEP_CHARS = 16_384

/** `at`, moved back one when it would split a surrogate pair. */
export function safeCut(text: string, at: number): number {
  if (at <= 0) return 0
  if (at >= text.length) return text.length
  const c = text.charCodeAt(at - 1)
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at
}

/** The first `limit` characters, and how many follow (0: the text is whole). */
export function cutText(text: string, limit = DISPLAY_CUT): { head: string; hidden: number } {
  if (text.length <= limit) return { head: text, hidden: 0 }
  const at = safeCut(text, limit)
  return { head: text.slice(0, at), hidden: text.length - at }
}

/**
 * Offsets the text is cut at for laying it out in steps of about `size` characters: after a
 * line break in the step's last quarter when there is one (each step is its own block, and a
 * block boundary there changes nothing on screen), else after a space there (the line ends
 * between two words, as a wrap would end it, not inside one), never inside a surrogate pair.
 * The last offset is the text's length.
 */
export function stepBounds(text: string, size = STEP_CHARS): number[] {
  const out: number[] = []
  let at = 0
  while (at < text.length) {
    let end = Math.min(text.length, at + size)
    if (end < text.length) {
      const quarter = at + (size * 3) / 4
      const nl = text.lastIndexOf('\n', end - 1)
      if (nl >= quarter) end = nl + 1
      else {
        const space = text.lastIndexOf(' ', end - 1)
        end = space >= quarter ? space + 1 : safeCut(text, end)
      }
      if (end <= at) end = Math.min(text.length, at + size)
    }
    out.push(end)
    at = end
  }
  return out
}
