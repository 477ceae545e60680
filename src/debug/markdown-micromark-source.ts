// The pieces of micromark's event stream the Markdown text renderer (markdown-micromark.ts)
// reads: a token's text with the source index of each unit, a character reference's value,
// a footnote label's identifier, and which lists are loose. Each follows what micromark's own
// HTML compiler (micromark/lib/compile.js) does, so the text is that of the HTML it gives.

import { decodeNamedCharacterReference } from 'decode-named-character-reference'
import type { postprocess } from 'micromark'
import { decodeNumericCharacterReference } from 'micromark-util-decode-numeric-character-reference'

export type MicromarkEvent = ReturnType<typeof postprocess>[number]
export type MicromarkToken = MicromarkEvent[1]

/** Text with the source index of each unit. */
export interface Units {
  text: string
  map: number[]
}

/**
 * A token's text as micromark's compiler takes it (sliceSerialize without expanding tabs),
 * each unit mapped to the source: `shift` is added to micromark's offsets (1 when the source
 * starts with a byte order mark, which micromark skips). Line endings are "\n" (a browser
 * reads CR and CRLF in HTML as LF), mapped to their first unit; the columns left of a tab that
 * a container's prefix used partly are spaces, mapped to the tab.
 */
export function tokenUnits(event: MicromarkEvent, shift: number): Units {
  const [, token, context] = event
  let at = token.start.offset + shift
  let text = ''
  const map: number[] = []
  let atTab = false
  for (const chunk of context.sliceStream(token)) {
    if (typeof chunk === 'string') {
      text += chunk
      for (let k = 0; k < chunk.length; k++) map.push(at + k)
      at += chunk.length
      atTab = false
      continue
    }
    if (chunk === null) continue
    switch (chunk) {
      case -5: // carriage return
      case -4: // line feed
        text += '\n'; map.push(at); at += 1
        break
      case -3: // carriage return + line feed
        text += '\n'; map.push(at); at += 2
        break
      case -2: // a tab
        text += '\t'; map.push(at); at += 1
        atTab = true
        continue
      case -1: // a column of a tab: kept as a space only when its tab is not in this token
        if (!atTab) { text += ' '; map.push(at - 1) }
        continue
      default: // U+FFFD for a NUL
        text += String.fromCharCode(chunk); map.push(at); at += 1
    }
    atTab = false
  }
  return { text, map }
}

/** The character a reference (`&amp;`, `&#35;`, `&#x41;`: `raw` without `&` and `;`) stands for; micromark tokenized only valid ones. */
export function characterReferenceValue(raw: string): string {
  if (/^#[xX]/.test(raw)) return decodeNumericCharacterReference(raw.slice(2), 16)
  if (raw.startsWith('#')) return decodeNumericCharacterReference(raw.slice(1), 10)
  return decodeNamedCharacterReference(raw) || `&${raw};`
}

/** A label as references match it (micromark-util-normalize-identifier's rule: white space collapsed, case folded). */
export function normalizeIdentifier(label: string): string {
  return label.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase().toUpperCase()
}

/**
 * Which lists are loose (their items' paragraphs are <p>s): micromark's compiler's
 * prepareList, run on every list. A blank line between the list's own items (not inside a
 * nested container, not right after an item's marker) makes it loose.
 */
export function looseLists(events: readonly MicromarkEvent[]): Set<MicromarkToken> {
  const loose = new Set<MicromarkToken>()
  const open: number[] = []
  events.forEach(([kind, token], index) => {
    if (token.type !== 'listOrdered' && token.type !== 'listUnordered') return
    if (kind === 'enter') { open.push(index); return }
    const from = open.pop()!
    let balance = 0
    let atMarker = false
    for (let k = from + 1; k < index; k++) {
      const [k2, t] = events[k]!
      if (t._container) {
        atMarker = false
        balance += k2 === 'enter' ? 1 : -1
      } else if (t.type === 'listItemPrefix') {
        if (k2 === 'exit') atMarker = true
      } else if (t.type === 'lineEndingBlank') {
        if (k2 === 'enter' && balance === 0) {
          if (atMarker) atMarker = false
          else { loose.add(token); break }
        }
      } else if (t.type !== 'linePrefix') {
        atMarker = false
      }
    }
  })
  return loose
}
