// A chat app's own web search as a tool call (DeepSeek, Kimi, Qwen, Doubao, ChatGLM, Yuanbao):
// the apps run the search on their servers and stream its queries and results in frames of
// their own, a few at a time, before (or between) the answer's text. The Reply has one place
// for such a thing, a tool call: named as the app names it, its arguments the JSON text
// `{"queries": [...], "results": [...]}` with the app's result objects as they came (their
// citation indexes kept, so the answer's `[citation:1]` or `[^1^]` markers can be followed).
//
// The call is emitted once, whole, when the search ends (the app's next block, its finish, or
// the end of the stream): its arguments are then the exact JSON of everything it sent, and
// the frame that ended it is credited with the call.

import type { Delta } from '../core/adapters.js'

export interface SearchCallOptions {
  choice: number
  /** The tool's name as the app gives it (web_search, search, …). */
  name: string
}

export class SearchCalls {
  private open: { id: string | null; queries: unknown[]; results: unknown[] } | null = null
  private count = 0

  constructor(private readonly options: SearchCallOptions) {}

  /** True while a search is collecting queries and results. */
  get isOpen(): boolean {
    return this.open !== null
  }

  /** Starts a search (closing the one before, whose deltas are returned). */
  start(id: string | null = null): Delta[] {
    const out = this.close()
    this.open = { id, queries: [], results: [] }
    return out
  }

  /** Queries of the open search (one is started if none is). */
  queries(values: readonly unknown[]): void {
    this.ensure().queries.push(...values)
  }

  /** Results of the open search (one is started if none is). */
  results(values: readonly unknown[]): void {
    this.ensure().results.push(...values)
  }

  /** The open search's queries, all of them: a whole list sent again (one is started if none is). */
  replaceQueries(values: readonly unknown[]): void {
    this.ensure().queries = [...values]
  }

  /** The open search's results, all of them: a SET of the list (one is started if none is). */
  replaceResults(values: readonly unknown[]): void {
    this.ensure().results = [...values]
  }

  /** The open search as one whole tool call; none when no search is open. */
  close(): Delta[] {
    const s = this.open
    if (s === null) return []
    this.open = null
    const key = this.count++
    return [{
      type: 'tool-call', choice: this.options.choice, key, id: s.id, name: this.options.name, callType: null,
      arguments: JSON.stringify({ queries: s.queries, results: s.results }),
    }]
  }

  private ensure(): { id: string | null; queries: unknown[]; results: unknown[] } {
    if (this.open === null) this.open = { id: null, queries: [], results: [] }
    return this.open
  }
}
