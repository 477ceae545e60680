// ChatGPT web (`POST chatgpt.com/backend-api/conversation` and `…/f/conversation`): the page's
// own stream, read in patch mode (docs/architecture.md#patch-mode, /work/shared/CHAT-PROTOCOLS.md).
//
// `delta_encoding` v1 (`event: delta_encoding` / `data: "v1"` first): `event: delta` frames
// `{c?, p?, o?, v}` are operations on one JSON document per channel `c`: `p` a JSON Pointer,
// `o` add / replace / remove / append / truncate / patch (a list of `{p, o, v}` applied in
// order). A missing `c`, `p` or `o` is the previous frame's (never `v`): `{"v": " world"}`
// appends to the path the last append named, `{"v": [...]}` after a patch is another patch.
// The operations inside a patch do not change those sticky values.
// Frames without `event: delta` are not operations: `message_stream_complete` ends the turn
// (finish reason and done), `title_generation`, `message_marker`, `server_ste_metadata`,
// `input_message`, `resume_conversation_token`, `conversation_detail_metadata` carry no reply
// (no note: every turn sends them, as it sends the user's and the tools' messages);
// `stream_handoff` moves the rest of the turn to a WebSocket (said in a warning), a moderation
// verdict that flags or blocks is a warning, an `error` is a stream error.
//
// The older format sends the whole message each time (`{"message": {…, "content": {"parts":
// [text so far]}}, "conversation_id", "error"}`): read in snapshot mode, each frame installs
// the message again, and the text it added over the previous frame is that frame's.
//
// The finish reason is the last reply message's `metadata.finish_details.type`, else its
// `status` once it is no longer in progress. Sources of the wire shapes: the fixtures'
// descriptions (test/fixtures/chatgpt-web/).

import { JsonPatchDocument } from '../core/json-patch.js'
import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { CHOICE, describe, ReplyWriter, textOf, touchesText, type TrackedMessage } from './chatgpt-web-messages.js'
import { excerpt, isObject, jsonText, quote, str, type JsonObject } from './shared.js'

const DELTA_KEYS = new Set(['p', 'o', 'v', 'c'])

/** `type`s of ChatGPT's non-delta frames, each with its `conversation_id`. */
const FRAME_TYPES = new Set([
  'resume_conversation_token',
  'input_message',
  'message_marker',
  'message_stream_complete',
  'title_generation',
  'server_ste_metadata',
  'conversation_detail_metadata',
  'stream_handoff',
  'moderation',
])

/** Frames that carry nothing for the reply: no note. */
const QUIET = new Set(['resume_conversation_token', 'input_message', 'message_marker', 'server_ste_metadata', 'conversation_detail_metadata', 'title_generation'])

/** Operations one frame may apply (a patch of patches counts them all): more are refused. */
const MAX_OPERATIONS = 100_000

/**
 * Rewrites compare a message's whole text before and after, which costs its length. They may
 * read this many characters, plus READ_RATE times what the operations wrote into the
 * documents: a storm of one-character inserts before a long text would otherwise cost the
 * text's length per frame (quadratic).
 */
const READ_ALLOWANCE = 1_000_000
const READ_RATE = 4

/** A `{p?, o?, v?, c?}` object: an operation in the short keys of delta_encoding v1. */
function isDeltaObject(json: unknown): json is JsonObject {
  if (!isObject(json)) return false
  const keys = Object.keys(json)
  return keys.length > 0 && keys.every((k) => DELTA_KEYS.has(k))
}

/** The older whole-message frame: a message with an author and a content, beside the conversation id. */
function isSnapshotFrame(json: unknown): json is JsonObject {
  if (!isObject(json) || !('conversation_id' in json) || !isObject(json['message'])) return false
  const m = json['message']
  // `author.role` since 2023; the first web client's frames had `role` on the message
  const role = isObject(m['author']) ? m['author']['role'] : m['role']
  return typeof role === 'string' && isObject(m['content'])
}

export const chatgptWeb: ProviderAdapter = {
  id: 'chatgpt-web',
  urlPattern: /\/backend-(?:api|anon)\/(?:f\/)?conversation(?:[/?#]|$)/,
  recognizes(frame) {
    const json = frame.json
    if (frame.event === 'delta_encoding') return typeof json === 'string'
    if (frame.event === 'delta') return isDeltaObject(json) && 'v' in json
    if (frame.event !== null) return false
    if (isObject(json) && typeof json['type'] === 'string' && FRAME_TYPES.has(json['type'])) return 'conversation_id' in json
    // without an event name, only an operation that names its path (a JSON Pointer: "" or
    // "/…"; DeepSeek's `response/…` paths are not) and its op
    if (isDeltaObject(json) && typeof json['p'] === 'string' && (json['p'] === '' || json['p'].startsWith('/')) && typeof json['o'] === 'string' && 'v' in json) return true
    return isSnapshotFrame(json)
  },
  createMapper(): FrameMapper {
    const mapper = new ChatgptWebMapper()
    return { map: (frame) => mapper.map(frame), flush: () => mapper.flush() }
  },
}

interface Channel {
  doc: JsonPatchDocument
  message: TrackedMessage
}

interface Leaf {
  op: unknown
  path: unknown
  value: unknown
  has: boolean
}

class ChatgptWebMapper {
  private readonly channels = new Map<number | string, Channel>()
  private readonly writer = new ReplyWriter()
  private readonly noted = new Set<string>()
  /** Sticky `c`, `p`, `o` of delta_encoding v1. */
  private c: unknown = 0
  private p: unknown = ''
  private o: unknown = 'add'
  /** The message the reply's finish reason is read from: the last content message, else the last assistant one. */
  private answer: TrackedMessage | null = null
  private finished = false
  /** Characters the operations wrote into the documents, and characters rewrites read back. */
  private credited = 0
  private spent = 0

  map(frame: ParsedFrame): Delta[] {
    const out: Delta[] = []
    const json = frame.json
    if (frame.event === 'delta_encoding') {
      if (json !== 'v1') out.push({ type: 'note', level: 'warning', message: `delta_encoding ${quote(json)}: only "v1" is known; the frames are read as v1` })
      return out
    }
    if (frame.event === 'delta' || (frame.event === null && isDeltaObject(json) && 'v' in json)) {
      this.delta(out, json)
      return out
    }
    if (isSnapshotFrame(json)) {
      this.snapshot(out, json)
      return out
    }
    if (isObject(json)) this.other(out, json, frame.event)
    else this.noteOnce(out, 'not-an-object', `a frame whose data is not an object: ${quote(json)}`, 'warning')
    return out
  }

  flush(): Delta[] {
    const out: Delta[] = []
    this.finish(out)
    return out
  }

  private delta(out: Delta[], json: unknown): void {
    if (!isDeltaObject(json)) {
      out.push({ type: 'note', level: 'warning', message: `a delta that is not a {p, o, v, c} object: ${quote(json)}` })
      return
    }
    if ('c' in json) this.c = json['c']
    if ('p' in json) this.p = json['p']
    if ('o' in json) this.o = json['o']
    if (!('v' in json) && this.o !== 'remove') {
      out.push({ type: 'note', level: 'warning', message: `a delta without a value (v): ${quote(json)}` })
      return
    }
    const key = typeof this.c === 'number' || typeof this.c === 'string' ? this.c : null
    if (key === null) {
      out.push({ type: 'note', level: 'warning', message: `a delta whose channel c is neither a number nor a string: ${quote(this.c)}` })
      return
    }
    const leaves = this.flatten(out, { op: this.o, path: this.p, value: json['v'], has: 'v' in json })
    for (const leaf of leaves) this.operate(out, key, leaf)
  }

  /** A patch's list, nested patches included, in order, with an explicit stack. */
  private flatten(out: Delta[], top: Leaf): Leaf[] {
    const leaves: Leaf[] = []
    const stack: Leaf[] = [top]
    while (stack.length > 0) {
      const leaf = stack.pop()!
      if (leaf.op !== 'patch') {
        if (leaves.length >= MAX_OPERATIONS) {
          out.push({ type: 'note', level: 'warning', message: `a frame with more than ${MAX_OPERATIONS} operations: the rest were not applied` })
          break
        }
        leaves.push(leaf)
        continue
      }
      if (!Array.isArray(leaf.value)) {
        out.push({ type: 'note', level: 'warning', message: `a patch whose value is not a list of operations: ${quote(leaf.value)}` })
        continue
      }
      for (let i = leaf.value.length - 1; i >= 0; i--) {
        const sub = leaf.value[i]
        if (!isObject(sub)) {
          out.push({ type: 'note', level: 'warning', message: `a patch operation that is not an object: ${quote(sub)}` })
          continue
        }
        stack.push({ op: sub['o'], path: sub['p'], value: sub['v'], has: 'v' in sub })
      }
    }
    return leaves
  }

  /** One operation on one channel's document, and what it changed in the reply. */
  private operate(out: Delta[], key: number | string, leaf: Leaf): void {
    const { op, path, value } = leaf
    if (typeof op !== 'string' || typeof path !== 'string') {
      out.push({ type: 'note', level: 'warning', message: `an operation without a string o and p: ${quote({ o: op, p: path })}` })
      return
    }
    let channel = this.channels.get(key)
    if (path === '' && (op === 'add' || op === 'replace')) {
      this.install(out, key, value)
      return
    }
    if (channel === undefined) {
      channel = { doc: new JsonPatchDocument(null), message: this.writer.track({ id: null, kind: 'hidden', label: 'nothing', tail: null, noteworthy: false }) }
      this.channels.set(key, channel)
    }
    const { doc, message } = channel
    const operation = leaf.has ? { op, path, value } : { op, path }
    if (message.tail !== null && path === message.tail && (op === 'append' || op === 'truncate')) {
      // the hot path (most frames of a reply): no read of the text, no status read
      const before = op === 'truncate' ? (doc.textLength(path) ?? 0) : 0
      if (!this.applied(out, doc, operation)) return
      if (op === 'append') this.writer.append(out, message, typeof value === 'string' ? value : '')
      else this.writer.truncate(out, message, message.emitted - (before - (doc.textLength(path) ?? 0)))
      this.pick(message)
      return
    }
    if (touchesText(path) && op !== 'test' && this.affordable(out, message)) {
      const before = textOf(doc, message.kind)
      const was = message.kind
      if (!this.applied(out, doc, operation)) return
      Object.assign(message, describe(doc))
      const after = textOf(doc, message.kind)
      this.spent += before.cost + after.cost
      this.writer.rewrite(out, message, before.text, after.text, was)
      this.settle(message, doc)
      return
    }
    if (!this.applied(out, doc, operation)) return
    if (path.startsWith('/message/status') || path.startsWith('/message/metadata') || path === '/message') this.settle(message, doc)
    else this.pick(message)
  }

  /** A new root on a channel: a new message of the turn, or the same message again (a snapshot). */
  private install(out: Delta[], key: number | string, value: unknown, snapshot = false): void {
    const previous = this.channels.get(key)
    const doc = new JsonPatchDocument(null)
    if (!this.applied(out, doc, { op: 'add', path: '', value })) return
    const described = describe(doc)
    if (previous !== undefined && described.id !== null && previous.message.id === described.id) {
      if (!this.affordable(out, previous.message)) {
        previous.doc = doc
        return
      }
      const before = textOf(previous.doc, previous.message.kind)
      const was = previous.message.kind
      Object.assign(previous.message, described)
      previous.doc = doc
      const after = textOf(doc, described.kind)
      this.spent += before.cost + after.cost
      this.writer.rewrite(out, previous.message, before.text, after.text, was, snapshot)
      this.settle(previous.message, doc)
    } else {
      const message = this.writer.track(described)
      this.channels.set(key, { doc, message })
      this.writer.rewrite(out, message, '', textOf(doc, message.kind).text, 'hidden')
      if (message.noteworthy) this.noteOnce(out, `hidden:${message.label}`, `${message.label} are not the reply`, 'info')
      this.settle(message, doc)
    }
    const error = doc.read('/error')
    if (error.ok && error.value !== null && error.value !== undefined) out.push(streamError(error.value, value))
  }

  private snapshot(out: Delta[], json: JsonObject): void {
    this.install(out, 'snapshot', json, true)
  }

  /** True while comparing this message's text stays within the read budget; once past it, the message is frozen (one warning). */
  private affordable(out: Delta[], message: TrackedMessage): boolean {
    if (message.frozen) return false
    if (this.spent + 2 * message.emitted <= READ_ALLOWANCE + READ_RATE * this.credited) return true
    message.frozen = true
    out.push({ type: 'note', level: 'warning', message: `message ${message.id ?? '(no id)'} is rewritten more often than its frames pay for: from here on only appends to its end reach the reply`, symptom: 'The reply may keep text the message no longer has.' })
    return false
  }

  private applied(out: Delta[], doc: JsonPatchDocument, operation: unknown): boolean {
    const written = doc.written
    const r = doc.apply(operation)
    this.credited += doc.written - written
    if (r.ok) return true
    out.push({ type: 'note', level: 'warning', message: `patch operation failed (${r.error.code}): ${r.error.message} at ${JSON.stringify(excerpt(r.error.path, 120))}; the document is as it was`, symptom: 'A client that applies the operation anyway shows a different message, or stops reading the stream.' })
    return false
  }

  /** Status and finish details after an operation; the message the finish reason comes from. */
  private settle(message: TrackedMessage, doc: JsonPatchDocument): void {
    const status = doc.read('/message/status')
    message.status = status.ok ? str(status.value) : null
    const type = doc.read('/message/metadata/finish_details/type')
    message.finishType = type.ok ? str(type.value) : null
    this.pick(message)
  }

  private pick(message: TrackedMessage): void {
    if (message.kind === 'content' || (message.kind !== 'hidden' && (this.answer === null || this.answer.kind !== 'content'))) this.answer = message
  }

  private other(out: Delta[], json: JsonObject, event: string | null): void {
    const type = str(json['type'])
    if (type === 'message_stream_complete') {
      this.finish(out)
      out.push({ type: 'done' })
      return
    }
    if (type !== null && QUIET.has(type)) return
    if (type === 'stream_handoff') {
      out.push({ type: 'note', level: 'warning', message: 'stream_handoff: the rest of this turn is sent over a WebSocket, not in this response', symptom: 'A client that reads only this response shows the reply cut where the handoff came.' })
      return
    }
    if (type === 'moderation' || 'moderation_response' in json) {
      const verdict = isObject(json['moderation_response']) ? json['moderation_response'] : {}
      if (verdict['blocked'] === true || verdict['flagged'] === true) out.push({ type: 'note', level: 'warning', message: `moderation: the reply was ${verdict['blocked'] === true ? 'blocked' : 'flagged'}` })
      return
    }
    if ('error' in json && json['error'] !== null) {
      out.push(streamError(json['error'], json))
      return
    }
    this.noteOnce(out, `type:${type ?? event ?? ''}`, `ignored ChatGPT frame ${quote(type ?? event ?? jsonText(json))}`, 'info')
  }

  /** The finish reason, once: the answer's finish_details.type, else its status when no longer in progress. */
  private finish(out: Delta[]): void {
    if (this.finished || this.answer === null) return
    const m = this.answer
    const reason = m.finishType ?? (m.status !== null && m.status !== 'in_progress' ? m.status : null)
    if (reason === null) return
    this.finished = true
    out.push({ type: 'finish', choice: CHOICE, reason })
  }

  private noteOnce(out: Delta[], key: string, message: string, level: 'info' | 'warning'): void {
    if (this.noted.has(key) || this.noted.size > 64) return
    this.noted.add(key)
    out.push({ type: 'note', level, message })
  }
}

function streamError(error: unknown, payload: unknown): Delta {
  const e = isObject(error) ? error : {}
  const message = typeof error === 'string' ? error : (str(e['message']) ?? jsonText(error))
  return { type: 'stream-error', message: excerpt(message, 1000), code: str(e['code']), payload }
}
