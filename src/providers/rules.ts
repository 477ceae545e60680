// An adapter made from user rules (docs/rules.md): for a stream of
// JSON frames no built-in adapter reads, the user says where the text, reasoning, tool calls,
// finish reason, usage, error and end are, and how values arrive (append, snapshot, patch).
// The result is an ordinary ProviderAdapter: the core does not know rules exist.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { generic } from './generic.js'
import { readPath, type ParsedPath } from './rules-path.js'
import { checkRules, rulesErrorMessage, type CompiledCondition, type CompiledRules, type Rules } from './rules-schema.js'
import { PatchedDocument, pointerOf, type Applied } from './rules-patch.js'
import { SnapshotTexts } from './rules-snapshot.js'
import { argumentsText, excerpt, index, isObject, jsonText, quote, str, usageObject } from './shared.js'

export { checkRules, rulesErrorMessage, RULES_MODES, RULES_VERSION, type Rules, type RulesCheck, type RulesCondition, type RulesMode } from './rules-schema.js'

/** The id of every rules adapter: a Reply read with rules says `"provider": "rules"`. */
export const RULES_PROVIDER_ID = 'rules'

/** Thrown by createRulesAdapter for rules that do not pass checkRules (the message names each field). */
export class RulesError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(rulesErrorMessage(errors))
    this.name = 'RulesError'
  }
}

/** An adapter reading frames by these rules. Throws RulesError when they are not valid. */
export function createRulesAdapter(rules: Rules | unknown): ProviderAdapter {
  const check = checkRules(rules)
  if (!check.ok) throw new RulesError(check.errors)
  const compiled = check.compiled
  return {
    id: RULES_PROVIDER_ID,
    // rules are chosen by the user, never recognised: the caller forces them
    recognizes: () => false,
    isKeepalive: generic.isKeepalive,
    createMapper: () => new RulesMapper(compiled),
  }
}

/** One value per (choice, field): the previous whole value, for snapshot and patch modes. */
class RulesMapper implements FrameMapper {
  private readonly whole: boolean
  private readonly snapshots = new SnapshotTexts()
  private readonly document: PatchedDocument | null
  /** Snapshot and patch modes repeat the finish reason and the error: each is said once, when it changes. */
  private readonly said = new Map<string, string>()
  private skippedNoted = false

  constructor(private readonly r: CompiledRules) {
    this.whole = r.rules.mode !== 'append'
    this.document = r.rules.mode === 'patch' ? new PatchedDocument() : null
    // patch mode without choices: a text or reasoning path at a fixed place is watched (rules-patch.ts)
    if (this.document !== null && r.choices === null) {
      for (const [channel, path] of [['content', r.text], ['reasoning', r.reasoning]] as const) {
        const pointer = path === null ? null : pointerOf(path)
        if (pointer !== null) this.watched.set(pointer, channel)
      }
    }
    this.watchedPointers = new Set(this.watched.keys())
    const watchedPath = (p: ParsedPath | null) => p !== null && this.watched.has(pointerOf(p) ?? '\u0000')
    this.readPaths = [r.choices?.each ?? null, r.text, r.reasoning, r.toolCalls?.each ?? null, r.finishReason, r.usage].filter((p) => !watchedPath(p))
  }

  /** The paths read from the document in patch mode (error, done and skip are read from the frame). */
  private readonly readPaths: ReadonlyArray<ParsedPath | null>
  /** Patch mode: the fixed places of the text and reasoning (JSON Pointer → channel), read as operations change them. */
  private readonly watched = new Map<string, 'content' | 'reasoning'>()
  private readonly watchedPointers: ReadonlySet<string>

  map(frame: ParsedFrame): Delta[] {
    const r = this.r
    const out: Delta[] = []
    if (r.events !== null && !r.events.has(frame.event ?? 'message')) {
      if (!this.skippedNoted) {
        this.skippedNoted = true
        out.push({ type: 'note', level: 'info', message: `frames whose event is not ${[...r.events].map((e) => JSON.stringify(e)).join(' or ')} are not read (the rules' "events"); first: ${quote(frame.event ?? 'message')}` })
      }
      return out
    }
    let root = frame.json
    if (this.document !== null) {
      const applied = this.document.apply(readPath(frame.json, r.operations).map((m) => m.value), this.watchedPointers)
      out.push(...applied.notes)
      this.readWatched(applied, out)
      root = this.document.view(this.readPaths)
    }
    const skipped = r.skip !== null && holds(frame.json, r.skip)
    for (const { choice, value } of this.choicesOf(root)) this.readChoice(choice, value, skipped, out)
    const usage = usageObject(first(root, r.usage))
    if (usage) out.push({ type: 'usage', usage })
    this.readError(frame.json, out)
    if (r.done !== null && holds(frame.json, r.done)) out.push({ type: 'done' })
    return out
  }

  private choicesOf(root: unknown): Array<{ choice: number; value: unknown }> {
    const c = this.r.choices
    if (c === null) return [{ choice: 0, value: root }]
    return readPath(root, c.each).map((m) => {
      const at = c.index ? index(first(m.value, c.index)) : null
      return { choice: at ?? m.positions[m.positions.length - 1] ?? 0, value: m.value }
    })
  }

  /** `skipped`: the rules' skip condition holds for the frame: its finish reason still counts. */
  private readChoice(choice: number, value: unknown, skipped: boolean, out: Delta[]): void {
    const before = out.length
    if (!skipped) {
      if (!this.isWatched('content')) this.readText(choice, 'content', value, this.r.text, out)
      if (!this.isWatched('reasoning')) this.readText(choice, 'reasoning', value, this.r.reasoning, out)
      this.readToolCalls(choice, value, out)
    }
    const reason = scalarText(first(value, this.r.finishReason))
    if (reason !== null && reason !== '' && this.changed(`finish ${choice}`, reason)) out.push({ type: 'finish', choice, reason })
    // a choice the rules found says so, even before it has text
    if (out.length === before && this.r.choices !== null && this.changed(`choice ${choice}`, '')) out.push({ type: 'choice', choice })
  }

  private isWatched(channel: 'content' | 'reasoning'): boolean {
    for (const c of this.watched.values()) if (c === channel) return true
    return false
  }

  /**
   * Patch mode, the watched places: an append is the delta itself; a place changed otherwise
   * is read whole and diffed (the operations said what changed: no snapshot-rewrote note).
   */
  private readWatched(applied: Applied, out: Delta[]): void {
    for (const [pointer, channel] of this.watched) {
      if (applied.dirty.has(pointer)) {
        const v = this.document!.readPointer(pointer)
        if (typeof v !== 'string') continue
        for (const d of this.snapshots.text(0, channel, v)) if (!(d.type === 'note' && d.code === 'snapshot-rewrote')) out.push(d)
        continue
      }
      for (const text of applied.appended.get(pointer) ?? []) {
        out.push({ type: 'text', choice: 0, channel, text })
        this.snapshots.appended(0, channel, text)
      }
    }
  }

  private readText(choice: number, channel: 'content' | 'reasoning', value: unknown, path: ParsedPath | null, out: Delta[]): void {
    if (path === null) return
    const parts: string[] = []
    for (const m of readPath(value, path)) if (typeof m.value === 'string') parts.push(m.value)
    if (parts.length === 0) return
    const text = parts.length === 1 ? parts[0]! : parts.join('')
    if (!this.whole) out.push({ type: 'text', choice, channel, text })
    else out.push(...this.snapshots.text(choice, channel, text))
  }

  private readToolCalls(choice: number, value: unknown, out: Delta[]): void {
    const t = this.r.toolCalls
    if (t === null) return
    const calls = readPath(value, t.each)
    for (let k = 0; k < calls.length; k++) {
      const call = calls[k]!.value
      const wireKey = t.key ? index(first(call, t.key)) : null
      // a snapshot lists every call each time: its place in the list is a key
      const key = wireKey ?? (this.whole ? k : null)
      const id = scalarText(first(call, t.id))
      const name = str(first(call, t.name))
      let args = argumentsText(first(call, t.arguments))
      if (this.whole && args !== null) args = this.snapshots.arguments(choice, key, args, out)
      if (id === null && name === null && args === null) continue
      out.push({ type: 'tool-call', choice, key, id, name, arguments: args })
    }
  }

  private readError(json: unknown, out: Delta[]): void {
    const e = first(json, this.r.error)
    if (e === undefined || e === null || e === false || e === '') return
    const message = typeof e === 'string' ? excerpt(e, 1000) : isObject(e) && typeof e['message'] === 'string' ? excerpt(e['message'], 1000) : excerpt(jsonText(e), 1000)
    if (this.whole && !this.changed('error', message)) return
    const code = isObject(e) && (typeof e['code'] === 'string' || typeof e['code'] === 'number') ? e['code'] : null
    out.push({ type: 'stream-error', message, code, errorType: isObject(e) ? str(e['type']) : null, payload: json })
  }

  /** True when `value` differs from what was last said for `what` (always true in append mode). */
  private changed(what: string, value: string): boolean {
    if (!this.whole && !what.startsWith('choice')) return true
    if (this.said.get(what) === value) return false
    this.said.set(what, value)
    return true
  }
}

function first(root: unknown, path: ParsedPath | null): unknown {
  return path === null ? undefined : readPath(root, path)[0]?.value
}

/** A string, or a number or boolean as its text (ids and reasons are sometimes numbers). */
function scalarText(v: unknown): string | null {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return null
}

/** A condition of the rules (done, skip) on a frame. */
function holds(json: unknown, c: CompiledCondition): boolean {
  const v = first(json, c.path)
  if (v === undefined) return false
  if ('equals' in c) return v === c.equals
  return v !== null && v !== false && v !== '' && v !== 0
}
