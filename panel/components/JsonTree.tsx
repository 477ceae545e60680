// A collapsible JSON tree. Values are rendered as text; children are built only when opened.

import { useMemo, useState } from 'preact/hooks'
import { DISPLAY_CUT } from '../long-text.js'
import { LongText } from './LongText.js'
import { VisibleText } from './VisibleText.js'

const MAX_CHILDREN = 200
/**
 * Levels shown before a branch stops opening: captured JSON can nest thousands of levels, and
 * each shown level is a component deeper in the render (the raw text has the rest).
 */
export const MAX_TREE_DEPTH = 100

export function JsonTree({ value }: { value: unknown }) {
  return (
    <div class="ds-json" role="tree" data-testid="json-tree">
      <JsonNode name={null} value={value} depth={0} />
    </div>
  )
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const isArray = Array.isArray(value)
  const isObject = value !== null && typeof value === 'object'
  const [open, setOpen] = useState(depth < 3)
  const [limit, setLimit] = useState(MAX_CHILDREN)
  const key = name === null ? null : <><span class="ds-json-key"><VisibleText text={name} /></span>: </>
  if (!isObject) {
    return (
      <div class="ds-json-row" role="treeitem">
        {key}
        <Primitive value={value} />
      </div>
    )
  }
  const entries: Array<[string, unknown]> = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.keys(value as object).map((k) => [k, (value as Record<string, unknown>)[k]])
  const summary = isArray ? `Array(${entries.length})` : entries.length === 0 ? '{}' : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`
  if (entries.length === 0) {
    return <div class="ds-json-row" role="treeitem">{key}<span class="ds-json-summary">{isArray ? '[]' : '{}'}</span></div>
  }
  if (depth >= MAX_TREE_DEPTH) {
    return (
      <div class="ds-json-row" role="treeitem" data-testid="json-too-deep">
        {key}<span class="ds-json-summary">{summary} · nested deeper than {MAX_TREE_DEPTH} levels: see the raw text</span>
      </div>
    )
  }
  return (
    <div role="treeitem" aria-expanded={open}>
      <div class="ds-json-row">
        <button type="button" class="ds-json-toggle" onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'}>
          {open ? '▾' : '▸'}
        </button>
        {key}
        <span class="ds-json-summary">{summary}</span>
      </div>
      {open && (
        <div class="ds-json-children" role="group">
          {entries.slice(0, limit).map(([k, v]) => <JsonNode key={k} name={k} value={v} depth={depth + 1} />)}
          {entries.length > limit && (
            <button type="button" class="ds-link" onClick={() => setLimit(limit + MAX_CHILDREN)}>
              … {entries.length - limit} more
            </button>
          )}
        </div>
      )}
    </div>
  )
}

function Primitive({ value }: { value: unknown }) {
  if (typeof value === 'string') return value.length > DISPLAY_CUT ? <LongString value={value} /> : <span class="ds-json-string"><VisibleText text={JSON.stringify(value)} /></span>
  if (typeof value === 'number') return <span class="ds-json-number">{String(value)}</span>
  return <span class="ds-json-literal">{String(value)}</span>
}

/** A long string value: its JSON cut for display; copy all gives the string itself. */
function LongString({ value }: { value: string }) {
  const json = useMemo(() => JSON.stringify(value), [value])
  return <span class="ds-json-string" data-testid="json-long-string"><LongText text={json} copyText={value} what="string" /></span>
}
