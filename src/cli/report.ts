// Pure formatting of the debugger's answers for a person: a comparison (check), diagnostics
// (diagnose) and timing figures (timing). Wire text and client text are untrusted: shown
// through render.ts's escaping, never sent to the terminal as they are.

import type { Comparison, Difference } from '../debug/compare-types.js'
import { COMPARE_CAUSES } from '../debug/compare-causes.js'
import type { Timing } from '../debug/timing.js'
import type { Diagnostic, Reply } from '../library.js'
import { toJson } from './json.js'
import { clip, plural, rawLines, renderRawLines, safeLine, type RawShown } from './render.js'
import { PLAIN, type Style } from './style.js'

// ---------------------------------------------------------------------------
// check

export interface ComparisonView {
  comparison: Comparison
  /** The reference Reply: its choices say which fields were compared. */
  reply: Reply
  /**
   * A frame's first line and raw text, when the frame is known; or, for a frame too big to
   * hold as text twice, the lines of it that are shown (the first RAW_SHOWN, as rawLines).
   */
  frameOf?: (seq: number) => { line: number; raw: string } | { line: number; shown: RawShown } | null
}

/** Lines of the difference's frame shown. */
export const RAW_SHOWN = 5

/** Characters of context shown on each side of the first difference. */
export const CONTEXT = 30

const CHOICE_FIELDS = ['content', 'reasoning', 'refusal', 'toolCalls', 'finishReason'] as const

/**
 * The fields compared, in the Comparison's order: per choice of the reference content,
 * reasoning, refusal, tool calls and finish reason, then usage — less those the result does
 * not carry — plus any field a difference names that these do not cover.
 */
export function comparedFields(comparison: Comparison, reply: Reply): string[] {
  const fields: string[] = []
  // a list of messages was compared message by message, in place of the choices
  const byMessages = reply.choices.length > 0 && reply.choices.every((c) => comparison.notCompared.includes(`choices[${c.index}]`))
  if (byMessages) reply.messages.forEach((_, i) => fields.push(`messages[${i}]`))
  else for (const c of reply.choices) for (const f of CHOICE_FIELDS) fields.push(`choices[${c.index}].${f}`)
  fields.push('usage')
  const kept = fields.filter((f) => !comparison.notCompared.some((n) => covers(n, f)))
  for (const d of comparison.differences) {
    if (d.field !== '' && !kept.some((f) => related(f, d.field))) kept.push(d.field)
  }
  return kept
}

/** One field holds the other: a difference in either marks the listed field. */
function related(a: string, b: string): boolean {
  return covers(a, b) || covers(b, a)
}

/** `choices[0].toolCalls` covers `choices[0].toolCalls[1].arguments`; `usage` covers `usage.output_tokens`. */
function covers(parent: string, field: string): boolean {
  return field === parent || field.startsWith(parent + '.') || field.startsWith(parent + '[')
}

/** `deltascope check`: each field ✓ or ✗, what was not compared, then the first difference in context. */
export function renderComparison(view: ComparisonView, s: Style = PLAIN): string {
  const { comparison } = view
  const first = comparison.differences[0]
  const out: string[] = []
  if (first !== undefined && first.field === '') {
    // the result as a whole could not be read: no field was compared
    out.push(`${s.red('✗')} the result`, '', s.red('different: the result could not be read'), '', ...renderDifference(first, view, s))
    return out.join('\n') + '\n'
  }
  const fields = comparedFields(comparison, view.reply)
  for (const f of fields) {
    const differs = comparison.differences.some((d) => related(f, d.field))
    out.push(differs ? `${s.red('✗')} ${safeLine(f)}` : `${s.green('✓')} ${safeLine(f)}`)
  }
  if (comparison.notCompared.length > 0) {
    out.push(s.dim(`not compared (the result does not carry them): ${comparison.notCompared.map(safeLine).join(', ')}`))
  }
  out.push('')
  if (comparison.equal || first === undefined) {
    out.push(s.green(`equal: the result matches the reply on ${plural(fields.length, 'compared field')}`))
    return out.join('\n') + '\n'
  }
  const count = comparison.differences.length
  out.push(s.red(`different: ${plural(count, 'difference')}`) + (count > 1 ? s.dim(' (--json lists them all); the first:') : ''), '')
  out.push(...renderDifference(first, view, s))
  return out.join('\n') + '\n'
}

function renderDifference(d: Difference, view: ComparisonView, s: Style): string[] {
  const at = d.offset === null ? '' : ` at character ${d.offset}`
  const out = [s.bold(d.field === '' ? 'the result' : safeLine(d.field)) + at]
  const expected = valueText(d.expected)
  const got = valueText(d.got)
  if (d.offset !== null && expected.text && got.text) {
    const e = around(expected.value, d.offset, s)
    const g = around(got.value, d.offset, s)
    out.push(`  expected  ${e.line}`, `  got       ${g.line}`)
    out.push('            ' + ' '.repeat(e.caret) + s.red('^'))
  } else {
    out.push(`  expected  ${safeLine(clip(expected.value, 2 * CONTEXT))}`, `  got       ${safeLine(clip(got.value, 2 * CONTEXT))}`)
  }
  out.push(`  ${s.cyan('what')}      ${safeLine(d.message)}`)
  out.push(`  ${s.cyan('cause')}     ${causeWords(d)}`)
  if (d.frame !== null) {
    const frame = view.frameOf?.(d.frame) ?? null
    out.push(`  ${s.cyan('frame')}     ${frame === null ? d.frame : `${d.frame} · line ${frame.line}`}`)
    if (frame !== null) out.push(...('raw' in frame ? rawLines(frame.raw, '            ', s, RAW_SHOWN) : renderRawLines(frame.shown, '            ', s, RAW_SHOWN)))
  }
  return out
}

/** The cause's code and its documented explanation. */
function causeWords(d: Difference): string {
  if (d.cause === 'other') return 'other: no documented cause explains it'
  const words = (COMPARE_CAUSES as Record<string, string>)[d.cause]
  return words === undefined ? safeLine(d.cause) : `${d.cause}: ${words}`
}

/** A field's value as text: strings as they are, anything else as JSON; `text` says which. */
function valueText(value: unknown): { text: boolean; value: string } {
  if (typeof value === 'string') return { text: true, value }
  if (value === undefined) return { text: false, value: '(absent)' }
  try {
    return { text: false, value: toJson(value) }
  } catch {
    return { text: false, value: Object.prototype.toString.call(value) }
  }
}

/** About CONTEXT characters each side of `offset`, escaped, cuts marked "…"; `caret` is the column of `offset`. */
export function around(text: string, offset: number, s: Style = PLAIN): { line: string; caret: number } {
  const at = Math.max(0, Math.min(offset, text.length))
  let from = Math.max(0, at - CONTEXT)
  let to = Math.min(text.length, at + CONTEXT)
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from--
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to++
  const head = from > 0 ? '…' : ''
  const before = safeLine(text.slice(from, at))
  const after = safeLine(text.slice(at, to))
  const tail = to < text.length ? '…' : at >= text.length ? s.dim('(end)') : ''
  return { line: s.dim(head) + before + after + (tail === '…' ? s.dim(tail) : tail), caret: head.length + before.length }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

// ---------------------------------------------------------------------------
// diagnose

/** What `deltascope merge` lists that diagnostics do not repeat. */
export interface MergeProblems {
  brokenFrames: number
  streamErrors: number
}

/** `deltascope diagnose`: one line per diagnostic (level, code, where, message), its symptom indented below. */
export function renderDiagnosis(
  diagnostics: readonly Diagnostic[], s: Style = PLAIN, lineOf?: (frame: number) => number | null, problems?: MergeProblems,
): string {
  const out: string[] = []
  if (diagnostics.length === 0) out.push(s.green('no findings'))
  else {
    const paint = { error: s.red, warning: s.yellow, info: s.dim } as const
    const width = Math.max(...diagnostics.map((d) => d.code.length))
    const indent = ' '.repeat(7 + 2 + width + 2)
    for (const d of diagnostics) {
      const line = d.line ?? (d.frame === null ? null : lineOf?.(d.frame) ?? null)
      const where = d.frame === null ? (d.line === undefined ? '' : `line ${d.line}: `) : `frame ${d.frame}${line === null ? '' : ` · line ${line}`}: `
      out.push(`${paint[d.level](d.level.padEnd(7))}  ${s.bold(d.code.padEnd(width))}  ${where}${safeLine(d.message)}`)
      if (d.symptom) out.push(indent + s.dim(safeLine(d.symptom)))
    }
    const counts = (['error', 'warning', 'info'] as const)
      .map((level) => [level, diagnostics.filter((d) => d.level === level).length] as const)
      .filter(([, n]) => n > 0)
      .map(([level, n]) => plural(n, level, level === 'info' ? 'info' : `${level}s`))
    out.push('', `${plural(diagnostics.length, 'finding')}: ${counts.join(', ')}`)
  }
  const also = [
    problems && problems.brokenFrames > 0 ? plural(problems.brokenFrames, 'broken frame') : null,
    problems && problems.streamErrors > 0 ? plural(problems.streamErrors, 'provider stream error') : null,
  ].filter((x) => x !== null)
  if (also.length > 0) out.push(s.dim(`also ${also.join(' and ')}: deltascope merge lists them`))
  return out.join('\n') + '\n'
}

// ---------------------------------------------------------------------------
// timing

export const TIMES_UNKNOWN = {
  raw: 'times unknown: the input has no chunk times (a raw body); export a fixture with Live capture on',
  recording: 'times unknown: the input has no chunk times (captured without Live capture); export a fixture with Live capture on',
}

/** `deltascope timing`: a small aligned table (ms since the request started; "-" where unknown). `raw`: the input was a raw body. */
export function renderTiming(t: Timing, s: Style = PLAIN, raw = true): string {
  if (t.timesUnknown) return [s.yellow(TIMES_UNKNOWN[raw ? 'raw' : 'recording']), `frames  ${t.frames}`].join('\n') + '\n'
  const stalls = t.stalls.length === 0
    ? 'none'
    : t.stalls.slice(0, 5).map((x) => `${ms(x.ms)} after frame ${x.afterFrame}`).join(', ') + (t.stalls.length > 5 ? `, … ${t.stalls.length - 5} more` : '')
  const rows: Array<[string, string]> = [
    ['ttfb', ms(t.ttfb)],
    ['first frame', ms(t.firstFrame)],
    ['first reasoning', ms(t.firstReasoning)],
    ['first content', ms(t.firstContent)],
    ['first tool call', ms(t.firstToolCall)],
    ['total', ms(t.total)],
    ['frames', String(t.frames)],
    ['gaps', `max ${ms(t.gaps.max)} · p50 ${ms(t.gaps.p50)} · p95 ${ms(t.gaps.p95)}`],
    [`stalls${t.stalls.length > 0 ? ` (${t.stalls.length})` : ''}`, stalls],
    ['frames/s', rate(t.framesPerSecond)],
    ['content chars/s', rate(t.contentCharsPerSecond)],
  ]
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${s.bold(k.padEnd(width))}  ${v}`).join('\n') + '\n'
}

function ms(value: number | null): string {
  if (value === null) return '-'
  return `${round(value)} ms`
}

function rate(value: number | null): string {
  return value === null ? '-' : String(round(value))
}

/** Whole numbers from 100 up, one decimal below. */
function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 10) / 10
}
