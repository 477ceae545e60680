// The one module that chooses how reference Markdown is rendered to text for
// compareRenderedText: micromark (CommonMark) with micromark-extension-gfm (GFM), walked by
// markdown-micromark.ts into the text innerText shows (inner-text.ts), every unit mapped to
// the source character it came from. Swapping the renderer changes this module only.

import type { MappedText } from './mapped-text.js'
import { micromarkText } from './markdown-micromark.js'

/** Which renderer gives the Markdown text: said in every rendered comparison. */
export const MARKDOWN_RENDERER = 'micromark + micromark-extension-gfm (CommonMark + GFM)'

/** `source` rendered as Markdown, as innerText shows it, each unit mapped to its source index (-1: added). */
export function markdownText(source: string): MappedText {
  return micromarkText(source)
}
