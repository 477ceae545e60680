// One text field that differs (content, reasoning, refusal, a tool call's arguments): the first
// differing character, the frame that wrote the expected text there, and the cause, tried in
// the documented order. Every cause but utf8-split and the channel mixes needs the runs of
// text each frame wrote (provenance); without them the difference is `other` (for arguments,
// tool-arguments-differ).

import type { ReplyChoice } from '../library.js'
import type { ClientChoice } from './client-shapes.js'
import type { CompareCause } from './compare-causes.js'
import {
  characterSplitAcrossReads, fieldRuns, frameAt, frameSplitAcrossReads, pathOfString, readOfCharacter, readsSpanned, spannedReads, stopBetween, valueAtPath,
  type Reference, type TextRun,
} from './compare-reference.js'
import type { Difference } from './compare-types.js'
import { commonPrefix, damaged, frames, quote, reads } from './compare-words.js'

export interface TextField {
  path: string
  /** The field as a message names it: "content", "arguments of tool call 1". */
  label: string
  expected: string
  got: string
  /** The expected text's runs by frame; null without provenance. */
  runs: TextRun[] | null
  /** A tool call's arguments: an unexplained difference is tool-arguments-differ, not other. */
  isArguments: boolean
}

/** A cause that explains a difference; frame undefined: the frame that wrote the expected text at the offset. */
export interface Finding {
  cause: CompareCause
  frame?: number | null
  offset?: number
  message: string
}

export function textDifference(ref: Reference, field: TextField, mix: Finding | null = null): Difference {
  const offset = commonPrefix(field.expected, field.got)
  const finding = utf8Split(ref, field) ?? mix ?? overwritten(ref, field) ?? duplicated(field) ?? truncated(ref, field)
    ?? dropped(ref, field) ?? unexplained(field, offset)
  const at = finding.offset ?? offset
  return {
    field: field.path, expected: field.expected, got: field.got, offset: at,
    frame: finding.frame === undefined ? frameAt(field.runs, at) : finding.frame,
    cause: finding.cause, message: finding.message,
  }
}

// ---------------------------------------------------------------------------
// utf8-split: a character split across reads, decoded per read

/** Windows-1252's characters for bytes 0x80–0x9f (the rest of the range is Latin-1's). */
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'

function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)]
  if (codePoint < 0x10000) return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)]
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 63), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)]
}

/** The character's bytes read as Latin-1 and as Windows-1252 (what a per-byte decode shows). */
function mojibake(codePoint: number): string[] {
  const bytes = utf8Bytes(codePoint)
  const latin1 = String.fromCharCode(...bytes)
  const cp1252 = bytes.map((b) => (b >= 0x80 && b < 0xa0 ? CP1252[b - 0x80]! : String.fromCharCode(b))).join('')
  return [latin1, cp1252]
}

interface Damage {
  at: number
  char: string
  got: string
}

/**
 * Where `got` is `expected` with multi-byte characters replaced by U+FFFD runs or mojibake; null
 * when it is not. A run of U+FFFD may stand for several characters ("��" for "灯塔"), so how many
 * each one took is searched, depth first; a place already found to lead nowhere is not tried
 * again, which keeps the search linear in the text.
 */
function findDamage(expected: string, got: string): Damage[] | null {
  const choices: Array<{ at: number; from: number; char: string; lengths: number[]; next: number }> = []
  const dead = new Set<number>()
  const width = got.length + 1
  let i = 0
  let j = 0
  for (;;) {
    while (i < expected.length && j < got.length && expected.charCodeAt(i) === got.charCodeAt(j)) {
      i++
      j++
    }
    if (i === expected.length) {
      if (j === got.length && choices.length > 0) return choices.map((c) => ({ at: c.at, char: c.char, got: got.slice(c.from, c.from + c.lengths[c.next]!) }))
    } else if (!dead.has(i * width + j)) {
      const codePoint = expected.codePointAt(i)!
      const lengths = codePoint < 0x80 ? [] : damageLengths(codePoint, got, j)
      if (lengths.length > 0) {
        const char = String.fromCodePoint(codePoint)
        choices.push({ at: i, from: j, char, lengths, next: 0 })
        i += char.length
        j += lengths[0]!
        continue
      }
    }
    // back to the last character with another way to read it
    for (;;) {
      const c = choices[choices.length - 1]
      if (c === undefined) return null
      if (++c.next < c.lengths.length) {
        i = c.at + c.char.length
        j = c.from + c.lengths[c.next]!
        break
      }
      dead.add(c.at * width + c.from)
      choices.pop()
    }
  }
}

/** How many characters of `got` at `j` the damaged character may have become: 1 to n U+FFFD (one per piece or stray byte), or its mojibake. */
function damageLengths(codePoint: number, got: string, j: number): number[] {
  const size = utf8Bytes(codePoint).length
  let k = j
  while (k < got.length && k - j < size && got.charCodeAt(k) === 0xfffd) k++
  const out: number[] = []
  for (let n = k - j; n > 0; n--) out.push(n)
  for (const m of mojibake(codePoint)) if (got.startsWith(m, j) && !out.includes(m.length)) out.push(m.length)
  return out
}

function utf8Split(ref: Reference, field: TextField): Finding | null {
  const damage = findDamage(field.expected, field.got)
  if (damage === null) return null
  const first = damage[0]!
  const frame = frameAt(field.runs, first.at)
  const where = frame === null ? '' : ` in frame ${frame}`
  const more = damage.length > 1 ? ` (${damage.length} characters damaged)` : ''
  // the reads are known: name the two the character was split between
  const split = frame === null ? null : characterSplitAcrossReads(ref, frame, first.char)
  if (split !== null) {
    return {
      cause: 'utf8-split', frame, offset: first.at,
      message: `The client decoded each network read on its own (without {stream: true}): ${quote(first.char)}${where} was split across ${reads(split)} and came out as ${damaged(first.got)}${more}.`,
    }
  }
  // the client's reads are never the capture's: whatever they were, only a split decodes this way
  return {
    cause: 'utf8-split', frame, offset: first.at,
    message: `The client turned ${quote(first.char)}${where} into ${damaged(first.got)}${more}: it decoded network reads on their own (without {stream: true}), splitting the character; ${captureReads(ref, frame, first.char)}.`,
  }
}

/** What the capture knows of the reads around a character that reached the client damaged but was not split in the capture. */
function captureReads(ref: Reference, frame: number | null, char: string): string {
  if (ref.reads === null && ref.capturedWhole) return 'the capture holds the body whole, as DevTools hands it over once it ended (captured without Live), so where the reads were cut is not known'
  if (ref.reads === null) return 'the reference has no network reads, so where they were cut is not known'
  if (ref.reads.length === 1) return 'the capture holds the body as one read (captured without Live), so where the reads were cut is not known'
  const read = frame === null ? null : readOfCharacter(ref, frame, char)
  return read === null
    ? 'the capture\'s reads did not split it, so the client\'s own reads were cut elsewhere'
    : `in the capture it arrived whole in read ${read}, so the client's own reads were cut elsewhere`
}

// ---------------------------------------------------------------------------
// reasoning-in-content / content-in-reasoning

/** The findings for content and reasoning when the client wrote both channels into one buffer. */
export function channelMix(ref: Reference, choice: ReplyChoice, client: ClientChoice): { content: Finding; reasoning: Finding } | null {
  const reasoningRuns = fieldRuns(ref, { choice: choice.index, channel: 'reasoning', toolCall: null }, choice.reasoning)
  const writers = reasoningRuns && reasoningRuns.length > 0 ? ` (${frames(distinctFrames(reasoningRuns))})` : ''
  const candidates = together(ref, choice)
  if (choice.reasoning !== '' && client.content !== undefined) {
    const match = candidates.find((c) => c.text === client.content)
    if (match) {
      const offset = commonPrefix(choice.content, client.content)
      return {
        content: { cause: 'reasoning-in-content', frame: frameAt(match.runs, offset), message: `The client wrote the reasoning${writers} into the content: both channels went into one buffer.` },
        reasoning: { cause: 'reasoning-in-content', message: 'The client has no reasoning apart: it wrote the reasoning into the content.' },
      }
    }
  }
  if (choice.content !== '' && client.reasoning !== undefined) {
    const match = candidates.find((c) => c.text === client.reasoning)
    if (match) {
      const contentRuns = fieldRuns(ref, { choice: choice.index, channel: 'content', toolCall: null }, choice.content)
      const contentWriters = contentRuns && contentRuns.length > 0 ? ` (${frames(distinctFrames(contentRuns))})` : ''
      const offset = commonPrefix(choice.reasoning, client.reasoning)
      return {
        content: { cause: 'content-in-reasoning', message: 'The client has no content apart: it wrote the content into the reasoning.' },
        reasoning: { cause: 'content-in-reasoning', frame: frameAt(match.runs, offset), message: `The client wrote the content${contentWriters} into the reasoning: both channels went into one buffer.` },
      }
    }
  }
  return null
}

/** Reasoning and content in one buffer: in arrival order (with the frame of each run), and reasoning first. */
function together(ref: Reference, choice: ReplyChoice): Array<{ text: string; runs: TextRun[] | null }> {
  const plain = { text: choice.reasoning + choice.content, runs: null }
  if (ref.merger === null) return [plain]
  const runs: TextRun[] = []
  let at = 0
  for (const p of ref.provenance) {
    if (p.choice !== choice.index || (p.channel !== 'content' && p.channel !== 'reasoning')) continue
    const text = (p.channel === 'content' ? choice.content : choice.reasoning).slice(p.start, p.end)
    runs.push({ frame: p.frame, start: at, end: at + text.length, text })
    at += text.length
  }
  return [{ text: runs.map((r) => r.text).join(''), runs }, plain]
}

function distinctFrames(runs: readonly TextRun[]): number[] {
  return [...new Set(runs.map((r) => r.frame))]
}

// ---------------------------------------------------------------------------
// Causes read from the runs of text each frame wrote

function overwritten(ref: Reference, field: TextField): Finding | null {
  const { runs, expected, got } = field
  if (runs === null || runs.length === 0) return null
  if (got === '') return overwrittenByEmpty(ref, field, runs)
  for (let k = 1; k < runs.length; k++) {
    const start = runs[k]!.start
    if (expected.length - start !== got.length || !expected.startsWith(got, start)) continue
    const kept = distinctFrames(runs.slice(k))
    // the reads may say why the first frames are missing: each arrived split, the kept ones whole
    if (splitExplains(ref, distinctFrames(runs.slice(0, k)), kept)) return null
    const all = distinctFrames(runs).length
    const last = kept.length === 1 ? 'the last' : `the last ${kept.length}`
    return {
      cause: 'overwritten',
      message: `The client kept only the text of ${frames(kept)} (${last} of ${all} frames writing the ${field.label}): it replaced the ${field.label} with each delta instead of appending.`,
    }
  }
  return null
}

/** Frames the client lacks all arrived split across reads and those it has arrived whole: per-read parsing explains it. */
function splitExplains(ref: Reference, lost: readonly number[], kept: readonly number[]): boolean {
  return lost.every((f) => frameSplitAcrossReads(ref, f) !== null) && kept.every((f) => frameSplitAcrossReads(ref, f) === null)
}

/** Frames read after the field's last text to find the empty value a replacing client ends with. */
const EMPTY_SCAN_LIMIT = 2000

/**
 * An empty field where the wire sent its last text in one key and later frames carry that
 * key as null or "": a client that assigns instead of appending ends with that empty value.
 */
function overwrittenByEmpty(ref: Reference, field: TextField, runs: readonly TextRun[]): Finding | null {
  const merger = ref.merger
  if (merger === null) return null
  // every frame writing it arrived split across reads: per-read parsing explains it as well (dropped-frames says so)
  if (splitExplains(ref, distinctFrames(runs), [])) return null
  const last = runs[runs.length - 1]!
  const path = pathOfString(merger.frame(last.frame).json, last.text)
  if (path === null) return null
  const end = Math.min(merger.frameCount, last.frame + 1 + EMPTY_SCAN_LIMIT)
  for (let seq = last.frame + 1; seq < end; seq++) {
    const { found, value } = valueAtPath(merger.frame(seq).json, path)
    if (!found || (value !== null && value !== '')) continue
    const key = path.filter((k) => typeof k === 'string').pop() ?? ''
    return {
      cause: 'overwritten',
      message: `The client's ${field.label} is empty: it replaced the ${field.label} with each delta instead of appending, and frame ${seq} sent ${quote(key)} as ${JSON.stringify(value)}.`,
    }
  }
  return null
}

/** Bound on the positions followed at once while matching runs (the search stays linear). */
const MAX_STATES = 256

function duplicated(field: TextField): Finding | null {
  const { runs, got } = field
  if (runs === null || runs.length === 0) return null
  // state: position in got → first frame applied twice so far (-1: none yet)
  let states = new Map<string, { at: number; dup: number; text: string }>([['0:-', { at: 0, dup: -1, text: '' }]])
  for (const run of runs) {
    const next = new Map<string, { at: number; dup: number; text: string }>()
    const put = (at: number, dup: number, text: string) => {
      const key = `${at}:${dup < 0 ? '-' : '+'}`
      if (!next.has(key) && next.size < MAX_STATES) next.set(key, { at, dup, text })
    }
    for (const s of states.values()) {
      if (!got.startsWith(run.text, s.at)) continue
      const once = s.at + run.text.length
      put(once, s.dup, s.text)
      if (got.startsWith(run.text, once)) put(once + run.text.length, s.dup < 0 ? run.frame : s.dup, s.dup < 0 ? run.text : s.text)
    }
    if (next.size === 0) return null
    states = next
  }
  const end = states.get(`${got.length}:+`)
  if (!end) return null
  return {
    cause: 'duplicated-frames', frame: end.dup,
    message: `The client applied frame ${end.dup} twice: its text ${quote(end.text)} appears twice in the ${field.label}.`,
  }
}

function truncated(ref: Reference, field: TextField): Finding | null {
  const { runs, expected, got } = field
  if (runs === null || got.length >= expected.length || !expected.startsWith(got)) return null
  const k = runs.findIndex((r) => r.start === got.length)
  if (k < 0) return null
  const missing = runs[k]!.frame
  // a client that read a later frame did not stop here: it lost frames (dropped-frames)
  if (ref.client.lastFrameRead() > missing) return null
  const stop = stopBetween(ref, k > 0 ? runs[k - 1]!.frame : -1, missing)
  const lost = distinctFrames(runs.slice(k))
  // no broken frame or error to stop at, and the reads explain the loss: dropped-frames says it
  if (stop === null && splitExplains(ref, lost, distinctFrames(runs.slice(0, k)))) return null
  let why = ''
  if (stop?.kind === 'broken') why = `: frame ${stop.frame} before it failed to parse and the client stopped there`
  else if (stop?.kind === 'error') why = `: the provider sent an error in frame ${stop.frame} (${quote(stop.message)}) and the client stopped there`
  else if (ref.merger?.frameInfo(missing).unterminated) why = `: frame ${missing} was not ended by a blank line (the body ended first) and the client never dispatched it`
  else if (!ref.reply.done) why = ', and the stream has no terminal event'
  const what = lost.length === 1 ? `the text of frame ${missing}` : `the text of ${frames(lost)}`
  const message = got === ''
    ? `The client's ${field.label} is empty: it lacks ${what}${why}.`
    : `The client's ${field.label} stops at character ${got.length}, before ${what}${why}.`
  return { cause: 'truncated', frame: missing, message }
}

/** Frames dropped on the way to a position, newest first (shared tails: no copying per step). */
interface Lost {
  frame: number
  count: number
  before: Lost | null
}

function dropped(ref: Reference, field: TextField): Finding | null {
  const { runs, got } = field
  if (runs === null || runs.length === 0) return null
  // state: position in got → the fewest frames dropped to get there
  let states = new Map<number, Lost | null>([[0, null]])
  for (const run of runs) {
    const next = new Map<number, Lost | null>()
    const put = (at: number, lost: Lost | null) => {
      const have = next.get(at)
      const better = have === undefined ? next.size < MAX_STATES : (lost?.count ?? 0) < (have?.count ?? 0)
      if (better) next.set(at, lost)
    }
    for (const [at, lost] of states) {
      if (got.startsWith(run.text, at)) put(at + run.text.length, lost)
      put(at, lost?.frame === run.frame ? lost : { frame: run.frame, count: (lost?.count ?? 0) + 1, before: lost })
    }
    states = next
  }
  const end = states.get(got.length)
  if (!end) return null
  const lost: number[] = []
  for (let l: Lost | null = end; l !== null; l = l.before) lost.unshift(l.frame)
  const first = lost[0]!
  const firstText = runs.find((r) => r.frame === first)!.text
  let message = `The client dropped ${frames(lost)}: ${lost.length === 1 ? 'its' : 'their'} text (${quote(firstText)}${lost.length > 1 ? ', …' : ''}) is missing from the ${field.label}`
  const kept = distinctFrames(runs).filter((f) => !lost.includes(f))
  if (splitExplains(ref, lost, kept)) {
    // three spans say it; more would only lengthen the sentence
    const spans = lost.slice(0, 3).map((f, i) => `frame ${f}${i === 0 ? ' arrived split' : ''} across ${reads(frameSplitAcrossReads(ref, f)!)}`)
    if (lost.length > 3) spans.push(`${lost.length - 3} more likewise`)
    message += `; ${spans.join(', ')}: a client that parses each read on its own drops ${lost.length === 1 ? 'it' : 'them'}`
  } else if (ref.reads !== null && ref.reads.length > 1) {
    // the capture's reads are known but do not explain the loss alone: say where each lost frame arrived
    const spans = lost.slice(0, 3).map((f) => {
      const span = spannedReads(ref, f)
      if (span !== null) return `frame ${f} arrived split across ${reads(span)}`
      const info = ref.merger!.frameInfo(f)
      return `frame ${f} arrived whole in read ${readsSpanned(ref, info.byteStart, info.byteEnd)?.first ?? '?'}`
    })
    if (lost.length > 3) spans.push(`${lost.length - 3} more`)
    message += `; in the capture ${spans.join(', ')}: its reads alone do not explain the loss (the client's own reads may have been cut elsewhere)`
  }
  return { cause: 'dropped-frames', frame: first, message: message + '.' }
}

function unexplained(field: TextField, offset: number): Finding {
  const theirs = `${quote(field.got.slice(offset))} where the reference has ${quote(field.expected.slice(offset))}`
  return {
    cause: field.isArguments ? 'tool-arguments-differ' : 'other',
    message: `The client's ${field.label} ${field.isArguments ? 'differ' : 'differs'} from character ${offset}: it has ${theirs}.`,
  }
}
