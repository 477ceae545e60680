// Usage merging (docs/architecture.md#usage): the last non-null value wins, field by field;
// never summed. A field nested too deep is left out (the caller says so).

import { MAX_JSON_DEPTH, valueTooDeep } from './json-depth.js'

/** `usage` merged into `into` (a new object when there is none yet); `tooDeep` hears each field left out. */
export function mergeUsage(into: Record<string, unknown> | null, usage: Record<string, unknown>, tooDeep: (key: string) => void): Record<string, unknown> {
  const merged = into ?? {}
  for (const key of Object.keys(usage)) {
    const value = usage[key]
    if (value === null || value === undefined) continue
    if (typeof value === 'object' && valueTooDeep(value, MAX_JSON_DEPTH - 1)) {
      tooDeep(key)
      continue
    }
    // a wire key named "__proto__" is data, never the object's prototype (defineProperty is
    // several times slower than assignment, so it is kept for that one key)
    if (key === '__proto__') Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true })
    else merged[key] = value
  }
  return merged
}
