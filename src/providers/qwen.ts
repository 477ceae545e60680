// Qwen on the web, one choice (0). Two apps:
//
// 1. Qwen Chat (`POST chat.qwen.ai/api/v2/chat/completions?chat_id=…`, and its chat.qwen.ai v1
//    and qianwen.com twins): SSE of OpenAI-like chunks whose delta says which part of the
//    reply it is: `{"choices": [{"delta": {"role", "content", "phase", "status", "extra"}}]}`.
//    - `phase: "think"` is reasoning, `"answer"` (or no phase) content; `"thinking_summary"` is
//      the app's summary of the thinking, shown instead of it: kept out (noted once);
//    - `phase: "web_search"` is the app's search: its `function_call` `{name, arguments:
//      "{\"queries\": …}"}` gives the queries, `extra.web_search_info` the results (`{url,
//      title, snippet, hostname…}`, cited in the answer as `[[n]]`): the tool call web_search
//      (src/providers/search-call.ts), closed when the next phase starts;
//    - `status: "finished"` on the answer (or a `finish_reason`) is the finish; `usage` the
//      usage; `[DONE]` the end. `{"response.created": {chat_id, response_id…}}` opens it.
// 2. Tongyi (`POST qianwen.biz.aliyun.com/dialog/conversation`, tongyi.com, as
//    LLM-Red-Team/qwen-free-api reads it): every frame the whole message so far,
//    `{"msgStatus": "generating"|"finished", "contentType", "contents": [{"contentType",
//    "role", "content", "id"}], "sessionId", "msgId", "canShare"}`: the assistant's `text`
//    contents are the content, in snapshot mode (src/providers/snapshot.ts); `msgStatus`
//    finished is the finish and the end; `canShare: false` is a content filter, an
//    `errorCode` a stream error.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { parseJson } from '../core/json-error.js'
import { SearchCalls } from './search-call.js'
import { arr, errorDelta, isObject, quote, str, usageObject, type JsonObject, OnceDeltas } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0

/** A Qwen Chat chunk: an OpenAI-like choice whose delta names its phase (no OpenAI delta does). */
function qwenDelta(j: JsonObject): JsonObject | null {
  const c = arr(j['choices'])[0]
  if (!isObject(c) || !isObject(c['delta'])) return null
  return c['delta']
}

function isTongyiFrame(j: JsonObject): boolean {
  return typeof j['msgStatus'] === 'string' && Array.isArray(j['contents']) && typeof j['sessionId'] === 'string'
}

export const qwen: ProviderAdapter = {
  id: 'qwen',
  urlPattern: /(^|\/\/)(chat\.qwen\.ai|(www\.)?qianwen\.com|chat2\.qianwen\.com)\/api\/(v\d\/)?chat\/completions|(^|\/\/)(qianwen\.biz\.aliyun\.com|api\.(tongyi|qianwen)\.com|(www\.)?tongyi\.com)\/dialog\/conversation/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    if (isObject(j['response.created'])) return true
    const d = qwenDelta(j)
    if (d !== null) return typeof d['phase'] === 'string'
    return isTongyiFrame(j)
  },
  createMapper: () => new QwenMapper(),
}

class QwenMapper implements FrameMapper {
  private readonly search = new SearchCalls({ choice: CHOICE, name: 'web_search' })
  private phase: string | null = null
  private readonly once = new OnceDeltas(CHOICE)
  private finished = false
  private snapshot = ''

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    const out: Delta[] = []
    if (!isObject(j)) return out
    if (isObject(j['response.created'])) { this.once.choose(out); return out }
    if (isTongyiFrame(j)) { this.tongyi(j, out); return out }
    const error = errorDelta(j)
    if (error !== null) { out.push(error); return out }
    if (j['success'] === false) {
      const data = isObject(j['data']) ? j['data'] : {}
      out.push({ type: 'stream-error', message: str(data['details']) ?? str(j['message']) ?? 'success: false', code: str(data['code']), errorType: null, payload: j })
      return out
    }
    const c = arr(j['choices'])[0]
    const d = qwenDelta(j)
    if (d !== null) this.chunk(d, out)
    if (isObject(c) && typeof c['finish_reason'] === 'string') this.finish(out, c['finish_reason'])
    const usage = usageObject(j['usage'])
    if (usage !== null) out.push({ type: 'usage', usage })
    return out
  }

  flush(): Delta[] {
    return this.search.close()
  }

  private chunk(d: JsonObject, out: Delta[]): void {
    this.once.choose(out)
    // a chunk without a phase is the answer's (Qwen Chat's own clients read it so)
    const phase = str(d['phase']) ?? 'answer'
    if (phase !== this.phase) {
      out.push(...this.search.close())
      this.phase = phase
    }
    const content = str(d['content']) ?? ''
    if (phase === 'web_search') {
      if (!this.search.isOpen) out.push(...this.search.start(str(d['function_id'])))
      const call = isObject(d['function_call']) ? d['function_call'] : null
      if (call !== null && typeof call['arguments'] === 'string') {
        const args = parseObject(call['arguments'])
        if (args !== null) this.search.queries(arr(args['queries']))
      }
      const extra = isObject(d['extra']) ? d['extra'] : {}
      this.search.results(arr(extra['web_search_info']))
      if (d['status'] === 'finished') out.push(...this.search.close())
      return
    }
    if (phase === 'think' || phase === 'answer') {
      if (content !== '') out.push({ type: 'text', choice: CHOICE, channel: phase === 'think' ? 'reasoning' : 'content', text: content })
      if (phase === 'answer' && d['status'] === 'finished') this.finish(out, 'finished')
      return
    }
    this.once.note(out, `phase:${phase}`, `phase ${quote(phase)} is not reply text: kept out`)
  }

  /** Tongyi: the whole message each frame; its assistant text contents, joined, are the content. */
  private tongyi(j: JsonObject, out: Delta[]): void {
    this.once.choose(out)
    let text = ''
    for (const part of arr(j['contents'])) {
      if (!isObject(part) || (part['role'] !== undefined && part['role'] !== 'assistant')) continue
      const type = str(part['contentType']) ?? 'text'
      if (type === 'text' && typeof part['content'] === 'string') text += part['content']
      else this.once.note(out, `tongyi:${type}`, `contents of type ${quote(type)} are not reply text: kept out`)
    }
    out.push(...snapshotDeltas(this.snapshot, text, { choice: CHOICE, channel: 'content', source: 'contents' }))
    this.snapshot = text
    if (j['msgStatus'] !== 'finished') return
    if (j['errorCode'] !== undefined && j['errorCode'] !== null && j['errorCode'] !== '') {
      out.push({ type: 'stream-error', message: str(j['errorMsg']) ?? `error code ${String(j['errorCode'])}`, code: str(j['errorCode']), errorType: null, payload: j })
    }
    this.finish(out, j['canShare'] === false ? 'content_filter' : 'finished')
    out.push({ type: 'done' })
  }

  private finish(out: Delta[], reason: string): void {
    if (this.finished) return
    this.finished = true
    out.push(...this.search.close(), { type: 'finish', choice: CHOICE, reason })
  }
}

/** The search's arguments, when they are a JSON object (a broken one gives no queries). */
function parseObject(text: string): JsonObject | null {
  const parsed = parseJson(text)
  return parsed.ok && isObject(parsed.value) ? parsed.value : null
}
