// User rules, version 1: plain JSON that says where a stream of JSON frames keeps its reply
// (docs/rules.md). Validated field by field: a bad rules file is
// refused with every problem named by its field, never half read.

import { parsePath, type ParsedPath } from './rules-path.js'
import { isObject, quote } from './shared.js'

export const RULES_VERSION = 1

/**
 * - `append`: each frame's value is a fragment, appended;
 * - `snapshot`: each frame's value is the whole text so far;
 * - `patch`: frames are JSON-patch operations on a document, and the paths read that document.
 */
export type RulesMode = 'append' | 'snapshot' | 'patch'
export const RULES_MODES: readonly RulesMode[] = ['append', 'snapshot', 'patch']

export interface Rules {
  version: 1
  mode: RulesMode
  /** A label for people (shown in the panel, kept in exports). */
  name?: string
  /** Only frames with one of these SSE event names are read (frames without an event name are `message`, as in EventSource). */
  events?: string[]
  /** Patch mode: where a frame holds its operation or array of operations ("" the frame itself, the default). */
  operations?: string
  /** The choices, when the reply has several: each element is a choice; the paths below then start at a choice. */
  choices?: { each: string; index?: string }
  text?: string
  reasoning?: string
  toolCalls?: { each: string; key?: string; id?: string; name?: string; arguments?: string }
  finishReason?: string
  /** From the frame (the document in patch mode), not from a choice. */
  usage?: string
  /** From the frame in every mode: a value there is a stream error. */
  error?: string
  /** From the frame in every mode: the stream ended. A condition: a path (true when it holds any value but false / null / "" / 0), or a path and the value it must equal. */
  done?: RulesCondition
  /** From the frame: a frame this condition holds for adds no text, reasoning or tool call (a special token, an echo of the user's message). */
  skip?: RulesCondition
}

export type RulesCondition = string | { path: string; equals: string | number | boolean | null }

/** A condition with its path parsed. */
export interface CompiledCondition {
  path: ParsedPath
  equals?: string | number | boolean | null
}

/** Rules with every path parsed: what the adapter reads with. */
export interface CompiledRules {
  rules: Rules
  events: ReadonlySet<string> | null
  operations: ParsedPath
  choices: { each: ParsedPath; index: ParsedPath | null } | null
  text: ParsedPath | null
  reasoning: ParsedPath | null
  toolCalls: { each: ParsedPath; key: ParsedPath | null; id: ParsedPath | null; name: ParsedPath | null; arguments: ParsedPath | null } | null
  finishReason: ParsedPath | null
  usage: ParsedPath | null
  error: ParsedPath | null
  done: CompiledCondition | null
  skip: CompiledCondition | null
}

export type RulesCheck = { ok: true; rules: Rules; compiled: CompiledRules } | { ok: false; errors: string[] }

const TOP_KEYS = ['version', 'mode', 'name', 'events', 'operations', 'choices', 'text', 'reasoning', 'toolCalls', 'finishReason', 'usage', 'error', 'done', 'skip']
const CHOICE_KEYS = ['each', 'index']
const CALL_KEYS = ['each', 'key', 'id', 'name', 'arguments']

/**
 * Checks rules (parsed JSON, or JSON text) and compiles their paths. Every problem is one
 * message that starts with the field (`toolCalls.name: …`).
 */
export function checkRules(input: unknown): RulesCheck {
  let value = input
  if (typeof input === 'string') {
    try { value = JSON.parse(input) } catch (e) { return { ok: false, errors: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] } }
  }
  const errors: string[] = []
  if (!isObject(value)) return { ok: false, errors: [`rules must be a JSON object, got ${kind(value)}`] }
  unknownKeys(value, TOP_KEYS, '', errors)
  if (value['version'] !== RULES_VERSION) {
    errors.push(value['version'] === undefined ? 'version: missing (write "version": 1)' : `version: this Deltascope reads version 1, got ${quote(value['version'])}`)
  }
  const mode = value['mode']
  if (typeof mode !== 'string' || !(RULES_MODES as readonly string[]).includes(mode)) {
    errors.push(`mode: one of ${RULES_MODES.map((m) => `"${m}"`).join(', ')}, got ${mode === undefined ? 'nothing' : quote(mode)}`)
  }
  if (value['name'] !== undefined && typeof value['name'] !== 'string') errors.push(`name: a string, got ${kind(value['name'])}`)
  let events: Set<string> | null = null
  if (value['events'] !== undefined) {
    const e = value['events']
    if (!Array.isArray(e) || e.length === 0 || !e.every((x) => typeof x === 'string')) errors.push(`events: a non-empty array of event names, got ${quote(e)}`)
    else events = new Set(e as string[])
  }
  const path = (v: unknown, field: string, required = false): ParsedPath | null => {
    if (v === undefined) {
      if (required) errors.push(`${field}: missing (a path such as "choices[*]")`)
      return null
    }
    if (typeof v !== 'string') { errors.push(`${field}: a path (a string such as "choices[*].delta.content"), got ${kind(v)}`); return null }
    const parsed = parsePath(v)
    if (!parsed.ok) { errors.push(`${field}: ${quote(v)} is not a path: ${parsed.message}`); return null }
    return parsed.path
  }
  const operations = path(value['operations'], 'operations') ?? { text: '', steps: [] }
  if (value['operations'] !== undefined && mode !== 'patch') errors.push('operations: only patch mode reads operations')

  let choices: CompiledRules['choices'] = null
  if (value['choices'] !== undefined) {
    const c = value['choices']
    if (!isObject(c)) errors.push(`choices: an object {"each": path, "index"?: path}, got ${kind(c)}`)
    else {
      unknownKeys(c, CHOICE_KEYS, 'choices.', errors)
      const each = path(c['each'], 'choices.each', true)
      if (each) choices = { each, index: path(c['index'], 'choices.index') }
    }
  }
  let toolCalls: CompiledRules['toolCalls'] = null
  if (value['toolCalls'] !== undefined) {
    const t = value['toolCalls']
    if (!isObject(t)) errors.push(`toolCalls: an object {"each": path, "key"?, "id"?, "name"?, "arguments"?}, got ${kind(t)}`)
    else {
      unknownKeys(t, CALL_KEYS, 'toolCalls.', errors)
      const each = path(t['each'], 'toolCalls.each', true)
      const parts = { key: path(t['key'], 'toolCalls.key'), id: path(t['id'], 'toolCalls.id'), name: path(t['name'], 'toolCalls.name'), arguments: path(t['arguments'], 'toolCalls.arguments') }
      if (each) {
        if (!parts.name && !parts.arguments && !parts.id) errors.push('toolCalls: give at least one of "name", "arguments" or "id"')
        toolCalls = { each, ...parts }
      }
    }
  }
  const condition = (d: unknown, field: string): CompiledCondition | null => {
    if (typeof d === 'string' || d === undefined) {
      const p = path(d, field)
      return p ? { path: p } : null
    }
    if (!isObject(d)) { errors.push(`${field}: a path, or {"path": path, "equals": value}, got ${kind(d)}`); return null }
    unknownKeys(d, ['path', 'equals'], `${field}.`, errors)
    const p = path(d['path'], `${field}.path`, true)
    const eq = d['equals']
    if (eq !== undefined && eq !== null && typeof eq !== 'string' && typeof eq !== 'number' && typeof eq !== 'boolean') {
      errors.push(`${field}.equals: a string, number, boolean or null, got ${kind(eq)}`)
      return null
    }
    if (!p) return null
    return eq === undefined ? { path: p } : { path: p, equals: eq }
  }
  const done = condition(value['done'], 'done')
  const skip = condition(value['skip'], 'skip')
  // in patch mode the document is the truth: a frame's operations cannot be half applied
  if (value['skip'] !== undefined && mode === 'patch') errors.push('skip: only append and snapshot modes skip frames')

  const compiled: CompiledRules = {
    rules: value as unknown as Rules,
    events,
    operations,
    choices,
    text: path(value['text'], 'text'),
    reasoning: path(value['reasoning'], 'reasoning'),
    toolCalls,
    finishReason: path(value['finishReason'], 'finishReason'),
    usage: path(value['usage'], 'usage'),
    error: path(value['error'], 'error'),
    done,
    skip,
  }
  if (errors.length === 0 && !compiled.text && !compiled.reasoning && !compiled.toolCalls) {
    errors.push('rules read nothing: give at least one of "text", "reasoning" or "toolCalls"')
  }
  if (errors.length > 0) return { ok: false, errors }
  // a copy of what was checked: later changes to the caller's object do not reach the adapter
  const rules = JSON.parse(JSON.stringify(value)) as Rules
  return { ok: true, rules, compiled: { ...compiled, rules } }
}

/** The rules' problems as one message (CLI, panel, thrown errors). */
export function rulesErrorMessage(errors: readonly string[]): string {
  return errors.length === 1 ? `bad rules: ${errors[0]}` : `bad rules (${errors.length} problems): ${errors.join('; ')}`
}

function unknownKeys(o: Record<string, unknown>, known: readonly string[], prefix: string, errors: string[]): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) errors.push(`${prefix}${k}: not a rules field (known: ${known.join(', ')})`)
  }
}

function kind(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : `${typeof v} ${quote(v)}`
}
