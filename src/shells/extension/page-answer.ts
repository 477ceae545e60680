// What the page's script answered, read field by field: the page's code is untrusted and can
// return anything (a getter that throws is not possible here: eval answers plain JSON values,
// but any shape). Pure: the shell's inspected-page.ts uses it, tests read it directly.

import type { PageElement } from '../../../panel/shell.js'
import { PAGE_TEXT_LIMIT } from './page-script.js'

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export function num(v: unknown, fallback: number): number {
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
