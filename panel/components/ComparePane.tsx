// "Compare with my client": paste or drop what the user's client rebuilt (its text, or its
// final object as JSON), or pick another request, and see each field ✓ or ✗, the first
// difference with its context and its frame, and the cause in words. The frame is selected by
// the compare event itself; the reply marks the fields that differ (ReplyView).

import { useState } from 'preact/hooks'
import { COMPARE_CAUSES } from '../../src/debug/compare-causes.js'
import type { Difference } from '../../src/debug/compare-types.js'
import { showFrame, usePanel } from '../context.js'
import { oneLine } from '../format.js'
import type { ComparisonView } from '../store/index.js'
import { CompareRequestSelect } from './CompareRequestSelect.js'
import { PageCompareControls } from './PageCompareControls.js'
import { VisibleText } from './VisibleText.js'

/** Characters of context shown on each side of the first differing character. */
const CONTEXT = 30
/** Differences listed after the first (the rest are counted). */
const LISTED = 20

export function ComparePane() {
  const { store, ui } = usePanel()
  const view = store.selection.value
  const [text, setText] = useState('')
  const [label, setLabel] = useState<string | undefined>(undefined)
  if (!view) return null
  const comparison = store.comparison.value
  const mine = comparison !== null && comparison.id === view.id ? comparison : null
  const others = store.requests.value.length - (store.requests.value.some((r) => r.id === view.id) ? 1 : 0)

  const compare = () => {
    store.apply({ type: 'compare', id: view.id, against: label === undefined ? { client: text } : { client: text, label } })
    ui.detailOpen.value = true
  }
  const compareRequest = (other: string) => {
    if (other === '') return
    store.apply({ type: 'compare', id: view.id, against: { request: other } })
    ui.detailOpen.value = true
  }
  const onDrop = (e: DragEvent) => {
    const file = e.dataTransfer?.files[0]
    if (!file) return
    e.preventDefault()
    void file.text().then((t) => { setText(t); setLabel(`${file.name}`) })
  }

  return (
    <details class="ds-block ds-compare" open={mine !== null || undefined} data-testid="compare">
      <summary class="ds-section-label">Compare with my client</summary>
      <textarea
        class="ds-compare-input"
        aria-label="Your client's result"
        data-testid="compare-input"
        rows={3}
        spellcheck={false}
        placeholder="Paste or drop what your client rebuilt: its text, or its final object as JSON (an OpenAI completion, an Anthropic message, a Gemini response, Ollama's final object, an AI SDK UIMessage, a Deltascope Reply)"
        value={text}
        onInput={(e) => { setText((e.target as HTMLTextAreaElement).value); setLabel(undefined) }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={onDrop}
      />
      <div class="ds-compare-actions">
        <button type="button" class="ds-button" data-testid="compare-run" onClick={compare}>Compare</button>
        {others > 0 && (
          <label>
            or diff with{' '}
            <CompareRequestSelect id={view.id} onPick={compareRequest} />
          </label>
        )}
        {mine && <button type="button" class="ds-link" data-testid="compare-clear" onClick={() => store.apply({ type: 'compare-clear' })}>clear</button>}
      </div>
      <PageCompareControls id={view.id} />
      {mine && <ComparisonResult comparison={mine} />}
    </details>
  )
}

function ComparisonResult({ comparison }: { comparison: ComparisonView }) {
  const { store, ui } = usePanel()
  const { result } = comparison
  const go = (frame: number | null) => {
    if (frame === null) return
    store.selectFrame(frame, { scrub: false })
    showFrame(ui)
  }
  const [first, ...rest] = result.differences
  return (
    <div class="ds-compare-result" data-testid="compare-result" data-equal={String(result.equal)}>
      <div class={result.equal ? 'ds-ok' : 'ds-error-text'} data-testid="compare-verdict">
        {result.equal
          ? `Equal: ${comparison.label} matches the reply rebuilt here.`
          : `${result.differences.length} difference${result.differences.length === 1 ? '' : 's'} from ${comparison.label}.`}
      </div>
      {comparison.page && (
        <div class="ds-page-how" data-testid="compare-page-how" data-method={comparison.page.method}>
          {comparison.page.method === 'markdown' ? `Compared with the reply's Markdown rendered to text (${comparison.page.renderer}), white space normalised.` : "Compared with the reply's raw text, white space normalised."}
          {comparison.page.notes.map((n, i) => <div key={i}>{n}</div>)}
        </div>
      )}
      <ul class="ds-list ds-fields" data-testid="compare-fields">
        {comparison.fields.map((f) => (
          <li key={f.field} class={f.equal ? 'ok' : 'error'} data-testid="compare-field" data-field={f.field} data-equal={String(f.equal)}>
            <span aria-hidden="true">{f.equal ? '✓' : '✗'}</span> <code>{f.field}</code>
          </li>
        ))}
        {result.notCompared.length > 0 && (
          <li class="info" data-testid="compare-not-compared">not compared ({comparison.page ? "the page's text does not carry them" : 'your result does not carry them'}): {result.notCompared.join(', ')}</li>
        )}
      </ul>
      {first && <FirstDifference d={first} onGo={go} theirs={comparison.page ? 'the page' : 'your client'} />}
      {rest.length > 0 && (
        <ul class="ds-list" data-testid="compare-differences">
          {rest.slice(0, LISTED).map((d, i) => (
            <li key={i} class="error">
              {d.frame !== null ? <button type="button" class="ds-link" onClick={() => go(d.frame)}>frame {d.frame}</button> : <span>—</span>}
              <span><code>{d.field}</code> <b>{d.cause}</b>: {d.message}</span>
            </li>
          ))}
          {rest.length > LISTED && <li class="info">… {rest.length - LISTED} more</li>}
        </ul>
      )}
      {comparison.aligned && <AlignedFrames comparison={comparison} onGo={go} />}
    </div>
  )
}

function FirstDifference({ d, onGo, theirs }: { d: Difference; onGo: (frame: number | null) => void; theirs: string }) {
  return (
    <div class="ds-first-diff" data-testid="compare-first" data-field={d.field} data-cause={d.cause} data-frame={d.frame ?? undefined}>
      <div>
        First difference in <code>{d.field}</code>
        {d.offset !== null && <> at character {d.offset}</>}
        {d.frame !== null && <>, from <button type="button" class="ds-link" data-testid="compare-frame" onClick={() => onGo(d.frame)}>frame {d.frame}</button></>}
      </div>
      <div class="ds-cause" data-testid="compare-cause"><b>{d.cause}</b>: {COMPARE_CAUSES[d.cause]}</div>
      <div data-testid="compare-message">{d.message}</div>
      {typeof d.expected === 'string' && typeof d.got === 'string' && d.offset !== null && (
        <table class="ds-context">
          <tbody>
            <tr><th>expected</th><td><Context text={d.expected} at={d.offset} /></td></tr>
            <tr><th>{theirs}</th><td><Context text={d.got} at={d.offset} /></td></tr>
          </tbody>
        </table>
      )}
    </div>
  )
}

/** The text around `at`, the character at `at` marked. */
function Context({ text, at }: { text: string; at: number }) {
  const from = Math.max(0, at - CONTEXT)
  const to = Math.min(text.length, at + CONTEXT)
  return (
    <code class="ds-text mono">
      {from > 0 && '…'}<VisibleText text={text.slice(from, at)} />
      <mark><VisibleText text={text.slice(at, at + 1) || '∅'} /></mark>
      <VisibleText text={text.slice(at + 1, to)} />{to < text.length && '…'}
    </code>
  )
}

function AlignedFrames({ comparison, onGo }: { comparison: ComparisonView; onGo: (frame: number | null) => void }) {
  return (
    <table class="ds-aligned" data-testid="compare-aligned">
      <thead><tr><th>frame</th><th>this request</th><th>the other</th></tr></thead>
      <tbody>
        {comparison.aligned!.map((row) => (
          <tr key={row.seq} class={row.same ? undefined : 'differs'} data-testid="aligned-row" data-seq={row.seq} data-same={String(row.same)}>
            <td><button type="button" class="ds-link" onClick={() => onGo(row.seq)}>{row.seq}</button></td>
            <td><code>{row.a === null ? '—' : oneLine(row.a, 120)}</code></td>
            <td><code>{row.b === null ? '—' : oneLine(row.b, 120)}</code></td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
