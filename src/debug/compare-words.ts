// The small phrases compareReply's messages are made of.

/** Text quoted for a message: JSON-escaped, cut after 40 characters. */
export function quote(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? text.slice(0, max) + '…' : text)
}

/** A value for a message, whatever the client put there (never throws). */
export function show(value: unknown): string {
  if (typeof value === 'string') return quote(value)
  try {
    const json = JSON.stringify(value)
    if (json === undefined) return String(value)
    return json.length > 60 ? json.slice(0, 60) + '…' : json
  } catch {
    return Object.prototype.toString.call(value)
  }
}

/** "frame 3", "frames 3 and 5", "frames 3–6" (consecutive), "frames 3, 5 and 9". */
export function frames(seqs: readonly number[]): string {
  if (seqs.length === 1) return `frame ${seqs[0]}`
  const consecutive = seqs.every((s, i) => i === 0 || s === seqs[i - 1]! + 1)
  if (consecutive && seqs.length > 2) return `frames ${seqs[0]}–${seqs[seqs.length - 1]}`
  return `frames ${seqs.slice(0, -1).join(', ')} and ${seqs[seqs.length - 1]}`
}

/** "reads 3 and 4", "reads 3 to 5" (indexes into the fixture's chunks). */
export function reads(span: { first: number; last: number }): string {
  return span.last === span.first + 1 ? `reads ${span.first} and ${span.last}` : `reads ${span.first} to ${span.last}`
}

/** "U+FFFD U+FFFD" for replacement characters, else the text quoted. */
export function damaged(text: string): string {
  return /^\ufffd+$/.test(text) ? [...text].map(() => 'U+FFFD').join(' ') : quote(text)
}

/** The length of the common prefix of two strings. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}
