// Pure formatting of what the CLI prints: a Reply for a person, frame rows, frame JSON.
// Wire text is untrusted: control characters (ESC, CR, C1, bidi overrides) are shown
// escaped, never sent to the terminal as they are.

import type { Diagnostic, Frame, Reply, ReplyChoice, ReplyToolCall, StreamError } from '../library.js'
import { toJson } from './json.js'
import { PLAIN, type Style } from './style.js'

export interface ReplyView {
  reply: Reply
  streamErrors: readonly StreamError[]
  diagnostics: readonly Diagnostic[]
  /** The first line of a frame in the file, when known. */
  lineOf?: (frame: number) => number | null
}

/** How many broken frames, stream errors and diagnostic groups are listed before "… and N more". */
export const LIST_LIMIT = 20

const GUTTER = '│ '
const UNSAFE = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
const UNSAFE_INLINE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function escapeChar(c: string): string {
  if (c === '\r') return '\\r'
  if (c === '\n') return '\\n'
  if (c === '\t') return '\\t'
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** Multi-line text for a terminal: newlines and tabs kept, CRLF read as a newline, other controls escaped. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\r\n' ? '\n' : escapeChar(c)))
}

/** One line: every control character escaped, newlines included. */
export function safeLine(text: string): string {
  return text.replace(UNSAFE_INLINE, escapeChar)
}

/** At most `max` characters, the cut marked with "…". */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + '…'
}

/** At most `max` characters, keeping the end (`…_summary_text.delta`). */
export function clipStart(text: string, max: number): string {
  return text.length <= max ? text : '…' + text.slice(text.length - Math.max(0, max - 1))
}

/**
 * A line of output; one longer than LONG_LINE stays in pieces (gutter, text), written one
 * after the other: joined, a one-byte text of 200 MB behind the gutter's '│' would become a
 * two-byte string of 400 MB.
 */
export type Line = string | readonly string[]
const LONG_LINE = 1 << 20

/** Text under a gutter, so where it starts and ends is plain. */
function block(text: string, indent: string, s: Style, paint: (t: string) => string = (t) => t): Line[] {
  return safeText(text).split('\n').map((line) => {
    if (line === '') return indent + s.dim(GUTTER.trimEnd())
    return line.length > LONG_LINE ? [indent + s.dim(GUTTER), paint(line)] : indent + s.dim(GUTTER) + paint(line)
  })
}

/** The lines as the pieces of one text, each line ended by a newline (a long line's pieces are not joined). */
export function linesToParts(lines: readonly Line[]): string[] {
  const parts: string[] = []
  for (const line of lines) {
    if (typeof line === 'string') parts.push(line + '\n')
    else parts.push(...line, '\n')
  }
  return parts
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

function where(frame: number, lineOf: ReplyView['lineOf']): string {
  const line = lineOf?.(frame) ?? null
  return line === null ? `frame ${frame}` : `frame ${frame} · line ${line}`
}

function more(n: number, what: string): string[] {
  return n > 0 ? [`  … and ${n} more ${what} (--json lists them all)`] : []
}

// ---------------------------------------------------------------------------
// merge

/** `deltascope merge`: the verdict line, each choice, usage, then what went wrong. */
export function renderReply(view: ReplyView, s: Style = PLAIN): string {
  return renderReplyParts(view, s).join('')
}

/** renderReply's text in pieces, for writing a reply of any length without joining it. */
export function renderReplyParts(view: ReplyView, s: Style = PLAIN): string[] {
  const { reply } = view
  const out: Line[] = [header(reply, s)]
  if (reply.choices.length === 0) out.push('', s.dim('(no choice was rebuilt)'))
  for (const choice of reply.choices) out.push('', ...renderChoice(choice, s))
  if (reply.usage !== null) out.push('', s.bold('usage'), ...renderUsage(reply.usage))
  out.push(...problems(view, s))
  return linesToParts(out)
}

/** The end of `deltascope frames`: the verdict line and what went wrong, without the reply. */
export function renderSummary(view: ReplyView, s: Style = PLAIN): string {
  return [header(view.reply, s), ...problems(view, s)].join('\n') + '\n'
}

function problems(view: ReplyView, s: Style): string[] {
  const out: string[] = []
  if (view.streamErrors.length > 0) out.push('', ...renderStreamErrors(view, s))
  if (view.reply.errors.length > 0) out.push('', ...renderBrokenFrames(view, s))
  const diagnostics = renderDiagnostics(view, s)
  if (diagnostics.length > 0) out.push('', ...diagnostics)
  return out
}

function header(reply: Reply, s: Style): string {
  const parts = [s.bold(reply.provider), reply.transport, plural(reply.frameCount, 'frame')]
  parts.push(reply.done ? s.green('done') : s.yellow(reply.frameCount === 0 ? 'no frames' : 'not done: no terminal event'))
  if (reply.errors.length > 0) parts.push(s.red(plural(reply.errors.length, 'broken frame')))
  return parts.join(' · ')
}

function renderChoice(c: ReplyChoice, s: Style): Line[] {
  const out: Line[] = [s.bold(`choice ${c.index}`) + (c.role !== null ? ` · ${safeLine(c.role)}` : '')]
  const empty = c.content === '' && c.reasoning === '' && c.refusal === '' && c.toolCalls.length === 0
  if (c.reasoning !== '') out.push('  ' + s.magenta('reasoning'), ...block(c.reasoning, '  ', s, s.dim))
  if (c.content !== '') out.push('  ' + s.cyan('content'), ...block(c.content, '  ', s))
  if (empty) out.push('  ' + s.cyan('content') + s.dim(' (empty)'))
  if (c.refusal !== '') out.push('  ' + s.red('refusal'), ...block(c.refusal, '  ', s))
  for (const call of c.toolCalls) out.push(...renderToolCall(call, s))
  out.push('  ' + s.cyan('finish') + ' ' + (c.finishReason === null ? s.dim('(none)') : safeLine(c.finishReason)))
  return out
}

function renderToolCall(call: ReplyToolCall, s: Style): Line[] {
  const head = [`tool call ${call.index}`, call.name === null ? s.dim('(no name)') : s.bold(safeLine(call.name))]
  if (call.type !== null && call.type !== 'function') head.push(safeLine(call.type))
  if (call.id !== null) head.push(`id ${safeLine(call.id)}`)
  const out: Line[] = ['  ' + s.cyan(head[0]!) + ' · ' + head.slice(1).join(' · ')]
  if (call.argumentsError === null) {
    // arguments nested deeper than JSON.stringify reaches are shown as received
    let pretty: string
    try {
      pretty = JSON.stringify(call.parsedArguments, null, 2)
    } catch {
      pretty = call.arguments
    }
    out.push(...block(pretty, '  ', s))
    return out
  }
  out.push('  ' + s.red(`arguments do not parse: ${safeLine(call.argumentsError)}`))
  if (call.arguments === '') out.push('  ' + s.dim('(the arguments are an empty string)'))
  else out.push(...block(call.arguments, '  ', s))
  return out
}

/** Usage keys are flattened this deep; deeper objects stay compact JSON. */
const USAGE_DEPTH = 8

/** The provider's usage object, flattened to dotted keys; arrays stay compact JSON. */
export function renderUsage(usage: Record<string, unknown>): string[] {
  const rows: Array<[string, string]> = []
  const walk = (value: unknown, path: string, depth: number) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < USAGE_DEPTH) {
      const keys = Object.keys(value)
      if (keys.length === 0 && path !== '') rows.push([path, '{}'])
      for (const k of keys) walk((value as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`, depth + 1)
      return
    }
    rows.push([path, typeof value === 'string' ? value : clip(toJson(value), 200)])
  }
  walk(usage, '', 0)
  const width = Math.max(0, ...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `  ${safeLine(k).padEnd(width)}  ${safeLine(v)}`)
}

function renderStreamErrors(view: ReplyView, s: Style): string[] {
  const list = view.streamErrors
  const out = [s.red(s.bold(`stream errors (${list.length})`))]
  for (const e of list.slice(0, LIST_LIMIT)) {
    const extra = [e.type, e.code === null ? null : `code ${e.code}`].filter((x) => x !== null)
    const tail = extra.length > 0 ? s.dim(` (${safeLine(extra.join(', '))})`) : ''
    out.push(`  ${where(e.frame, view.lineOf)}: ${safeLine(e.message)}${tail}`)
  }
  return [...out, ...more(list.length - LIST_LIMIT, 'stream errors')]
}

function renderBrokenFrames(view: ReplyView, s: Style): string[] {
  const list = view.reply.errors
  const out = [s.red(s.bold(`broken frames (${list.length})`))]
  for (const e of list.slice(0, LIST_LIMIT)) {
    out.push(`  frame ${e.frame} · line ${e.line}: ${s.red(safeLine(e.message))}`)
    out.push(...rawLines(e.raw, '  ', s))
  }
  return [...out, ...more(list.length - LIST_LIMIT, 'broken frames')]
}

/** A frame's raw text under a gutter: its first `max` lines, each clipped in the middle to 200 characters. */
export function rawLines(raw: string, indent: string, s: Style = PLAIN, max = 3): string[] {
  return renderRawLines(rawLineParts(raw, max), indent, s, max)
}

/** The lines of a raw text that are shown (the first `max`, clipped) and how many it has. */
export interface RawShown {
  shown: string[]
  count: number
}

/** Its lines: the text less one trailing terminator, cut at CRLF, CR or LF. */
export function rawLineParts(raw: string, max: number): RawShown {
  // lines found by indexOf and sliced, never replaced or split: a frame of 200 MB shown in a
  // few clipped lines is not copied whole, twice
  const shown: string[] = []
  let count = 0
  const end = raw.endsWith('\r\n') ? raw.length - 2 : raw.endsWith('\n') || raw.endsWith('\r') ? raw.length - 1 : raw.length
  let lf = -1
  let cr = -1
  for (let at = 0; ;) {
    // each kind of break searched for again only once passed (a body without CR is scanned once)
    if (lf !== end && lf < at) { lf = raw.indexOf('\n', at); if (lf < 0 || lf > end) lf = end }
    if (cr !== end && cr < at) { cr = raw.indexOf('\r', at); if (cr < 0 || cr > end) cr = end }
    const next = Math.min(lf, cr)
    const eol = next >= end ? -1 : next
    if (count++ < max) shown.push(middleClip(raw.slice(at, eol < 0 ? end : eol), RAW_LINE))
    if (eol < 0) break
    at = raw.startsWith('\r\n', eol) ? eol + 2 : eol + 1
  }
  return { shown, count }
}

export function renderRawLines(raw: RawShown, indent: string, s: Style, max: number): string[] {
  const out = raw.shown.map((line) => indent + s.dim(GUTTER) + safeLine(line))
  if (raw.count > max) out.push(indent + s.dim(GUTTER + `… ${plural(raw.count - max, 'more line')}`))
  return out
}

/** Characters of a raw line shown: its start and its end beyond. */
export const RAW_LINE = 200

/** Long lines keep their start and their end (where a truncated frame breaks). */
export function middleClip(line: string, max: number): string {
  if (line.length <= max) return line
  const head = Math.ceil((max - 3) * 0.55)
  return `${line.slice(0, head)} … ${line.slice(line.length - (max - 3 - head))}`
}

function renderDiagnostics(view: ReplyView, s: Style): string[] {
  // the same message repeated (an ignored event type in every frame) is one row with a count
  const groups = new Map<string, { d: Diagnostic; count: number }>()
  for (const d of view.diagnostics) {
    const key = `${d.level}\0${d.code}\0${d.message}`
    const g = groups.get(key)
    if (g) g.count++
    else groups.set(key, { d, count: 1 })
  }
  if (groups.size === 0) return []
  const paint = { error: s.red, warning: s.yellow, info: s.dim } as const
  const out = [s.bold('diagnostics')]
  for (const { d, count } of [...groups.values()].slice(0, LIST_LIMIT)) {
    const at = d.frame === null ? '' : `${where(d.frame, view.lineOf)}: `
    const times = count > 1 ? s.dim(` (×${count})`) : ''
    out.push(`  ${paint[d.level](d.level.padEnd(7))}  ${at}${safeLine(d.message)}${times}`)
  }
  return [...out, ...more(groups.size - LIST_LIMIT, 'diagnostics')]
}

// ---------------------------------------------------------------------------
// frames

const COLUMNS = { seq: 5, line: 6, event: 28, kind: 7, bytes: 7 }
/** Width of the data summary. */
export const SUMMARY_WIDTH = 60

export function renderFramesHeader(s: Style = PLAIN): string {
  return s.bold([
    'seq'.padStart(COLUMNS.seq), 'line'.padStart(COLUMNS.line), 'event'.padEnd(COLUMNS.event),
    'kind'.padEnd(COLUMNS.kind), 'bytes'.padStart(COLUMNS.bytes), 'data',
  ].join('  ')) + '\n'
}

export function renderFrameRow(frame: Frame, s: Style = PLAIN): string {
  const kind = frame.kind === 'invalid' ? s.red(frame.kind.padEnd(COLUMNS.kind)) : frame.kind.padEnd(COLUMNS.kind)
  let summary = frameSummary(frame)
  if (frame.kind === 'invalid') summary = s.red(summary)
  else if (frame.kind === 'done') summary = s.green(summary)
  if (frame.unterminated) summary = s.yellow('[unterminated] ') + summary
  return [
    String(frame.seq).padStart(COLUMNS.seq),
    String(frame.line).padStart(COLUMNS.line),
    safeLine(clipStart(frame.event ?? '-', COLUMNS.event)).padEnd(COLUMNS.event),
    kind,
    String(frame.byteEnd - frame.byteStart).padStart(COLUMNS.bytes),
    summary,
  ].join('  ') + '\n'
}

/** Values nested deeper than this are left out of a summary. */
const SUMMARY_DEPTH = 64

/** Keys that are the same in every frame of a stream, or bookkeeping: left out of summaries. */
const QUIET_KEYS = new Set([
  'id', 'object', 'created', 'created_at', 'model', 'system_fingerprint', 'sequence_number', 'item_id',
  'output_index', 'content_index', 'summary_index', 'index', 'logprobs', 'obfuscation', 'responseId',
  'modelVersion', 'createTime', 'annotations', 'signature', 'thoughtSignature',
])
/** Keys repeated in many frames: shown after the others, when there is room. */
const LATE_KEYS = new Set(['role', 'status'])

/**
 * About 60 characters saying what a frame carries: `[DONE]`, the parser's message for a
 * broken frame, else the frame's informative leaves in document order (`type` values bare,
 * others `key:value`), skipping nulls, empty strings, `false` and bookkeeping keys.
 */
export function frameSummary(frame: Frame, width = SUMMARY_WIDTH): string {
  if (frame.kind === 'done') return '[DONE]'
  if (frame.kind === 'invalid') return safeLine(frame.error?.message ?? 'invalid JSON')
  if (frame.json === undefined) return safeLine(clip(frame.data, width))
  const parts: string[] = []
  const late: string[] = []
  let length = 0
  const add = (part: string, key: string | null): boolean => {
    if (key !== null && LATE_KEYS.has(key)) late.push(part)
    else parts.push(part)
    length += part.length + 1
    return length <= width
  }
  const walk = (value: unknown, key: string | null, top: boolean, depth = 0): boolean => {
    if (value === null || value === undefined || value === false || value === '') return true
    if (depth > SUMMARY_DEPTH) return true
    if (Array.isArray(value)) {
      for (const v of value) if (!walk(v, key, false, depth + 1)) return false
      return true
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (QUIET_KEYS.has(k)) continue
        if (top && k === 'type' && v === frame.event) continue
        if (!walk(v, k, false, depth + 1)) return false
      }
      return true
    }
    if (key === 'type' && typeof value === 'string') return add(value, key)
    // a string longer than the summary is cut before it is quoted: its first characters are all
    // that is shown (a longer quoted prefix than `width` still ends the walk, as the whole would)
    const text = typeof value === 'string' ? JSON.stringify(value.length > width + 1 ? value.slice(0, width + 1) : value) : String(value)
    return add(key === null ? text : `${key}:${text}`, key)
  }
  walk(frame.json, null, true)
  const summary = [...parts, ...late].join(' ')
  return safeLine(clip(summary === '' ? frame.data : summary, width))
}

/** A frame as one line of JSON: everything but the parsed `json`, which `data` already holds. */
export function frameJson(frame: Frame): string {
  const { json: _json, ...rest } = frame
  return JSON.stringify(rest)
}
