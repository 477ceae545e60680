// "Read this stream as…": for a stream no adapter reads (generic) or one read with rules, a
// small editor of user rules (README "Reading any stream with rules"). It opens with rules
// suggested from the frames (string fields that grow across frames, finish-reason-like fields),
// lists the other text candidates, previews the reply live as the rules are edited, and applies
// them: the request is read again with them, and they are saved for URLs matching a pattern
// (store/rules.ts). Plain text fields only: nothing typed or captured is ever markup.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Rules } from '../../src/library.js'
import { usePanel } from '../context.js'
import { formatBytes } from '../format.js'
import { useAnchoredPopover, usePopoverToggle } from './popover.js'
import { defaultPattern, PREVIEW_BYTES, previewRules, SUGGEST_LAST_FRAMES, SUGGEST_TAIL_BYTES, suggestFor, type Preview, type RulesSource } from '../store/rules.js'

/** The button, beside the provider: shown for a stream read as generic or with rules. */
export function RulesButton() {
  const { store } = usePanel()
  const view = store.selection.value
  const { open, toggle, close, button } = usePopoverToggle()
  if (!view) return null
  const withRules = view.row.forced.rules !== undefined
  if (!withRules && view.latest.provider !== 'generic') return null
  return (
    <>
      <button
        ref={button}
        type="button"
        class="ds-button"
        data-testid="rules-open"
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Say where this stream keeps its text, reasoning, tool calls and finish reason"
        onClick={toggle}
      >
        {withRules ? 'Rules…' : 'Read this stream as…'}
      </button>
      {open && <RulesEditor id={view.id} anchor={button.current} onClose={close} />}
    </>
  )
}

interface EditorProps { id: string; anchor: HTMLElement | null; onClose: (restore: boolean) => void }

/**
 * Reads the head of the request's body once when the editor opens (PREVIEW_BYTES, from where
 * the store keeps it), and of a longer body its last frames: the suggestion and each
 * keystroke's preview read no more, so a 64 MB body is neither copied to this thread nor
 * merged again here.
 */
function RulesEditor(props: EditorProps) {
  const { store } = usePanel()
  const [head, setHead] = useState<{ id: string; source: EditorSource } | null>(null)
  useEffect(() => {
    let current = true
    const view = store.selection.peek()
    if (!view || view.id !== props.id) return
    const { request, row } = view
    // past the head, the end of the body too (none of it in the head): the suggestion reads its last frames there
    const after = row.bytes - PREVIEW_BYTES
    void Promise.all([
      store.recordings.head(props.id, PREVIEW_BYTES),
      after > 0 ? store.recordings.tail(props.id, SUGGEST_LAST_FRAMES, Math.min(SUGGEST_TAIL_BYTES, after)) : null,
    ]).then(([bytes, tail]) => {
      if (!current || !bytes) return
      const cut: Cut = row.state === 'live' ? 'live' : row.bytes > bytes.byteLength ? 'head' : null
      setHead({ id: props.id, source: { request, forced: row.forced, chunks: [{ data: bytes, t: null }], cut, tail: tail !== null && tail.byteLength > 0 ? tail : null } })
    })
    return () => { current = false }
  }, [props.id])
  if (head?.id !== props.id) return null
  return <RulesForm {...props} source={head.source} />
}

/** What the preview did not read: the rest of a body past PREVIEW_BYTES, or what had not arrived yet. */
type Cut = 'head' | 'live' | null

/** The head of the body the editor reads, and the end of a longer one (its last frames, for the suggestion). */
type EditorSource = RulesSource & { cut: Cut; tail: Uint8Array | null }

function RulesForm({ id, anchor, onClose, source }: EditorProps & { source: EditorSource }) {
  const { store, ui } = usePanel()
  const suggestion = useMemo(() => suggestFor(source, source.tail), [id])
  const current = source.forced?.rules ?? suggestion.rules ?? null
  const [text, setText] = useState(() => format(current ?? { version: 1, mode: 'append', text: '' }))
  const [pattern, setPattern] = useState(() => defaultPattern(source.request.url))
  const [save, setSave] = useState(true)
  const preview: Preview | null = useMemo(() => previewRules(source, text), [text, id])
  const ref = useRef<HTMLDivElement>(null)

  useAnchoredPopover(ref, anchor, onClose, 'left')

  const forced = source.forced ?? {}

  const apply = async () => {
    if (!preview?.ok) return
    const rules = JSON.parse(text) as Rules
    store.apply({ type: 'force', id, forced: { ...(forced.transport ? { transport: forced.transport } : {}), rules } })
    if (save && pattern.trim() !== '') await store.rules.save(pattern.trim(), rules)
    ui.status.value = save && pattern.trim() !== '' ? `Read with rules; saved for ${pattern.trim()}` : 'Read with rules'
    onClose(true)
  }
  const stop = async () => {
    store.apply({ type: 'force', id, forced: forced.transport ? { transport: forced.transport } : {} })
    const saved = store.rules.saved.peek().find((s) => s.pattern === pattern.trim())
    if (saved) await store.rules.remove(saved.pattern)
    ui.status.value = 'Read without rules'
    onClose(true)
  }
  const pickCandidate = (path: string, mode: 'append' | 'snapshot') => {
    let base: Record<string, unknown> = {}
    try { base = JSON.parse(text) as Record<string, unknown> } catch { /* start again from the suggestion */ }
    setText(format({ ...base, version: 1, mode, text: path }))
  }

  return (
    <div
      ref={ref}
      class="ds-popover ds-rules"
      role="dialog"
      aria-label="Read this stream as"
      data-testid="rules-editor"
      onKeyDown={(e) => {
        if (e.key === 'Escape') { e.stopPropagation(); onClose(true) }
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void apply()
      }}
    >
      <p class="ds-rules-intro">
        Rules say where each frame keeps the text (paths such as <code>choices[*].delta.content</code>) and how it arrives:
        append (a piece each frame), snapshot (the whole text so far) or patch (JSON-patch operations).
      </p>
      {suggestion && suggestion.reasons.length > 0 && (
        <ul class="ds-rules-reasons" data-testid="rules-reasons">
          {suggestion.reasons.map((r, i) => <li key={i}>{r}</li>)}
        </ul>
      )}
      {suggestion && suggestion.candidates.length > 1 && (
        <div class="ds-rules-candidates">
          <span class="ds-muted">Text could also be:</span>
          {suggestion.candidates.slice(0, 6).map((c) => (
            <button key={c.path} type="button" class="ds-button" data-testid="rules-candidate" title={c.preview} onClick={() => pickCandidate(c.path, c.mode)}>
              {c.path} ({c.mode})
            </button>
          ))}
        </div>
      )}
      <label class="ds-rules-field">
        <span class="ds-rules-label">Rules (JSON)</span>
        <textarea rows={9} spellcheck={false} data-testid="rules-json" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <div class="ds-rules-preview" data-testid="rules-preview" aria-live="polite">
        {preview && !preview.ok && (
          <ul class="ds-rules-errors">{preview.errors.map((e, i) => <li key={i} data-testid="rules-error">{e}</li>)}</ul>
        )}
        {preview && preview.ok && <PreviewReply preview={preview} cut={source.cut} />}
      </div>
      <label class="ds-rules-save">
        <input type="checkbox" data-testid="rules-save" checked={save} onChange={(e) => setSave(e.currentTarget.checked)} />
        <span>Use for URLs matching</span>
        <input type="text" spellcheck={false} data-testid="rules-pattern" aria-label="URL pattern (* for any run of characters)" value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
      </label>
      {store.rules.status.value !== '' && <p class="ds-rules-status">{store.rules.status.value}</p>}
      <div class="ds-rules-buttons">
        {forced.rules && <button type="button" class="ds-button" data-testid="rules-stop" onClick={() => void stop()}>Read without rules</button>}
        <button type="button" class="ds-button" data-testid="rules-cancel" onClick={() => onClose(true)}>Cancel</button>
        <button type="button" class="ds-button" data-testid="rules-apply" disabled={!preview?.ok} onClick={() => void apply()}>Apply</button>
      </div>
    </div>
  )
}

function PreviewReply({ preview, cut }: { preview: Extract<Preview, { ok: true }>; cut: Cut }) {
  const { reply } = preview
  const choice = reply.choices[0]
  return (
    <>
      <div class="ds-muted">
        Preview: {reply.frameCount} frames, {reply.choices.length} choice{reply.choices.length === 1 ? '' : 's'}
        {choice?.finishReason ? `, finish ${choice.finishReason}` : ''}{reply.done ? ', ended' : ', no end seen'}
      </div>
      {choice?.reasoning ? <pre class="ds-rules-text ds-muted" data-testid="rules-preview-reasoning">{clip(choice.reasoning)}</pre> : null}
      <pre class="ds-rules-text" data-testid="rules-preview-content">{choice ? clip(choice.content) : '(nothing read yet)'}</pre>
      {choice && choice.toolCalls.length > 0 && (
        <div data-testid="rules-preview-tools">{choice.toolCalls.map((t) => `${t.name ?? '?'}(${clip(t.arguments, 80)})`).join(', ')}</div>
      )}
      {cut === 'live' ? <div class="ds-muted">(the preview reads what had arrived when this opened; Apply reads it all)</div>
        : (preview.partial || cut === 'head') && <div class="ds-muted">(the preview reads the first {formatBytes(PREVIEW_BYTES)}; Apply reads it all)</div>}
      {preview.warnings.map((w, i) => <div key={i} class="ds-rules-warning">{w}</div>)}
    </>
  )
}

function format(rules: Rules | Record<string, unknown>): string {
  return JSON.stringify(rules, null, 2)
}

function clip(s: string, max = 2000): string {
  return s.length > max ? s.slice(0, max) + '…' : s
}
