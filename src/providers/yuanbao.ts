// Yuanbao (腾讯元宝) on the web (`POST yuanbao.tencent.com/api/chat/{conversation_id}`): SSE of
// `{"type": …}` objects, one choice (0):
//
// - `text` with `msg` is the answer, as deltas (a `text` without `msg` marks its start);
// - `think` `content` is the thinking (reasoning), as deltas;
// - `searchGuid` `{docs: [{index, title, url, quote, web_site_name…}], citations}` is the app's
//   search: the tool call search with the docs as its results (src/providers/search-call.ts);
//   the answer cites them as `[citation:n]`. `step` `{msg, scene}` says what the app is doing;
//   `meta`, `replace`, `hint_v2_tip` are page furniture: none of them is the reply;
// - `[DONE]` ends the stream; `error` is a stream error.
//
// Between them the app sends SSE data that is not JSON (`event: speech_type` with `data:
// status` or `data: search_with_text`, labels for what follows): those frames are listed as
// invalid, as a client that parses every data line would fail on them.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { SearchCalls } from './search-call.js'
import { arr, isObject, quote, str, type JsonObject, OnceDeltas } from './shared.js'

const CHOICE = 0
const FURNITURE: ReadonlySet<string> = new Set(['step', 'meta', 'replace', 'hint_v2_tip', 'hint', 'progress'])

/** The frame types only Yuanbao sends, each with its own field. */
function isYuanbaoFrame(j: JsonObject): boolean {
  switch (j['type']) {
    case 'text': return typeof j['msg'] === 'string' || Object.keys(j).length === 1
    case 'think': return typeof j['content'] === 'string' && ('title' in j || 'iconType' in j)
    case 'searchGuid': return Array.isArray(j['docs'])
    case 'step': return typeof j['msg'] === 'string' && typeof j['scene'] === 'string'
    default: return false
  }
}

export const yuanbao: ProviderAdapter = {
  id: 'yuanbao',
  urlPattern: /(^|\/\/)yuanbao\.tencent\.com\/api\/chat\//,
  recognizes: (frame) => isObject(frame.json) && isYuanbaoFrame(frame.json),
  createMapper: () => new YuanbaoMapper(),
}

class YuanbaoMapper implements FrameMapper {
  private readonly search = new SearchCalls({ choice: CHOICE, name: 'search' })
  private readonly once = new OnceDeltas(CHOICE)

  map(frame: ParsedFrame): Delta[] {
    const out: Delta[] = []
    if (!isObject(frame.json)) return out
    const j = frame.json
    const type = str(j['type']) ?? ''
    this.once.choose(out)
    switch (type) {
      case 'text': {
        const msg = str(j['msg'])
        if (msg !== null && msg !== '') out.push(...this.search.close(), { type: 'text', choice: CHOICE, channel: 'content', text: msg })
        break
      }
      case 'think': {
        const content = str(j['content'])
        if (content !== null && content !== '') out.push({ type: 'text', choice: CHOICE, channel: 'reasoning', text: content })
        break
      }
      case 'searchGuid':
        out.push(...this.search.start(str(j['docId']) ?? null))
        this.search.results(arr(j['docs']))
        break
      case 'error':
        out.push({ type: 'stream-error', message: str(j['msg']) ?? str(j['message']) ?? 'error', code: str(j['code']) ?? (typeof j['code'] === 'number' ? j['code'] : null), errorType: null, payload: j })
        break
      default:
        if (!FURNITURE.has(type) && this.once.first(type)) {
          out.push({ type: 'note', level: 'info', message: `frame type ${quote(type)} is not reply text: kept out` })
        }
    }
    return out
  }

  flush(): Delta[] {
    return this.search.close()
  }
}
