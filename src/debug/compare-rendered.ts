// compareRenderedText: the text a page shows for a reply (as innerText gives it) held against
// the reference as rendered. Chat pages render the reply's Markdown; the reference's content
// is rendered to text the same way (markdown-text.ts), white space is normalised on both
// sides (mapped-text.ts), and the first difference is mapped back to the reference's
// characters and to the frames that wrote them, with compareReply's causes
// (compare-text.ts): the frames' text runs are carried through the rendering, so a frame
// the page lacks is a run missing from the rendered text.
//
// The page's text is untrusted: never thrown on, only compared.

import type { LibraryMergeOptions, ReplyChoice } from '../library.js'
import { fieldRuns, readReference, type Reference, type ReferenceInput, type TextRun } from './compare-reference.js'
import { simulate } from './compare-rendered-simulate.js'
import { textDifference } from './compare-text.js'
import type { Comparison, Difference } from './compare-types.js'
import { commonPrefix, quote } from './compare-words.js'
import { normaliseWhitespace, type MappedText } from './mapped-text.js'
import { MARKDOWN_RENDERER, markdownText, mayRender } from './markdown-text.js'

export interface RenderedCompareOptions {
  /** true: the page renders the reply's Markdown; false: it shows the raw text; 'auto' (the default): whichever the page's text is nearer. */
  markdown?: boolean | 'auto'
  /** How to read a reference given as a body (as for compareReply). */
  mergeOptions?: LibraryMergeOptions
  /**
   * Parts of the page's text that are not the reply (a <details> block's text, a button's), in
   * page order: each is cut from the page's text, searched from where the one before it was,
   * before comparing. A part not found is left in (and said so).
   */
  leaveOut?: readonly string[]
}

export interface RenderedComparison extends Comparison {
  /** How the reference was turned into text: its Markdown rendered, or its raw text. */
  method: 'markdown' | 'raw'
  /** The Markdown renderer used (method 'markdown'), in words; null for raw. */
  renderer: string | null
  /** The reference's content as compared: rendered (or raw), white space normalised. */
  expected: string
  /** The page's text as compared: white space normalised. */
  got: string
  /** The first difference's place in the reference's content (a UTF-16 index into choices[0].content); null when equal. */
  referenceOffset: number | null
  /** What else was found: the reasoning shown before the content, the way chosen by 'auto'. */
  notes: string[]
}

const PATH = 'choices[0].content'
/** Fields a page's text does not carry: listed as not compared. */
const NOT_COMPARED = ['choices[0].refusal', 'choices[0].toolCalls', 'choices[0].finishReason', 'usage']

interface Side {
  method: 'markdown' | 'raw'
  text: MappedText
}

/**
 * Compares the text a page shows for a reply with the reference (a fixture, a Reply or a
 * body, as for compareReply). Differences are in choice 0's content, offsets into the
 * normalised texts (`expected`, `got`); `referenceOffset` maps the first back to the
 * reference's content. Throws only on a reference that is none of those.
 */
export function compareRenderedText(reference: ReferenceInput, pageText: string, options: RenderedCompareOptions = {}): RenderedComparison {
  const ref = readReference(reference, options.mergeOptions)
  const choice = ref.reply.choices.find((c) => c.index === 0) ?? emptyChoice()
  const notes: string[] = []
  const got = normaliseWhitespace(leaveOut(typeof pageText === 'string' ? pageText : String(pageText), options.leaveOut ?? [], notes)).text
  const mode = options.markdown ?? 'auto'
  const sides: Side[] = []
  if (mode !== false) sides.push({ method: 'markdown', text: normaliseWhitespace(markdownText(choice.content)) })
  if (mode !== true) sides.push({ method: 'raw', text: normaliseWhitespace(rawText(choice.content)) })
  const side = nearest(sides, got)
  if (mode === 'auto') notes.push(side.method === 'markdown' ? "The page's text is nearer the reference's Markdown rendered than its raw text: compared rendered." : "The page's text is nearer the reference's raw text than its Markdown rendered: compared raw.")
  const base = {
    method: side.method, renderer: side.method === 'markdown' ? MARKDOWN_RENDERER : null, expected: side.text.text, got, notes,
  }
  // the reasoning is compared only where the page shows it (apart, before the content)
  const notCompared = ['choices[0].reasoning', ...NOT_COMPARED]
  if (side.text.text === got) return { ...base, equal: true, differences: [], notCompared, referenceOffset: null }

  // the reasoning shown apart before the content (a <details> block inside the element): not a fault
  if (choice.reasoning !== '') {
    const apart = normaliseWhitespace(`${render(side.method, choice.reasoning).text}\n${side.text.text}`).text
    if (apart === got) {
      notes.push("The page's text holds the reasoning, shown before the content: compared as the two rendered apart.")
      return { ...base, expected: apart, equal: true, differences: [], notCompared: NOT_COMPARED, referenceOffset: null }
    }
    const mixed = reasoningInContent(ref, choice, side.method, got)
    if (mixed) return { ...base, equal: false, differences: [mixed.difference], notCompared: NOT_COMPARED, referenceOffset: mixed.referenceOffset }
  }

  const contentRuns = fieldRuns(ref, { choice: choice.index, channel: 'content', toolCall: null }, choice.content)
  const runs = contentRuns === null ? null : renderedRuns(side.text, frameBySource(contentRuns, choice.content.length))
  // the messages say "content"; `method` says it was compared rendered
  const label = 'content'
  let difference = textDifference(ref, { path: PATH, label, expected: side.text.text, got, runs, isArguments: false })
  if (difference.cause === 'other' && runs !== null) difference = withoutSpaces(ref, difference, runs, label) ?? difference
  if (difference.cause === 'other' && contentRuns !== null) {
    // the bug changed the Markdown's structure: render what that client had
    const found = simulate(ref, contentRuns, got, (source) => (mayRender(source, got) ? normaliseWhitespace(render(side.method, source)).text : null))
    if (found) difference = { ...difference, ...found }
  }
  const referenceOffset = difference.offset === null ? null : sourceAt(side.text, difference.offset, choice.content.length)
  return { ...base, equal: false, differences: [difference], notCompared, referenceOffset }
}

function emptyChoice(): ReplyChoice {
  return { index: 0, role: null, content: '', reasoning: '', refusal: '', toolCalls: [], finishReason: null }
}

function rawText(text: string): MappedText {
  return { text, map: Array.from({ length: text.length }, (_, i) => i) }
}

function render(method: 'markdown' | 'raw', text: string): MappedText {
  return method === 'markdown' ? markdownText(text) : rawText(text)
}

/** The side the page's text is nearest: equal first, else the longest common prefix and suffix together; Markdown on a tie. */
function nearest(sides: Side[], got: string): Side {
  const equal = sides.find((s) => s.text.text === got)
  if (equal) return equal
  let best = sides[0]!
  let bestScore = -1
  for (const s of sides) {
    const score = commonPrefix(s.text.text, got) + commonSuffix(s.text.text, got)
    if (score > bestScore) { best = s; bestScore = score }
  }
  return best
}

function commonSuffix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++
  return i
}

/** For each unit of the source, the frame that wrote it (-1: none known). */
function frameBySource(runs: readonly TextRun[], length: number): Int32Array {
  const frames = new Int32Array(length).fill(-1)
  for (const r of runs) frames.fill(r.frame, r.start, Math.min(r.end, length))
  return frames
}

/**
 * The runs of the rendered text by frame: each unit takes the frame of its source character;
 * a space (and what the renderer added) takes the next unit's frame (the last one's at the
 * end), so a frame's run holds the white space before its text: the page that lacks a frame
 * lacks its text and the space before it, whichever frame sent that space.
 */
function renderedRuns(rendered: MappedText, frames: Int32Array): TextRun[] {
  const { text, map } = rendered
  const of = new Int32Array(text.length)
  let next = -1
  for (let k = text.length - 1; k >= 0; k--) {
    const src = map[k]!
    const f = text[k] !== ' ' && src >= 0 && src < frames.length ? frames[src]! : -1
    if (f >= 0) next = f
    of[k] = f >= 0 ? f : next
  }
  let last = -1
  for (let k = 0; k < text.length; k++) {
    if (of[k]! >= 0) last = of[k]!
    else of[k] = last
  }
  const runs: TextRun[] = []
  for (let k = 0; k < text.length; k++) {
    const run = runs[runs.length - 1]
    if (run && run.frame === of[k]) run.end = k + 1
    else runs.push({ frame: of[k]!, start: k, end: k + 1, text: '' })
  }
  for (const r of runs) r.text = text.slice(r.start, r.end)
  return runs.filter((r) => r.frame >= 0)
}

/**
 * The source index behind rendered unit `at`, or the next unit's that has one and is not a
 * space (the source's end past the last): a space belongs to the text after it, as in
 * renderedRuns, though the renderer maps it to the line ending it came from.
 */
function sourceAt(rendered: MappedText, at: number, sourceLength: number): number {
  for (let k = at; k < rendered.map.length; k++) if (rendered.map[k]! >= 0 && rendered.text[k] !== ' ') return rendered.map[k]!
  return sourceLength
}

/** The page shows reasoning and content as one text: both channels went into one buffer. */
function reasoningInContent(ref: Reference, choice: ReplyChoice, method: 'markdown' | 'raw', got: string): { difference: Difference; referenceOffset: number } | null {
  // in arrival order (each run with its frame) when provenance is known, and reasoning first
  const orders: Array<{ text: string; frames: Int32Array | null }> = []
  if (ref.merger !== null) {
    let text = ''
    const frames: number[] = []
    for (const p of ref.provenance) {
      if (p.choice !== choice.index || (p.channel !== 'content' && p.channel !== 'reasoning')) continue
      const piece = (p.channel === 'content' ? choice.content : choice.reasoning).slice(p.start, p.end)
      text += piece
      for (let k = 0; k < piece.length; k++) frames.push(p.frame)
    }
    orders.push({ text, frames: Int32Array.from(frames) })
  }
  orders.push({ text: choice.reasoning + choice.content, frames: null })
  for (const order of orders) {
    const rendered = normaliseWhitespace(render(method, order.text))
    if (rendered.text !== got) continue
    const offset = commonPrefix(normaliseWhitespace(render(method, choice.content)).text, got)
    const runs = order.frames === null ? null : renderedRuns(rendered, order.frames)
    const frame = runs?.find((r) => r.start <= offset && offset < r.end)?.frame ?? null
    return {
      referenceOffset: 0,
      difference: {
        field: PATH, expected: normaliseWhitespace(render(method, choice.content)).text, got, offset, frame, cause: 'reasoning-in-content',
        message: 'The page shows the reasoning inside the content: the client wrote both channels into one buffer.',
      },
    }
  }
  return null
}

/**
 * The causes again on the texts without their spaces: a frame's text is found whatever white
 * space the rendering put around it (a frame shown twice renders "Done.Done.", the reference's
 * run is " Done."). The cause, frame and message come from there; the offset stays the
 * first differing character of the texts as compared.
 */
function withoutSpaces(ref: Reference, difference: Difference, runs: readonly TextRun[], label: string): Difference | null {
  const bare: TextRun[] = []
  let at = 0
  for (const r of runs) {
    const text = r.text.replace(/ /g, '')
    if (text === '') continue
    bare.push({ frame: r.frame, start: at, end: at + text.length, text })
    at += text.length
  }
  const expected = bare.map((r) => r.text).join('')
  const got = (difference.got as string).replace(/ /g, '')
  if (expected === got) return null
  const found = textDifference(ref, { path: PATH, label, expected, got, runs: bare, isArguments: false })
  if (found.cause === 'other') return null
  return { ...difference, frame: found.frame, cause: found.cause, message: found.message }
}

/** The page's text without the parts that are not the reply, each searched from where the one before it was; `notes` say what was cut. */
function leaveOut(text: string, parts: readonly string[], notes: string[]): string {
  let out = text
  let from = 0
  const cut: string[] = []
  const missing: string[] = []
  for (const part of parts) {
    if (part === '') continue
    const at = out.indexOf(part, from)
    if (at < 0) { missing.push(part); continue }
    out = out.slice(0, at) + '\n' + out.slice(at + part.length)
    from = at
    cut.push(part)
  }
  if (cut.length > 0) notes.push(`Left out of the page's text: ${cut.map((p) => quote(p)).join(', ')}.`)
  if (missing.length > 0) notes.push(`Not found in the page's text, so left in: ${missing.map((p) => quote(p)).join(', ')}.`)
  return out
}
