// Kimi on the web (www.kimi.com, formerly kimi.moonshot.cn). Two wire formats, one choice (0):
//
// 1. `POST /apiv2/kimi.gateway.chat.v1.ChatService/Chat`: Connect server streaming
//    (`application/connect+json`, framed by the core: src/core/connect.ts). Each message is a
//    state-sync operation on the chat: `{"op": "set"|"append", "mask": <the field path it
//    changes>, "eventOffset": n, "chat"|"message"|"block": {...}}`.
//    - `mask: "message"` installs a message: the user's (not the reply) or the assistant's
//      (the choice and its role); `message.status` set to MESSAGE_STATUS_COMPLETED is the finish.
//    - Blocks carry the reply by id: `block.text` / `block.text.content` is content,
//      `block.think` / `block.think.content` reasoning. `append` adds to the block's text; `set`
//      gives the block's whole text (the first segment, or a rewrite: snapshot rules).
//    - `block.search.keywords` and `block.search.webPages` (appends) are the app's own search:
//      a tool call named web_search (src/providers/search-call.ts), closed by the next text or
//      thinking block or the finish; `message.refs.searchChunks` (the citations list) joins the
//      open search's results. The answer's citation markers stay in the content as sent.
//    - `{"eventOffset": n, "done": {}}` and the end-of-stream envelope (flag 0x02) end the
//      stream; the end-of-stream envelope's `error` is a stream error. `{"heartbeat": {}}` is a
//      keep-alive.
// 2. `POST /api/chat/{id}/completion/stream` (kimi.moonshot.cn until 2025): SSE of
//    `{"event": …}` objects, read by src/providers/kimi-sse.ts.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { isLegacyKimiFrame, mapLegacyKimi, newLegacyState } from './kimi-sse.js'
import { SearchCalls } from './search-call.js'
import { arr, CONNECT_END_STREAM as END_STREAM_EVENT, errorDelta, isObject, quote, str, type JsonObject } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0
const OPS: ReadonlySet<string> = new Set(['set', 'append'])
const SEARCH_TOOL = 'web_search'

/** A Connect state-sync operation: `op`, and the object it changes. */
function isOperation(j: JsonObject): boolean {
  if (typeof j['op'] !== 'string' || !OPS.has(j['op'])) return false
  if (j['mask'] !== undefined && typeof j['mask'] !== 'string') return false
  return isObject(j['block']) || isObject(j['message']) || isObject(j['chat'])
}

export const kimi: ProviderAdapter = {
  id: 'kimi',
  urlPattern: /(^|\/\/)(www\.)?kimi\.(com|ai)\/apiv2\/kimi\.gateway\.chat\.v1\.ChatService\/Chat|(^|\/\/)(www\.)?(kimi\.moonshot\.cn|kimi\.com)\/api\/chat\/[^/?#]+\/completion/,
  isKeepalive: (frame) => isObject(frame.json) && ((isObject(frame.json['heartbeat']) && frame.json['op'] === undefined) || frame.json['event'] === 'ping'),
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    if (frame.event === END_STREAM_EVENT) return false // any Connect service ends so: it names none
    if (isOperation(j)) return true
    // `{"eventOffset": n, "done": {}}`: the Connect stream's own end
    if (typeof j['eventOffset'] === 'number' && (isObject(j['done']) || isObject(j['heartbeat']))) return true
    return isLegacyKimiFrame(j)
  },
  createMapper: createKimiMapper,
}

interface Block {
  channel: 'content' | 'reasoning'
  text: string
  /** Characters of the channel before this block's text. */
  start: number
}

function createKimiMapper(): FrameMapper {
  const search = new SearchCalls({ choice: CHOICE, name: SEARCH_TOOL })
  const blocks = new Map<string, Block>()
  const channelLength = { content: 0, reasoning: 0 }
  /** The block each channel's text ends with: only it can be rewritten by a `set`. */
  const lastBlock: { content: Block | null; reasoning: Block | null } = { content: null, reasoning: null }
  const noted = new Set<string>()
  const legacy = newLegacyState(search)
  let chosen = false

  const choose = (out: Delta[], role: string | null = null): void => {
    if (chosen && role === null) return
    chosen = true
    out.push({ type: 'choice', choice: CHOICE, role })
  }

  const note = (out: Delta[], key: string, message: string): void => {
    if (noted.has(key)) return
    noted.add(key)
    out.push({ type: 'note', level: 'info', message })
  }

  /** A text or thinking block's `set` (whole text) or `append` (more of it). */
  const blockText = (out: Delta[], id: string, channel: 'content' | 'reasoning', op: string, text: string): void => {
    out.push(...search.close())
    choose(out)
    let b = blocks.get(id)
    if (b === undefined) {
      b = { channel, text: '', start: channelLength[channel] }
      blocks.set(id, b)
      lastBlock[channel] = b
    }
    if (op === 'append') {
      if (b !== lastBlock[channel]) {
        note(out, `interleaved:${id}`, `block ${quote(id)} grows after another ${channel} block: its text is appended at the channel's end`)
      }
      b.text += text
      channelLength[channel] += text.length
      if (text !== '') out.push({ type: 'text', choice: CHOICE, channel, text })
      return
    }
    if (b !== lastBlock[channel]) {
      out.push({ type: 'note', level: 'warning', message: `block ${quote(id)} was set again after another ${channel} block: the rewrite is not applied`, symptom: 'A client that applies the set shows a different text here.' })
      return
    }
    out.push(...snapshotDeltas(b.text, text, { choice: CHOICE, channel, source: `set ${channel === 'content' ? 'block.text' : 'block.think'}`, offset: b.start }))
    channelLength[channel] = b.start + text.length
    b.text = text
  }

  const operation = (j: JsonObject, out: Delta[]): void => {
    const op = j['op'] as string
    const mask = str(j['mask']) ?? ''
    const message = isObject(j['message']) ? j['message'] : null
    const block = isObject(j['block']) ? j['block'] : null
    if (mask === 'message' && message !== null) {
      if (message['role'] === 'assistant') choose(out, 'assistant')
      return
    }
    if (mask === 'message.status' && message !== null) {
      const status = str(message['status'])
      if (status !== null && status !== 'MESSAGE_STATUS_GENERATING') {
        out.push(...search.close())
        out.push({ type: 'finish', choice: CHOICE, reason: status })
      }
      return
    }
    if (mask.startsWith('message.refs') && message !== null && isObject(message['refs'])) {
      const refs = message['refs']
      const chunks = [...arr(refs['searchChunks']), ...arr(refs['usedSearchChunks'])]
      if (search.isOpen) search.results(chunks)
      else note(out, mask, `${mask} (${chunks.length} citation${chunks.length === 1 ? '' : 's'}) arrived after the search it cites was closed: not in the reply`)
      return
    }
    if (block !== null) {
      const id = str(block['id']) ?? ''
      if (isObject(block['text']) || isObject(block['think'])) {
        const channel = isObject(block['text']) ? 'content' : 'reasoning'
        const body = (channel === 'content' ? block['text'] : block['think']) as JsonObject
        const content = str(body['content'])
        // `set` of an empty `text: {}` opens the block with no text yet
        if (content !== null || op === 'set') blockText(out, id, channel, op, content ?? '')
        return
      }
      if (isObject(block['search'])) {
        const s = block['search']
        if (!search.isOpen) out.push(...search.start(id === '' ? null : `search:${id}`))
        search.queries(arr(s['keywords']))
        search.results(arr(s['webPages']))
        return
      }
      if (isObject(block['tool'])) {
        note(out, 'block.tool', `block.tool (a tool the app runs itself, ${quote(str(block['tool']['name']) ?? '')}) is shown in the app, not part of the reply: kept out`)
        return
      }
    }
    if (mask === '' || mask.startsWith('chat') || mask.startsWith('message')) return
    note(out, mask, `operation ${quote(op)} on ${quote(mask)} is not reply text: kept out`)
  }

  return {
    map(frame: ParsedFrame) {
      const j = frame.json
      const out: Delta[] = []
      if (!isObject(j)) return out
      if (frame.event === END_STREAM_EVENT) {
        out.push(...search.close())
        const error = errorDelta(j)
        if (error !== null) out.push(error)
        out.push({ type: 'done' })
        return out
      }
      if (isOperation(j)) { operation(j, out); return out }
      if (isObject(j['done'])) {
        out.push(...search.close())
        out.push({ type: 'done' })
        return out
      }
      if (isObject(j['heartbeat'])) return out
      if (typeof j['event'] === 'string') return mapLegacyKimi(legacy, j, (role) => { const d: Delta[] = []; choose(d, role); return d })
      const error = errorDelta(j)
      if (error !== null) out.push(error)
      return out
    },
    flush() {
      return search.close()
    },
  }
}
