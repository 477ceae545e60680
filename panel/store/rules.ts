// The user's stream rules (README "Reading any stream with rules"), saved per URL pattern and
// kept through the shell (the extension's browser.storage.local, the page's localStorage). A
// request whose URL matches a saved pattern is read with its rules as it arrives; the editor
// ("Read this stream as…", components/RulesEditor.tsx) suggests rules from a request's frames
// and previews what they read. Storage is outside data: what it gives back is checked again.

import type { ReadonlySignal } from '@preact/signals'
import type { Recording } from '../../src/exchange/types.js'
import { checkRules, createMerger, suggestRules, type LibraryMergeOptions, type Merger, type Reply, type Rules, type RulesSuggestion } from '../../src/library.js'
import type { PanelShell } from '../shell.js'
import { keptSetting } from './kept-setting.js'

export interface SavedRules {
  /** A URL with `*` for any run of characters (`https://chat.example.com/api/stream*`). */
  pattern: string
  rules: Rules
}

export interface StreamRules {
  readonly saved: ReadonlySignal<readonly SavedRules[]>
  /** '' when all is kept; else what went wrong loading or saving (the rules still apply until the panel closes). */
  readonly status: ReadonlySignal<string>
  /** The rules of the first saved pattern the URL matches, or null. */
  ruleFor(url: string): Rules | null
  /** Saves (or replaces) the rules of a pattern. */
  save(pattern: string, rules: Rules): Promise<void>
  /** Forgets a pattern's rules. */
  remove(pattern: string): Promise<void>
  readonly ready: Promise<void>
}

const STORED_VERSION = 1

/** What the editor reads a request from (a Recording, or the store's export source). */
export type RulesSource = Pick<Recording, 'request' | 'chunks' | 'forced'>

export function createStreamRules(store?: PanelShell['rulesStore']): StreamRules {
  const kept = keptSetting<readonly SavedRules[]>([], {
    decode(text) {
      const { list, dropped } = fromStored(text)
      return { value: list, problem: dropped > 0 ? `${dropped} stored stream ${dropped === 1 ? 'rule was' : 'rules were'} not usable, left out` : '' }
    },
    encode: toStored,
    loadFailed: (reason) => `The stream rules could not be read: ${reason}`,
    saveFailed: (reason) => `The stream rules could not be saved (they apply until the panel closes): ${reason}`,
  }, store)
  const saved = kept.value
  return {
    saved,
    status: kept.status,
    ready: kept.ready,
    ruleFor: (url) => saved.peek().find((s) => urlMatches(s.pattern, url))?.rules ?? null,
    save: (pattern, rules) => kept.keep([{ pattern, rules }, ...saved.peek().filter((s) => s.pattern !== pattern)]),
    remove: (pattern) => kept.keep(saved.peek().filter((s) => s.pattern !== pattern)),
  }
}

export function toStored(list: readonly SavedRules[]): string {
  return JSON.stringify({ version: STORED_VERSION, rules: list })
}

/** The saved rules in a stored text, each checked; what is not usable is counted and left out. */
export function fromStored(text: string): { list: SavedRules[]; dropped: number } {
  let parsed: unknown
  try { parsed = JSON.parse(text) } catch { return { list: [], dropped: 1 } }
  const entries = (parsed as { version?: unknown; rules?: unknown } | null)
  if (entries === null || typeof entries !== 'object' || entries.version !== STORED_VERSION || !Array.isArray(entries.rules)) return { list: [], dropped: 1 }
  const list: SavedRules[] = []
  let dropped = 0
  for (const e of entries.rules as unknown[]) {
    const pattern = (e as { pattern?: unknown } | null)?.pattern
    const check = checkRules((e as { rules?: unknown } | null)?.rules)
    if (typeof pattern === 'string' && pattern !== '' && check.ok) list.push({ pattern, rules: check.rules })
    else dropped++
  }
  return { list, dropped }
}

/**
 * True when the URL matches the pattern: `*` stands for any run of characters, everything
 * else is literal; matched left to right, each piece found once (linear, no regex built from
 * what the user typed or the page sent).
 */
export function urlMatches(pattern: string, url: string): boolean {
  const pieces = pattern.split('*')
  if (pieces.length === 1) return pattern === url
  const head = pieces[0]!
  const tail = pieces[pieces.length - 1]!
  if (!url.startsWith(head) || url.length < head.length + tail.length || !url.endsWith(tail)) return false
  let at = head.length
  const end = url.length - tail.length
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = url.indexOf(pieces[i]!, at)
    if (found < 0 || found + pieces[i]!.length > end) return false
    at = found + pieces[i]!.length
  }
  return true
}

/** The pattern the editor proposes for a URL: its origin and path, any query. */
export function defaultPattern(url: string): string {
  const q = url.search(/[?#]/)
  return (q < 0 ? url : url.slice(0, q)) + '*'
}

/** Frames looked at for a suggestion (suggestRules reads no more): the first ones, and the last SUGGEST_LAST_FRAMES. */
const SUGGEST_FRAMES = 2000
/**
 * The last frames of a stream a suggestion reads: its finish reason and its end marker are
 * there, and suggestRules looks for them in the last frames it is given.
 */
export const SUGGEST_LAST_FRAMES = 100
/** The most of a long body's end the editor asks for (Recordings.tail). */
export const SUGGEST_TAIL_BYTES = 256 * 1024

/**
 * Rules suggested from a recording's frames (read as they were, without rules): its first
 * frames and its last ones. The last come from `tail` when given (the end of a body longer
 * than the recording's chunks, Recordings.tail, none of it in them), else from the chunks.
 */
export function suggestFor(recording: RulesSource, tail: Uint8Array | null = null): RulesSuggestion {
  const head = merged(recording, recording.chunks.map((c) => c.data))
  const count = head.frameCount
  if (tail !== null) {
    const end = merged(recording, [tail])
    const last = dataFrames(end, Math.max(0, end.frameCount - SUGGEST_LAST_FRAMES), end.frameCount)
    return suggestRules([...dataFrames(head, 0, Math.min(count, SUGGEST_FRAMES - last.length)), ...last])
  }
  if (count <= SUGGEST_FRAMES) return suggestRules(dataFrames(head, 0, count))
  return suggestRules([...dataFrames(head, 0, SUGGEST_FRAMES - SUGGEST_LAST_FRAMES), ...dataFrames(head, count - SUGGEST_LAST_FRAMES, count)])
}

function merged(recording: RulesSource, parts: Array<string | Uint8Array>): Merger {
  const m = createMerger(optionsOf(recording))
  for (const p of parts) m.push(p)
  m.end()
  return m
}

/** Frames [from, to) that carry data, as suggestRules reads them. */
function dataFrames(m: Merger, from: number, to: number): Array<{ event: string | null; json: unknown }> {
  return m.frames(from, to).filter((f) => f.kind === 'data').map((f) => ({ event: f.event, json: f.json }))
}

/** The preview reads at most this much of a body: it runs again on each keystroke. */
export const PREVIEW_BYTES = 2 * 1024 * 1024

export type Preview = { ok: true; reply: Reply; warnings: string[]; partial: boolean } | { ok: false; errors: string[] }

/** What the rules (as typed: JSON text) read from the recording's first PREVIEW_BYTES. */
export function previewRules(recording: RulesSource, text: string, limit = PREVIEW_BYTES): Preview {
  const check = checkRules(text)
  if (!check.ok) return { ok: false, errors: check.errors }
  const m = createMerger({ ...optionsOf(recording), rules: check.rules, retainBody: false })
  let left = limit
  let partial = false
  for (const c of recording.chunks) {
    if (left <= 0) { partial = true; break }
    const piece = c.data.length > left ? c.data.slice(0, left) : c.data
    partial ||= piece.length < c.data.length
    m.push(piece)
    left -= piece.length
  }
  const reply = m.end()
  const warnings = m.diagnostics().filter((d) => d.level !== 'info').slice(0, 5).map((d) => `${d.frame === null ? '' : `frame ${d.frame}: `}${d.message}`)
  return { ok: true, reply, warnings, partial }
}

/** How the recording is read, its provider and rules aside. */
function optionsOf(recording: RulesSource): LibraryMergeOptions {
  const o: LibraryMergeOptions = { url: recording.request.url }
  if (recording.request.contentType) o.contentType = recording.request.contentType
  if (recording.forced?.transport) o.transport = recording.forced.transport
  return o
}
