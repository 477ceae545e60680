// "Compare with my client" and "diff two captures": the selected request's reply (the
// reference, replayed from its recorded chunks so causes can name network reads) against what
// the user's client produced, pasted or dropped, or against another request's reply. One
// comparison at a time; the reply marks the fields that differ and the first difference's
// frame is selected.

import { signal, type Signal } from '@preact/signals'
import type { Reply } from '../../src/library.js'
import { compareReply } from '../../src/debug/compare.js'
import { compareRenderedText, type RenderedComparison } from '../../src/debug/compare-rendered.js'
import type { Comparison } from '../../src/debug/compare-types.js'
import { toFixture } from '../../src/exchange/fixture.js'
import type { CompareAgainst, HeldSource, PageVerdict } from './types.js'

export type { CompareAgainst } from './types.js'

export interface ComparisonView {
  /** The request compared (the reference). */
  id: string
  /** What it was compared with, in words: "your client's result (OpenAI chat completion)", "request 3". */
  label: string
  /** The other request, when two captures are compared. */
  otherId: string | null
  /** The other request's reply, shown beside the reference's. */
  otherReply: Reply | null
  result: Comparison
  /** Every field compared, in field order, and whether it matched. */
  fields: Array<{ field: string; equal: boolean }>
  /** Two captures: their frames side by side by seq, around the first difference (data, one line each). */
  aligned: AlignedFrame[] | null
  /** Compared with the page's text: which way (rendered Markdown or raw), with what, and what else was found. */
  page?: { method: 'markdown' | 'raw'; renderer: string | null; notes: string[] }
}

export interface AlignedFrame {
  seq: number
  a: string | null
  b: string | null
  same: boolean
}

/** Frames shown side by side before and after the first difference's frame. */
const ALIGN_AROUND = 6
/** Above this many frames, the frames are not built for the side-by-side view (every frame would be read). */
const ALIGN_MAX_FRAMES = 50_000

export class Comparisons {
  readonly current: Signal<ComparisonView | null> = signal(null)

  constructor(private readonly recordings: { get(id: string): HeldSource | null }) {}

  /** Compares; returns the comparison, or a sentence saying why it could not be made. */
  compare(id: string, against: CompareAgainst): ComparisonView | string {
    const source = this.recordings.get(id)
    if (!source) return 'That request is no longer recorded.'
    let client: unknown
    let label: string
    let otherId: string | null = null
    let otherReply: Reply | null = null
    if ('page' in against) {
      const result = comparePage(source, against.page, against.leaveOut ?? [])
      const page = { method: result.method, renderer: result.renderer, notes: [...(against.notes ?? []), ...result.notes] }
      const view: ComparisonView = { id, label: against.label, otherId: null, otherReply: null, result, fields: comparedFields(source.expected, result), aligned: null, page }
      this.current.value = view
      return view
    }
    if ('request' in against) {
      const other = this.recordings.get(against.request)
      if (!other) return 'The other request is no longer recorded.'
      if (against.request === id) return 'Pick another request to compare with.'
      client = other.expected
      otherReply = other.expected
      otherId = against.request
      label = `${other.request.method} ${other.request.url}`.trim()
    } else {
      if (against.client.trim() === '') return "Paste your client's result first: its text, or its final object as JSON."
      client = readClientText(against.client)
      label = against.label ?? (typeof client === 'string' ? "your client's text" : "your client's result")
    }
    const result = compareReply(toFixture(source), client)
    const first = result.differences.find((d) => d.frame !== null)?.frame ?? 0
    const other = otherId === null ? null : this.recordings.get(otherId)
    const aligned = other ? alignFrames(source, other, first) : null
    const view: ComparisonView = { id, label, otherId, otherReply, result, fields: comparedFields(source.expected, result), aligned }
    this.current.value = view
    return view
  }

  clear(): void {
    this.current.value = null
  }

  /** A request was removed or read again: a comparison of it no longer holds. */
  forget(id: string): void {
    const c = this.current.peek()
    if (c && (c.id === id || c.otherId === id)) this.current.value = null
  }
}

/** JSON when it parses as JSON (an object, a Reply, a quoted string), else the text itself. */
export function readClientText(text: string): unknown {
  const trimmed = text.trim()
  if (!/^[[{"]/.test(trimmed)) return text
  try {
    return JSON.parse(trimmed) as unknown
  } catch {
    return text
  }
}

/** The reference's fields in field order, each marked equal unless a difference is in it (or under it). */
export function comparedFields(reference: Reply, result: Comparison): Array<{ field: string; equal: boolean }> {
  const paths: string[] = []
  reference.choices.forEach((c, i) => {
    for (const f of ['content', 'reasoning', 'refusal', 'toolCalls', 'finishReason']) paths.push(`choices[${i}].${f}`)
  })
  paths.push('usage')
  const skipped = new Set(result.notCompared)
  const under = (path: string, field: string) => field === path || field.startsWith(path + '.') || field.startsWith(path + '[')
  return paths
    .filter((p) => !skipped.has(p))
    .map((field) => ({ field, equal: !result.differences.some((d) => under(field, d.field)) }))
    .concat(result.differences.filter((d) => !paths.some((p) => under(p, d.field))).map((d) => ({ field: d.field || '(result)', equal: false })))
}

/** The two requests' frames by seq around `center`: each frame's data (or raw text) on one line. */
function alignFrames(a: HeldSource, b: HeldSource, center: number): AlignedFrame[] | null {
  if (a.expected.frameCount > ALIGN_MAX_FRAMES || b.expected.frameCount > ALIGN_MAX_FRAMES) return null
  const from = Math.max(0, center - ALIGN_AROUND)
  const to = Math.max(center + ALIGN_AROUND + 1, from + 2 * ALIGN_AROUND + 1)
  const text = (f: { kind: string; data: string; raw: string } | undefined) => (f === undefined ? null : f.kind === 'invalid' ? f.raw : f.data)
  const fa = a.frames().slice(from, to)
  const fb = b.frames().slice(from, to)
  const out: AlignedFrame[] = []
  for (let i = 0; i < Math.max(fa.length, fb.length); i++) {
    const ta = text(fa[i])
    const tb = text(fb[i])
    out.push({ seq: from + i, a: ta, b: tb, same: ta === tb })
  }
  return out
}

/** Below this share of the reply's words in the page's element, the element shows another reply: the stream is not shown. */
const SHOWN_SHARE = 0.5

/** The verdict of a stream against the text the page shows (null: no element; `where` then says why, else which element). */
export function pageVerdict(source: HeldSource, text: string | null, where: string, leaveOut: readonly string[] = []): PageVerdict {
  if (text === null) return { state: 'not-shown', message: `Not shown: ${where}.` }
  if (text.trim() === '') return { state: 'not-shown', message: `Not shown: ${where} is empty.` }
  const result = comparePage(source, text, leaveOut)
  const way = result.method === 'markdown' ? 'rendered as Markdown' : 'raw'
  if (result.equal) return { state: 'equal', message: `The page shows this reply (${where}, compared ${way}).` }
  if (wordShare(result.expected, result.got) < SHOWN_SHARE) return { state: 'not-shown', message: `Not shown: ${where} shows another text (a background request?).` }
  const d = result.differences[0]!
  return { state: 'differs', cause: d.cause, frame: d.frame, message: `${d.cause}: ${d.message} (${where}, compared ${way})` }
}

/** The share of the reference's words found in the page's text (each word counted as often as it comes). */
function wordShare(expected: string, got: string): number {
  const want = expected.split(' ').filter((w) => w !== '')
  if (want.length === 0) return 1
  const have = new Map<string, number>()
  for (const w of got.split(' ')) have.set(w, (have.get(w) ?? 0) + 1)
  let found = 0
  for (const w of want) {
    const n = have.get(w) ?? 0
    if (n > 0) { have.set(w, n - 1); found++ }
  }
  return found / want.length
}

/**
 * The page's text against the request's reply, without what the page marks as not the reply
 * (its <details> blocks and buttons); when that differs and the whole text is equal, the whole
 * text (a reply whose own text the page shows in such an element).
 */
function comparePage(source: HeldSource, text: string, leaveOut: readonly string[]): RenderedComparison {
  const fixture = toFixture(source)
  const without = compareRenderedText(fixture, text, { leaveOut })
  if (without.equal || leaveOut.length === 0) return without
  const whole = compareRenderedText(fixture, text)
  return whole.equal ? { ...whole, notes: [...whole.notes, 'Compared the whole text: the <details> blocks and buttons in it are part of the reply.'] } : without
}
