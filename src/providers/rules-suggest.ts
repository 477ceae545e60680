// Suggested rules for a stream no adapter reads: the panel's "Read this stream as…" starts
// from them. Every string field of every frame is followed across frames (array elements
// become [*]); a field whose values are different pieces of text is an append candidate, one
// whose value keeps growing (each frame the whole text so far) a snapshot candidate; fields
// named like a finish reason, with few values near the end, are the finish reason; a `done`
// flag, an `error` member and a `usage` object are found by name. Bounded: frames, fields per
// frame and depth are capped, and nothing recurses.

import { formatPath, type PathStep } from './rules-path.js'
import type { Rules, RulesMode } from './rules-schema.js'
import { isObject } from './shared.js'

export interface SuggestFrame {
  event: string | null
  json: unknown
}

/** A field that could be the text, with what was seen of it. */
export interface RulesCandidate {
  path: string
  /** append: different fragments; snapshot: each value extends the one before. */
  mode: 'append' | 'snapshot'
  /** In how many frames it held a string. */
  frames: number
  /** What reading it that way gives (at most 200 characters). */
  preview: string
}

export interface RulesSuggestion {
  /** null when no field looks like text. */
  rules: Rules | null
  /** Text candidates, best first. */
  candidates: RulesCandidate[]
  /** Why each field was chosen, one sentence each. */
  reasons: string[]
}

const MAX_FRAMES = 2000
const MAX_NODES = 2000
const MAX_DEPTH = 16

interface FieldStats {
  steps: PathStep[]
  values: string[]
  /** frame number of each value */
  at: number[]
}

const REASONING_NAME = /reason(?!$)|reasoning|think|thought/i
const FINISH_NAME = /finish|stop_?reason|stopReason|end_?reason/i
const FINISH_VALUE = /^(stop|stopped|end|end_turn|length|max_tokens|complete|completed|finished|done|tool_calls|tool_use|eos|content_filter)$/i
/** Names that hold a kind, never the text. */
const ENUM_NAME = /^(type|event|kind|status|state|role|object|id|model|object_type|event_type)$/i
const TEXT_NAME = /text|content|delta|token|chunk|message|answer|output|response/i

/** Rules suggested from the frames (the first 2,000 are looked at). */
export function suggestRules(frames: readonly SuggestFrame[]): RulesSuggestion {
  const fields = new Map<string, FieldStats>()
  const booleans = new Map<string, { steps: PathStep[]; lastTrue: number; falses: number }>()
  let usage: string | null = null
  let error: string | null = null
  const n = Math.min(frames.length, MAX_FRAMES)
  for (let f = 0; f < n; f++) {
    const seenHere = new Set<string>()
    walk(frames[f]!.json, (steps, value) => {
      const key = formatPath(steps)
      if (typeof value === 'string') {
        let s = fields.get(key)
        if (!s) fields.set(key, (s = { steps, values: [], at: [] }))
        // several elements under one [*] path in a frame are one value: joined, as the adapter reads them
        if (seenHere.has(key)) s.values[s.values.length - 1] += value
        else { s.values.push(value); s.at.push(f); seenHere.add(key) }
      } else if (typeof value === 'boolean') {
        const b = booleans.get(key) ?? { steps, lastTrue: -1, falses: 0 }
        if (value) b.lastTrue = f
        else b.falses++
        booleans.set(key, b)
      } else if (isObject(value)) {
        const last = steps[steps.length - 1]
        if (last?.kind === 'member' && usage === null && /^usage$|usage_?metadata|^stats$/i.test(last.name)) usage = key
        if (last?.kind === 'member' && error === null && /^error$/i.test(last.name) && steps.length === 1) error = key
      }
      if (steps.length === 1 && steps[0]!.kind === 'member' && /^error$/i.test((steps[0] as { name: string }).name) && value !== null && error === null) error = key
    })
  }

  const candidates: RulesCandidate[] = []
  const reasons: string[] = []
  for (const [path, s] of fields) {
    const c = candidate(path, s)
    if (c) candidates.push(c)
  }
  // more frames, then more text: the field the stream is mostly made of comes first
  candidates.sort((a, b) => score(b) - score(a))
  const text = candidates.find((c) => !REASONING_NAME.test(lastName(c.path)))
  const reasoning = candidates.find((c) => REASONING_NAME.test(lastName(c.path)) && c !== text && (text === undefined || c.mode === text.mode))
  if (!text && !reasoning) return { rules: null, candidates, reasons: ['no string field changes from frame to frame: nothing looks like streamed text'] }
  const mode: RulesMode = (text ?? reasoning)!.mode
  const rules: Rules = { version: 1, mode }
  if (text) {
    rules.text = text.path
    reasons.push(`text: ${text.path} ${text.mode === 'append' ? 'holds a different piece of text' : 'holds the text so far, longer each time'} in ${text.frames} frames`)
  }
  if (reasoning) {
    rules.reasoning = reasoning.path
    reasons.push(`reasoning: ${reasoning.path} is named like reasoning and changes in ${reasoning.frames} frames`)
  }
  const finish = finishField(fields, n)
  if (finish) { rules.finishReason = finish; reasons.push(`finishReason: ${finish} is named like a finish reason, or holds one, late in the stream`) }
  if (usage) { rules.usage = usage; reasons.push(`usage: ${usage} is an object named usage`) }
  if (error) { rules.error = error; reasons.push(`error: frames have an ${error} member`) }
  const done = doneField(fields, booleans, n)
  if (done) { rules.done = done.rule; reasons.push(done.reason) }
  const skip = skipField(booleans)
  if (skip) { rules.skip = skip; reasons.push(`skip: ${skip} marks special tokens, which a client leaves out`) }
  return { rules, candidates, reasons }
}

function candidate(path: string, s: FieldStats): RulesCandidate | null {
  if (s.values.length < 2) return null
  const distinct = new Set(s.values).size
  if (distinct < 2) return null
  // identifiers and enumerations: named so, few distinct values, or words that repeat (event types, states)
  if (ENUM_NAME.test(lastName(path)) || FINISH_NAME.test(lastName(path))) return null
  let grows = 0
  for (let i = 1; i < s.values.length; i++) {
    const a = s.values[i - 1]!
    const b = s.values[i]!
    if (b.length > a.length && b.startsWith(a)) grows++
    else if (b !== a) { grows = -1; break }
  }
  // snapshots: each value extends the one before, growing in at least half the steps
  if (grows > 0 && grows * 2 >= s.values.length - 1) {
    return { path, mode: 'snapshot', frames: s.values.length, preview: clip(s.values[s.values.length - 1]!) }
  }
  if (distinct <= 3 && s.values.length > 6) return null
  if (distinct < s.values.length && s.values.every((v) => /^[\w.:/-]+$/.test(v))) return null
  const joined = s.values.join('')
  if (!/\s/.test(joined) && s.values.every((v) => /^[\w-]+$/.test(v) && v.length >= 8)) return null
  return { path, mode: 'append', frames: s.values.length, preview: clip(joined) }
}

function score(c: RulesCandidate): number {
  return c.frames * 10 + (TEXT_NAME.test(lastName(c.path)) ? 5 : 0) - c.path.length / 100
}

/** A field named like a finish reason, or whose only values are finish reasons seen late. */
function finishField(fields: Map<string, FieldStats>, n: number): string | null {
  let best: string | null = null
  for (const [path, s] of fields) {
    const named = FINISH_NAME.test(lastName(path))
    const late = s.at[s.at.length - 1]! >= n - 3
    const looks = s.values.every((v) => FINISH_VALUE.test(v))
    if ((named && s.values.length <= 3) || (late && looks && s.values.length <= 2 && /reason|status|state/i.test(lastName(path)))) {
      if (best === null || named) best = path
      if (named) break
    }
  }
  return best
}

/** `done: true` in a late frame, or a `type` / `event` member whose last value says the end. */
function doneField(fields: Map<string, FieldStats>, booleans: Map<string, { steps: PathStep[]; lastTrue: number; falses: number }>, n: number): { rule: Rules['done']; reason: string } | null {
  for (const [path, b] of booleans) {
    if (/^(done|finished|is_?final|is_?done|complete|end)$/i.test(lastName(path)) && b.lastTrue >= n - 2) {
      return { rule: path, reason: `done: ${path} is true in the last frames` }
    }
  }
  // a final text that only the last frame carries (TGI's generated_text)
  for (const [path, s] of fields) {
    if (s.at.length === 1 && s.at[0] === n - 1 && n > 2 && /generated|final|full_?text|complete/i.test(lastName(path))) {
      return { rule: path, reason: `done: ${path} is only in the last frame` }
    }
  }
  for (const [path, s] of fields) {
    if (!/^(type|event|kind|status)$/i.test(lastName(path)) || path.includes('[')) continue
    const last = s.values[s.values.length - 1]!
    if (s.at[s.at.length - 1]! >= n - 2 && /^(done|end|complete|completed|finish|finished|message_end|stream_end|stop)$/i.test(last) && s.values.filter((v) => v === last).length === 1) {
      return { rule: { path, equals: last }, reason: `done: the last frame's ${path} is ${JSON.stringify(last)}` }
    }
  }
  return null
}

/** A flag named like a special token's, true in some frames and false in others. */
function skipField(booleans: Map<string, { lastTrue: number; falses: number }>): string | null {
  for (const [path, b] of booleans) {
    if (/^(special|is_?special|hidden|internal)$/i.test(lastName(path)) && b.lastTrue >= 0 && b.falses > 0) return path
  }
  return null
}

function lastName(path: string): string {
  const m = /([A-Za-z_$][\w$-]*)(?:\[[^\]]*\])*$/.exec(path)
  return m ? m[1]! : path
}

function clip(s: string): string {
  return s.length > 200 ? s.slice(0, 200) + '…' : s
}

/** Every value under `root` (objects and arrays too), with its path; arrays' elements as [*]. */
function walk(root: unknown, visit: (steps: PathStep[], value: unknown) => void): void {
  const stack: Array<{ steps: PathStep[]; value: unknown }> = [{ steps: [], value: root }]
  let nodes = 0
  while (stack.length > 0 && nodes < MAX_NODES) {
    const { steps, value } = stack.pop()!
    nodes++
    if (steps.length > 0) visit(steps, value)
    if (steps.length >= MAX_DEPTH) continue
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ steps: [...steps, { kind: 'every' }], value: value[i] })
    } else if (isObject(value)) {
      const keys = Object.keys(value)
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ steps: [...steps, { kind: 'member', name: keys[i]! }], value: value[keys[i]!] })
    }
  }
}
