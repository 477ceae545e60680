// The user's redaction list (names, values, patterns; src/exchange/redact-user.ts), applied to
// every export beside the defaults. Kept through the shell (the extension's
// browser.storage.local, the page's localStorage): loaded when the panel opens, saved on each
// change. Storage is outside data too: what it gives back is checked like what the user typed.

import type { ReadonlySignal } from '@preact/signals'
import { NO_RULES, checkRedactionRules, rulesFromLines, type RedactionRules, type RuleProblem } from '../../src/exchange/redact.js'
import type { PanelShell } from '../shell.js'
import { keptSetting } from './kept-setting.js'

/** The stored form: versioned JSON. */
export interface StoredRedactionRules extends RedactionRules {
  version: 1
}

export interface RedactionSettings {
  /** The rules in force (checked: every entry usable). */
  readonly rules: ReadonlySignal<RedactionRules>
  /** '' when the list is kept; else what went wrong loading or saving it (the list still applies until the panel closes). */
  readonly status: ReadonlySignal<string>
  /**
   * Applies the three boxes (one entry per line) at once and saves them; returns the entries
   * left out, and why (a value too short, a pattern that would match anything).
   */
  apply(lines: { names: string; values: string; patterns: string }): Promise<RuleProblem[]>
  /** Resolves when the stored list has been read (or could not be). */
  readonly ready: Promise<void>
}

export function createRedactionSettings(store?: PanelShell['redactionStore']): RedactionSettings {
  const kept = keptSetting<RedactionRules>(NO_RULES, {
    decode(text) {
      const { rules, problems } = fromStored(text)
      const n = problems.length
      return { value: rules, problem: n > 0 ? `The stored redaction list had ${n} unusable ${n === 1 ? 'entry' : 'entries'}, left out` : '' }
    },
    encode: toStored,
    loadFailed: (reason) => `The redaction list could not be read: ${reason}`,
    saveFailed: (reason) => `The redaction list could not be saved (it applies until the panel closes): ${reason}`,
  }, store)
  return {
    rules: kept.value,
    status: kept.status,
    ready: kept.ready,
    async apply(lines) {
      const { rules: next, problems } = rulesFromLines(lines)
      await kept.keep(next)
      return problems
    },
  }
}

export function toStored(rules: RedactionRules): string {
  const stored: StoredRedactionRules = { version: 1, names: rules.names, values: rules.values, patterns: rules.patterns }
  return JSON.stringify(stored)
}

/** The rules in a stored text, checked; a text that is not the stored form gives none. */
export function fromStored(text: string): { rules: RedactionRules; problems: RuleProblem[] } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { rules: NO_RULES, problems: [{ list: 'names', entry: '', message: 'the stored list is not JSON' }] }
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) {
    return { rules: NO_RULES, problems: [{ list: 'names', entry: '', message: 'the stored list is not version 1' }] }
  }
  const p = parsed as Record<string, unknown>
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
  return checkRedactionRules({ names: list(p['names']), values: list(p['values']), patterns: list(p['patterns']) })
}

/** How many entries the list has (the button's count). */
export function ruleCount(rules: RedactionRules): number {
  return rules.names.length + rules.values.length + rules.patterns.length
}
