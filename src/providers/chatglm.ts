// ChatGLM / 智谱清言 on the web (`POST chatglm.cn/chatglm/backend-api/assistant/stream`): SSE
// whose every frame is the reply so far, one choice (0):
// `{"conversation_id", "assistant_id", "status": "init"|"finish"|"intervene", "parts": [{"logic_id",
// "role", "status", "content": [{"type", "text"|"tool_calls"|…, "status"}], "meta_data"}],
// "last_error"}` (as LLM-Red-Team/glm-free-api reads it: text accumulated, not deltas).
//
// - A part's `text` items are its text so far, read in snapshot mode (src/providers/snapshot.ts)
//   per part and item; a `<think>…</think>` at the start of a text, or an item of type `think`,
//   is reasoning; the rest is content. Parts follow one another in the channel.
// - A `tool_calls` item is the app running a tool (its search: `{name, arguments}`, the
//   arguments' `search_query[].q` the queries); its results come in the part's
//   `meta_data.tool_result_extra.search_results`, a `browser_result` item or a `quote_result`'s
//   `meta_data.metadata_list`: one tool call named as the tool is (src/providers/search-call.ts),
//   closed when text follows or the reply ends. The answer's citation marks (`【1†source】`) stay.
// - Top-level `status` finish ends the reply (intervene: stopped by the content filter); a
//   `last_error` with a message is a stream error.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { parseJson } from '../core/json-error.js'
import { SearchCalls } from './search-call.js'
import { arr, isObject, quote, str, type JsonObject, OnceDeltas } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0
const THINK = /^\s*<think>([\s\S]*?)(<\/think>|$)/

export const chatglm: ProviderAdapter = {
  id: 'chatglm',
  urlPattern: /(^|\/\/)(chatglm\.cn|chat\.z\.ai)\/chatglm\/backend-api\/assistant\/stream/,
  recognizes(frame) {
    const j = frame.json
    return isObject(j) && Array.isArray(j['parts']) && typeof j['status'] === 'string' && (typeof j['conversation_id'] === 'string' || typeof j['assistant_id'] === 'string')
  },
  createMapper: () => new ChatglmMapper(),
}

/** One text item's two channels as they stand, and where its text starts in each. */
interface Item {
  reasoning: { text: string; start: number } | null
  content: { text: string; start: number } | null
}

class ChatglmMapper implements FrameMapper {
  private readonly items = new Map<string, Item>()
  private readonly length = { content: 0, reasoning: 0 }
  private readonly searches = new Map<string, SearchCalls>()
  private open: SearchCalls | null = null
  /** Searches closed so far: each call's index. */
  private closed = 0
  private readonly once = new OnceDeltas(CHOICE)
  private ended = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json as JsonObject
    const out: Delta[] = []
    this.once.choose(out)
    arr(j['parts']).forEach((part, p) => { if (isObject(part)) this.part(part, p, out) })
    const error = isObject(j['last_error']) ? j['last_error'] : null
    if (error !== null && (str(error['message']) ?? '') !== '') {
      out.push({ type: 'stream-error', message: str(error['message'])!, code: str(error['code']) ?? (typeof error['code'] === 'number' ? error['code'] : null), errorType: null, payload: error })
    }
    const status = str(j['status'])
    if ((status === 'finish' || status === 'intervene') && !this.ended) {
      this.ended = true
      out.push(...this.closeSearch(), { type: 'finish', choice: CHOICE, reason: status }, { type: 'done' })
    }
    return out
  }

  flush(): Delta[] {
    return this.closeSearch()
  }

  private part(part: JsonObject, p: number, out: Delta[]): void {
    if (part['role'] !== undefined && part['role'] !== 'assistant' && part['role'] !== 'tool') return
    const partId = str(part['logic_id']) ?? str(part['id']) ?? `#${p}`
    const meta = isObject(part['meta_data']) ? part['meta_data'] : {}
    arr(part['content']).forEach((c, i) => {
      if (!isObject(c)) return
      const type = str(c['type']) ?? 'text'
      const key = `${partId}/${i}`
      if (type === 'text' || type === 'think') {
        const text = str(c['text']) ?? str(c['think']) ?? ''
        if (text !== '' && type === 'text') out.push(...this.closeSearch())
        this.text(key, type === 'think' ? { reasoning: text, content: null } : split(text), out)
      } else if (type === 'tool_calls' && isObject(c['tool_calls'])) {
        const call = c['tool_calls']
        const search = this.search(partId, str(call['name']) ?? 'tool', out)
        if (search === null) return // its call was emitted: later frames repeat it
        const args = typeof call['arguments'] === 'string' ? parseJson(call['arguments']) : null
        const queries = args !== null && args.ok && isObject(args.value) ? arr(args.value['search_query']).map((q) => isObject(q) && typeof q['q'] === 'string' ? q['q'] : q) : []
        search.replaceQueries(queries)
      } else if (type === 'browser_result' || type === 'quote_result') {
        const results = type === 'quote_result' && isObject(meta) ? arr(meta['metadata_list']) : arr(c['content'])
        if (this.open !== null) this.open.replaceResults(results)
      } else {
        this.once.note(out, `type:${type}`, `content of type ${quote(type)} is not reply text: kept out`)
      }
    })
    const extra = isObject(meta['tool_result_extra']) ? meta['tool_result_extra'] : null
    if (extra !== null && Array.isArray(extra['search_results']) && this.open !== null) this.open.replaceResults(extra['search_results'])
  }

  /** One text item's snapshot, each channel compared with the item's last. */
  private text(key: string, next: { reasoning: string | null; content: string | null }, out: Delta[]): void {
    let item = this.items.get(key)
    if (item === undefined) { item = { reasoning: null, content: null }; this.items.set(key, item) }
    for (const channel of ['reasoning', 'content'] as const) {
      const text = next[channel]
      if (text === null) continue
      let slot = item[channel]
      if (slot === null) { slot = { text: '', start: this.length[channel] }; item[channel] = slot }
      // only the channel's last text can change: an earlier one that does is noted, not applied
      if (slot.start + slot.text.length !== this.length[channel]) {
        if (text !== slot.text) this.once.note(out, `late:${key}`, `an earlier text item (${quote(key)}) changed after another: the change is not applied`)
        continue
      }
      out.push(...snapshotDeltas(slot.text, text, { choice: CHOICE, channel, source: `parts text ${key}`, offset: slot.start }))
      this.length[channel] = slot.start + text.length
      slot.text = text
    }
  }

  /** The search a part's tool call is: opened once per part (a new one closes the last); null once closed. */
  private search(partId: string, name: string, out: Delta[]): SearchCalls | null {
    let s = this.searches.get(partId)
    if (s !== undefined && s !== this.open) return null
    if (s === undefined) {
      out.push(...this.closeSearch())
      s = new SearchCalls({ choice: CHOICE, name })
      this.searches.set(partId, s)
      s.start(partId)
      this.open = s
    }
    return s
  }

  private closeSearch(): Delta[] {
    if (this.open === null) return []
    const deltas = this.open.close().map((d) => d.type === 'tool-call' ? { ...d, key: this.closed++ } : d)
    this.open = null
    return deltas
  }
}

/** A text's leading `<think>…</think>` is reasoning, the rest content. */
function split(text: string): { reasoning: string | null; content: string | null } {
  // "<thi": the tag is still arriving, nothing to show yet
  const head = text.trimStart()
  if (head !== '' && head.length < 7 && '<think>'.startsWith(head)) return { reasoning: null, content: null }
  const m = THINK.exec(text)
  if (m === null) return { reasoning: null, content: text }
  return { reasoning: m[1]!, content: m[2] === '' ? '' : text.slice(m[0].length) }
}
