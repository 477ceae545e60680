// Kimi's older web stream (`POST kimi.moonshot.cn/api/chat/{id}/completion/stream`, until
// the move to Connect in 2025): SSE whose data is `{"event": <name>, …}`, one choice (0).
//
// - `req` (the user's message) and `resp` (the reply's id) open the turn; `debug` may carry
//   the search decision, `{need2search, search_target}`: the target is the search's query;
// - `search_plus`: `msg.type` start / start_res opens the app's search, get_res brings one
//   result `{title, url, successNum}`: the tool call web_search (as on the Connect stream) with its results;
// - `cmpl` `text` is content, `k1` `text` the K1 model's thinking (reasoning), its
//   `search_results` more results; `length` says the reply hit its length limit;
// - `done` ends one segment (the text goes on after it), `all_done` the stream; `error` is a
//   stream error; `ping` a keep-alive.

import type { Delta } from '../core/adapters.js'
import type { SearchCalls } from './search-call.js'
import { arr, isObject, str, type JsonObject } from './shared.js'

const CHOICE = 0

/** The events only this stream sends, each with its own field. */
export function isLegacyKimiFrame(j: JsonObject): boolean {
  switch (j['event']) {
    case 'cmpl': return typeof j['text'] === 'string'
    case 'k1': return typeof j['text'] === 'string' || Array.isArray(j['search_results']) || typeof j['summary'] === 'string'
    case 'search_plus': return isObject(j['msg'])
    case 'all_done': return Object.keys(j).every((k) => k === 'event' || k === 'id' || k === 'group_id')
    case 'resp': return typeof j['group_id'] === 'string'
    default: return false
  }
}

export interface LegacyKimiState {
  search: SearchCalls
  length: boolean
}

export function newLegacyState(search: SearchCalls): LegacyKimiState {
  return { search, length: false }
}

/** `choose(role)` gives the choice delta when the choice is new or gets its role. */
export function mapLegacyKimi(s: LegacyKimiState, j: JsonObject, choose: (role: string | null) => Delta[]): Delta[] {
  const out: Delta[] = []
  switch (j['event']) {
    case 'resp':
      out.push(...choose('assistant'))
      break
    case 'debug': {
      const m = isObject(j['message']) ? j['message'] : {}
      const target = str(m['search_target'])
      if (m['need2search'] === true && target !== null && target !== '') {
        out.push(...s.search.start())
        s.search.queries([target])
      }
      break
    }
    case 'search_plus': {
      const m = isObject(j['msg']) ? j['msg'] : {}
      const type = str(m['type'])
      if (type === 'start' || type === 'start_res') {
        if (!s.search.isOpen) out.push(...s.search.start())
      } else if (type === 'get_res') s.search.results([m])
      break
    }
    case 'cmpl':
    case 'k1': {
      const text = str(j['text'])
      if (Array.isArray(j['search_results'])) s.search.results(arr(j['search_results']))
      if (text !== null && text !== '') {
        out.push(...s.search.close(), ...choose(null))
        out.push({ type: 'text', choice: CHOICE, channel: j['event'] === 'cmpl' ? 'content' : 'reasoning', text })
      }
      break
    }
    case 'length':
      s.length = true
      break
    case 'all_done':
      out.push(...s.search.close(), ...choose(null))
      out.push({ type: 'finish', choice: CHOICE, reason: s.length ? 'length' : 'all_done' }, { type: 'done' })
      break
    case 'error': {
      const e = j['error']
      const message = str(j['text']) ?? (isObject(e) ? str(e['message']) : str(e)) ?? 'error event'
      out.push({ type: 'stream-error', message, code: isObject(e) ? (str(e['error_type']) ?? null) : null, errorType: null, payload: j })
      break
    }
    default:
      break
  }
  return out
}
