// Doubao on the web (`POST www.doubao.com/chat/completion`, `/samantha/chat/completion`, and
// the international Dola, www.dola.com): SSE whose event names say what each frame is, one
// choice (0). The reply is a list of content blocks, each `{block_id, block_type, parent_id,
// patch_type, content: {text_block | thinking_block | search_query_result_block …}}`:
//
// - `STREAM_MSG_NOTIFY` opens the message with its first blocks (`content.content_block`);
//   `STREAM_CHUNK` patches it (`patch_op[].patch_value.content_block`), and `CHUNK_DELTA`
//   `{text}` carries the same answer text again, as plain deltas: a client reads one of the two,
//   so the first of them to carry text is read and the other noted (its text would repeat).
// - block_type 10000 is text: content, or reasoning when its `parent_id` is a thinking block
//   (block_type 10040, `thinking_block`); `patch_type` 2 replaces a block's text (snapshot
//   rules), anything else appends; a block with `control_info.is_visible: false` is not shown.
// - block_type 10025, `search_query_result_block {summary, queries, results: [{text_card:
//   {title, url, sitename, index…}}]}`, is the app's search: the tool call search
//   (src/providers/search-call.ts), each patch giving its queries and results whole, closed by
//   the next text block or the end.
// - `SSE_REPLY_END` ends the reply: `end_type` 1 carries `msg_finish_attr.brief`, the final
//   text, compared with what streamed; `STREAM_ERROR {error_code, error_msg}` is a stream
//   error; `SSE_HEARTBEAT` a keep-alive; `SSE_ACK` and `FULL_MSG_NOTIFY` metadata.
// - `content`, `patch_op` and a block's `content` may arrive as JSON text (double-encoded, as
//   some versions send them): read as what they encode.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { parseJson } from '../core/json-error.js'
import { SearchCalls } from './search-call.js'
import { arr, isObject, str, type JsonObject, OnceDeltas } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0
const EVENTS: ReadonlySet<string> = new Set([
  'SSE_ACK', 'SSE_HEARTBEAT', 'FULL_MSG_NOTIFY', 'STREAM_MSG_NOTIFY', 'STREAM_CHUNK', 'CHUNK_DELTA', 'SSE_REPLY_END', 'STREAM_ERROR', 'STREAM_TIMEOUT_CONTROL',
])
const TEXT_BLOCK = 10000
const SEARCH_BLOCK = 10025
const THINKING_BLOCK = 10040

export const doubao: ProviderAdapter = {
  id: 'doubao',
  urlPattern: /(^|\/\/)(www\.)?(doubao|dola)\.com\/(samantha\/)?chat\/completion/,
  isKeepalive: (frame) => frame.event === 'SSE_HEARTBEAT',
  recognizes: (frame) => frame.event !== null && EVENTS.has(frame.event) && isObject(frame.json),
  createMapper: () => new DoubaoMapper(),
}

interface Block {
  channel: 'content' | 'reasoning'
  text: string
  start: number
}

class DoubaoMapper implements FrameMapper {
  private readonly search = new SearchCalls({ choice: CHOICE, name: 'search' })
  private readonly blocks = new Map<string, Block>()
  private readonly thinking = new Set<string>(['thinking'])
  private readonly length = { content: 0, reasoning: 0 }
  private readonly last: { content: Block | null; reasoning: Block | null } = { content: null, reasoning: null }
  /** Which of STREAM_CHUNK and CHUNK_DELTA carries the answer (the first to bring text). */
  private source: 'STREAM_CHUNK' | 'CHUNK_DELTA' | null = null
  private readonly once = new OnceDeltas(CHOICE)
  private anonymous = 0

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json as JsonObject
    const out: Delta[] = []
    switch (frame.event) {
      case 'STREAM_MSG_NOTIFY': {
        this.once.choose(out)
        const content = decoded(j['content'])
        for (const b of arr(isObject(content) ? content['content_block'] : null)) if (isObject(b)) this.block(b, 1, out)
        break
      }
      case 'STREAM_CHUNK':
        for (const op of arr(decoded(j['patch_op']))) {
          const value = isObject(op) && isObject(op['patch_value']) ? op['patch_value'] : null
          if (value === null) continue
          for (const b of arr(value['content_block'])) {
            if (isObject(b)) this.block(b, typeof b['patch_type'] === 'number' ? b['patch_type'] : isObject(op) ? op['patch_type'] : 1, out, true)
          }
        }
        break
      case 'CHUNK_DELTA': {
        const text = str(j['text'])
        if (text === null || text === '' || !this.reads('CHUNK_DELTA', out)) break
        this.append(this.contentBlock(), text, out)
        break
      }
      case 'SSE_REPLY_END': {
        out.push(...this.search.close())
        const attr = isObject(j['msg_finish_attr']) ? j['msg_finish_attr'] : null
        const brief = attr !== null ? str(attr['brief']) : null
        if (j['end_type'] === 1) {
          if (brief !== null) out.push({ type: 'final-text', choice: CHOICE, channel: 'content', text: brief, source: 'SSE_REPLY_END msg_finish_attr.brief' })
          out.push({ type: 'finish', choice: CHOICE, reason: 'end_type 1' })
        }
        out.push({ type: 'done' })
        break
      }
      case 'STREAM_ERROR': {
        const code = typeof j['error_code'] === 'number' || typeof j['error_code'] === 'string' ? j['error_code'] : null
        out.push({ type: 'stream-error', message: str(j['error_msg']) ?? str(j['error_message']) ?? 'STREAM_ERROR', code, errorType: null, payload: j })
        break
      }
      default:
        break // SSE_ACK, FULL_MSG_NOTIFY (the user's message), heartbeats: not the reply
    }
    return out
  }

  flush(): Delta[] {
    return this.search.close()
  }

  /** True when this kind of frame is the one read for the answer's text; the other is noted once. */
  private reads(kind: 'STREAM_CHUNK' | 'CHUNK_DELTA', out: Delta[]): boolean {
    if (this.source === null) this.source = kind
    if (this.source === kind) return true
    this.once.note(out, 'both', `${kind} repeats the answer text that ${this.source} brings: read from ${this.source} alone`)
    return false
  }

  /** One content block; `patched`: from a STREAM_CHUNK, whose answer text CHUNK_DELTA may bring too. */
  private block(b: JsonObject, patchType: unknown, out: Delta[], patched = false): void {
    const type = typeof b['block_type'] === 'number' ? b['block_type'] : TEXT_BLOCK
    const id = str(b['block_id']) ?? `#${this.anonymous++}`
    const inner = decoded(b['content'])
    const content = isObject(inner) ? inner : {}
    if (type === THINKING_BLOCK) { this.thinking.add(id); return }
    if (type === SEARCH_BLOCK) {
      const s = isObject(content['search_query_result_block']) ? content['search_query_result_block'] : {}
      if (!this.search.isOpen) out.push(...this.search.start(str(b['block_id'])))
      this.search.replaceQueries(arr(s['queries']))
      this.search.replaceResults(arr(s['results']))
      return
    }
    if (type !== TEXT_BLOCK) { this.once.note(out, `type:${type}`, `block_type ${type} is not reply text: kept out`); return }
    if (isObject(b['control_info']) && b['control_info']['is_visible'] === false) { this.once.note(out, 'hidden', 'a block with control_info.is_visible false is not shown: kept out'); return }
    const text = isObject(content['text_block']) ? str(content['text_block']['text']) ?? '' : ''
    const parent = str(b['parent_id'])
    const channel = parent !== null && this.thinking.has(parent) ? 'reasoning' : 'content'
    // only the answer's text comes twice (CHUNK_DELTA carries no thinking)
    if (patched && channel === 'content' && text !== '' && !this.reads('STREAM_CHUNK', out)) return
    const key = str(b['block_id']) ?? (channel === 'content' ? 'answer' : 'thinking:answer')
    let block = this.blocks.get(key)
    if (block === undefined) {
      block = { channel, text: '', start: this.length[channel] }
      this.blocks.set(key, block)
      this.last[channel] = block
    }
    if (patchType === 2 && block === this.last[channel]) {
      this.once.choose(out)
      if (channel === 'content') out.push(...this.search.close())
      out.push(...snapshotDeltas(block.text, text, { choice: CHOICE, channel, source: `${channel} block ${key} (patch_type 2)`, offset: block.start }))
      this.length[channel] = block.start + text.length
      block.text = text
      return
    }
    this.append(block, text, out)
  }

  /** The block CHUNK_DELTA's text goes to: the latest content block. */
  private contentBlock(): Block {
    if (this.last.content !== null) return this.last.content
    const b: Block = { channel: 'content', text: '', start: this.length.content }
    this.blocks.set('answer', b)
    this.last.content = b
    return b
  }

  private append(block: Block, text: string, out: Delta[]): void {
    if (text === '') return
    this.once.choose(out)
    if (block.channel === 'content') out.push(...this.search.close())
    block.text += text
    this.length[block.channel] += text.length
    out.push({ type: 'text', choice: CHOICE, channel: block.channel, text })
  }
}

/**
 * Some Doubao versions send `content`, `patch_op` and a block's `content` as JSON text inside
 * the frame's JSON: read as the value it encodes (text that does not parse stays text).
 */
function decoded(v: unknown): unknown {
  if (typeof v !== 'string') return v
  const parsed = parseJson(v)
  return parsed.ok ? parsed.value : v
}
