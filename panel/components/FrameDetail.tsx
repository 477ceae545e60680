// One frame in full: where it sits in the body, its raw text, and its JSON as a tree.
// For a broken frame, the parser's message and the spot it points at; for the partial last
// frame of a stream the page cancelled, that it is incomplete (not malformed).

import { formatBytes, formatClock } from '../format.js'
import { usePanel } from '../context.js'
import { JsonTree } from './JsonTree.js'
import { LongText } from './LongText.js'
import { VisibleText } from './VisibleText.js'

/** Characters of a broken frame's data shown before the error (the rest: Copy data). */
const BEFORE_ERROR = 2_000

function Before({ text, cut }: { text: string; cut: number }) {
  return <>{cut > 0 && <span class="ds-cut" data-testid="long-cut-before" contentEditable={false} style={{ userSelect: 'none' }}>… {cut.toLocaleString('en')} characters before (Copy data has them) … </span>}<VisibleText text={text} /></>
}

export function FrameDetail({ seq }: { seq: number }) {
  const { store, shell, ui } = usePanel()
  store.version.value // re-read when the body grows (an unterminated last frame can change)
  const frame = store.frame(seq)
  if (!frame) return null
  const incomplete = store.selection.value?.row.partialFrame === seq
  const error = incomplete ? undefined : frame.error
  return (
    <section class="ds-detail" aria-label={`Frame ${seq}`} data-testid="frame-detail">
      <div class="ds-detail-head">
        <b>Frame {frame.seq}</b>
        <span>{incomplete ? 'incomplete' : frame.kind === 'invalid' ? 'broken' : frame.kind}</span>
        {frame.event !== null && <span>event <b>{frame.event}</b></span>}
        {frame.id !== null && <span>id {frame.id}</span>}
        <span>line {frame.line}</span>
        <span title="byte offsets in the body">bytes {frame.byteStart}–{frame.byteEnd} ({formatBytes(frame.byteEnd - frame.byteStart)})</span>
        {frame.time !== null && <span>{formatClock(frame.time)}</span>}
        {frame.unterminated && !incomplete && <span class="ds-badge bad">not ended by a blank line</span>}
        <span class="ds-spacer" />
        <button type="button" class="ds-button" onClick={() => void copy(frame.data)}>Copy data</button>
        <button type="button" class="ds-button" aria-label="Close frame" onClick={() => { ui.detailOpen.value = false }}>✕</button>
      </div>
      <div class="ds-detail-body">
        {incomplete && (
          <p class="ds-status" data-testid="frame-detail-incomplete">
            Incomplete: the page cancelled the stream while this frame was arriving, so its data stops where the stream did.
          </p>
        )}
        {error && (
          <>
            <p class="ds-error-text" data-testid="frame-detail-error">
              line {frame.line}, position {error.position}: {error.message}
            </p>
            <div class="ds-section-label">data, at the error</div>
            <pre class="ds-raw">
              <Before text={frame.data.slice(Math.max(0, error.position - BEFORE_ERROR), error.position)} cut={Math.max(0, error.position - BEFORE_ERROR)} />
              <span class="caret"><VisibleText text={frame.data.slice(error.position, error.position + 1) || ' '} /></span>
              <LongText text={frame.data.slice(error.position + 1)} copyText={frame.data} what={`frame ${seq}'s data`} />
            </pre>
          </>
        )}
        <div class="ds-section-label">raw</div>
        <pre class="ds-raw" data-testid="frame-raw"><LongText text={frame.raw} what={`frame ${seq}'s raw text`} /></pre>
        {frame.kind === 'data' && (
          <>
            <div class="ds-section-label">JSON</div>
            <JsonTree value={frame.json} />
          </>
        )}
      </div>
    </section>
  )

  async function copy(text: string) {
    try {
      await shell.copy(text)
      ui.status.value = `Copied frame ${seq}'s data`
    } catch {
      ui.status.value = 'Copy failed'
    }
  }
}
