// What went wrong, where: frames that failed to parse, errors the provider sent inside the
// stream, and the core's diagnostics. Each names its frame; a click selects it.

import { usePanel } from '../context.js'
import { oneLine } from '../format.js'

export function Problems() {
  const { store, ui } = usePanel()
  const view = store.selection.value
  if (!view) return null
  const { reply, streamErrors, diagnostics } = view
  const go = (frame: number | null) => {
    if (frame === null) return
    store.selectFrame(frame, { scrub: false })
    ui.detailOpen.value = true
  }
  const link = (frame: number | null) =>
    frame === null ? <span>stream</span> : <button type="button" class="ds-link" onClick={() => go(frame)}>frame {frame}</button>
  return (
    <>
      {streamErrors.length > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">errors sent by the provider</div>
          <ul class="ds-list" data-testid="stream-errors">
            {streamErrors.map((s, i) => (
              <li key={i} class="error" data-testid="stream-error" data-frame={s.frame}>
                {link(s.frame)}
                <span>{s.type ? `${s.type}: ` : ''}{s.message}{s.code !== null ? ` (${s.code})` : ''}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {reply.errors.length > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">frames that failed to parse</div>
          <ul class="ds-list" data-testid="frame-errors">
            {reply.errors.map((e) => (
              <li key={e.frame} class="error" data-testid="frame-error" data-frame={e.frame}>
                {link(e.frame)}
                <span>line {e.line}: {e.message}</span>
                <code title={e.raw}>{oneLine(e.raw, 60)}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {diagnostics.length > 0 && (
        <div class="ds-block">
          <div class="ds-section-label">diagnostics</div>
          <ul class="ds-list" data-testid="diagnostics">
            {diagnostics.map((d, i) => (
              <li key={i} class={d.level} data-testid="diagnostic" data-code={d.code}>
                {link(d.frame)}
                <span>{d.message}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  )
}
