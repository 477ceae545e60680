// The library face: the core (which knows no provider) composed with the default provider
// registry. The only module that imports both; the CLI, the exchange formats, the debugger,
// the panel and the page import this, never core internals. src/index.ts (the package's
// `deltascope` entry) re-exports it with the debugger.

import * as core from './core/index.js'
import type { MergeOptions, Merger, ProviderRegistry, Reply } from './core/index.js'
import { defaultRegistry } from './providers/index.js'
import { generic } from './providers/generic.js'
import { createRulesAdapter, RULES_PROVIDER_ID, type Rules } from './providers/rules.js'

export {
  choiceMessages, createProviderRegistry, findJsonSyntaxError, isConnectEnvelope, isEventStreamPrelude, jsonText, MAX_JSON_DEPTH, parseJson, readSseBlock, sniffTransport, SYMPTOMS, transportFromContentType, utf8Length,
} from './core/index.js'
export type * from './core/types.js'
export type * from './core/adapters.js'
export type { Merger } from './core/index.js'
export type { Connection, ConnectionClose, ConnectionOptions, Turn, TurnState, WsDirection, WsFrame, WsFrameKind, WsMessage, WsProtocol } from './core/index.js'
export { HEX_SHOWN } from './core/index.js'
export { defaultRegistry, isKnownProviderId, PROVIDER_IDS, type KnownProviderId } from './providers/index.js'

export {
  checkRules, createRulesAdapter, RULES_MODES, RULES_PROVIDER_ID, RULES_VERSION, RulesError, rulesErrorMessage, type Rules, type RulesCheck, type RulesMode,
} from './providers/rules.js'
export { suggestRules, type RulesSuggestion } from './providers/rules-suggest.js'

/**
 * Merge options of the library: the core's, plus the providers to read with (default: all
 * known), or user rules (docs/rules.md), which read every frame and
 * win over `provider` and `registry`.
 */
export interface LibraryMergeOptions extends MergeOptions {
  registry?: ProviderRegistry
  rules?: Rules
}

/** A merger fed piece by piece (`push`, then `end`), with every frame readable on the way. Throws RulesError for bad `rules`. */
export function createMerger(options: LibraryMergeOptions = {}): Merger {
  const [registry, coreOptions] = resolve(options)
  return core.createMerger(registry, coreOptions)
}

/** The Reply of a whole body, keeping nothing else (the fastest way to read a body). Throws RulesError for bad `rules`. */
export function merge(input: string | Uint8Array, options: LibraryMergeOptions = {}): Reply {
  const [registry, coreOptions] = resolve(options)
  return core.merge(registry, input, coreOptions)
}

/**
 * A WebSocket connection read message by message (`push`, then `close`): its frames, and its
 * turns each with its Reply (docs/architecture.md#websocket). Throws RulesError for bad `rules`.
 */
export function createConnection(options: core.ConnectionOptions & { registry?: ProviderRegistry; rules?: Rules } = {}): core.Connection {
  const [registry, coreOptions] = resolve(options)
  return core.createConnection(registry, coreOptions)
}

/** Rules are an adapter of their own, forced: the core sees a provider like any other. */
function resolve<T extends { registry?: ProviderRegistry; rules?: Rules; provider?: string }>(options: T): [ProviderRegistry, T] {
  if (options.rules === undefined) return [options.registry ?? defaultRegistry, options]
  const registry = core.createProviderRegistry([createRulesAdapter(options.rules)], generic)
  return [registry, { ...options, provider: RULES_PROVIDER_ID }]
}
