// The one module that chooses how reference Markdown is rendered to text for
// compareRenderedText: micromark (CommonMark) with micromark-extension-gfm (GFM), walked by
// markdown-micromark.ts into the text innerText shows (inner-text.ts), every unit mapped to
// the source character it came from. Swapping the renderer changes this module only.

import { isSpace, type MappedText } from './mapped-text.js'
import { micromarkText } from './markdown-micromark.js'

/** Which renderer gives the Markdown text: said in every rendered comparison. */
export const MARKDOWN_RENDERER = 'micromark + micromark-extension-gfm (CommonMark + GFM)'

/** `source` rendered as Markdown, as innerText shows it, each unit mapped to its source index (-1: added). */
export function markdownText(source: string): MappedText {
  return micromarkText(source)
}

/**
 * False when `source` rendered (white space normalised, or raw) cannot be `text`. The renderer
 * writes no character but white space that is not its source's own, in source order, unless
 * the source holds a character reference ("&"), a footnote ("[^", numbered and moved to the
 * end) or a NUL (U+FFFD): so `text`'s other units must be a subsequence of the source's. A
 * quick test that spares the rendered comparison a whole rendering for each candidate it tries
 * (compare-rendered-simulate.ts: a rendering costs micromark's full parse).
 */
export function mayRender(source: string, text: string): boolean {
  if (/&|\[\^|\0/.test(source)) return true
  let at = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) continue
    while (at < source.length && source.charCodeAt(at) !== c) at++
    if (at === source.length) return false
    at++
  }
  return true
}
