// Small readers of plain data, shared by the exchange formats and the capture layer (the
// providers keep their own in src/providers/shared.ts: they may import only the core).

/** A JSON object: not null, not an array. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * A JSON document given as text (a leading BOM dropped) or as an already parsed value. Text
 * that is not JSON throws `fail("the text is not JSON (<the parser's message>)")`.
 */
export function parseJsonInput(input: string | unknown, fail: (reason: string) => Error): unknown {
  if (typeof input !== 'string') return input
  try {
    return JSON.parse(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input)
  } catch (e) {
    throw fail(`the text is not JSON (${(e as Error).message})`)
  }
}

/** The first value of a header, the name compared case-insensitively; null when absent. */
export function headerValue(headers: ReadonlyArray<{ name: string; value: string }> | undefined, name: string): string | null {
  if (!headers) return null
  const lower = name.toLowerCase()
  for (const h of headers) if (h.name.toLowerCase() === lower) return h.value
  return null
}
