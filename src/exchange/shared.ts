// Small readers of plain data, shared by the exchange formats and the capture layer (the
// providers keep their own in src/providers/shared.ts: they may import only the core).

/** A JSON object: not null, not an array. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The first value of a header, the name compared case-insensitively; null when absent. */
export function headerValue(headers: ReadonlyArray<{ name: string; value: string }> | undefined, name: string): string | null {
  if (!headers) return null
  const lower = name.toLowerCase()
  for (const h of headers) if (h.name.toLowerCase() === lower) return h.value
  return null
}
