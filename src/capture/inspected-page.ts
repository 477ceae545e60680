// The shell's side of "Compare with the page": the fixed page script (page-script.ts) run
// through devtools.inspectedWindow.eval, and what comes back checked field by field, since
// the page's code can return anything. Errors are values (a sentence).

import browser from 'webextension-polyfill'
import type { InspectedPage, PageElement, PageQuery, PickState } from '../../panel/shell.js'
import { PAGE_TEXT_LIMIT, pageCall, type PageOp } from './page-script.js'

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback
}

function str(v: unknown, max: number): string | null {
  return typeof v === 'string' ? v.slice(0, max) : null
}

/** The page's answer as a PageElement, or why it is not one. */
export function readElement(v: unknown): PageElement | string {
  if (!isObject(v)) return 'The page answered nothing readable.'
  if (typeof v['error'] === 'string') return v['error'].slice(0, 300)
  const r = v['rect']
  const rect = isObject(r) ? { x: num(r['x'], 0), y: num(r['y'], 0), width: num(r['width'], 0), height: num(r['height'], 0) } : null
  const out: PageElement = {
    found: v['found'] === true, selector: str(v['selector'], 2000), count: num(v['count'], 0), index: num(v['index'], -1),
    length: num(v['length'], 0), digest: str(v['digest'], 100) ?? '', rect,
  }
  if (typeof v['text'] === 'string') {
    out.text = v['text'].slice(0, PAGE_TEXT_LIMIT)
    out.cut = v['cut'] === true || v['text'].length > PAGE_TEXT_LIMIT
    const parts = Array.isArray(v['parts']) ? v['parts'].slice(0, 200) : []
    out.parts = parts.flatMap((x: unknown) => (isObject(x) && typeof x['text'] === 'string'
      ? [{ kind: x['kind'] === 'details' ? 'details' as const : 'button' as const, text: x['text'].slice(0, 100_000) }]
      : []))
  }
  return out
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
