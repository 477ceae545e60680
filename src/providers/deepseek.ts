// DeepSeek on the web (`POST chat.deepseek.com/api/v0/chat/completion`, and its regenerate,
// continue, edit_message and resume_stream siblings): SSE whose frames are path operations on
// one response object, one choice (0).
//
// - `{"v": {"response": {…, "fragments": [...]}}}` (no path) installs the whole response; later
//   frames change it: `{"p": "response/fragments/-1/content", "o": "APPEND", "v": "…"}`,
//   `"o": "SET"`, `{"p": "response", "o": "BATCH", "v": [{"p": "fragments", "o": "APPEND", …},
//   …]}` (the items' paths relative to the batch's), and a bare `{"v": "…"}` that continues the
//   last path with the last op: the path and the op are sticky, as ChatGPT web's
//   delta_encoding. A path given without an op appends to a `content`, sets anything else.
// - Fragments are the reply's parts, in order, `-1` the latest: THINK is reasoning, RESPONSE
//   (and TEXT) content; SEARCH is the app's web search, `queries` and `results` (`{url, title,
//   snippet, cite_index, site_name…}`, the answer's `[citation:N]` markers pointing at
//   `cite_index`): the tool call `search` (src/providers/search-call.ts), emitted when the next
//   fragment starts, the search fragment's status turns FINISHED, or the response ends.
// - `response/status` FINISHED (or INCOMPLETE, CONTENT_FILTER, FAILED) is the finish and the
//   end; FAILED is also a stream error. `accumulated_token_usage` is the usage.
// - Other events (`event: ready`, `update_session`, `title`, `close`) carry metadata: `close`
//   ends the stream. An error before the stream (`{"code": 40003, "msg": …}`) is a stream error.

import type { Delta, FrameMapper, ParsedFrame, ProviderAdapter } from '../core/adapters.js'
import { SearchCalls } from './search-call.js'
import { arr, index, isObject, quote, str, type JsonObject, OnceDeltas } from './shared.js'
import { snapshotDeltas } from './snapshot.js'

const CHOICE = 0
const OPS: ReadonlySet<string> = new Set(['APPEND', 'SET', 'BATCH'])
const END_STATUSES: ReadonlySet<string> = new Set(['FINISHED', 'INCOMPLETE', 'CONTENT_FILTER', 'FAILED'])

/** An operation on the response object: DeepSeek's paths start at `response`, its ops are upper case. */
function isOperation(j: JsonObject): boolean {
  const p = j['p']
  const o = j['o']
  if (typeof p !== 'string' || !/^response(\/|$)/.test(p) || !('v' in j)) return false
  return o === undefined || (typeof o === 'string' && OPS.has(o))
}

function isSnapshot(j: JsonObject): boolean {
  return j['p'] === undefined && isObject(j['v']) && isObject(j['v']['response']) && Object.keys(j).length === 1
}

export const deepseek: ProviderAdapter = {
  id: 'deepseek',
  urlPattern: /(^|\/\/)chat\.deepseek\.com\/api\/v0\/chat\/(completion|regenerate|continue|edit_message|resume_stream)/,
  recognizes(frame) {
    const j = frame.json
    if (!isObject(j)) return false
    if (frame.event === 'ready') return 'request_message_id' in j || 'response_message_id' in j
    if (frame.event !== null && frame.event !== 'message') return false
    return isSnapshot(j) || isOperation(j)
  },
  createMapper: () => new DeepseekMapper(),
}

interface Fragment {
  type: string
  /** The channel its content goes to; null for a search or an unknown type. */
  channel: 'content' | 'reasoning' | null
  text: string
  /** Characters of the channel before this fragment's text. */
  start: number
}

class DeepseekMapper implements FrameMapper {
  private readonly search = new SearchCalls({ choice: CHOICE, name: 'search' })
  private readonly fragments: Fragment[] = []
  private readonly length = { content: 0, reasoning: 0 }
  private lastPath: string | null = null
  private lastOp: string | null = null
  private readonly once = new OnceDeltas(CHOICE)
  private ended = false

  map(frame: ParsedFrame): Delta[] {
    const j = frame.json
    const out: Delta[] = []
    if (!isObject(j)) return out
    if (frame.event === 'close') {
      out.push(...this.search.close(), { type: 'done' })
      return out
    }
    if (frame.event !== null && frame.event !== 'message') return out // ready, update_session, title: metadata
    if (typeof j['code'] === 'number' && j['code'] !== 0 && typeof j['msg'] === 'string') {
      out.push({ type: 'stream-error', message: j['msg'], code: j['code'], errorType: null, payload: j })
      return out
    }
    if (!('v' in j)) return out
    const given = str(j['p'])
    if (given === null && j['o'] === undefined && isObject(j['v']) && isObject(j['v']['response'])) {
      this.lastPath = null
      this.response(j['v']['response'], out)
      return out
    }
    // a bare {"v": [{p, v}…]} is a batch on the response (the path it would continue holds no list of operations)
    if (given === null && j['o'] === undefined && Array.isArray(j['v']) && j['v'].every((x) => isObject(x) && typeof x['p'] === 'string')) {
      this.batch('response', j['v'], out)
      return out
    }
    const path = given ?? this.lastPath
    if (path === null) {
      this.once.note(out, 'no-path', `a value with no path before any path: ${quote(j['v'])} is not applied`)
      return out
    }
    const op = str(j['o']) ?? (given === null ? this.lastOp : null) ?? (path.endsWith('/content') ? 'APPEND' : 'SET')
    this.lastPath = path
    this.lastOp = op
    this.apply(path, op, j['v'], out)
    return out
  }

  flush(): Delta[] {
    return this.search.close()
  }

  private apply(path: string, op: string, v: unknown, out: Delta[]): void {
    if (op === 'BATCH') { this.batch(path, arr(v), out); return }
    const parts = path.split('/')
    if (parts[0] !== 'response') return
    if (parts.length === 2 && parts[1] === 'fragments') {
      for (const f of Array.isArray(v) ? v : [v]) if (isObject(f)) this.open(f, out)
      return
    }
    if (parts.length === 3 && parts[1] === 'fragments' && op === 'APPEND' && isObject(v)) { this.open(v, out); return }
    if (parts.length === 4 && parts[1] === 'fragments') {
      const f = this.fragment(parts[2]!)
      if (f === null) { this.once.note(out, `missing:${parts[2]}`, `${quote(path)}: there is no fragment ${parts[2]} yet; not applied`); return }
      this.field(f, parts[3]!, op, v, out)
      return
    }
    if (parts.length === 2) this.responseField(parts[1]!, v, out)
  }

  private batch(base: string, items: unknown[], out: Delta[]): void {
    for (const item of items) {
      if (!isObject(item) || typeof item['p'] !== 'string') continue
      const path = item['p'] === '' ? base : `${base}/${item['p']}`
      const op = str(item['o']) ?? (path.endsWith('/content') ? 'APPEND' : 'SET')
      this.apply(path, op, item['v'], out)
    }
  }

  /** The whole response (the first frame): its fragments as they stand, its status. */
  private response(r: JsonObject, out: Delta[]): void {
    this.once.choose(out)
    for (const f of arr(r['fragments'])) if (isObject(f)) this.open(f, out)
    if (typeof r['status'] === 'string') this.responseField('status', r['status'], out)
  }

  private responseField(name: string, v: unknown, out: Delta[]): void {
    if (name === 'status' && typeof v === 'string' && END_STATUSES.has(v) && !this.ended) {
      this.ended = true
      out.push(...this.search.close(), { type: 'finish', choice: CHOICE, reason: v })
      if (v === 'FAILED') out.push({ type: 'stream-error', message: 'the response status is FAILED', code: null, errorType: null, payload: { status: v } })
      out.push({ type: 'done' })
    } else if (name === 'accumulated_token_usage' && typeof v === 'number') {
      out.push({ type: 'usage', usage: { accumulated_token_usage: v } })
    }
  }

  /** A new fragment, the latest: the one before it is over (a search among them emits its call). */
  private open(f: JsonObject, out: Delta[]): void {
    out.push(...this.search.close())
    this.once.choose(out)
    const type = (str(f['type']) ?? 'RESPONSE').toUpperCase()
    const channel = type === 'THINK' ? 'reasoning' : type === 'RESPONSE' || type === 'TEXT' ? 'content' : null
    const frag: Fragment = { type, channel, text: '', start: channel === null ? 0 : this.length[channel] }
    this.fragments.push(frag)
    if (type.includes('SEARCH')) {
      out.push(...this.search.start(f['id'] === undefined ? null : `fragment:${String(f['id'])}`))
      this.search.queries(arr(f['queries']))
      this.search.results(arr(f['results']))
      return
    }
    if (channel === null) this.once.note(out, `type:${type}`, `fragment type ${quote(type)} is not reply text: kept out`)
    if (typeof f['content'] === 'string') this.field(frag, 'content', 'APPEND', f['content'], out)
  }

  private field(f: Fragment, name: string, op: string, v: unknown, out: Delta[]): void {
    if (name === 'content' && typeof v === 'string') {
      if (f.channel === null) return
      const channel = f.channel
      if (op === 'APPEND') {
        if (f !== this.lastIn(channel)) this.once.note(out, 'interleaved', `an earlier ${f.type} fragment grows: its text is appended at the channel's end`)
        f.text += v
        this.length[channel] += v.length
        if (v !== '') out.push({ type: 'text', choice: CHOICE, channel, text: v })
      } else if (f === this.lastIn(channel)) {
        out.push(...snapshotDeltas(f.text, v, { choice: CHOICE, channel, source: `SET ${f.type} content`, offset: f.start }))
        this.length[channel] = f.start + v.length
        f.text = v
      }
      return
    }
    if (!f.type.includes('SEARCH') || f !== this.fragments[this.fragments.length - 1]) return
    if (name === 'results' && Array.isArray(v)) {
      if (op === 'SET') this.search.replaceResults(v)
      else this.search.results(v)
    } else if (name === 'queries' && Array.isArray(v)) {
      this.search.queries(v)
    } else if (name === 'status' && v === 'FINISHED') {
      out.push(...this.search.close())
    }
  }

  /** The fragment at a path's index: `-1` the latest, else its position. */
  private fragment(at: string): Fragment | null {
    const n = at === '-1' ? this.fragments.length - 1 : index(Number(at))
    return n === null || n < 0 ? null : this.fragments[n] ?? null
  }

  private lastIn(channel: 'content' | 'reasoning'): Fragment | null {
    for (let i = this.fragments.length - 1; i >= 0; i--) if (this.fragments[i]!.channel === channel) return this.fragments[i]!
    return null
  }
}
