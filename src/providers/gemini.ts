// Google Gemini / Vertex `streamGenerateContent`: every frame (an SSE `alt=sse` event or one
// element of the streamed JSON array) is a GenerateContentResponse fragment. Text and thought
// parts append; each functionCall part is a whole new call (no index on the wire); usage is a
// running total (merged, never summed); a finishReason is the only terminal marker.
// Vertex can also stream one call's arguments as `partialArgs` pieces: those are rebuilt here,
// in mapper state, and handed to the reducer as one whole call when the call closes.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { arr, errorDelta, excerpt, index, isObject, jsonText, quote, str, usageObject, type JsonObject } from './shared.js'

export const gemini: ProviderAdapter = {
  id: 'gemini',
  urlPattern: /:streamGenerateContent\b|generativelanguage\.googleapis|aiplatform\.googleapis/,
  // without ?alt=sse the stream is one JSON array, its elements arriving as they are made
  jsonArrayStreamUrl: /:streamGenerateContent\b/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    return Array.isArray(j['candidates']) || isObject(j['usageMetadata']) || isObject(j['promptFeedback'])
  },
  createMapper(): FrameMapper {
    return new GeminiMapper()
  },
}

/** A Vertex call whose arguments are still streaming (`willContinue: true`). */
interface OpenCall {
  id: string | null
  name: string | null
  args: JsonObject
}

class GeminiMapper implements FrameMapper {
  /** Open streamed calls by choice index. */
  private readonly open = new Map<number, OpenCall>()

  map(frame: ParsedFrame): Delta[] {
    const chunk = frame.json
    if (!isObject(chunk)) return []
    const out: Delta[] = []
    const error = errorDelta(chunk)
    if (error) out.push(error)
    const candidates = arr(chunk['candidates'])
    candidates.forEach((candidate, position) => {
      if (isObject(candidate)) this.mapCandidate(candidate, index(candidate['index']) ?? position, out)
    })
    if (candidates.length === 0) mapPromptBlock(chunk, out)
    const usage = usageObject(chunk['usageMetadata'])
    if (usage) out.push({ type: 'usage', usage })
    return out
  }

  /** A call still open at the end was cut off: keep what was built, and say so. */
  flush(): Delta[] {
    const out: Delta[] = []
    for (const [choice, call] of this.open) {
      out.push({ type: 'note', level: 'warning', message: `choice ${choice}: streamed function call ${quote(call.name)} was never closed; arguments are what arrived` })
      out.push(closedCall(choice, call))
    }
    this.open.clear()
    return out
  }

  private mapCandidate(candidate: JsonObject, at: number, out: Delta[]): void {
    const content = isObject(candidate['content']) ? candidate['content'] : null
    out.push({ type: 'choice', choice: at, role: content ? str(content['role']) : null })
    if (content) {
      for (const part of arr(content['parts'])) {
        if (isObject(part)) this.mapPart(part, at, out)
      }
    }
    const finish = str(candidate['finishReason'])
    if (finish) {
      // A finished candidate cannot continue a streamed call.
      this.close(at, out)
      out.push({ type: 'finish', choice: at, reason: finish })
      out.push({ type: 'done' })
    }
  }

  private mapPart(part: JsonObject, at: number, out: Delta[]): void {
    const text = str(part['text'])
    // "" (often a signature-only part at the end) appends nothing.
    if (text) out.push({ type: 'text', choice: at, channel: part['thought'] === true ? 'reasoning' : 'content', text })
    if (isObject(part['functionCall'])) this.mapFunctionCall(part['functionCall'], at, out)
  }

  /**
   * Gemini API: every functionCall part is a whole call. Vertex streamed arguments: an opener
   * `{name, willContinue: true}`, pieces `{partialArgs: […]}`, then a closer `{}` (or
   * `willContinue: false`); the call is emitted once, whole, when it closes.
   */
  private mapFunctionCall(fc: JsonObject, at: number, out: Delta[]): void {
    const pieces = Array.isArray(fc['partialArgs']) ? fc['partialArgs'] : null
    const continues = fc['willContinue'] === true
    const name = str(fc['name'])
    // A named call without pieces (an opener, or a plain whole call) begins a new call, so an
    // open one is over: parallel streamed calls arrive one after another.
    if (name !== null && pieces === null && (continues || !('willContinue' in fc))) this.close(at, out)
    const current = this.open.get(at)
    if (current) {
      applyPartialArgs(current.args, pieces, out)
      if (current.id === null) current.id = str(fc['id'])
      if (fc['willContinue'] === false || (!continues && pieces === null)) this.close(at, out)
      return
    }
    if (continues || pieces !== null) {
      const call: OpenCall = { id: str(fc['id']), name, args: emptyObject() }
      applyPartialArgs(call.args, pieces, out)
      if (fc['willContinue'] === false) out.push(closedCall(at, call))
      else this.open.set(at, call)
      return
    }
    if (name === null && !('args' in fc)) return // a closer with nothing open
    out.push({
      type: 'tool-call', choice: at, key: null, whole: true,
      id: str(fc['id']), name, arguments: jsonText(fc['args'] ?? {}),
    })
  }

  private close(at: number, out: Delta[]): void {
    const call = this.open.get(at)
    if (!call) return
    this.open.delete(at)
    out.push(closedCall(at, call))
  }
}

function closedCall(choice: number, call: OpenCall): Delta {
  return {
    type: 'tool-call', choice, key: null, whole: true,
    id: call.id, name: call.name, arguments: jsonText(call.args),
  }
}

/** `promptFeedback.blockReason` with no candidates: the prompt was refused before any output. */
function mapPromptBlock(chunk: JsonObject, out: Delta[]): void {
  const feedback = isObject(chunk['promptFeedback']) ? chunk['promptFeedback'] : null
  const reason = feedback ? str(feedback['blockReason']) : null
  if (!reason) return
  out.push({ type: 'choice', choice: 0, role: null })
  out.push({ type: 'finish', choice: 0, reason })
  out.push({ type: 'note', level: 'warning', message: `prompt blocked: ${excerpt(reason, 200)}` })
  out.push({ type: 'done' })
}

// ---------------------------------------------------------------------------
// partialArgs: `{jsonPath: "$.a.b[0]", stringValue | numberValue | boolValue | nullValue}`.
// Objects are built without prototypes and with own properties, so a hostile "__proto__"
// path is an ordinary key.

type Segment = string | number

function emptyObject(): JsonObject {
  return Object.create(null) as JsonObject
}

function applyPartialArgs(target: JsonObject, partialArgs: unknown, out: Delta[]): void {
  for (const arg of arr(partialArgs)) {
    if (!isObject(arg)) continue
    const path = parsePath(arg['jsonPath'])
    if (path === null) {
      out.push({ type: 'note', level: 'warning', message: `ignored partialArgs piece with unsupported jsonPath ${quote(arg['jsonPath'] ?? null)}` })
      continue
    }
    if (!setAtPath(target, path, arg)) {
      out.push({ type: 'note', level: 'warning', message: `ignored partialArgs piece at ${excerpt(String(arg['jsonPath']), 60)}: no value or a path that does not fit` })
    }
  }
}

const SEGMENT = /\.([^.[\]]+)|\[(\d{1,6})\]/y

/** `$.a.b`, `$.list[0].name`; anything else is unsupported (null). */
function parsePath(v: unknown): Segment[] | null {
  if (typeof v !== 'string' || !v.startsWith('$')) return null
  const segments: Segment[] = []
  SEGMENT.lastIndex = 1
  while (SEGMENT.lastIndex < v.length) {
    const m = SEGMENT.exec(v)
    if (!m) return null
    segments.push(m[1] !== undefined ? m[1] : Number(m[2]))
  }
  return segments.length > 0 ? segments : null
}

/** The piece's value, or undefined when it carries none. */
function pieceValue(arg: JsonObject): { value: unknown; append: boolean } | undefined {
  if (typeof arg['stringValue'] === 'string') return { value: arg['stringValue'], append: true }
  if (typeof arg['numberValue'] === 'number') return { value: arg['numberValue'], append: false }
  if (typeof arg['boolValue'] === 'boolean') return { value: arg['boolValue'], append: false }
  if ('nullValue' in arg) return { value: null, append: false }
  return undefined
}

function setAtPath(root: JsonObject, path: Segment[], arg: JsonObject): boolean {
  const piece = pieceValue(arg)
  if (piece === undefined) return false
  let container: JsonObject | unknown[] = root
  for (let i = 0; i < path.length - 1; i++) {
    const next = child(container, path[i]!, typeof path[i + 1] === 'number')
    if (next === null) return false
    container = next
  }
  const leaf = path[path.length - 1]!
  const existing = read(container, leaf)
  // String pieces at the same path are one string streamed in parts.
  const value = piece.append && typeof existing === 'string' ? existing + (piece.value as string) : piece.value
  return write(container, leaf, value)
}

/** The container at `key`, created when missing; null when the path does not fit. */
function child(container: JsonObject | unknown[], key: Segment, wantArray: boolean): JsonObject | unknown[] | null {
  const existing = read(container, key)
  if (wantArray ? Array.isArray(existing) : isObject(existing)) return existing as JsonObject | unknown[]
  if (existing !== undefined && existing !== null) return null
  const made: JsonObject | unknown[] = wantArray ? [] : emptyObject()
  return write(container, key, made) ? made : null
}

function read(container: JsonObject | unknown[], key: Segment): unknown {
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined
}

/** Arrays only grow by one at a time: a hostile `[999999]` must not make a sparse giant. */
function write(container: JsonObject | unknown[], key: Segment, value: unknown): boolean {
  if (Array.isArray(container)) {
    if (typeof key !== 'number' || key > container.length) return false
    container[key] = value
    return true
  }
  if (typeof key !== 'string') return false
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true })
  return true
}
