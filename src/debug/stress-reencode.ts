// The same SSE stream written as another server may legally write it (the WHATWG
// event-stream rules): other line endings, keepalive comments, no space after the colon, `id:`
// and `retry:` fields. Work is on bytes, line by line, so a body that is not valid UTF-8 stays
// byte for byte what it was outside the lines changed. Each re-encoded block is one read, and
// remembers where its source block ended (the recorded time of those bytes is its time).

import { concatBytes, utf8Encode } from '../exchange/bytes.js'

export const REENCODINGS = ['crlf', 'cr', 'comments', 'no-space', 'retry-id'] as const
export type Reencoding = (typeof REENCODINGS)[number]

/** One block of the re-encoded body (its lines and the blank line that ends it): one read. */
export interface ReencodedRead {
  bytes: Uint8Array
  /** Byte offset in the source body just past the block this read re-encodes. */
  sourceEnd: number
}

interface Line {
  /** The line's bytes, without its terminator. */
  content: Uint8Array
  /** Its terminator as sent: "\r\n", "\r", "\n", or "" for a last line the body did not end. */
  end: string
  /** Byte offset in the source body just past the terminator. */
  sourceEnd: number
}

const CR = 0x0d
const LF = 0x0a
const COLON = 0x3a
const SPACE = 0x20
const BOM = [0xef, 0xbb, 0xbf]

/** The body's lines, a leading BOM set apart (it must stay the first bytes of any re-encoding). */
function linesOf(body: Uint8Array): { bom: boolean; lines: Line[] } {
  const bom = body.length >= 3 && body[0] === BOM[0] && body[1] === BOM[1] && body[2] === BOM[2]
  const lines: Line[] = []
  let start = bom ? 3 : 0
  for (let i = start; i < body.length; i++) {
    const b = body[i]
    if (b !== CR && b !== LF) continue
    const crlf = b === CR && body[i + 1] === LF
    const end = crlf ? '\r\n' : b === CR ? '\r' : '\n'
    if (crlf) i++
    lines.push({ content: body.subarray(start, crlf ? i - 1 : i), end, sourceEnd: i + 1 })
    start = i + 1
  }
  if (start < body.length) lines.push({ content: body.subarray(start), end: '', sourceEnd: body.length })
  return { bom, lines }
}

/** The field name of a line (bytes before the first colon; the whole line without one); "" for a comment. */
function fieldName(content: Uint8Array): string {
  const colon = content.indexOf(COLON)
  return String.fromCharCode(...content.subarray(0, colon < 0 ? Math.min(content.length, 16) : Math.min(colon, 16)))
}

/** Blocks: runs of lines, each ended by a blank line (kept with it); a last block may have no blank line. */
function blocksOf(lines: readonly Line[]): Line[][] {
  const blocks: Line[][] = []
  let block: Line[] = []
  for (const line of lines) {
    block.push(line)
    if (line.content.length === 0) {
      blocks.push(block)
      block = []
    }
  }
  if (block.length > 0) blocks.push(block)
  return blocks
}

/** The line ending the body uses first ("\n" when it has none): inserted lines use it. */
function usualEnding(lines: readonly Line[]): string {
  return lines.find((l) => l.end !== '')?.end ?? '\n'
}

/** A block that dispatches an event: it has a `data` field. */
function isFrame(block: readonly Line[]): boolean {
  return block.some((l) => fieldName(l.content) === 'data')
}

/** `name: value` → `name:value`, unless the value itself starts with a space (then the one optional space must stay). */
function withoutSpace(content: Uint8Array): Uint8Array {
  const colon = content.indexOf(COLON)
  if (colon <= 0 || content[colon + 1] !== SPACE || content[colon + 2] === SPACE) return content
  return concatBytes([content.subarray(0, colon + 1), content.subarray(colon + 2)])
}

/**
 * The SSE body re-encoded one way, as one read per block. The events it dispatches are the
 * source's (the same data, event names and order); only what the rules say a client must
 * ignore or normalise changes.
 */
export function reencodeSse(body: Uint8Array, how: Reencoding): ReencodedRead[] {
  const { bom, lines } = linesOf(body)
  const eol = usualEnding(lines)
  const out: ReencodedRead[] = []
  let frames = 0
  for (const block of blocksOf(lines)) {
    const parts: Array<Uint8Array | string> = []
    const frame = isFrame(block)
    if (frame) frames++
    // a keepalive comment line ahead of each frame's fields, as a proxy or server sends one between events
    if (how === 'comments' && frame) parts.push(': keepalive' + eol)
    // an id on every frame that has none (a resumable stream); retry at the frame's end
    if (how === 'retry-id' && frame && !block.some((l) => fieldName(l.content) === 'id')) parts.push(`id: ${frames}` + eol)
    block.forEach((line, i) => {
      const blank = line.content.length === 0
      if (how === 'retry-id' && frame && blank) parts.push('retry: 3000' + eol)
      parts.push(how === 'no-space' && !blank && line.content[0] !== COLON ? withoutSpace(line.content) : line.content)
      const ending = how === 'crlf' ? '\r\n' : how === 'cr' ? '\r' : line.end
      // the body's last line keeps having no terminator: an unterminated last frame stays one
      parts.push(line.end === '' ? '' : ending)
      // a last frame with no blank line: retry still goes inside it, after a line break
      if (how === 'retry-id' && frame && line.end === '' && i === block.length - 1) parts.push(eol + 'retry: 3000')
    })
    out.push({ bytes: concatBytes(parts.map((p) => (typeof p === 'string' ? utf8Encode(p) : p))), sourceEnd: block[block.length - 1]!.sourceEnd })
  }
  if (bom && out.length > 0) out[0] = { ...out[0]!, bytes: concatBytes([Uint8Array.from(BOM), out[0]!.bytes]) }
  return out
}
