// The debugger's rules on frames and the reply: glued frames, a payload line without `data:`,
// frames after [DONE], reasoning inline in <think> tags, an empty reply. Each reads the frames
// it needs once (built on demand from the merger's body).

import { findJsonSyntaxError } from '../library.js'
import type { Diagnostic, Merger, Reply } from '../library.js'
import { excerpt, type Findings } from './diagnose-findings.js'

/** Values counted in one glued frame before "or more". */
const GLUED_COUNTED = 10

/**
 * A frame that failed to parse because its data holds more than one JSON value: two frames
 * whose separating blank line (or, in NDJSON, line break) was lost. The frame stays a broken
 * frame in Reply.errors; this names why.
 */
export function gluedFrames(merger: Merger, reply: Reply, found: Findings): void {
  const sse = reply.transport === 'sse'
  for (const e of reply.errors) {
    const frame = merger.frames(e.frame, e.frame + 1)[0]
    if (frame === undefined || frame.error === undefined) continue
    const values = gluedValues(frame.data, frame.error)
    if (values === null) continue
    const at = frame.error.position
    found.add('glued-frames', 'error', frame.seq,
      `frame ${frame.seq} holds ${values} JSON values, the second from character ${at} of its data (${excerpt(frame.data, at)}): ${sse ? 'the blank line between two frames' : 'the line break between two lines'} was lost`,
      { line: frame.line, offset: frame.start, byteOffset: frame.byteStart })
  }
}

/** How many values a frame's data holds when one value is followed by another (`"2"`, `"10 or more"`), else null. */
function gluedValues(data: string, error: { message: string; position: number }): string | null {
  if (!error.message.endsWith('(expected end of input)')) return null
  let rest = data.slice(error.position)
  let count = 1
  while (count < GLUED_COUNTED) {
    rest = rest.replace(/^\s+/, '')
    // the line break went too: `{…}data: {…}`
    if (rest.startsWith('data:')) rest = rest.slice(rest.charCodeAt(5) === 0x20 ? 6 : 5)
    if (rest.startsWith('[DONE]')) { count++; rest = rest.slice(6); continue }
    const c = rest.charCodeAt(0)
    if (c !== 0x7b && c !== 0x5b) return count > 1 ? String(count) : null // `{` or `[`: another frame's payload
    count++
    const next = findJsonSyntaxError(rest)
    if (next === null || !next.message.endsWith('(expected end of input)')) return String(count)
    rest = rest.slice(next.position)
  }
  return `${count} or more`
}

const PAYLOAD_LINE = /(^|\r\n|\r|\n)[ \t]*[{[]/g

/**
 * An SSE line that carries a JSON payload (or `[DONE]`) but no `data:` field: in a frame
 * beside data lines, or in a block of its own (which the SSE reader keeps as a field-only entry).
 * Such a line is an unknown field to the SSE reader, so only the frames it named are read
 * again (all of them when it listed only some), and none when it named none.
 */
export function missingDataPrefix(merger: Merger, theirs: readonly Diagnostic[], found: Findings): void {
  const unknown = theirs.filter((d) => d.code === 'unknown-field')
  if (unknown.length === 0) return
  const count = merger.frameCount
  // the summary of unlisted ones names no line
  const all = unknown.some((d) => d.line === undefined)
  const named = new Set(unknown.map((d) => d.frame))
  for (let seq = 0; seq < count; seq++) {
    if (!all && !named.has(seq)) continue
    const frame = merger.frames(seq, seq + 1)[0]
    if (frame !== undefined) payloadLines(frame.raw, frame.line, frame.start, seq, found)
  }
  for (const e of merger.entries()) {
    // a block between frames is shown before the next one; after the last frame, with it
    if (e.kind === 'empty') payloadLines(e.raw, e.line, e.start, e.beforeFrame < count ? e.beforeFrame : count > 0 ? count - 1 : null, found)
  }
}

function payloadLines(raw: string, line: number, start: number, frame: number | null, found: Findings): void {
  PAYLOAD_LINE.lastIndex = 0
  for (let m = PAYLOAD_LINE.exec(raw); m !== null; m = PAYLOAD_LINE.exec(raw)) {
    const at = m.index + m[1]!.length
    const n = line + lineBreaks(raw, at)
    const text = raw.slice(at).split(/\r\n|\r|\n/, 1)[0]!
    found.add('missing-data-prefix', 'warning', frame,
      `line ${n} carries a payload without a \`data:\` field (${excerpt(text, 0)}): SSE readers ignore it`,
      { line: n, offset: start + at })
  }
}

function lineBreaks(text: string, end: number): number {
  let n = 0
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) n++
  }
  return n
}

/**
 * Frames after the first `[DONE]`. The accumulator reports frames that carry something after
 * any terminal marker (it knows the provider's terminal events); a broken frame after `[DONE]`
 * it never sees, so it is found here.
 */
export function afterDoneMarker(merger: Merger, found: Findings): void {
  const count = merger.frameCount
  let done = -1
  for (let seq = 0; seq < count; seq++) {
    const kind = merger.frameKind(seq)
    if (done < 0) { if (kind === 'done') done = seq; continue }
    if (kind === 'done') continue
    found.add('data-after-done', 'warning', seq, `frame ${seq} (${kind === 'invalid' ? 'broken' : 'data'}) comes after the [DONE] of frame ${done}`)
    return
  }
}

/** Reasoning written into the content between `<think>` tags (or ending in `</think>`, the opening tag left in the prompt). */
export function inlineThinkTags(merger: Merger, reply: Reply, found: Findings): void {
  let provenance: ReturnType<Merger['provenance']> | null = null
  for (const c of reply.choices) {
    const open = c.content.indexOf('<think>')
    const close = c.content.indexOf('</think>', open < 0 ? 0 : open)
    if (open < 0 && close < 0) continue
    const at = open < 0 ? 0 : open
    provenance ??= merger.provenance()
    const frame = provenance.find((p) => p.choice === c.index && p.channel === 'content' && p.start <= at && at < p.end)?.frame ?? null
    const what = open < 0
      ? `ends its reasoning with \`</think>\` at character ${close} (the opening tag was in the prompt)`
      : close < 0
        ? `opens \`<think>\` at character ${open} and never closes it`
        : `holds \`<think>\`…\`</think>\` from character ${open} to ${close + '</think>'.length}`
    found.add('inline-think-tags', 'warning', frame, `choice ${c.index}: the content ${what}: reasoning the server did not move to a reasoning field`)
  }
}

/** Nothing for the user at all: no content, reasoning, refusal or tool call in any choice. */
export function emptyReply(reply: Reply, found: Findings): void {
  const something = reply.choices.some((c) => c.content !== '' || c.reasoning !== '' || c.refusal !== '' || c.toolCalls.length > 0)
  if (something) return
  const finish = reply.choices.map((c) => c.finishReason).find((r) => r !== null)
  found.add('empty-reply', 'warning', null,
    `no content, reasoning, refusal or tool call in ${reply.frameCount} frame${reply.frameCount === 1 ? '' : 's'}${finish ? ` (finish reason ${JSON.stringify(finish)})` : ''}`)
}
