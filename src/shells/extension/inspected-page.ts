// The shell's side of "Compare with the page": the fixed page script (page-script.ts) run
// through devtools.inspectedWindow.eval, and what comes back checked field by field, since
// the page's code can return anything. Errors are values (a sentence).

import browser from 'webextension-polyfill'
import type { InspectedPage, PageQuery, PickState } from '../../../panel/shell.js'
import { isObject, num, readElement } from './page-answer.js'
import { pageCall, type PageOp } from './page-script.js'

/** Both browsers resolve eval with [result, exceptionInfo]. */
type EvalAnswer = [unknown, { isException?: boolean; isError?: boolean; value?: unknown; description?: string; code?: string } | undefined]

async function call(op: PageOp, args: unknown = {}): Promise<{ ok: true; value: unknown } | { ok: false; why: string }> {
  try {
    const answer = (await browser.devtools.inspectedWindow.eval(pageCall(op, args))) as unknown as EvalAnswer | unknown
    const [value, error] = Array.isArray(answer) ? (answer as EvalAnswer) : [answer, undefined]
    if (error && (error.isException || error.isError)) return { ok: false, why: `The page's script failed: ${String(error.value ?? error.description ?? error.code ?? 'unknown error').slice(0, 200)}` }
    return { ok: true, value }
  } catch (e) {
    return { ok: false, why: `Could not run in the page: ${e instanceof Error ? e.message : String(e)}` }
  }
}

function query(q: PageQuery): Record<string, unknown> {
  return { selector: q.selector, index: q.index ?? null, expected: q.expected.slice(0, 200_000) }
}

export function createInspectedPage(): InspectedPage {
  return {
    async origin() {
      const r = await call('origin')
      return r.ok && typeof r.value === 'string' ? r.value.slice(0, 500) : ''
    },
    async probe(q) {
      const r = await call('probe', query(q))
      return r.ok ? readElement(r.value) : r.why
    },
    async read(q) {
      const r = await call('read', query(q))
      return r.ok ? readElement(r.value) : r.why
    },
    async pickStart() {
      const r = await call('pick-start')
      return r.ok ? true : r.why
    },
    async pickPoll(): Promise<PickState | string> {
      const r = await call('pick-poll')
      if (!r.ok) return r.why
      const v = r.value
      if (!isObject(v)) return { state: 'none' }
      if (v['state'] === 'picked' && typeof v['selector'] === 'string') return { state: 'picked', selector: v['selector'].slice(0, 2000), index: num(v['index'], -1) }
      return { state: v['state'] === 'picking' ? 'picking' : v['state'] === 'cancelled' ? 'cancelled' : 'none' }
    },
    async pickCancel() {
      await call('pick-cancel')
    },
  }
}
