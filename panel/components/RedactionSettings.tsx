// The user's redaction list, beside the Export actions: a button (with how many entries the
// list has) opening a small popover with three boxes, one entry per line: names (headers, URL
// parameters, body fields), values and patterns. Save applies them to every export and keeps
// them (store/redaction.ts); an entry that cannot be used is listed with why. Escape, Cancel or
// a click elsewhere closes it without saving. Plain text fields: nothing typed is ever markup.

import { useRef, useState } from 'preact/hooks'
import type { RuleProblem } from '../../src/exchange/redact.js'
import { usePanel } from '../context.js'
import { ruleCount } from '../store/redaction.js'
import { useAnchoredPopover, usePopoverToggle } from './popover.js'

export function RedactionSettings() {
  const { store } = usePanel()
  const settings = store.redaction
  const { open, toggle, close, button } = usePopoverToggle()
  const count = ruleCount(settings.rules.value)
  return (
    <>
      <button
        ref={button}
        type="button"
        class="ds-button"
        data-testid="redaction-settings"
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Your redaction list: more names, values and patterns to leave out of every export"
        onClick={toggle}
      >
        {count > 0 ? `Redact +${count}` : 'Redact'} ▾
      </button>
      {open && <RedactionPopover anchor={button.current} onClose={close} />}
    </>
  )
}

const LISTS: ReadonlyArray<{ id: RuleProblem['list']; label: string; hint: string }> = [
  { id: 'names', label: 'Names', hint: 'headers, URL parameters and body fields (any case), e.g. X-Tenant' },
  { id: 'values', label: 'Values', hint: 'exact text, 4 characters or more, replaced wherever it appears' },
  { id: 'patterns', label: 'Patterns', hint: '* = the rest of a token, ? = one character, e.g. sk-live-*' },
]

function RedactionPopover({ anchor, onClose }: { anchor: HTMLElement | null; onClose: (restore: boolean) => void }) {
  const { store, ui } = usePanel()
  const settings = store.redaction
  const rules = settings.rules.peek()
  const [draft, setDraft] = useState({ names: rules.names.join('\n'), values: rules.values.join('\n'), patterns: rules.patterns.join('\n') })
  const [problems, setProblems] = useState<RuleProblem[]>([])
  const ref = useRef<HTMLDivElement>(null)

  useAnchoredPopover(ref, anchor, onClose, 'right')

  const save = async () => {
    const left = await settings.apply(draft)
    setProblems(left)
    const n = ruleCount(settings.rules.peek())
    ui.status.value = `Redaction list saved: ${n} ${n === 1 ? 'entry' : 'entries'}${left.length > 0 ? `, ${left.length} left out` : ''}`
    if (left.length === 0 && settings.status.peek() === '') onClose(true)
  }

  return (
    <div
      ref={ref}
      class="ds-popover ds-redaction"
      role="dialog"
      aria-label="Redaction list"
      data-testid="redaction-popover"
      onKeyDown={(e) => {
        if (e.key === 'Escape') { e.stopPropagation(); onClose(true) }
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save()
      }}
    >
      <p class="ds-redaction-intro">
        Always left out unless credentials are included: Authorization, cookies, API keys, tokens, passwords and sessions (headers,
        URL, request body), and their values wherever they appear. Add your own, one per line:
      </p>
      {LISTS.map((list) => (
        <label key={list.id} class="ds-redaction-list">
          <span class="ds-redaction-label">{list.label} <span class="ds-muted">{list.hint}</span></span>
          <textarea
            rows={3}
            spellcheck={false}
            data-testid={`redaction-${list.id}`}
            value={draft[list.id]}
            onInput={(e) => { const value = e.currentTarget.value; setDraft((d) => ({ ...d, [list.id]: value })) }}
          />
        </label>
      ))}
      {problems.length > 0 && (
        <ul class="ds-redaction-problems" aria-live="polite">
          {problems.map((p, i) => (
            <li key={i} data-testid="redaction-problem">{`${p.list.slice(0, -1)} "${p.entry.length > 40 ? p.entry.slice(0, 40) + '…' : p.entry}": ${p.message}`}</li>
          ))}
        </ul>
      )}
      {settings.status.value !== '' && <p class="ds-redaction-status" data-testid="redaction-status">{settings.status.value}</p>}
      <div class="ds-redaction-buttons">
        <button type="button" class="ds-button" data-testid="redaction-cancel" onClick={() => onClose(true)}>Cancel</button>
        <button type="button" class="ds-button" data-testid="redaction-save" onClick={() => void save()}>Save</button>
      </div>
    </div>
  )
}
