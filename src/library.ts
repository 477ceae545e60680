// The library face: the core (which knows no provider) composed with the default provider
// registry. The only module that imports both; the CLI, the exchange formats, the debugger,
// the panel and the page import this, never core internals. src/index.ts (the package's
// `deltascope` entry) re-exports it with the debugger.

import * as core from './core/index.js'
import type { MergeOptions, Merger, ProviderRegistry, Reply } from './core/index.js'
import { defaultRegistry } from './providers/index.js'

export {
  createProviderRegistry, findJsonSyntaxError, jsonText, MAX_JSON_DEPTH, parseJson, readSseBlock, sniffTransport, SYMPTOMS, transportFromContentType, utf8Length,
} from './core/index.js'
export type * from './core/types.js'
export type { Merger } from './core/index.js'
export { defaultRegistry, isKnownProviderId, PROVIDER_IDS, type KnownProviderId } from './providers/index.js'

/** Merge options of the library: the core's, plus the providers to read with (default: all known). */
export interface LibraryMergeOptions extends MergeOptions {
  registry?: ProviderRegistry
}

/** A merger fed piece by piece (`push`, then `end`), with every frame readable on the way. */
export function createMerger(options: LibraryMergeOptions = {}): Merger {
  return core.createMerger(options.registry ?? defaultRegistry, options)
}

/** The Reply of a whole body, keeping nothing else (the fastest way to read a body). */
export function merge(input: string | Uint8Array, options: LibraryMergeOptions = {}): Reply {
  return core.merge(options.registry ?? defaultRegistry, input, options)
}
