// The inline PanelShell of the standalone page: no extension API. Events come from what the
// user pastes, opens or drops; files are saved as downloads of blob: URLs (no network); the
// theme follows the system preference; pane sizes are kept in localStorage.

import type { CaptureEvent, PanelShell } from '../../../panel/shell.js'

const REDACTION_KEY = 'deltascope.redaction'
const RULES_KEY = 'deltascope.rules'

export interface InlineShell extends PanelShell {
  /** Sends an event to the panel (queued until the panel connects). */
  emit(event: CaptureEvent): void
}

export function createInlineShell(win: Window = window): InlineShell {
  let listener: ((event: CaptureEvent) => void) | null = null
  const queue: CaptureEvent[] = []
  const media = win.matchMedia?.('(prefers-color-scheme: dark)')

  const download = (filename: string, mime: string, content: string | Uint8Array) => {
    const blob = new Blob([content as BlobPart], { type: mime })
    const url = URL.createObjectURL(blob)
    const a = win.document.createElement('a')
    a.href = url
    a.download = filename
    a.style.display = 'none'
    win.document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }

  return {
    kind: 'inline',
    connect(onEvent) {
      listener = onEvent
      for (const e of queue.splice(0)) onEvent(e)
      return () => { listener = null }
    },
    emit(event) {
      if (listener) listener(event)
      else queue.push(event)
    },
    theme: () => (media?.matches ? 'dark' : 'light'),
    onThemeChange(callback) {
      if (!media) return () => {}
      const onChange = () => callback(media.matches ? 'dark' : 'light')
      media.addEventListener('change', onChange)
      return () => media.removeEventListener('change', onChange)
    },
    // the pane sizes: localStorage (from file:// too); a browser that refuses it throws, and the panel keeps them in memory
    storage: {
      get: (key) => win.localStorage.getItem(key),
      set: (key, value) => win.localStorage.setItem(key, value),
    },
    // the user's redaction list: localStorage too (a promise, as the extension's storage.local)
    redactionStore: {
      load: async () => win.localStorage.getItem(REDACTION_KEY),
      save: async (value) => win.localStorage.setItem(REDACTION_KEY, value),
    },
    rulesStore: {
      load: async () => win.localStorage.getItem(RULES_KEY),
      save: async (value) => win.localStorage.setItem(RULES_KEY, value),
    },
    save: (filename, mime, content) => download(filename, mime, content),
    saveBytes: (filename, mime, content) => download(filename, mime, content),
    async copy(text) {
      try {
        await win.navigator.clipboard.writeText(text)
        return
      } catch {
        // file:// and some browsers refuse the async clipboard: fall back to a selection copy
      }
      const area = win.document.createElement('textarea')
      area.value = text
      area.style.position = 'fixed'
      area.style.opacity = '0'
      win.document.body.append(area)
      area.select()
      const ok = win.document.execCommand('copy')
      area.remove()
      if (!ok) throw new Error('the browser refused to copy')
    },
  }
}
