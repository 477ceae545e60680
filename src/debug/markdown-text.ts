// The one module that chooses how reference Markdown is rendered to text for
// compareRenderedText. Today it is the stopgap subset renderer (markdown-stopgap.ts): no
// Markdown library is installed. Swapping in a library (mdast-util-from-markdown +
// mdast-util-gfm + micromark-extension-gfm, walking text nodes by their source positions)
// changes this module only.

import type { MappedText } from './mapped-text.js'
import { stopgapMarkdownText } from './markdown-stopgap.js'

/** Which renderer gives the Markdown text: said in every rendered comparison. */
export const MARKDOWN_RENDERER = 'stopgap CommonMark + GFM subset (markdown-stopgap.ts)'

/** `source` rendered as Markdown, as innerText shows it, each unit mapped to its source index (-1: added). */
export function markdownText(source: string): MappedText {
  return stopgapMarkdownText(source)
}
